// Fuzz target: whatever scenario gets through the parsers, run through the planner
// (recommend with the built-in catalog). Slow (every candidate is re-estimated), so it is not
// in scripts/fuzz's default list: FUZZ_TARGETS=fuzz_recommend scripts/fuzz 600. Input: a scenario JSON when it starts
// with '{', else a share link (compact, so mutations reach extreme values quickly).
// Invariants ("numbers stay honest"): no crash, hang or UB; every number of the estimate is
// finite and non-negative, in the structs and in the printed JSON; the
// memory total covers each of its parts; fits/headroom/shortfall agree with each other.
#include <string>

#include "fuzz_results.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include <nlohmann/json.hpp>

using namespace gpusizer;
using gpusizer_fuzz::check_printed;
using gpusizer_fuzz::finite_non_negative;

namespace {

void check_recommendation(const Recommendation& r, const std::string& in) {
    for (const Offer& o : r.offers) {
        const std::string id = o.provider + "/" + o.instance + " for " + in;
        for (double v : {o.vcpus, o.ram_gib, o.usd_per_hour, o.price_per_hour, o.tokens_per_s,
                         o.spot_overhead_fraction, o.mfu})
            GPUSIZER_FUZZ_CHECK(finite_non_negative(v), "offer number not finite/non-negative: " + id);
        for (const auto* v : {&o.hours, &o.gpu_hours, &o.total_cost, &o.cost_per_million_tokens})
            if (*v) GPUSIZER_FUZZ_CHECK(finite_non_negative(**v), "offer optional number not finite/non-negative: " + id);
        GPUSIZER_FUZZ_CHECK(o.gpu_count >= 1 && o.nodes >= 1, "offer without GPUs or nodes: " + id);
        GPUSIZER_FUZZ_CHECK(o.plan.tensor_parallel >= 1 && o.plan.pipeline_parallel >= 1 && o.plan.data_parallel >= 1,
                            "offer with a parallel degree below 1: " + id);
    }
    check_printed(recommendation_to_json(r), "recommend");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    const Result<Scenario> s = (!text.empty() && text[0] == '{') ? parse_scenario_json(text) : decode_link(text);
    if (!s.ok()) return 0;
    const std::string in = encode_link(*s);

    Result<Recommendation> r = recommend(gpusizer_fuzz::builtin_catalog(), *s, 5);
    gpusizer_fuzz::check_error_shape(r);
    if (!r.ok()) return 0;
    check_recommendation(*r, in);
    return 0;
}
