// Fuzz target: whatever scenario gets through the parsers, run through the planner
// (recommend with the built-in catalog). Slow (every candidate is re-estimated), so it is not
// in scripts/fuzz's default list: FUZZ_TARGETS=fuzz_recommend scripts/fuzz 600. Input: a scenario JSON when it starts
// with '{', else a share link (compact, so mutations reach extreme values quickly).
// Invariants ("numbers stay honest"): no crash, hang or UB; every number of the estimate is
// finite and non-negative, in the structs and in the printed JSON; the
// memory total covers each of its parts; fits/headroom/shortfall agree with each other.
#include <string>

#include "fuzz_check.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include <nlohmann/json.hpp>

using namespace gpusizer;
using gpusizer_fuzz::finite_non_negative;

namespace {

const Catalog& catalog() {
    static const Catalog c = [] {
        Result<Catalog> r = parse_catalog(gpusizer_fuzz::builtin_catalog_text());
        if (!r.ok()) {
            std::fprintf(stderr, "fuzz_recommend: the built-in catalog does not parse: %s\n", format_error(r.error).c_str());
            std::abort();
        }
        return *r;
    }();
    return c;
}

// Every number in a printed result is finite and >= 0 ("path" names the first offender).
void walk(const nlohmann::json& j, const std::string& path, const std::string& doc) {
    if (j.is_number_float()) {
        const double d = j.get<double>();
        GPUSIZER_FUZZ_CHECK(finite_non_negative(d), path + " = " + std::to_string(d) + " in " + doc.substr(0, 1500));
    } else if (j.is_number_integer() && !j.is_number_unsigned()) {
        GPUSIZER_FUZZ_CHECK(j.get<std::int64_t>() >= 0, path + " is negative in " + doc.substr(0, 1500));
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) walk(*it, path + "." + it.key(), doc);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) walk(j[i], path + "[" + std::to_string(i) + "]", doc);
    }
}

void check_printed(const std::string& text, const char* what) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    GPUSIZER_FUZZ_CHECK(!j.is_discarded(), std::string(what) + " printed invalid JSON: " + text.substr(0, 500));
    walk(j, what, text);
}

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

    Result<Recommendation> r = recommend(catalog(), *s, 5);
    gpusizer_fuzz::check_error_shape(r);
    if (!r.ok()) return 0;
    check_recommendation(*r, in);
    return 0;
}
