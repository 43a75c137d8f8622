// Fuzz target: whatever scenario gets through the parsers, run through the memory model
// (estimate with the built-in catalog; fuzz_recommend does the planner, which is slower). Input: a scenario JSON when it starts
// with '{', else a share link (compact, so mutations reach extreme values quickly).
// Invariants ("numbers stay honest"): no crash, hang or UB; every number of the estimate is
// finite and non-negative, in the structs and in the printed JSON; the
// memory total covers each of its parts; fits/headroom/shortfall agree with each other.
#include <string>

#include "fuzz_results.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario.hpp"
#include <nlohmann/json.hpp>

using namespace gpusizer;
using gpusizer_fuzz::check_printed;
using gpusizer_fuzz::finite_non_negative;

namespace {

void check_estimate(const Estimate& e, const std::string& in) {
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    for (std::uint64_t part : {m.weights, m.gradients, m.optimizer, m.activations, m.kv_cache, m.overhead})
        GPUSIZER_FUZZ_CHECK(m.total >= part, "memory total below one of its parts (overflow?) for " + in);
    // A saturated number (2^63 - 1, memory.hpp k_u64_cap) must come with a visible warning.
    constexpr std::uint64_t cap = 9223372036854775807ULL;
    bool saturated = e.params.total == cap || e.params.active == cap || e.params.trainable == cap ||
                     e.params.embedding == cap || e.kv_bytes_per_token == cap || e.host_memory_bytes == cap;
    for (std::uint64_t part : {m.weights, m.gradients, m.optimizer, m.activations, m.kv_cache, m.overhead, m.total})
        saturated = saturated || part == cap;
    if (saturated) {
        bool warned = false;
        for (const auto& w : e.warnings.en()) warned = warned || w.find("clamped") != std::string::npos;
        GPUSIZER_FUZZ_CHECK(warned, "a number saturated at 2^63-1 without a 'clamped' warning for " + in);
    }
    if (e.gpu) {
        if (e.gpu->fits) {
            GPUSIZER_FUZZ_CHECK(m.total <= e.gpu->memory_bytes && e.gpu->shortfall_bytes == 0,
                                "fits but total > memory or shortfall > 0 for " + in);
        } else {
            GPUSIZER_FUZZ_CHECK(e.gpu->headroom_bytes == 0, "does not fit but has headroom for " + in);
        }
    }
    if (e.throughput)
        for (double v : {e.throughput->tokens_per_s, e.throughput->prefill_tokens_per_s,
                         e.throughput->decode_tokens_per_s_per_seq})
            GPUSIZER_FUZZ_CHECK(finite_non_negative(v), "throughput not finite/non-negative for " + in);
    if (e.time)
        GPUSIZER_FUZZ_CHECK(finite_non_negative(e.time->hours) && finite_non_negative(e.time->gpu_hours),
                            "time not finite/non-negative for " + in);
    if (e.max_batch_size) GPUSIZER_FUZZ_CHECK(*e.max_batch_size >= 0, "max_batch_size < 0 for " + in);
    if (e.max_seq_len) GPUSIZER_FUZZ_CHECK(*e.max_seq_len >= 0, "max_seq_len < 0 for " + in);
    check_printed(estimate_to_json(e), "estimate");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    const Result<Scenario> s = (!text.empty() && text[0] == '{') ? parse_scenario_json(text) : decode_link(text);
    if (!s.ok()) return 0;
    const std::string in = encode_link(*s);

    Result<Estimate> e = estimate(gpusizer_fuzz::builtin_catalog(), *s);
    gpusizer_fuzz::check_error_shape(e);
    if (!e.ok()) return 0;
    // As the CLI and the page do: the parser's warnings are shown with the estimate's.
    e->warnings.prepend(s.warnings);
    check_estimate(*e, in);
    return 0;
}
