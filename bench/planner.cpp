// What recommend() costs: the whole planner (machines, layouts, memory levers, communication,
// serving sizing, prices, checks, ranking) over the embedded catalog, for the issue-13 cases.
// Prints figures; never fails on a number (issue 13 target: ~200 offers in under 5 ms natively).
//   bench_planner [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_util.hpp"
#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"

using bench::Case;
using bench::percentile;

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    using clock = std::chrono::steady_clock;
    auto catalog = gpusizer::parse_catalog(embedded_catalog_json());
    if (!catalog.ok()) {
        std::fprintf(stderr, "bench_planner: the embedded catalog is invalid\n");
        return 1;
    }
    std::printf("catalog: %zu instances\n", catalog->instances.size());
    const std::vector<Case> cases = {
        {"default (llama-3.1-8b serving)", {}},
        {"70b full_ft 1e9 tokens", {{"model", "llama-3.1-70b"}, {"task", "full_ft"}, {"train_tokens", "1e9"}}},
        {"qwen2.5-7b lora 1e8 tokens", {{"model", "qwen2.5-7b"}, {"task", "lora"}, {"train_tokens", "1e8"}}},
        {"70b serving 20 users", {{"model", "llama-3.1-70b"}, {"batch_size", "20"}}},
        {"8b lora rank_by hourly", {{"task", "lora"}, {"rank_by", "hourly"}}},
        {"deepseek-v3 fp8 serving vllm", {{"model", "deepseek-v3"}, {"weight_dtype", "fp8"}, {"engine", "vllm"}}},
        {"405b pretrain 1e11 tokens", {{"model", "llama-3.1-405b"}, {"task", "pretrain"}, {"train_tokens", "1e11"}}},
    };
    std::printf("%-32s %8s %8s %8s %8s  (ms per recommend(); %d rounds)\n", "scenario", "first", "median", "p95", "max", rounds);
    std::vector<double> all;
    for (const Case& c : cases) {
        auto s = gpusizer::parse_scenario_overrides("{}", c.keys);
        if (!s.ok()) {
            std::fprintf(stderr, "bench_planner: %s: %s\n", c.name, gpusizer::format_error(s.error).c_str());
            return 1;
        }
        const auto w = clock::now();
        auto r0 = gpusizer::recommend(*catalog, *s);
        const double first = std::chrono::duration<double, std::milli>(clock::now() - w).count();
        std::vector<double> ms;
        for (int i = 0; i < rounds; ++i) {
            const auto a = clock::now();
            auto r = gpusizer::recommend(*catalog, *s);
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - a).count());
        }
        all.insert(all.end(), ms.begin(), ms.end());
        std::printf("%-32s %8.3f %8.3f %8.3f %8.3f  (%zu offers, %zu shapes)\n", c.name, first, percentile(ms, 0.5),
                    percentile(ms, 0.95), percentile(ms, 1.0), r0.ok() ? r0->offers.size() : 0, r0.ok() ? r0->considered : 0);
    }
    std::printf("%-32s %8s %8.3f %8.3f %8.3f\n", "all", "", percentile(all, 0.5), percentile(all, 0.95), percentile(all, 1.0));
    return 0;
}
