// Activation memory from real tensor shapes: what one layer saves for backward (training) or
// holds at its peak (inference forward), and the engines' compute buffers.
//
// Index
//   [SECTION] One layer, training
//   [SECTION] One layer, inference forward
//
// Sources: Korthikanti et al. 2022 (Reducing Activation Recomputation), Table 2 and §4;
// FlashAttention-2 (saves q, k, v, out and a fp32 logsumexp per head and token);
// HF modeling_llama.py eager_attention_forward (fp32 softmax then cast back);
// PyTorch autograd saved tensors of SiLU (input), mul (both inputs), Linear (input).
// docs/research/memory-model.md §2.4.
#include "layer_activations.hpp"

namespace gpusizer::detail {

// [SECTION] One layer, training

LayerActivations layer_activations_training(const ModelArch& a, const Scenario& s, double b, double S, bool moe,
                                            double tp) {
    LayerActivations r;
    const double e = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;  // activation dtype = compute dtype
    const double T = b * S;                                        // tokens of one micro-batch
    const double h = static_cast<double>(a.hidden_size), H = static_cast<double>(a.num_heads),
                 k = static_cast<double>(a.num_kv_heads), d = static_cast<double>(a.head_dim);
    // Replicated across TP ranks unless sequence parallel: inputs of the two norms, of the
    // QKV projection and of the MLP (Korthikanti's 10sbh without dropout masks = 4·e·T·h).
    r.replicated = 4 * e * T * h;
    if (s.dropout) r.replicated += 2 * T * h;  // 1-byte masks after attention and after the MLP
    // Attention (split over TP heads).
    double att = 0;
    if (a.kv_lora_rank > 0) {
        const double dq = static_cast<double>(a.qk_nope_head_dim + a.qk_rope_head_dim);
        const double dv = static_cast<double>(a.v_head_dim);
        att += e * T * static_cast<double>(a.q_lora_rank + a.kv_lora_rank + a.qk_rope_head_dim);  // latents
        att += e * T * H * (2 * dq + dv);  // q, k, v after up-projection
        att += e * T * H * dv;             // attention output = o_proj input
    } else {
        att += e * T * H * d;          // Q (post-RoPE)
        att += 2 * e * T * k * d;      // K, V: GQA shrinks them by k/a
        att += e * T * H * d;          // attention output = o_proj input
        if (a.qk_norm) att += e * T * (H + k) * d;  // q_norm/k_norm inputs (Qwen3, Gemma 3)
    }
    att += 4 * T * H;  // flash/sdpa: fp32 logsumexp per head and token
    if (s.attention == Attention::eager) {
        // Eager: fp32 softmax output (4·b·a·s²) saved by softmax, its bf16 copy (2·b·a·s²) saved
        // by the PV matmul; dropout adds a 1-byte mask and the dropped copy (HF eager_attention_forward).
        r.quadratic = 6 * b * H * S * S;
        if (s.dropout) r.quadratic += 3 * b * H * S * S;
    }
    // MLP (split over TP).
    auto mlp = [&](double i) { return a.gated_mlp ? 4 * e * T * i   // gate out (SiLU input), SiLU out, up out, product
                                                  : 2 * e * T * i;  // fc1 out (GELU input), GELU out
    };
    double ffn = 0;
    if (moe) {
        const double K = static_cast<double>(a.experts_per_token), E = static_cast<double>(a.num_experts);
        ffn += 4 * T * E;                                      // fp32 router logits / probabilities
        ffn += K * e * T * h;                                  // token copies dispatched to K experts
        ffn += K * mlp(static_cast<double>(a.moe_intermediate_size));  // each token's K expert MLPs
        ffn += static_cast<double>(a.num_shared_experts) * mlp(static_cast<double>(a.shared_intermediate_size));
    } else {
        ffn += mlp(static_cast<double>(a.intermediate_size));
    }
    r.split = att + ffn;
    r.checkpoint = e * T * h;  // the layer input kept by full recompute
    (void)tp;
    return r;
}

// [SECTION] One layer, inference forward

double layer_peak_inference(const ModelArch& a, const Scenario& s, double b, double S) {
    // No tensors are saved; the peak is the live set inside the bigger of the two blocks:
    // residual + normed input + (q, k, v, attention out) or (gate, up, product).
    const double e = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;
    const double T = b * S;
    const double h = static_cast<double>(a.hidden_size), H = static_cast<double>(a.num_heads),
                 k = static_cast<double>(a.num_kv_heads), d = static_cast<double>(a.head_dim);
    double attn = a.kv_lora_rank > 0
                      ? static_cast<double>(a.num_heads) *
                            static_cast<double>(2 * (a.qk_nope_head_dim + a.qk_rope_head_dim) + 2 * a.v_head_dim)
                      : (H + 2 * k) * d + H * d;
    double i = static_cast<double>(a.num_experts > 0 ? a.moe_intermediate_size : a.intermediate_size);
    if (a.num_experts > 0) i *= static_cast<double>(a.experts_per_token);  // each token through K experts
    const double ffn = (a.gated_mlp ? 3 : 2) * i;
    double peak = e * T * (2 * h + (attn > ffn ? attn : ffn));
    if (s.attention == Attention::eager) peak += 6 * b * H * S * S;  // fp32 scores + 16-bit probabilities of one layer
    return peak;
}

}  // namespace gpusizer::detail
