// Inference: the KV cache of the batch and each engine's forward peak — HF's prefill, vLLM's
// profile run (what its KV budget is computed after) and llama.cpp's compute buffer.
//
// Index
//   [SECTION] vLLM's knobs and their defaults per version
//   [SECTION] inference_memory
#include <algorithm>
#include <cmath>

#include "gpusizer/units.hpp"
#include "steps.hpp"

namespace gpusizer {

namespace {

// [SECTION] vLLM's knobs and their defaults per version
// V1 (engine/arg_utils.py _set_default_args_v1 / get_batch_defaults): on GPUs with ≥ 70 GiB that
// are not A100s, `vllm serve` profiles 8192 batched tokens and allows 1024 sequences; elsewhere
// 2048 tokens and 256 sequences. V0 without chunked prefill: max(max_model_len, 2048) tokens
// (SchedulerConfig), 256 sequences. (docs/frameworks.md §9)
constexpr double k_v1_large_gpu_bytes = 70.0 * k_bytes_per_gib;
constexpr std::int64_t k_v1_tokens_large = 8192, k_v1_tokens = 2048, k_v0_min_tokens = 2048;
constexpr std::int64_t k_v1_seqs_large = 1024, k_seqs = 256;
// llama.cpp default micro-batch (n_ubatch, llama_context_default_params) for its compute graph.
constexpr double k_llama_cpp_ubatch = 512;

bool large_v1_gpu(const Scenario& s, double gpu_memory) {
    return gpu_memory >= k_v1_large_gpu_bytes && s.gpu.rfind("a100", 0) != 0;  // "a100" not in device_name
}

}  // namespace

VllmKnobs vllm_knobs(const Scenario& s, double gpu_memory_bytes) {
    VllmKnobs k;
    const bool large = s.engine_version == EngineVersion::v1 && large_v1_gpu(s, gpu_memory_bytes);
    if (s.max_num_batched_tokens) k.max_num_batched_tokens = *s.max_num_batched_tokens;
    else if (s.engine_version == EngineVersion::v0) k.max_num_batched_tokens = std::max(s.seq_len, k_v0_min_tokens);
    else k.max_num_batched_tokens = large ? k_v1_tokens_large : k_v1_tokens;
    k.max_num_seqs = s.max_num_seqs ? *s.max_num_seqs : large ? k_v1_seqs_large : k_seqs;
    return k;
}

namespace memory {

// [SECTION] inference_memory

Inference inference_memory(const Job& j, const Share& sh, MemoryDetail& out) {
    Inference r;
    const ModelArch& a = j.a;
    const Scenario& s = j.s;
    const double h = static_cast<double>(a.hidden_size), V = static_cast<double>(a.vocab_size);
    out.kv.full_per_token *= sh.kv_layer_fraction;  // llama.cpp: each layer's KV lives with the layer
    out.kv.sliding_per_token *= sh.kv_layer_fraction;
    r.kv = kv_cache_bytes(out.kv, s, j.b, j.S);
    std::string how;
    const char* source = "";
    if (s.engine == Engine::vllm) {
        // The profile run: one forward of max_num_batched_tokens dummy tokens (its largest live set
        // is one layer's), then the sampler on up to max_num_seqs rows of fp32 logits and a copy.
        const VllmKnobs k = vllm_knobs(s, j.gpu_memory);
        const double T = static_cast<double>(k.max_num_batched_tokens);
        const double rows = std::fmin(static_cast<double>(k.max_num_seqs), T);
        r.activations = detail::layer_peak_inference(a, s, 1, T) / j.t + rows * V * 4 * 2 / j.t;
        if (j.explain)
            how = std::string("vLLM ") + to_string(s.engine_version) + " profile run: one layer's live tensors for " +
                  "max_num_batched_tokens " + num(T) + " + sampler fp32 logits for " + num(rows) + " sequences (max_num_seqs " +
                  num(static_cast<double>(k.max_num_seqs)) + ")";
        source = "vllm v1/worker/gpu_worker.py determine_available_memory / profile_run; V0 worker.py "
                 "determine_num_available_blocks; defaults engine/arg_utils.py";
    } else if (s.engine == Engine::llama_cpp) {
        // llama.cpp compute buffer: ggml-alloc reuses memory along the graph, so the buffer is the
        // largest live set of one phase, in f32 for n_ubatch tokens: the hidden state plus the
        // logits (V), the KQ scores (n_ctx × heads, without flash attention) or the FFN
        // intermediates (gate + up, × top-k experts). 258.50 MiB measured for Llama-3-8B at
        // n_ctx 512 (512 × (128256 + 4096) × 4, tests/fixtures/measured_runs.json); 120 MiB for
        // Mixtral against the 117.85 MiB of llama.cpp #4381.
        const double ub = std::fmin(k_llama_cpp_ubatch, j.b * j.S);
        const double ctx = j.b * j.S;
        const double kq = s.attention == Attention::flash ? 0 : ctx * static_cast<double>(a.num_heads);
        const double ffn = a.num_experts > 0 ? 2 * static_cast<double>(a.experts_per_token * a.moe_intermediate_size +
                                                                        a.num_shared_experts * a.shared_intermediate_size)
                                             : 2 * static_cast<double>(a.intermediate_size);
        r.activations = ub * (h + std::fmax(V, std::fmax(kq, ffn))) * 4;
        if (j.explain) how = "llama.cpp compute buffer: n_ubatch " + num(ub) + " × (hidden + max(V logits, KQ, FFN)) × 4 B";
        source = "llama.cpp ggml-alloc graph buffers; llama.cpp #4381";
    } else {
        r.activations = detail::layer_peak_inference(a, s, j.b, j.S) / j.t + j.b * V * 4 * 2 / j.t;
        if (j.explain)
            how = "HF prefill of " + num(j.b) + " × " + num(j.S) + " tokens: one layer's live tensors + last-token logits (fp32)";
        source = "tensor shapes of the forward pass (transformers modeling files)";
    }
    if (j.explain) {
        out.explanations.push_back({"activations", how + " = " + format_gib(r.activations), source});
        out.explanations.push_back(
            {"kv_cache",
             num(j.b) + " seq × " + num(j.S) + " tokens × " + num(out.kv.full_per_token + out.kv.sliding_per_token) +
                 " B/token" +
                 (out.kv.window ? " (windowed layers hold ≤ " + num(static_cast<double>(out.kv.window)) + " tokens)" : "") +
                 (s.engine == Engine::vllm ? ", paged in blocks of 16" : "") +
                 (sh.kv_layer_fraction < 1 ? ", " + num(sh.gpu_layers) + " layers on the GPU" : "") + " = " + format_gib(r.kv),
             a.kv_lora_rank > 0 ? "MLA: L × (kv_lora_rank + qk_rope_head_dim) × bytes, replicated over TP (vLLM MLA backend)"
                                : "2 × L × max(1, k/tp) × head_dim × bytes (vLLM get_num_kv_heads, cache_engine)"});
    }
    return r;
}

}  // namespace memory
}  // namespace gpusizer
