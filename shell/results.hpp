#pragma once
// Everything core computed for one scenario, as the panels show it. Built by compute_results()
// only when the scenario (or the catalog) changes; the panels format these values and never
// compute a number themselves.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer::shell {

// The scenario on one common card (fit badges): core's estimate with `gpu` set to it.
struct CardFit {
    std::string gpu, name;
    std::uint64_t memory_bytes = 0, total_bytes = 0;
    bool fits = false;
};

// Memory per GPU against sequence length or batch size (the chart), each point core's estimate.
enum class SweepAxis { seq_len, batch_size };
struct SweepPoint {
    std::int64_t x = 0;
    MemoryBreakdown memory;
};

struct Results {
    Result<Estimate> estimate;
    Result<Recommendation> recommendation;  // the offers without their words (worded_offer)
    std::vector<CardFit> cards;
    SweepAxis axis = SweepAxis::seq_len;
    std::vector<SweepPoint> sweep;
    mutable std::map<std::size_t, Offer> worded;  // worded_offer's: the offers opened since the recompute
};

// The common cards the fit badges show, in this order (ids of the catalog; absent ones skipped).
const std::vector<std::string>& badge_cards();

Results compute_results(const Catalog& catalog, const Scenario& s, SweepAxis axis);
// recommendation.offers[index] with its words (checks' messages, why), worded when first asked.
const Offer& worded_offer(const Results& r, std::size_t index);
// The recommendation with every offer worded, as the CLI prints it (exports, test hooks).
Result<Recommendation> worded_recommendation(const Results& r);

// Every preset with core's parameter counts (the model picker shows "Mixtral 8x7B · 46.70 B").
struct PresetInfo {
    std::string id, family, name;
    std::uint64_t total = 0, active = 0;  // 0 when core could not resolve the preset
};
std::vector<PresetInfo> preset_infos(const Catalog& catalog);

}  // namespace gpusizer::shell
