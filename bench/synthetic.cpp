// What recommend() costs over a large user catalog: the embedded catalog's instances copied until
// the answer ranks ~1 000 / 2 000 / 5 000 / 10 000 offers (copy k of a row: id "<id>~k", prices
// × (1 + k/1000) so that no two rows tie), merged as a user catalog (merge_catalog, the page's and
// CLI's path for --catalog), then ranked. Prints ms per merge and per recommend() — every offer
// ranked and worded (checks, why: the CLI's JSON), and every offer ranked with words for the 10 a
// page of the table shows (recommend's `top`) — and ms per 1 000 offers (flat = cost linear in
// offers). Never fails on a number (budget: 10 000 offers ranked in ≤ 20 ms natively, README
// "Speed budgets").
//   bench_synthetic [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// {"instances": [the base instances, copies 1..copies]}. Copies carry a short `source` and no
// `notes` (free text up to ~1 kB each, never read by the planner): 10 000 offers' worth of them
// would pass the 8 MiB limit on a user catalog (k_max_catalog_bytes) once the built-in rows grew.
std::string user_catalog(const nlohmann::json& rows, int copies) {
    nlohmann::json out = nlohmann::json::array();
    for (int k = 1; k <= copies; ++k) {
        const double f = 1.0 + k / 1000.0;
        for (nlohmann::json row : rows) {
            row["source"] = "bench/synthetic.cpp: a priced copy of a catalog row";
            row.erase("notes");
            row["id"] = row["id"].get<std::string>() + "~" + std::to_string(k);
            for (const char* price : {"ondemand_per_hour", "spot_per_hour"})
                if (row.contains(price) && row[price].is_number()) row[price] = row[price].get<double>() * f;
            out.push_back(std::move(row));
        }
    }
    return nlohmann::json{{"instances", std::move(out)}}.dump();
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    using clock = std::chrono::steady_clock;
    const auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
    auto base = gpusizer::parse_catalog(embedded_catalog_json());
    if (!base.ok()) {
        std::fprintf(stderr, "bench_synthetic: the embedded catalog is invalid\n");
        return 1;
    }
    const nlohmann::json rows = nlohmann::json::parse(gpusizer::catalog_section_json(*base, "instances"), nullptr, false);
    if (!rows.is_array()) {
        std::fprintf(stderr, "bench_synthetic: catalog_section_json(instances) is not a JSON array\n");
        return 1;
    }
    // A LoRA job with a token count: every machine that fits is an offer with a whole-job cost.
    auto s = gpusizer::parse_scenario_overrides("{}", {{"model", "qwen2.5-7b"}, {"task", "lora"}, {"train_tokens", "1e8"}});
    if (!s.ok()) return 1;
    auto r0 = gpusizer::recommend(*base, *s);
    const std::size_t per_copy = r0.ok() ? r0->offers.size() : 0;
    std::printf("base: %zu instances, %zu offers (qwen2.5-7b lora 1e8 tokens); %d rounds, median\n", base->instances.size(),
                per_copy, rounds);
    std::printf("%8s %10s %10s %14s %12s %14s %12s\n", "offers", "instances", "merge ms", "all worded ms", "per 1k", "top 10 ms",
                "per 1k");
    for (const std::size_t target : {1000, 2000, 5000, 10000}) {
        const int copies = per_copy ? static_cast<int>((target + per_copy - 1) / per_copy) - 1 : 0;
        const std::string user = user_catalog(rows, std::max(copies, 0));
        std::vector<double> merge_ms, rec_ms, top_ms;
        std::size_t offers = 0, instances = 0;
        for (int i = 0; i < rounds; ++i) {
            auto t = clock::now();
            auto merged = gpusizer::merge_catalog(*base, user);
            merge_ms.push_back(ms_since(t));
            if (!merged.ok()) {
                std::fprintf(stderr, "bench_synthetic: merge failed: %s\n", gpusizer::format_error(merged.error).c_str());
                return 1;
            }
            instances = merged->instances.size();
            t = clock::now();
            auto r = gpusizer::recommend(*merged, *s);
            rec_ms.push_back(ms_since(t));
            offers = r.ok() ? r->offers.size() : 0;
            t = clock::now();
            auto top = gpusizer::recommend(*merged, *s, 10);
            top_ms.push_back(ms_since(t));
            if (!top.ok()) return 1;
        }
        const double rec = median(rec_ms), top = median(top_ms);
        const double per_k = offers ? 1000.0 / static_cast<double>(offers) : 0.0;
        std::printf("%8zu %10zu %10.2f %14.2f %12.3f %14.2f %12.3f\n", offers, instances, median(merge_ms), rec, rec * per_k, top,
                    top * per_k);
    }
    return 0;
}
