#pragma once
// Shared by fuzz_estimate, fuzz_recommend and fuzz_catalog: the built-in catalog, parsed once, the
// check that a printed result is JSON whose every number is finite and >= 0, and a recommendation's.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/recommend.hpp"

namespace gpusizer_fuzz {

// The built-in catalog (assets/catalog.json), parsed once; aborts when it does not parse.
inline const gpusizer::Catalog& builtin_catalog() {
    static const gpusizer::Catalog c = [] {
        gpusizer::Result<gpusizer::Catalog> r = gpusizer::parse_catalog(builtin_catalog_text());
        if (!r.ok()) {
            std::fprintf(stderr, "fuzz: the built-in catalog does not parse: %s\n", gpusizer::format_error(r.error).c_str());
            std::abort();
        }
        return *r;
    }();
    return c;
}

// Every number in a printed result is finite and >= 0 ("path" names the first offender).
inline void walk_numbers(const nlohmann::json& j, const std::string& path, const std::string& doc) {
    if (j.is_number_float()) {
        const double d = j.get<double>();
        GPUSIZER_FUZZ_CHECK(finite_non_negative(d), path + " = " + std::to_string(d) + " in " + doc.substr(0, 1500));
    } else if (j.is_number_integer() && !j.is_number_unsigned()) {
        GPUSIZER_FUZZ_CHECK(j.get<std::int64_t>() >= 0, path + " is negative in " + doc.substr(0, 1500));
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) walk_numbers(*it, path + "." + it.key(), doc);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) walk_numbers(j[i], path + "[" + std::to_string(i) + "]", doc);
    }
}

// `text` (what `what` printed) is JSON, and every number in it is finite and >= 0.
inline void check_printed(const std::string& text, const char* what) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    GPUSIZER_FUZZ_CHECK(!j.is_discarded(), std::string(what) + " printed invalid JSON: " + text.substr(0, 500));
    walk_numbers(j, what, text);
}

// Every offer's numbers finite and >= 0, at least one GPU, node and degree of each parallelism;
// the printed recommendation likewise (`in` names the input in messages).
inline void check_recommendation(const gpusizer::Recommendation& r, const std::string& in) {
    for (const gpusizer::Offer& o : r.offers) {
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

}  // namespace gpusizer_fuzz
