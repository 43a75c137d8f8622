// What one scenario change costs: the shell's full recompute (compute_results: estimate +
// recommend over the whole catalog + the fit badges + the memory chart's sweep), timed over
// a set of scenarios. Prints figures; never fails on a number (issue 6 target: < 5 ms in wasm).
//   bench_recompute [ROUNDS] [NAME]   (NAME: only the scenarios whose name contains it, e.g. for callgrind)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/scenario.hpp"
#include "results.hpp"

using bench::Case;
using bench::percentile;

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    using clock = std::chrono::steady_clock;
    // The page parses once, at start (in wasm the first call also compiles and runs V8's baseline
    // tier): the first parse is the one that counts; the median of the next ones is the steady state.
    std::vector<double> parse_ms;
    gpusizer::Result<gpusizer::Catalog> catalog = gpusizer::Result<gpusizer::Catalog>::failure({});
    for (int i = 0; i < 11; ++i) {
        const auto t0 = clock::now();
        catalog = gpusizer::parse_catalog(embedded_catalog_json());
        parse_ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
    }
    if (!catalog.ok()) {
        std::fprintf(stderr, "bench_recompute: the embedded catalog is invalid: %s\n", gpusizer::format_error(catalog.error).c_str());
        return 1;
    }
    std::printf("catalog parse: first %.2f ms, then median %.2f ms (%zu accelerators, %zu instances, %zu models)\n",
                parse_ms[0], percentile({parse_ms.begin() + 1, parse_ms.end()}, 0.5), catalog->accelerators.size(),
                catalog->instances.size(), catalog->models.size());
    const std::vector<Case> cases = {
        {"default (llama-3.1-8b serving)", {}},
        {"qwen3-30b-a3b qlora 4096×4", {{"model", "qwen3-30b-a3b"}, {"task", "qlora"}, {"seq_len", "4096"}, {"batch_size", "4"}}},
        {"llama-3.1-70b full_ft zero3 ×16", {{"model", "llama-3.1-70b"}, {"task", "full_ft"}, {"zero_stage", "3"}, {"num_gpus", "16"}, {"train_tokens", "1e9"}}},
        {"deepseek-v3 fp8 tp8 32k vllm", {{"model", "deepseek-v3"}, {"weight_dtype", "fp8"}, {"num_gpus", "8"}, {"tensor_parallel", "8"}, {"seq_len", "32768"}, {"engine", "vllm"}}},
        {"qwen2.5-32b lora cn_mainland CNY", {{"model", "qwen2.5-32b"}, {"task", "lora"}, {"region", "cn_mainland"}, {"currency", "CNY"}, {"train_tokens", "1e8"}}},
    };
    std::printf("%-36s %9s %9s %9s %9s  (ms per full recompute; then %d rounds)\n", "scenario", "first", "median", "p95",
                "max", rounds);
    std::vector<double> all;
    for (const Case& c : cases) {
        if (argc > 2 && !std::strstr(c.name, argv[2])) continue;
        auto s = gpusizer::parse_scenario_overrides("{}", c.keys);
        if (!s.ok()) {
            std::fprintf(stderr, "bench_recompute: %s: %s\n", c.name, gpusizer::format_error(s.error).c_str());
            return 1;
        }
        std::vector<double> ms;
        std::size_t offers = 0;
        // The first run is reported apart: in wasm it also pays for V8's tier-up (Liftoff → TurboFan).
        const auto w = clock::now();
        gpusizer::shell::compute_results(*catalog, *s, gpusizer::shell::SweepAxis::seq_len);
        const double first = std::chrono::duration<double, std::milli>(clock::now() - w).count();
        for (int i = 0; i < rounds; ++i) {
            const auto a = clock::now();
            const gpusizer::shell::Results r = gpusizer::shell::compute_results(*catalog, *s, gpusizer::shell::SweepAxis::seq_len);
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - a).count());
            offers = r.recommendation.ok() ? r.recommendation->offers.size() : 0;
        }
        all.insert(all.end(), ms.begin(), ms.end());
        std::printf("%-36s %9.3f %9.3f %9.3f %9.3f  (%zu offers)\n", c.name, first, percentile(ms, 0.5),
                    percentile(ms, 0.95), percentile(ms, 1.0), offers);
    }
    if (all.empty()) {
        std::fprintf(stderr, "bench_recompute: no scenario's name contains '%s'\n", argv[2]);
        return 2;
    }
    std::printf("%-36s %9s %9.3f %9.3f %9.3f\n", "all", "", percentile(all, 0.5), percentile(all, 0.95), percentile(all, 1.0));
    // A preset's config is parsed when the preset is first used (each scenario's first recompute
    // above includes its own); the model picker parses all of them when it first opens.
    const gpusizer::Result<gpusizer::Catalog> fresh = gpusizer::parse_catalog(embedded_catalog_json());
    const auto p0 = clock::now();
    std::size_t parsed = 0;
    for (const gpusizer::ModelPreset& m : fresh->models) parsed += m.arch().ok();
    std::printf("preset configs: all %zu parsed in %.2f ms (the model picker's first opening)\n", parsed,
                std::chrono::duration<double, std::milli>(clock::now() - p0).count());
    return 0;
}
