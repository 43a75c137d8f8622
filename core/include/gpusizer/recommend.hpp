#pragma once
// The planner: from a scenario to ranked, explained cloud offers (docs/speed-and-cost.md).
// For each instance type it finds the smallest node count and the parallel plan that fit —
// each candidate re-estimated with the memory model — then prices it on demand and on spot.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

struct Plan {
    std::int64_t tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1;
    int zero_stage = 0;
};

struct Check {
    std::string id;       // memory_fit, headroom, pcie_model_parallel, fabric, host_ram, vcpus, region,
                          // export, software, spot, price_estimate, budget, deadline
    bool ok = true;       // false: a warning or a failure (see `blocking`)
    bool blocking = false;  // a failed blocking check removes the offer
    std::string message;
};

struct Offer {
    std::string provider, provider_name, instance, region, gpu, gpu_name, interconnect;
    std::int64_t gpu_count = 0;  // all GPUs of all nodes
    std::int64_t nodes = 1;
    Plan plan;
    std::uint64_t memory_per_gpu_bytes = 0;
    std::uint64_t gpu_memory_bytes = 0;
    double vcpus = 0, ram_gib = 0;   // per node
    bool spot = false;
    bool cn_mainland = false;
    double usd_per_hour = 0;         // all nodes
    double price_per_hour = 0;       // all nodes, in `currency`
    std::string currency;
    bool price_known = true;         // false: the catalog lists the instance without a price
    bool price_is_estimate = false;  // row confidence V-draft/K, or spot from a typical discount
    double tokens_per_s = 0;         // training: trained tokens/s; inference: generated tokens/s
    std::optional<double> hours;     // training with train_tokens; inference with train_tokens to serve
    std::optional<double> gpu_hours;
    std::optional<double> total_cost;          // in `currency`; includes the spot overhead
    std::optional<double> cost_per_million_tokens;  // in `currency`
    double spot_overhead_fraction = 0;         // expected extra time from interruptions
    double mfu = 0;
    std::vector<Check> checks;
    std::string why;
    bool pareto = false;  // on the cost–time Pareto front
};

struct Recommendation {
    Scenario scenario;
    std::vector<std::string> warnings;
    std::vector<Offer> offers;  // best first: cheapest total (or cost per million tokens), then fastest
    std::string summary;        // one sentence
    std::string summary_zh;     // the same in Chinese
    std::size_t considered = 0;  // instance × price options looked at
    std::vector<std::string> rejected_reasons;  // why the best rejected candidates failed (budget, deadline…)
};

// Spot interruption model (assumptions, not published rates: docs/speed-and-cost.md).
inline constexpr double k_checkpoint_interval_hours = 0.5;
inline constexpr double k_restart_hours = 0.25;

Result<Recommendation> recommend(const Catalog& catalog, const Scenario& s, std::size_t top = 0);
std::string recommendation_to_json(const Recommendation& r);

// Price conversion with the catalog's dated rate.
double convert_currency(double amount, const std::string& from, Currency to, const CurrencyRate& rate);

}  // namespace gpusizer
