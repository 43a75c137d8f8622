// Weight bytes for every weight_dtype, with the real quantization overheads.
//
// Index
//   [SECTION] Bits per weight of each format
//   [SECTION] GGUF: llama.cpp's per-tensor type mix
//   [SECTION] Checkpoints as stored (quantization_config)
//   [SECTION] Bytes by part / whole model
//
// Sources: QLoRA paper §3 (NF4 + double quantization), AutoGPTQ/AutoAWQ packing (fp16 scale
// + 4-bit zero per group of 128), ggml-common.h block structs (static_assert sizes), llama.cpp
// src/llama-quant.cpp llama_tensor_get_type (which tensors get which type in _S/_M mixes).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpusizer/memory.hpp"

namespace gpusizer {

namespace {

// [SECTION] Bits per weight of each format

enum class G { f32, f16, q2_k, q3_k, q4_0, q4_k, q5_k, q6_k, q8_0 };

// ggml block sizes: bytes per block / weights per block × 8 (ggml-common.h static_asserts).
double gguf_bits(G t) {
    switch (t) {
        case G::f32: return 32;
        case G::f16: return 16;
        case G::q2_k: return 84.0 * 8 / 256;   // 2.625
        case G::q3_k: return 110.0 * 8 / 256;  // 3.4375
        case G::q4_0: return 18.0 * 8 / 32;    // 4.5
        case G::q4_k: return 144.0 * 8 / 256;  // 4.5
        case G::q5_k: return 176.0 * 8 / 256;  // 5.5
        case G::q6_k: return 210.0 * 8 / 256;  // 6.5625
        case G::q8_0: return 34.0 * 8 / 32;    // 8.5
    }
    return 16;
}

bool is_gguf(WeightDtype w) {
    switch (w) {
        case WeightDtype::gguf_q2_k: case WeightDtype::gguf_q3_k_m: case WeightDtype::gguf_q4_0:
        case WeightDtype::gguf_q4_k_m: case WeightDtype::gguf_q5_k_m: case WeightDtype::gguf_q6_k:
        case WeightDtype::gguf_q8_0: return true;
        default: return false;
    }
}

G gguf_base(WeightDtype w) {
    switch (w) {
        case WeightDtype::gguf_q2_k: return G::q2_k;
        case WeightDtype::gguf_q3_k_m: return G::q3_k;
        case WeightDtype::gguf_q4_0: return G::q4_0;
        case WeightDtype::gguf_q4_k_m: return G::q4_k;
        case WeightDtype::gguf_q5_k_m: return G::q5_k;
        case WeightDtype::gguf_q6_k: return G::q6_k;
        default: return G::q8_0;
    }
}

// [SECTION] GGUF: llama.cpp's per-tensor type mix

// llama-quant.cpp use_more_bits: the first and last eighth of the layers, and every third in between.
bool use_more_bits(std::uint64_t i, std::uint64_t n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// Fraction of layers for which `pred(i, n)` holds (layers are otherwise alike).
template <class F>
double layer_fraction(std::uint64_t n, F pred) {
    if (n == 0) return 0;
    const std::uint64_t cap = n < 4096 ? n : 4096;  // a 10M-layer fantasy model: sample the first 4096 positions
    std::uint64_t hit = 0;
    for (std::uint64_t i = 0; i < cap; ++i)
        if (pred(i, n)) ++hit;
    return static_cast<double>(hit) / static_cast<double>(cap);
}

struct GgufMix {
    double output = 0, embd = 0, attn_v = 0, attn_k = 0, attn_out = 0, ffn_down = 0, other = 0;  // bits
};

GgufMix gguf_mix(const ModelArch& a, WeightDtype w) {
    const G base = gguf_base(w);
    GgufMix m;
    const double b = gguf_bits(base);
    m.other = m.attn_k = m.attn_out = m.attn_v = m.ffn_down = b;
    // output.weight → Q6_K for every type below Q8_0 (llama_tensor_get_type, "output" branch);
    // a tied token_embd is treated as the output tensor.
    m.output = base == G::q8_0 ? b : gguf_bits(G::q6_k);
    m.embd = a.tie_word_embeddings ? m.output : b;
    const std::uint64_t n = a.num_layers;
    const double gqa = a.num_kv_heads ? static_cast<double>(a.num_heads) / static_cast<double>(a.num_kv_heads) : 1;
    const double more = layer_fraction(n, use_more_bits);
    switch (w) {
        case WeightDtype::gguf_q2_k:
            m.attn_v = gguf_bits(gqa >= 4 ? G::q4_k : G::q3_k);
            m.ffn_down = gguf_bits(G::q3_k);
            m.attn_out = gguf_bits(G::q3_k);
            break;
        case WeightDtype::gguf_q3_k_m: {
            const double first2 = n ? (n < 2 ? 1.0 : 2.0 / static_cast<double>(n)) : 0;
            m.attn_v = first2 * gguf_bits(G::q5_k) + (1 - first2) * gguf_bits(G::q4_k);
            const double first16 = layer_fraction(n, [](std::uint64_t i, std::uint64_t nn) { return i < nn / 16; });
            m.ffn_down = first16 * gguf_bits(G::q5_k) + (1 - first16) * gguf_bits(G::q4_k);
            m.attn_out = gguf_bits(G::q4_k);
            break;
        }
        case WeightDtype::gguf_q4_k_m:
        case WeightDtype::gguf_q5_k_m:
            m.attn_v = more * gguf_bits(G::q6_k) + (1 - more) * b;
            m.ffn_down = more * gguf_bits(G::q6_k) + (1 - more) * b;
            break;
        default: break;
    }
    if (a.num_experts == 8 && base != G::q8_0) m.attn_v = m.attn_k = gguf_bits(G::q8_0);  // "n_expert == 8" rule
    return m;
}

// One layer's attention split into the tensors llama.cpp treats separately.
struct AttnSplit {
    double q = 0, k = 0, v = 0, o = 0, small = 0;  // small: biases, norms, sinks (kept F32)
};
AttnSplit attn_split(const ModelArch& a, const ParamDetail& d) {
    AttnSplit s;
    const double h = static_cast<double>(a.hidden_size), H = static_cast<double>(a.num_heads),
                 k = static_cast<double>(a.num_kv_heads), hd = static_cast<double>(a.head_dim);
    if (a.kv_lora_rank > 0) {
        s.q = static_cast<double>(d.attention);  // MLA tensors all follow the default type
        return s;
    }
    s.q = h * H * hd;
    s.k = h * k * hd;
    s.v = h * k * hd;
    s.o = H * hd * h;
    s.small = static_cast<double>(d.attention) - (s.q + s.k + s.v + s.o);
    if (s.small < 0) s.small = 0;
    return s;
}

// Fraction of an MLP's parameters in its down projection (gated 1/3, classic 1/2).
double down_fraction(const ModelArch& a) { return a.gated_mlp ? 1.0 / 3.0 : 0.5; }

}  // namespace

double weight_bits(WeightDtype w) {
    switch (w) {
        case WeightDtype::fp32: return 32;
        case WeightDtype::bf16:
        case WeightDtype::fp16: return 16;
        case WeightDtype::fp8: return 8 + 32.0 / (128 * 128);   // e4m3 + fp32 scale per 128×128 block (DeepSeek-V3 / vLLM block fp8)
        case WeightDtype::int8: return 8 + 32.0 / 4096;         // LLM.int8 / W8A8: fp32 scale per row (4096-wide rows assumed)
        case WeightDtype::int4_gptq:
        case WeightDtype::int4_awq: return 4 + (16.0 + 4.0) / 128;  // fp16 scale + packed 4-bit zero per group of 128 = 4.156
        case WeightDtype::nf4: return 4 + 8.0 / 64 + 32.0 / (64 * 256);  // QLoRA §3 double quantization = 4.127
        default: return gguf_bits(gguf_base(w));
    }
}

// [SECTION] Checkpoints as stored (quantization_config)
//
// ModelArch.quant_* (read from quantization_config by quant_config.cpp) say how the checkpoint
// stores its quantized linears: quant_bits per weight, one quant_scale_bits scale (+ a
// quant_zero_bits zero point) per quant_group_rows × quant_group block, an optional float32
// second-level scale per quant_scale2_group scales (bitsandbytes double quantization) and a
// quant_index_bits index per input column (GPTQ g_idx); and which layers' attention, dense MLP,
// routed experts and shared experts are quantized. Everything else (embeddings, norms, biases,
// routers, the parts left out) is stored 16-bit.

namespace {

struct Mat {
    double out, in, n;  // n copies of an [out, in] linear
};

std::vector<Mat> attn_mats(const ModelArch& a) {
    const double h = static_cast<double>(a.hidden_size), H = static_cast<double>(a.num_heads),
                 k = static_cast<double>(a.num_kv_heads), d = static_cast<double>(a.head_dim);
    if (a.kv_lora_rank > 0) {
        const double ql = static_cast<double>(a.q_lora_rank), kvr = static_cast<double>(a.kv_lora_rank);
        const double dq = static_cast<double>(a.qk_nope_head_dim + a.qk_rope_head_dim);
        std::vector<Mat> m;
        if (a.q_lora_rank > 0) {
            m.push_back({ql, h, 1});       // q_a_proj
            m.push_back({H * dq, ql, 1});  // q_b_proj
        } else {
            m.push_back({H * dq, h, 1});  // q_proj
        }
        m.push_back({kvr + static_cast<double>(a.qk_rope_head_dim), h, 1});                 // kv_a_proj_with_mqa
        m.push_back({H * static_cast<double>(a.qk_nope_head_dim + a.v_head_dim), kvr, 1});  // kv_b_proj
        m.push_back({h, H * static_cast<double>(a.v_head_dim), 1});                          // o_proj
        return m;
    }
    return {{H * d, h, 1}, {k * d, h, 2}, {h, H * d, 1}};  // q; k, v; o
}

std::vector<Mat> mlp_mats(const ModelArch& a, double width, double copies) {
    const double h = static_cast<double>(a.hidden_size);
    if (a.gated_mlp) return {{width, h, 2 * copies}, {h, width, copies}};  // gate, up; down
    return {{width, h, copies}, {h, width, copies}};
}

double mats_params(const std::vector<Mat>& m) {
    double p = 0;
    for (const Mat& x : m) p += x.n * x.out * x.in;
    return p;
}

double frac(std::uint64_t num, std::uint64_t den) {
    if (den == 0) return 0;
    return std::min(1.0, static_cast<double>(num) / static_cast<double>(den));
}

// One part of one layer, averaged over the layers: fraction `f` of them store its linears
// quantized; biases, norms and the other layers are 16-bit.
double stored_part(const ModelArch& a, const std::vector<Mat>& m, double params, double f) {
    if (!(params > 0)) return 0;
    const double lin = std::min(params, mats_params(m));
    double q = 2 * (params - lin);
    for (const Mat& x : m) q += x.n * stored_linear_bytes(a, x.out, x.in);
    return f * q + (1 - f) * 2 * params;
}

WeightBytesByPart stored_by_part(const ModelArch& a, const ParamDetail& d) {
    auto f = [](std::uint64_t v) { return static_cast<double>(v); };
    WeightBytesByPart b;
    b.dense_layers = f(d.dense_layers);
    b.moe_layers = f(d.moe_layers);
    b.embedding = 2 * f(d.embedding);
    const double head = f(a.vocab_size) * f(a.hidden_size);
    b.lm_head = a.quant_lm_head && d.lm_head > 0 ? stored_part(a, {{f(a.vocab_size), f(a.hidden_size), 1}}, head, 1)
                                                 : 2 * f(d.lm_head);
    b.head_extra = 2 * f(d.head_extra);
    b.final_norm = 2 * f(d.final_norm);
    b.extra = 2 * f(d.extra);
    b.layer_norms = 2 * f(d.layer_norms);
    b.router = 2 * f(d.router);
    b.attention = stored_part(a, attn_mats(a), f(d.attention), frac(a.quant_attn_layers, a.num_layers));
    b.dense_mlp = stored_part(a, mlp_mats(a, f(a.intermediate_size), 1), f(d.dense_mlp),
                              frac(a.quant_mlp_layers, d.dense_layers));
    const double E = f(a.num_experts);
    b.expert = stored_part(a, mlp_mats(a, f(a.moe_intermediate_size), E), E * f(d.expert),
                           frac(a.quant_moe_layers, d.moe_layers));
    const double shared_copies = f(std::min<std::uint64_t>(a.num_shared_experts, 64));  // params.cpp caps at 64
    b.shared = stored_part(a, mlp_mats(a, f(a.shared_intermediate_size), shared_copies), f(d.shared),
                           frac(a.quant_shared_layers, d.moe_layers));
    return b;
}

std::string scheme_text(const ModelArch& a, bool zh) {
    auto tr = [zh](const char* en, const char* z) { return std::string(zh ? z : en); };
    std::string t = std::to_string(a.quant_bits) + tr("-bit", " 位");
    const std::string sb = std::to_string(a.quant_scale_bits) + tr("-bit scale", " 位缩放因子");
    const std::string one = tr(" + one ", ",每 ");
    if (a.quant_group == 0 && a.quant_group_rows == 0) t += tr(", one scale per tensor", ",每个张量一个缩放因子");
    else if (a.quant_group_rows > 1)
        t += zh ? one + std::to_string(a.quant_group_rows) + "×" + std::to_string(a.quant_group) + " 块一个 " + sb
                : one + sb + " per " + std::to_string(a.quant_group_rows) + "×" + std::to_string(a.quant_group) + " block";
    else if (a.quant_group == 0) t += zh ? ",每行一个 " + sb : one + sb + " per row";
    else t += zh ? one + std::to_string(a.quant_group) + " 个权重一个 " + sb : one + sb + " per " + std::to_string(a.quant_group) + " weights";
    if (a.quant_scale2_group) t += tr(" (double-quantized)", "(双重量化)");
    if (a.quant_zero_bits) t += tr(" + zero points", " + 零点");
    if (a.quant_index_bits) t += " + g_idx";
    return t;
}

std::string coverage_text(const ModelArch& a, bool zh) {
    const ParamDetail d = param_detail(a);
    std::string t;
    auto part = [&](const char* name, const char* name_zh, std::uint64_t q, std::uint64_t of) {
        if (of == 0) return;
        t += (t.empty() ? "" : (zh ? "," : ", ")) + std::string(zh ? name_zh : name) + " " + std::to_string(std::min(q, of)) + "/" +
             std::to_string(of);
    };
    part("attention", "注意力", a.quant_attn_layers, a.num_layers);
    part("MLP", "MLP", a.quant_mlp_layers, d.dense_layers);
    part("experts", "专家", a.quant_moe_layers, d.moe_layers);
    if (a.num_shared_experts > 0) part("shared experts", "共享专家", a.quant_shared_layers, d.moe_layers);
    if (d.lm_head > 0) t += zh ? (a.quant_lm_head ? ",LM head 已量化" : ",LM head 为 16 位") : (a.quant_lm_head ? ", LM head quantized" : ", LM head 16-bit");
    return t;
}

}  // namespace

bool stored_quantization_applies(const ModelArch& a, WeightDtype w) {
    return !is_gguf(w) && !a.quant_method.empty() && a.quant_bits >= 1 && a.quant_bits <= 16 &&
           a.quant_scale_bits <= 64 && a.quant_zero_bits <= 64 && a.quant_index_bits <= 64;
}

double stored_linear_bytes(const ModelArch& a, double out, double in) {
    if (!(out > 0 && in > 0)) return 0;
    double bytes = out * in * static_cast<double>(a.quant_bits) / 8;
    const double cols = a.quant_group ? std::ceil(in / static_cast<double>(a.quant_group)) : 1;
    const double rows = a.quant_group_rows ? std::ceil(out / static_cast<double>(a.quant_group_rows)) : 1;
    const double scales = cols * rows;
    bytes += scales * static_cast<double>(a.quant_scale_bits + a.quant_zero_bits) / 8;
    if (a.quant_scale2_group) bytes += std::ceil(scales / static_cast<double>(a.quant_scale2_group)) * 4;
    bytes += in * static_cast<double>(a.quant_index_bits) / 8;
    return bytes;
}

std::string stored_weights_note(const ModelArch& a, WeightDtype w, bool zh) {
    if (a.quant_method.empty()) return "";
    const std::string wd = to_string(w);
    if (is_gguf(w))
        return zh ? "weight_dtype " + wd + ":按 GGUF 文件计算大小;config 中的 quantization_config(" + a.quant_method +
                        ")描述的是原始检查点,不是这个文件"
                  : "weight_dtype " + wd + ": sized as the GGUF file; the config's quantization_config (" + a.quant_method +
                        ") describes the original checkpoint, not this file";
    if (!stored_quantization_applies(a, w))
        return zh ? "权重按 weight_dtype " + wd + " 计算:gpusizer 无法计算该 quantization_config(" + a.quant_method + ")的大小"
                  : "weights sized from weight_dtype " + wd + ": the quantization_config (" + a.quant_method +
                        ") is not one gpusizer can size";
    if (zh)
        return "权重按存储格式计算:" + a.quant_method + "," + scheme_text(a, true) + ";已量化:" + coverage_text(a, true) +
               "(来自 quantization_config);weight_dtype " + wd + " 描述的是计算精度";
    return "weights as stored: " + a.quant_method + ", " + scheme_text(a, false) + "; quantized: " + coverage_text(a, false) +
           " (from quantization_config); weight_dtype " + wd + " describes the compute";
}

std::uint64_t model_bytes(const ModelArch& a, WeightDtype w, Notes* notes) {
    const WeightBytesByPart wb = weight_bytes_by_part(a, w);
    double bytes = wb.total();
    if (!is_gguf(w) && a.mtp_layers > 0 && a.kv_lora_rank > 0) {
        // DeepSeek-V3 MTP module (README_WEIGHTS.md; the R1 FP8 tensor listing): one more MoE layer
        // (quantized like the others) + enorm, hnorm, shared_head.norm [h], eh_proj [h, 2h] and its
        // own copies of embed_tokens and shared_head.head [V, h], all 16-bit.
        const double by = !stored_quantization_applies(a, w) && w == WeightDtype::fp32 ? 4 : 2;
        const double h = static_cast<double>(a.hidden_size), V = static_cast<double>(a.vocab_size);
        const double layer = wb.moe_layers > 0 ? wb.attention + wb.layer_norms + wb.expert + wb.shared + wb.router
                                               : wb.attention + wb.layer_norms + wb.dense_mlp;
        const double extras = by * (3 * h + 2 * h * h + 2 * V * h);
        bytes += static_cast<double>(a.mtp_layers) * (layer + extras);
    }
    if (notes) {
        std::string n = stored_weights_note(a, w);
        if (!n.empty()) notes->add(std::move(n), stored_weights_note(a, w, true));
    }
    bool clamped = false;
    const std::uint64_t out = to_bytes(bytes, &clamped);
    if (clamped && notes) notes->add("model_bytes: exceeded 9.2e18 bytes and was clamped", "model_bytes:超过 9.2e18 字节,已截断");
    return out;
}

// [SECTION] Bytes by part / whole model

double WeightBytesByPart::total() const {
    return embedding + lm_head + head_extra + final_norm + extra +
           dense_layers * (attention + layer_norms + dense_mlp) + moe_layers * (attention + layer_norms + shared + router) +
           moe_layers * expert;
}

WeightBytesByPart weight_bytes_by_part(const ModelArch& a, WeightDtype w) { return weight_bytes_by_part(a, param_detail(a), w); }

WeightBytesByPart weight_bytes_by_part(const ModelArch& a, const ParamDetail& d, WeightDtype w) {
    if (stored_quantization_applies(a, w)) return stored_by_part(a, d);
    WeightBytesByPart b;
    b.dense_layers = static_cast<double>(d.dense_layers);
    b.moe_layers = static_cast<double>(d.moe_layers);
    const double E = static_cast<double>(a.num_experts);
    auto f = [](std::uint64_t v) { return static_cast<double>(v); };
    if (w == WeightDtype::fp32 || w == WeightDtype::bf16 || w == WeightDtype::fp16) {
        const double by = w == WeightDtype::fp32 ? 4 : 2;
        b.embedding = by * f(d.embedding);
        b.lm_head = by * f(d.lm_head);
        b.head_extra = by * f(d.head_extra);
        b.final_norm = by * f(d.final_norm);
        b.extra = by * f(d.extra);
        b.attention = by * f(d.attention);
        b.layer_norms = by * f(d.layer_norms);
        b.dense_mlp = by * f(d.dense_mlp);
        b.expert = by * E * f(d.expert);
        b.shared = by * f(d.shared);
        b.router = by * f(d.router);
        return b;
    }
    if (is_gguf(w)) {
        // GGUF: norms, biases, router (ffn_gate_inp) stay F32; others per llama_tensor_get_type.
        const GgufMix m = gguf_mix(a, w);
        const AttnSplit s = attn_split(a, d);
        b.embedding = m.embd / 8 * f(d.embedding);
        b.lm_head = m.output / 8 * f(d.lm_head);
        b.head_extra = m.other / 8 * f(d.head_extra);
        b.final_norm = 4 * f(d.final_norm);
        b.extra = 2 * f(d.extra);  // mmproj files are usually f16
        b.attention = (m.other * s.q + m.attn_k * s.k + m.attn_v * s.v + m.attn_out * s.o) / 8 + 4 * s.small;
        b.layer_norms = 4 * f(d.layer_norms);
        const double df = down_fraction(a);
        auto mlp = [&](double p) { return (m.ffn_down * df + m.other * (1 - df)) / 8 * p; };
        b.dense_mlp = mlp(f(d.dense_mlp));
        b.expert = mlp(E * f(d.expert));
        b.shared = mlp(f(d.shared));
        b.router = 4 * f(d.router);
        return b;
    }
    // Weight-only formats (fp8, int8, GPTQ/AWQ, NF4): linears quantized; embeddings, LM head,
    // norms and the MoE router stay 16-bit (bitsandbytes skips lm_head; AutoGPTQ/AWQ and vLLM
    // fp8 keep embeddings, lm_head and gates in fp16/bf16).
    const double q = weight_bits(w) / 8;
    b.embedding = 2 * f(d.embedding);
    b.lm_head = 2 * f(d.lm_head);
    b.head_extra = 2 * f(d.head_extra);
    b.final_norm = 2 * f(d.final_norm);
    b.extra = 2 * f(d.extra);
    const AttnSplit s = attn_split(a, d);
    const double attn_lin = s.q + s.k + s.v + s.o;
    b.attention = q * attn_lin + 2 * (f(d.attention) - attn_lin);
    b.layer_norms = 2 * f(d.layer_norms);
    b.dense_mlp = q * f(d.dense_mlp);
    b.expert = q * E * f(d.expert);
    b.shared = q * f(d.shared);
    b.router = 2 * f(d.router);
    return b;
}

std::uint64_t weights_bytes(const ModelArch& a, WeightDtype w) { return to_bytes(weight_bytes_by_part(a, w).total()); }

}  // namespace gpusizer
