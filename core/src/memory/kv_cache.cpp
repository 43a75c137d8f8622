// KV cache: bytes per token per GPU for MHA/GQA/MQA/MLA, sliding windows and hybrid layers,
// each kv_cache_dtype, tensor and pipeline parallelism; whole-cache bytes with vLLM's paging.
// Sources: vLLM ModelConfig.get_num_kv_heads (max(1, k/tp)), vLLM MLA cache (latent + rope
// key per layer, not split by TP), ggml block_q8_0/block_q4_0, vLLM block_size 16
// (docs/research/memory-model.md §2.5).
#include <cmath>

#include "gpusizer/memory.hpp"

namespace gpusizer {

double kv_bytes_per_element(KvDtype kv, WeightDtype w) {
    switch (kv) {
        case KvDtype::auto_: return w == WeightDtype::fp32 ? 4 : 2;  // the compute dtype; quantized weights compute in 16 bit
        case KvDtype::fp16:
        case KvDtype::bf16: return 2;
        case KvDtype::fp8: return 1;              // e4m3/e5m2, per-tensor scale (negligible)
        case KvDtype::q8_0: return 34.0 / 32.0;   // llama.cpp block_q8_0: 34 bytes per 32 values
        case KvDtype::q4_0: return 18.0 / 32.0;   // block_q4_0: 18 bytes per 32 values
    }
    return 2;
}

KvRate kv_rate(const ModelArch& a, const Scenario& s, std::int64_t tp, std::int64_t pp) {
    KvRate r;
    if (a.encoder) return r;  // bidirectional encoders keep no cache
    const double e = kv_bytes_per_element(s.kv_cache_dtype, s.weight_dtype);
    const std::uint64_t t = tp > 0 ? static_cast<std::uint64_t>(tp) : 1;
    const std::uint64_t p = pp > 0 ? static_cast<std::uint64_t>(pp) : 1;
    double per_layer = 0;
    if (a.kv_lora_rank > 0) {
        // MLA: one compressed latent (kv_lora_rank) + the shared rope key (qk_rope_head_dim) per
        // token and layer; every TP rank keeps the whole latent.
        per_layer = static_cast<double>(a.kv_lora_rank + a.qk_rope_head_dim) * e;
    } else {
        // K and V: 2 · heads_per_gpu · d; KV heads are replicated when tp > k (max(1, k/tp)).
        const std::uint64_t k = a.num_kv_heads ? a.num_kv_heads : a.num_heads;
        const std::uint64_t heads = k >= t ? (k + t - 1) / t : 1;
        per_layer = 2.0 * static_cast<double>(heads) * static_cast<double>(a.head_dim) * e;
    }
    // Layers on the most loaded pipeline stage: ceil(L / pp), windowed ones in proportion.
    const double L = static_cast<double>(a.num_layers);
    const double stage = std::ceil(L / static_cast<double>(p));
    const double sliding = std::ceil(static_cast<double>(a.num_sliding_layers) * stage / (L > 0 ? L : 1));
    const double full = stage - sliding;
    r.full_per_token = full * per_layer;
    r.sliding_per_token = sliding * per_layer;
    r.window = a.sliding_window;
    return r;
}

std::uint64_t kv_bytes_per_token(const ModelArch& a, const Scenario& s, std::int64_t tp, std::int64_t pp) {
    const KvRate r = kv_rate(a, s, tp, pp);
    return to_bytes(r.full_per_token + r.sliding_per_token);
}

double kv_cache_bytes(const KvRate& r, const Scenario& s, double batch, double seq) {
    // vLLM pages the cache in blocks of 16 tokens per sequence (CacheConfig.block_size).
    double tokens = seq;
    if (s.engine == Engine::vllm) tokens = std::ceil(seq / 16.0) * 16.0;
    // Windowed layers hold at most W tokens of each sequence (Mistral/Gemma/gpt-oss sliding layers).
    const double w = r.window > 0 ? static_cast<double>(r.window) : tokens;
    const double windowed = tokens < w ? tokens : w;
    return batch * (tokens * r.full_per_token + windowed * r.sliding_per_token);
}

}  // namespace gpusizer
