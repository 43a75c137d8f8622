// Parameter counts from a ModelArch: by part, total, active per token, embedding, LoRA adapters.
//
// Index
//   [SECTION] Saturating arithmetic
//   [SECTION] Parts of one layer
//   [SECTION] param_detail / count_params
//   [SECTION] LoRA adapters
//
// Shapes follow the transformers modeling files of each family (modeling_llama.py,
// modeling_mixtral.py, modeling_qwen3_moe.py, modeling_deepseek.py, modeling_gpt_oss.py,
// modeling_gpt2.py, modeling_bert.py, modeling_vit.py) and Megatron's
// theoretical_memory_usage.py (docs/research/memory-model.md §2.1, §2.6).
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "gpusizer/memory.hpp"
#include "kinds.hpp"

namespace gpusizer {

// [SECTION] Saturating arithmetic

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
    std::uint64_t r = 0;
    if (__builtin_add_overflow(a, b, &r) || r > k_u64_cap) return k_u64_cap;
    return r;
}
std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r) || r > k_u64_cap) return k_u64_cap;
    return r;
}
std::uint64_t to_bytes(double v, bool* clamped) {
    if (!(v > 0)) return 0;  // NaN, negative, zero
    if (v >= 9.2e18) {
        if (clamped) *clamped = true;
        return k_u64_cap;
    }
    return static_cast<std::uint64_t>(std::ceil(v));
}

namespace {

struct Counter {  // a sum of products that remembers whether it saturated
    std::uint64_t sum = 0;
    bool sat = false;
    Counter& add(std::uint64_t a, std::uint64_t b = 1, std::uint64_t c = 1) {
        const std::uint64_t p = sat_mul(sat_mul(a, b), c);
        const std::uint64_t s = sat_add(sum, p);
        sat = sat || p == k_u64_cap || s == k_u64_cap;
        sum = s;
        return *this;
    }
};

std::uint64_t norm_size(const ModelArch& a, std::uint64_t width) { return a.layer_norm ? 2 * width : width; }  // LN: w + b

// [SECTION] Parts of one layer

// Attention of one layer. GQA/MQA: h·(a·d) [Q] + 2·h·(k·d) [K,V] + (a·d)·h [O] (+ biases).
// MLA (DeepSeek-V2/V3): Megatron multi_latent_attention branch: q_lora·(h + a·(dn+dr) + 1)
// (or h·a·(dn+dr) without q_lora) + kv_lora·(h + a·(dn+dv) + 1) + h·dr + a·dv·h.
Counter attention_params(const ModelArch& a) {
    Counter c;
    const std::uint64_t h = a.hidden_size, H = a.num_heads, k = a.num_kv_heads, d = a.head_dim;
    if (a.kv_lora_rank > 0) {
        const std::uint64_t dq = a.qk_nope_head_dim + a.qk_rope_head_dim;
        if (a.q_lora_rank > 0) {
            c.add(a.q_lora_rank, h).add(a.q_lora_rank).add(a.q_lora_rank, H, dq);  // q_a, q_a_layernorm, q_b
        } else {
            c.add(h, H, dq);
        }
        c.add(h, a.kv_lora_rank + a.qk_rope_head_dim).add(a.kv_lora_rank);  // kv_a_proj_with_mqa, kv_a_layernorm
        c.add(a.kv_lora_rank, H, a.qk_nope_head_dim + a.v_head_dim);          // kv_b_proj
        c.add(H, a.v_head_dim, h);                                            // o_proj
        if (a.qkv_bias) c.add(H, dq).add(a.kv_lora_rank + a.qk_rope_head_dim);
        if (a.o_bias) c.add(h);
        return c;
    }
    c.add(h, H, d).add(2 * h, k, d).add(H, d, h);
    if (a.qkv_bias) c.add(H, d).add(2 * k, d);
    if (a.o_bias) c.add(h);
    if (a.qk_norm) c.add(2 * norm_size(a, d));  // Qwen3/Gemma 3 per-head q_norm, k_norm
    if (a.attn_sinks) c.add(H);                 // gpt-oss sinks: one logit per head
    return c;
}

// One MLP of width i: gated 3·h·i (gate, up, down), classic 2·h·i; biases 2i + h / i + h.
Counter mlp_params(const ModelArch& a, std::uint64_t i) {
    Counter c;
    const std::uint64_t h = a.hidden_size;
    if (a.gated_mlp) {
        c.add(3 * h, i);
        if (a.mlp_bias) c.add(2 * i + h);
    } else {
        c.add(2 * h, i);
        if (a.mlp_bias) c.add(i + h);
    }
    return c;
}

// Layer l has routed experts when l ≥ first dense layers and (l+1) % freq == 0
// (Qwen-MoE decoder_sparse_step; DeepSeek first_k_dense_replace with moe_layer_freq 1).
std::uint64_t count_moe_layers(const ModelArch& a) {
    if (a.num_experts == 0) return 0;
    const std::uint64_t freq = a.moe_layer_freq ? a.moe_layer_freq : 1;
    if (a.first_dense_layers >= a.num_layers) return 0;
    // Layers l in [first_dense_layers, min(num_layers, 2^20)) with (l + 1) % freq == 0: the multiples
    // of freq in (first_dense_layers, end] (counted, not walked: every candidate's memory asks).
    const std::uint64_t end = std::min<std::uint64_t>(a.num_layers, 1ULL << 20);
    std::uint64_t n = a.first_dense_layers < end ? end / freq - a.first_dense_layers / freq : 0;
    if (a.num_layers >= (1ULL << 20)) n += (a.num_layers - (1ULL << 20)) / freq;
    return n;
}

// Layers with a dense MLP and layers with routed experts (a vision, diffusion or speech model: none).
struct LayerSplit {
    std::uint64_t dense = 0, moe = 0;
};
LayerSplit layer_split(const ModelArch& a) {
    if (kinds::is_sample_kind(a)) return {};
    const std::uint64_t moe = count_moe_layers(a);
    return {a.num_layers - moe, moe};
}

}  // namespace

// [SECTION] param_detail / count_params

ParamDetail param_detail(const ModelArch& a) {
    ParamDetail p;
    if (kinds::is_sample_kind(a)) {  // vision, diffusion, speech: one walk over the architecture (kinds.cpp)
        const kinds::Walk w = kinds::walk(a, 0);
        p.extra = to_bytes(w.params + w.frozen);
        p.total = p.active = p.extra;
        return p;
    }
    bool sat = false;
    auto take = [&](const Counter& c) {
        sat = sat || c.sat;
        return c.sum;
    };
    const std::uint64_t h = a.hidden_size, V = a.vocab_size;

    // Embeddings: tokens V·h; learned positions P·h; BERT token types T·h; ViT patch conv
    // c·p²·h + h, [CLS] h and (patches + 1)·h positions.
    Counter emb;
    if (a.patch_size > 0 && a.image_size > 0) {
        emb.add(a.num_channels ? a.num_channels : 3, a.patch_size * a.patch_size, h).add(h).add(h);
        emb.add(a.max_position_embeddings, h);
    } else {
        emb.add(V, h);
        if (a.learned_positions) emb.add(a.max_position_embeddings, h);
        emb.add(a.type_vocab_size, h);
    }
    if (a.embed_norm) emb.add(norm_size(a, h));
    p.embedding = take(emb);
    p.lm_head = (a.tie_word_embeddings || a.encoder) ? 0 : take(Counter().add(V, h));
    Counter head;
    if (a.pooler) head.add(h, h).add(h);                       // BERT pooler dense + bias
    if (a.num_labels) head.add(h, a.num_labels).add(a.num_labels);  // classifier + bias
    p.head_extra = take(head);
    p.final_norm = a.final_norm ? norm_size(a, h) : 0;
    p.extra = a.extra_params;

    p.attention = take(attention_params(a));
    p.layer_norms = take(Counter().add(a.norms_per_layer, norm_size(a, h)));
    const LayerSplit layers = layer_split(a);
    p.moe_layers = layers.moe;
    p.dense_layers = layers.dense;
    if (p.dense_layers > 0) p.dense_mlp = take(mlp_params(a, a.intermediate_size));
    if (p.moe_layers > 0) {
        p.expert = take(mlp_params(a, a.moe_intermediate_size));
        Counter sh;
        for (std::uint64_t i = 0; i < a.num_shared_experts && i < 64; ++i) sh.add(take(mlp_params(a, a.shared_intermediate_size)));
        if (a.shared_expert_gate) sh.add(h);  // Qwen2-MoE shared_expert_gate: Linear(h, 1)
        p.shared = take(sh);
        Counter r;
        r.add(h, a.num_experts);                   // router Linear(h, E)
        if (a.router_bias) r.add(a.num_experts);   // gpt-oss router bias / DeepSeek-V3 e_score_correction_bias
        p.router = take(r);
    }
    const std::uint64_t layer_base = sat_add(p.attention, p.layer_norms);
    p.dense_layer_total = sat_add(layer_base, p.dense_mlp);
    p.moe_layer_total = sat_add(sat_add(layer_base, sat_mul(a.num_experts, p.expert)), sat_add(p.shared, p.router));
    const std::uint64_t moe_active =
        sat_add(sat_add(layer_base, sat_mul(a.experts_per_token, p.expert)), sat_add(p.shared, p.router));

    Counter total;
    total.add(p.dense_layers, p.dense_layer_total).add(p.moe_layers, p.moe_layer_total);
    total.add(p.embedding).add(p.lm_head).add(p.head_extra).add(p.final_norm).add(p.extra);
    p.total = take(total);
    // Active per token: every dense part, top-k routed experts + shared experts + router.
    // Embedding rows are looked up, not multiplied, but model cards count them (Mixtral 12.9B).
    Counter active;
    active.add(p.dense_layers, p.dense_layer_total).add(p.moe_layers, moe_active);
    active.add(p.embedding).add(p.lm_head).add(p.head_extra).add(p.final_norm).add(p.extra);
    p.active = take(active);
    p.saturated = sat;
    return p;
}

ParamCounts count_params(const ModelArch& a, const Scenario& s, Notes* warnings) {
    const ParamDetail d = param_detail(a);
    if (d.saturated && warnings)
        warnings->add("parameter count exceeds 9.2e18 and was clamped; the architecture is not realistic",
                      "参数量超过 9.2e18,已截断;该结构不现实");
    ParamCounts c;
    c.total = d.total;
    c.active = d.active;
    c.embedding = sat_add(d.embedding, d.lm_head);
    if (kinds::is_sample_kind(a)) {
        // Only the network itself trains: a diffusion pipeline's text encoders and VAE stay frozen.
        const kinds::Walk w = kinds::walk(a, 0);
        c.embedding = 0;
        if (s.task == Task::pretrain || s.task == Task::full_ft) c.trainable = to_bytes(w.params);
        else if (s.task == Task::lora || s.task == Task::qlora) {
            if (w.lora_dims > 0) c.trainable = to_bytes(double(s.lora_rank) * w.lora_dims);
            else {
                c.trainable = to_bytes(w.params);
                if (warnings)
                    warnings->add("lora: " + a.model_type + " has no attention projections to adapt; estimated as full fine-tuning",
                                  "lora:" + a.model_type + " 没有可适配的注意力投影;按全量微调估算");
            }
        }
        return c;
    }
    switch (s.task) {
        case Task::inference: c.trainable = 0; break;
        case Task::pretrain:
        case Task::full_ft: c.trainable = d.total; break;
        case Task::lora:
        case Task::qlora: c.trainable = lora_params(a, s, warnings); break;
    }
    return c;
}

// [SECTION] LoRA adapters

namespace {

enum Mod : unsigned { m_q = 1, m_k = 2, m_v = 4, m_o = 8, m_gate = 16, m_up = 32, m_down = 64 };

// Module names as they appear in PEFT target_modules for the families we read.
unsigned module_bits(const std::string& n) {
    struct Alias { const char* name; unsigned bits; };
    static const Alias k_aliases[] = {
        {"q_proj", m_q}, {"query", m_q}, {"q_a_proj", m_q}, {"q_b_proj", m_q}, {"wq", m_q},
        {"k_proj", m_k}, {"key", m_k}, {"kv_a_proj_with_mqa", m_k}, {"wk", m_k},
        {"v_proj", m_v}, {"value", m_v}, {"kv_b_proj", m_v}, {"wv", m_v},
        {"o_proj", m_o}, {"out_proj", m_o}, {"dense", m_o}, {"wo", m_o},
        {"qkv_proj", m_q | m_k | m_v}, {"query_key_value", m_q | m_k | m_v}, {"c_attn", m_q | m_k | m_v}, {"Wqkv", m_q | m_k | m_v},
        {"gate_proj", m_gate}, {"w1", m_gate}, {"up_proj", m_up}, {"w3", m_up}, {"c_fc", m_up}, {"fc1", m_up},
        {"dense_h_to_4h", m_up}, {"intermediate.dense", m_up}, {"gate_up_proj", m_gate | m_up},
        {"down_proj", m_down}, {"w2", m_down}, {"fc2", m_down}, {"dense_4h_to_h", m_down}, {"output.dense", m_down},
        {"c_proj", m_o | m_down},
    };
    for (const Alias& al : k_aliases)
        if (n == al.name) return al.bits;
    return 0;
}

// Families whose checkpoints fuse q,k,v (and gate,up) into one Linear: an adapter on the
// fused matrix has r·(h + (a+2k)·d) parameters, not three separate r·(d_in + d_out).
// (Compared as views: the planner asks for every candidate's memory, and a view compares lengths first.)
bool fused_qkv(const ModelArch& a) {
    const std::string_view t = a.model_type;
    return t == "gpt2" || t == "gpt_neox" || t == "bloom" || t == "phi3";
}
bool fused_gate_up(const ModelArch& a) { return std::string_view(a.model_type) == "phi3"; }

// The adapted matrices of one layer (lora_targets), as bits of Mod.
unsigned lora_bits(const ModelArch& a, const Scenario& s, Notes* warnings) {
    unsigned bits = 0;
    switch (s.lora_targets) {
        case LoraTargets::qv: bits = m_q | m_v; break;
        case LoraTargets::attention: bits = m_q | m_k | m_v | m_o; break;
        case LoraTargets::all_linear: bits = m_q | m_k | m_v | m_o | m_gate | m_up | m_down; break;
        case LoraTargets::custom:
            for (const std::string& n : s.lora_modules) {
                const unsigned b = module_bits(n);
                if (!b && warnings)
                    warnings->add("lora_targets: module '" + n + "' is not a known linear; ignored",
                                  "lora_targets:模块 '" + n + "' 不是已知的线性层;已忽略");
                bits |= b;
            }
            break;
    }
    if (fused_qkv(a) && (bits & (m_q | m_k | m_v))) bits |= m_q | m_k | m_v;
    if (fused_gate_up(a) && (bits & (m_gate | m_up))) bits |= m_gate | m_up;
    if (a.gated_mlp == false) bits &= ~static_cast<unsigned>(m_gate);
    return bits;
}

int count_bits(unsigned v) {
    int n = 0;
    for (; v; v &= v - 1) ++n;
    return n;
}

}  // namespace

LoraLinears lora_linears(const ModelArch& a, const Scenario& s) {
    const unsigned bits = lora_bits(a, s, nullptr);
    LoraLinears n;
    // Fused checkpoints hold q,k,v (and gate,up) in one Linear: one adapter each.
    n.attention = fused_qkv(a) ? ((bits & (m_q | m_k | m_v)) ? 1 : 0) + ((bits & m_o) ? 1 : 0)
                               : count_bits(bits & (m_q | m_k | m_v | m_o));
    n.mlp = fused_gate_up(a) ? ((bits & (m_gate | m_up)) ? 1 : 0) + ((bits & m_down) ? 1 : 0)
                             : count_bits(bits & (m_gate | m_up | m_down));
    return n;
}

std::uint64_t lora_params(const ModelArch& a, const Scenario& s, Notes* warnings) {
    const unsigned bits = lora_bits(a, s, warnings);
    const std::uint64_t r = s.lora_rank > 0 ? static_cast<std::uint64_t>(s.lora_rank) : 0;
    const std::uint64_t h = a.hidden_size, H = a.num_heads, k = a.num_kv_heads, d = a.head_dim;

    // Attention of one layer: r·(d_in + d_out) per adapted matrix (PEFT LoraLayer: A is r×d_in, B is d_out×r).
    Counter att;
    if (a.kv_lora_rank > 0) {
        const std::uint64_t dq = a.qk_nope_head_dim + a.qk_rope_head_dim;
        if (bits & m_q) {
            if (a.q_lora_rank > 0) att.add(r, h + a.q_lora_rank).add(r, a.q_lora_rank + H * dq);
            else att.add(r, h + H * dq);
        }
        if (bits & m_k) att.add(r, h + a.kv_lora_rank + a.qk_rope_head_dim);
        if (bits & m_v) att.add(r, a.kv_lora_rank + H * (a.qk_nope_head_dim + a.v_head_dim));
        if (bits & m_o) att.add(r, H * a.v_head_dim + h);
    } else if (fused_qkv(a)) {
        if (bits & m_q) att.add(r, h + (H + 2 * k) * d);
        if (bits & m_o) att.add(r, H * d + h);
    } else {
        if (bits & m_q) att.add(r, h + H * d);
        if (bits & m_k) att.add(r, h + k * d);
        if (bits & m_v) att.add(r, h + k * d);
        if (bits & m_o) att.add(r, H * d + h);
    }
    auto mlp = [&](std::uint64_t i) {
        Counter c;
        if (fused_gate_up(a)) {
            if (bits & m_up) c.add(r, h + 2 * i);
        } else {
            if (bits & m_gate) c.add(r, h + i);
            if (bits & m_up) c.add(r, h + i);
        }
        if (bits & m_down) c.add(r, i + h);
        return c.sum;
    };
    const LayerSplit layers = layer_split(a);
    Counter total;
    total.add(a.num_layers, att.sum);
    total.add(layers.dense, mlp(a.intermediate_size));
    if (layers.moe > 0 && (bits & (m_gate | m_up | m_down))) {
        if (a.model_type == "gpt_oss") {
            if (warnings)
                warnings->add("lora: gpt-oss experts are fused 3-D parameters, not nn.Linear; PEFT does not adapt "
                              "them, so only attention adapters are counted",
                              "lora:gpt-oss 的专家是融合的三维参数,不是 nn.Linear;PEFT 不会适配它们,因此只计入注意力适配器");
        } else {
            // Every routed expert is an nn.Linear trio (Mixtral w1/w2/w3, Qwen-MoE, DeepSeek), plus shared experts.
            Counter moe;
            moe.add(a.num_experts, mlp(a.moe_intermediate_size)).add(a.num_shared_experts, mlp(a.shared_intermediate_size));
            total.add(layers.moe, moe.sum);
        }
    }
    if (total.sat && warnings) warnings->add("lora: adapter count clamped at 9.2e18", "lora:适配器参数量在 9.2e18 处截断");
    return total.sum;
}

}  // namespace gpusizer
