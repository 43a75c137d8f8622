// Hugging Face config.json → ModelArch (model.hpp), and a plausible dense shape for a bare
// parameter count.
//
// Index
//   [SECTION] Reading typed keys without exceptions
//   [SECTION] Families (what each model_type implies beyond its keys)
//   [SECTION] Decoder keys (Llama, Mistral, Qwen, DeepSeek, gpt-oss, Gemma, Phi, GPT-2/NeoX)
//   [SECTION] Encoders (BERT, ViT) and vision towers
//   [SECTION] parse_hf_config
//   [SECTION] infer_dense_arch
//
// Every alias comes from the transformers configuration class of that family
// (configuration_<family>.py); the traps are listed in shared/data/hf_configs/SOURCES.md.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/model.hpp"
#include "hf_config_internal.hpp"
#include "kinds.hpp"
#include "json_util.hpp"
#include "quant_config.hpp"

namespace gpusizer {

namespace {

using detail::json;

// Dimensions above this are certainly not a real model; keeping them below 2^32 also keeps
// every two-factor product exact in 64 bits (three-factor products saturate in params.cpp).
constexpr std::int64_t k_max_dim = 4294967295LL;

// [SECTION] Reading typed keys without exceptions

// Keep at most `max` bytes of a valid UTF-8 string without splitting a character (nlohmann
// has already rejected invalid UTF-8 while parsing).
void cut_utf8(std::string& s, std::size_t max) {
    if (s.size() <= max) return;
    std::size_t i = max;  // s[i] is the first byte dropped; back up to a character start
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    s.resize(i);
}

struct Reader {
    const json& obj;
    std::string prefix;  // "" or "text_config." for error paths
    Error error;
    bool failed = false;

    // A key is "present" when it exists and is not null (HF writes "sliding_window": null).
    const json* find(const char* key) const {
        if (!obj.is_object()) return nullptr;
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) return nullptr;
        return &*it;
    }
    bool has(const char* key) const { return find(key) != nullptr; }

    void fail(const char* key, const std::string& expected, const json& v) {
        if (failed) return;
        failed = true;
        error = {"bad_type", prefix + key + ": expected " + expected + ", got " + detail::show(v), prefix + key};
    }

    const char* last_key = "";  // the key the last successful u64() read came from

    // First present key of the list; false when none is present or it has the wrong type.
    bool u64(std::initializer_list<const char*> keys, std::uint64_t& out) {
        for (const char* k : keys) {
            const json* v = find(k);
            if (!v) continue;
            last_key = k;
            const auto i = detail::as_int(*v, 0, k_max_dim);
            if (!i) {
                fail(k, "an integer between 0 and 4294967295", *v);
                return false;
            }
            out = static_cast<std::uint64_t>(*i);
            return true;
        }
        return false;
    }
    bool flag(std::initializer_list<const char*> keys, bool& out) {
        for (const char* k : keys) {
            const json* v = find(k);
            if (!v) continue;
            if (!v->is_boolean()) {
                fail(k, "true or false", *v);
                return false;
            }
            out = v->get<bool>();
            return true;
        }
        return false;
    }
    bool text(const char* k, std::string& out) {
        const json* v = find(k);
        if (!v) return false;
        if (!v->is_string()) {
            fail(k, "a string", *v);
            return false;
        }
        out = v->get<std::string>();
        if (out.size() > 64) cut_utf8(out, 64);
        return true;
    }
    // Length of an array key (layer_types, mlp_only_layers); -1 when absent.
    std::int64_t array_size(const char* k) {
        const json* v = find(k);
        if (!v) return -1;
        if (!v->is_array()) {
            fail(k, "an array", *v);
            return -1;
        }
        return static_cast<std::int64_t>(v->size());
    }
};

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (s == n) return true;
    return false;
}

// [SECTION] Families (what each model_type implies beyond its keys)

enum class Family { llama_like, qwen2, qwen3, qwen_moe, deepseek, gpt_oss, gemma2, gemma3, mistral, phi3, gpt2, gpt_neox, bloom, bert, vit, generic };

Family family_of(const std::string& mt) {
    if (is_one_of(mt, {"llama", "llama4_text", "granite", "internlm2", "internlm3", "yi", "baichuan", "olmo", "cohere", "glm", "glm4",
                       "exaone", "minicpm", "deepseek", "aquila"}))
        return Family::llama_like;
    if (is_one_of(mt, {"mistral", "mixtral", "ministral"})) return Family::mistral;
    if (is_one_of(mt, {"qwen2", "qwen2_vl_text", "qwen2_5_vl_text"})) return Family::qwen2;
    if (is_one_of(mt, {"qwen3"})) return Family::qwen3;
    if (is_one_of(mt, {"qwen2_moe", "qwen3_moe", "qwen3_vl_moe_text"})) return Family::qwen_moe;
    if (is_one_of(mt, {"deepseek_v2", "deepseek_v3", "kimi_k2"})) return Family::deepseek;
    if (mt == "gpt_oss") return Family::gpt_oss;
    if (mt == "gemma2" || mt == "gemma") return Family::gemma2;
    if (mt == "gemma3" || mt == "gemma3_text") return Family::gemma3;
    if (mt == "phi3" || mt == "phimoe") return Family::phi3;
    if (mt == "gpt2") return Family::gpt2;
    if (mt == "gpt_neox") return Family::gpt_neox;
    if (mt == "bloom") return Family::bloom;
    if (is_one_of(mt, {"bert", "roberta", "xlm-roberta", "camembert", "electra"})) return Family::bert;
    if (is_one_of(mt, {"vit", "deit", "dinov2"})) return Family::vit;
    return Family::generic;
}

// [SECTION] Encoders (BERT, ViT) and vision towers

// The shape fields every ViT-style tower config has; ok() when the counters can use them.
struct VitShape {
    std::uint64_t h = 0, L = 0, i = 0, img = 0, patch = 0, ch = 3;
    bool ok() const { return h && L && patch && img; }
    std::uint64_t patches() const { return (img / patch) * (img / patch); }
    // One pre-LN block: QKV+O with bias, fc1/fc2 with bias, two LayerNorms.
    std::uint64_t layer() const { return 4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h; }
};

VitShape read_vit_shape(Reader& r) {
    VitShape v;
    r.u64({"hidden_size"}, v.h);
    r.u64({"num_hidden_layers"}, v.L);
    r.u64({"intermediate_size"}, v.i);
    r.u64({"image_size"}, v.img);
    r.u64({"patch_size"}, v.patch);
    r.u64({"num_channels"}, v.ch);
    return v;
}

// Parameters of a pre-LN ViT-style vision tower (SigLIP, CLIP vision, ViT): patch conv,
// position table, L blocks of (LN, QKV+O with bias, LN, fc1/fc2 with bias), final LN.
// Shapes from transformers modeling_siglip.py / modeling_vit.py.
std::uint64_t vision_tower_params(Reader& r) {
    const VitShape v = read_vit_shape(r);
    if (!v.ok()) return 0;
    const std::uint64_t embed = v.ch * v.patch * v.patch * v.h + v.h + v.patches() * v.h;  // conv w+b, positions
    return embed + v.L * v.layer() + 2 * v.h;  // + post_layernorm
}

// Llama 4's vision encoder, pixel-shuffle adapter and projector (modeling_llama4.py): an unfold
// patch Linear without bias, a class embedding, (patches + 1) positions, LayerNorms before and
// after the L ViT blocks (the same blocks as above), Llama4VisionMLP2 fc1 intermediate ->
// projector_input_dim and fc2 projector_output_dim -> projector_output_dim (no biases), and the
// projector vision_output_dim -> text hidden (no bias). text_hidden 0 = no projector counted.
std::uint64_t llama4_vision_params(Reader& r, std::uint64_t text_hidden) {
    const VitShape v = read_vit_shape(r);
    std::uint64_t pin = 0, pout = 0, vout = 0;
    r.u64({"projector_input_dim"}, pin);
    r.u64({"projector_output_dim"}, pout);
    r.u64({"vision_output_dim"}, vout);
    if (!v.ok()) return 0;
    const std::uint64_t embed = v.ch * v.patch * v.patch * v.h + v.h + (v.patches() + 1) * v.h + 2 * (2 * v.h);
    return embed + v.L * v.layer() + v.i * pin + pout * pout + vout * text_hidden;
}

Result<ModelArch> parse_encoder(Reader& r, Family fam, ModelArch a, Notes warnings) {
    a.encoder = true;
    a.layer_norm = true;
    a.gated_mlp = false;
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.tie_word_embeddings = true;  // no separate LM head in the base model
    r.u64({"hidden_size"}, a.hidden_size);
    r.u64({"num_hidden_layers"}, a.num_layers);
    r.u64({"num_attention_heads"}, a.num_heads);
    r.u64({"intermediate_size"}, a.intermediate_size);
    if (fam == Family::bert) {
        // BertModel: word + position + token-type embeddings, embedding LayerNorm, post-LN
        // blocks, pooler (modeling_bert.py). The model card's 110M is this count.
        r.u64({"vocab_size"}, a.vocab_size);
        r.u64({"max_position_embeddings"}, a.max_position_embeddings);
        a.type_vocab_size = 2;
        r.u64({"type_vocab_size"}, a.type_vocab_size);
        a.learned_positions = true;
        a.embed_norm = true;
        a.final_norm = false;
        a.pooler = true;
    } else {
        // ViTForImageClassification: patch conv + [CLS] + positions, pre-LN blocks, final LN,
        // classifier h → num_labels (modeling_vit.py; no pooler in the classification model).
        a.image_size = 224;
        a.patch_size = 16;
        a.num_channels = 3;
        r.u64({"image_size"}, a.image_size);
        r.u64({"patch_size"}, a.patch_size);
        r.u64({"num_channels"}, a.num_channels);
        a.learned_positions = true;
        a.final_norm = true;
        if (const json* labels = r.find("id2label"); labels && labels->is_object()) a.num_labels = labels->size();
        else r.u64({"num_labels"}, a.num_labels);
        if (a.patch_size == 0 || a.image_size < a.patch_size) {
            return Result<ModelArch>::failure(
                {"out_of_range", r.prefix + "patch_size: must be between 1 and image_size", r.prefix + "patch_size"});
        }
        const std::uint64_t n = a.image_size / a.patch_size;
        a.max_position_embeddings = n * n + 1;  // patches + [CLS]
    }
    if (r.failed) return Result<ModelArch>::failure(r.error, warnings);
    for (auto [name, v] : {std::pair<const char*, std::uint64_t>{"hidden_size", a.hidden_size},
                           {"num_hidden_layers", a.num_layers},
                           {"num_attention_heads", a.num_heads}}) {
        if (v == 0)
            return Result<ModelArch>::failure({"missing_key", r.prefix + name + ": required, must be > 0", r.prefix + name},
                                              warnings);
    }
    if (a.hidden_size % a.num_heads != 0)
        return Result<ModelArch>::failure({"out_of_range", r.prefix + "num_attention_heads: must divide hidden_size",
                                           r.prefix + "num_attention_heads"},
                                          warnings);
    a.num_kv_heads = a.num_heads;
    a.head_dim = a.hidden_size / a.num_heads;
    if (a.intermediate_size == 0) a.intermediate_size = 4 * a.hidden_size;
    return Result<ModelArch>::success(a, warnings);
}

// [SECTION] Decoder keys

// The sizes every decoder config has (GPT-2 spells them n_embd, n_layer, n_head, n_inner, n_positions).
void read_sizes(Reader& r, ModelArch& a) {
    r.u64({"hidden_size", "n_embd", "n_embed", "d_model"}, a.hidden_size);
    r.u64({"num_hidden_layers", "n_layer", "num_layers"}, a.num_layers);
    r.u64({"num_attention_heads", "n_head", "num_heads"}, a.num_heads);
    r.u64({"vocab_size", "padded_vocab_size"}, a.vocab_size);
    r.u64({"max_position_embeddings", "n_positions", "seq_length"}, a.max_position_embeddings);
    a.num_kv_heads = 0;
    r.u64({"num_key_value_heads", "num_kv_heads", "multi_query_group_num", "n_head_kv"}, a.num_kv_heads);
    bool mq = false;
    if (r.flag({"multi_query"}, mq) && mq) a.num_kv_heads = 1;  // Falcon-7B, StarCoder
    r.u64({"head_dim"}, a.head_dim);                             // Qwen3, Gemma, gpt-oss: not hidden/heads
    r.u64({"intermediate_size", "n_inner", "ffn_hidden_size"}, a.intermediate_size);
}

// What each family implies beyond its keys: MLP and norm kinds, biases, tied embeddings, norms per layer.
void read_family(Reader& r, Family fam, ModelArch& a, Notes& warnings) {
    const std::string& mt = a.model_type;
    const bool classic = fam == Family::gpt2 || fam == Family::gpt_neox || fam == Family::bloom;
    a.gated_mlp = !classic;
    a.layer_norm = classic;
    a.tie_word_embeddings = fam == Family::gpt2 || fam == Family::bloom || fam == Family::gemma2 || fam == Family::gemma3;  // config defaults
    if (fam == Family::generic) {
        std::string act;
        r.text("hidden_act", act);
        if (act.empty()) r.text("activation_function", act);
        a.gated_mlp = act.empty() || act == "silu" || act == "swiglu" || act == "gelu_pytorch_tanh";
        warnings.add("hf_config: model_type '" + mt + "' is not a known family; read it as a generic decoder (RMSNorm, " +
                         (a.gated_mlp ? "gated MLP" : "plain MLP") + ", no biases unless attention_bias/mlp_bias)",
                     "hf_config:model_type '" + mt + "' 不是已知的模型族;按通用解码器读取(RMSNorm、" +
                         (a.gated_mlp ? "门控 MLP" : "普通 MLP") + ",除非设置 attention_bias/mlp_bias,否则无偏置)");
    }
    r.flag({"tie_word_embeddings"}, a.tie_word_embeddings);
    if (classic) {
        a.qkv_bias = a.o_bias = a.mlp_bias = true;
        a.learned_positions = fam == Family::gpt2;
        a.embed_norm = fam == Family::bloom;  // BLOOM word_embeddings_layernorm (ALiBi, no position table)
        if (a.intermediate_size == 0) a.intermediate_size = 4 * a.hidden_size;  // GPT-2 n_inner null = 4h
    }
    if (fam == Family::qwen2 || (fam == Family::qwen_moe && mt == "qwen2_moe")) a.qkv_bias = true;  // Qwen2: q,k,v bias, no o bias
    bool ab = false;
    if (r.flag({"attention_bias", "bias"}, ab)) {
        if (!(fam == Family::qwen2 || mt == "qwen2_moe")) a.qkv_bias = ab;
        a.o_bias = ab;
        if (mt == "qwen2_moe") a.o_bias = false;
    }
    r.flag({"mlp_bias"}, a.mlp_bias);
    if (fam == Family::gpt_oss) {
        a.mlp_bias = true;      // experts carry gate_up/down biases (modeling_gpt_oss.py)
        a.router_bias = true;   // router is nn.Linear with bias
        a.attn_sinks = true;    // per-head sink logits
    }
    a.qk_norm = fam == Family::qwen3 || mt == "qwen3_moe" || mt == "qwen3_vl_moe_text" || fam == Family::gemma3;
    if (fam == Family::gemma2 || fam == Family::gemma3) a.norms_per_layer = 4;  // pre/post attention and MLP
}

// Mixture of experts (three spellings of the expert count). The keys read, for error messages.
struct MoeKeys {
    std::string experts = "num_local_experts", topk = "num_experts_per_tok";
};
MoeKeys read_moe(Reader& r, ModelArch& a, Notes& warnings) {
    MoeKeys keys;
    r.u64({"num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"}, a.num_experts);
    keys.experts = r.last_key;
    if (a.num_experts > 0) {
        if (r.u64({"num_experts_per_tok", "experts_per_token", "moe_topk", "top_k"}, a.experts_per_token)) keys.topk = r.last_key;
        if (a.experts_per_token == 0) {
            a.experts_per_token = 2;
            warnings.add("hf_config: num_experts_per_tok missing; assumed top-2 routing",
                         "hf_config:缺少 num_experts_per_tok;假定 top-2 路由");
        }
        // Per-expert width: moe_intermediate_size (Qwen-MoE, DeepSeek), else intermediate_size
        // is per expert (Mixtral, gpt-oss).
        if (!r.u64({"moe_intermediate_size", "expert_intermediate_size"}, a.moe_intermediate_size))
            a.moe_intermediate_size = a.intermediate_size;
        r.u64({"n_shared_experts", "num_shared_experts"}, a.num_shared_experts);
        if (r.u64({"shared_expert_intermediate_size"}, a.shared_intermediate_size) && a.shared_intermediate_size > 0) {
            // Qwen2-MoE: one shared expert of that width, with a sigmoid gate h → 1.
            if (a.num_shared_experts == 0) a.num_shared_experts = 1;
            a.shared_expert_gate = true;
        } else if (a.num_shared_experts > 0) {
            a.shared_intermediate_size = a.moe_intermediate_size;  // DeepSeek: each shared = one expert wide
        }
        r.u64({"first_k_dense_replace"}, a.first_dense_layers);
        const std::int64_t mlp_only = r.array_size("mlp_only_layers");
        if (mlp_only > 0) a.first_dense_layers += static_cast<std::uint64_t>(mlp_only);
        r.u64({"moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step"}, a.moe_layer_freq);
        if (a.moe_layer_freq == 0) a.moe_layer_freq = 1;
        if (a.model_type == "llama4_text") {
            // Llama 4 (modeling_llama4.py): intermediate_size is the width of each routed expert and of
            // the one shared expert (no gate); dense layers use intermediate_size_mlp; the router has no bias.
            a.num_shared_experts = 1;
            a.shared_intermediate_size = a.moe_intermediate_size;
            r.u64({"intermediate_size_mlp"}, a.intermediate_size);
        }
        // DeepSeek-V3 noaux_tc routing keeps a per-expert score bias (e_score_correction_bias).
        std::string topk_method;
        if (r.text("topk_method", topk_method) && topk_method == "noaux_tc") a.router_bias = true;
    }

    return keys;
}

// Multi-head latent attention (DeepSeek-V2/V3, Kimi-K2).
void read_mla(Reader& r, ModelArch& a) {
    r.u64({"kv_lora_rank"}, a.kv_lora_rank);
    if (a.kv_lora_rank > 0) {
        r.u64({"q_lora_rank"}, a.q_lora_rank);  // null in DeepSeek-V2-Lite = full q projection
        r.u64({"qk_nope_head_dim"}, a.qk_nope_head_dim);
        r.u64({"qk_rope_head_dim"}, a.qk_rope_head_dim);
        r.u64({"v_head_dim"}, a.v_head_dim);
        r.u64({"num_nextn_predict_layers"}, a.mtp_layers);
        if (a.head_dim == 0) a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    }

}

// Sliding windows: layer_types (new configs), sliding_window_pattern (Gemma 3),
// use_sliding_window + max_window_layers (Qwen2), alternation (Gemma 2), all layers (Mistral, Phi-3).
void read_sliding_windows(Reader& r, Family fam, ModelArch& a, Notes& warnings) {
    r.u64({"sliding_window", "sliding_window_size"}, a.sliding_window);
    const std::int64_t n_types = r.array_size("layer_types");
    if (n_types >= 0) {
        std::uint64_t sliding = 0;
        if (const json* lt = r.find("layer_types"))
            for (const auto& t : *lt)
                if (t.is_string() && t.get<std::string>() == "sliding_attention") ++sliding;
        a.num_sliding_layers = sliding;
        if (static_cast<std::uint64_t>(n_types) != a.num_layers && a.num_layers > 0)
            warnings.add("hf_config: layer_types has " + std::to_string(n_types) + " entries for " +
                             std::to_string(a.num_layers) + " layers",
                         "hf_config:layer_types 有 " + std::to_string(n_types) + " 项,而模型有 " +
                             std::to_string(a.num_layers) + " 层");
    } else if (a.sliding_window > 0) {
        bool use_sw = true;
        const bool has_use = r.flag({"use_sliding_window"}, use_sw);
        std::uint64_t pattern = 0;
        if (fam == Family::qwen2 || fam == Family::qwen3 || fam == Family::qwen_moe) {
            // Qwen2 modeling: layer l uses the window iff use_sliding_window and l >= max_window_layers.
            std::uint64_t mwl = a.num_layers;
            r.u64({"max_window_layers"}, mwl);
            a.num_sliding_layers = (has_use && use_sw && mwl < a.num_layers) ? a.num_layers - mwl : 0;
        } else if (!use_sw) {
            a.num_sliding_layers = 0;
        } else if (r.u64({"sliding_window_pattern"}, pattern) && pattern > 0) {
            a.num_sliding_layers = a.num_layers - a.num_layers / pattern;  // every pattern-th layer is global
        } else if (fam == Family::gemma3) {
            a.num_sliding_layers = a.num_layers - a.num_layers / 6;  // Gemma 3 default pattern 6 (5 local : 1 global)
        } else if (fam == Family::gemma2) {
            a.num_sliding_layers = (a.num_layers + 1) / 2;  // even layers local (modeling_gemma2.py)
        } else {
            a.num_sliding_layers = a.num_layers;  // Mistral-7B-v0.1, Phi-3: every layer
        }
    } else if (a.model_type == "llama4_text") {
        // Llama 4 chunked attention: the RoPE layers attend within chunks of attention_chunk_size, so
        // they keep at most that many tokens of KV, like a window; every no_rope_layer_interval-th
        // layer (default 4) is global NoPE (configuration_llama4.py: no_rope_layers). Read as windows.
        std::uint64_t chunk = 0, interval = 4;
        if (r.u64({"attention_chunk_size"}, chunk) && chunk > 0) {
            a.sliding_window = chunk;
            if (const json* nr = r.find("no_rope_layers"); nr && nr->is_array()) {
                std::uint64_t rope = 0;
                for (const auto& v : *nr) rope += (v.is_number_integer() && v.get<std::int64_t>() != 0) || (v.is_boolean() && v.get<bool>());
                a.num_sliding_layers = rope;
            } else {
                r.u64({"no_rope_layer_interval"}, interval);
                a.num_sliding_layers = interval ? a.num_layers - a.num_layers / interval : a.num_layers;
            }
        }
    }
    if (a.num_sliding_layers == 0) a.sliding_window = 0;
    if (a.sliding_window == 0) a.num_sliding_layers = 0;

}

// Required keys and consistency; fills what follows from them (MHA KV heads, head_dim).
std::optional<Error> check_decoder(const Reader& r, const MoeKeys& keys, ModelArch& a) {
    for (auto [name, v] : {std::pair<const char*, std::uint64_t>{"hidden_size", a.hidden_size},
                           {"num_hidden_layers", a.num_layers},
                           {"num_attention_heads", a.num_heads},
                           {"vocab_size", a.vocab_size}}) {
        if (v == 0) return Error{"missing_key", r.prefix + name + ": required, must be > 0", r.prefix + name};
    }
    if (a.num_kv_heads == 0) a.num_kv_heads = a.num_heads;  // MHA when absent
    if (a.num_kv_heads > a.num_heads || a.num_heads % a.num_kv_heads != 0)
        return Error{"out_of_range",
                     r.prefix + "num_key_value_heads: " + std::to_string(a.num_kv_heads) +
                         " must divide num_attention_heads (" + std::to_string(a.num_heads) + ")",
                     r.prefix + "num_key_value_heads"};
    if (a.head_dim == 0) {
        if (a.hidden_size % a.num_heads != 0)
            return Error{"missing_key",
                         r.prefix +
                             "head_dim: required when num_attention_heads does "
                             "not divide hidden_size",
                         r.prefix + "head_dim"};
        a.head_dim = a.hidden_size / a.num_heads;
    }
    if (a.intermediate_size == 0 && a.num_experts == 0)
        return Error{"missing_key", r.prefix + "intermediate_size: required, must be > 0",
                     r.prefix + "intermediate_size"};
    if (a.num_experts > 0 && a.experts_per_token > a.num_experts)
        return Error{"out_of_range",
                     r.prefix + keys.topk + ": " + std::to_string(a.experts_per_token) + " is more than " +
                         keys.experts + " (" + std::to_string(a.num_experts) + ")",
                     r.prefix + keys.topk};
    if (a.first_dense_layers > a.num_layers) a.first_dense_layers = a.num_layers;
    if (a.num_sliding_layers > a.num_layers) a.num_sliding_layers = a.num_layers;
    return std::nullopt;
}

Result<ModelArch> parse_decoder(Reader& r, Family fam, ModelArch a, Notes warnings) {
    read_sizes(r, a);
    read_family(r, fam, a, warnings);
    const MoeKeys keys = read_moe(r, a, warnings);
    read_mla(r, a);
    read_sliding_windows(r, fam, a, warnings);
    if (r.failed) return Result<ModelArch>::failure(r.error, warnings);
    if (auto e = check_decoder(r, keys, a)) return Result<ModelArch>::failure(*e, warnings);
    if (a.mtp_layers > 0)
        warnings.add("hf_config: " + std::to_string(a.mtp_layers) +
                         " multi-token-prediction layer(s) are not counted in the parameters (serving engines skip them "
                         "unless speculative decoding is on); model_bytes includes them, as the checkpoint stores them",
                     "hf_config:" + std::to_string(a.mtp_layers) +
                         " 个多 token 预测(MTP)层不计入参数量(除非开启投机解码,推理引擎会跳过它们);"
                         "model_bytes 包含它们,因为检查点存有这些层");
    return Result<ModelArch>::success(a, warnings);
}

}  // namespace

// [SECTION] parse_hf_config

Result<ModelArch> parse_hf_config(std::string_view json_text) {
    constexpr std::size_t k_max_bytes = 4 * 1024 * 1024;
    if (json_text.size() > k_max_bytes)
        return Result<ModelArch>::failure({"too_large",
                                           "hf_config: " + std::to_string(json_text.size()) + " bytes; the limit is " +
                                               std::to_string(k_max_bytes) + " (4 MiB)",
                                           ""});
    if (!detail::nesting_within(json_text, 32))
        return Result<ModelArch>::failure({"too_deep", "hf_config: nested deeper than 32 levels", ""});
    const json root = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (root.is_discarded()) return Result<ModelArch>::failure({"bad_json", "hf_config: not valid JSON", ""});
    return detail::parse_hf_config_object(root);
}

namespace {

// CLIP (or a bare CLIP vision config): its vision tower as a ViT, plus the visual projection.
Result<ModelArch> parse_clip_vision(const json& root, Reader& top, const std::string& mt, ModelArch& a, Notes& warnings) {
    const json* vc = mt == "clip" ? top.find("vision_config") : &root;
    if (!vc || !vc->is_object())
        return Result<ModelArch>::failure({"missing_key", "vision_config: required for a CLIP config (its vision tower is sized)", "vision_config"});
    Reader vr{*vc, mt == "clip" ? "vision_config." : ""};
    Result<ModelArch> v = parse_encoder(vr, Family::vit, a, warnings);
    if (!v.ok()) return v;
    v->model_type = "clip_vision_model";
    v->kind = "vit";
    v->num_labels = 0;
    std::uint64_t proj = 0;
    if (mt == "clip") top.u64({"projection_dim"}, proj);
    v->add_embed_dim = proj;
    if (top.failed) return Result<ModelArch>::failure(top.error);
    v.warnings.add("hf_config: CLIP's vision tower" + std::string(proj ? " and visual projection" : "") +
                       " (the image side; the text tower is not counted)",
                   "hf_config:CLIP 的视觉塔" + std::string(proj ? "和视觉投影" : "") + "(图像侧;文本塔不计入)");
    return v;
}

// A multimodal wrapper's vision tower (and projector) as extra parameters of the language model
// read by `r`; the error of a malformed vision_config.
std::optional<Error> wrapper_vision(Reader& top, Reader& r, ModelArch& a, Notes& warnings) {
    const json* vc = top.find("vision_config");
    if (!vc || !vc->is_object()) return std::nullopt;
    Reader vr{*vc, "vision_config."};
    std::string vision_type;
    vr.text("model_type", vision_type);
    std::uint64_t vh = 0, th = 0;
    vr.u64({"hidden_size"}, vh);
    r.u64({"hidden_size"}, th);
    if (vision_type == "llama4_vision_model") {
        a.extra_params = llama4_vision_params(vr, th);
    } else {
        a.extra_params = vision_tower_params(vr);
        // Gemma 3's projector: RMSNorm + vision_hidden × text_hidden (modeling_gemma3.py).
        if (a.extra_params > 0) a.extra_params += vh + vh * th;
    }
    if (vr.failed) return vr.error;
    if (a.extra_params > 0)
        warnings.add("hf_config: vision tower counted as " + std::to_string(a.extra_params) +
                         " extra parameters (weights only; image activations not modelled)",
                     "hf_config:视觉塔计为 " + std::to_string(a.extra_params) + " 个额外参数(仅权重;未对图像激活建模)");
    return std::nullopt;
}

// The checkpoint as stored: quantization_config (older compressed-tensors: compression_config),
// at the top or, for a multimodal wrapper, in text_config.
void checkpoint_quantization(Reader& top, Reader& r, bool nested, Family fam, const std::string& mt, Result<ModelArch>& out) {
    const char* where = "quantization_config";
    const json* qc = top.find("quantization_config");
    if (!qc) qc = top.find(where = "compression_config");
    if (!qc && nested) qc = r.find("quantization_config"), where = "text_config.quantization_config";
    if (!qc) return;
    using detail::ModuleNaming;
    ModuleNaming naming = ModuleNaming::llama;
    if (fam == Family::gpt_oss) naming = ModuleNaming::gpt_oss;
    else if (fam == Family::qwen_moe) naming = ModuleNaming::qwen_moe;
    else if (fam == Family::deepseek) naming = ModuleNaming::deepseek;
    else if (mt == "phimoe" || (fam == Family::mistral && out->num_experts > 0)) naming = ModuleNaming::mixtral;
    else if (fam == Family::phi3) naming = ModuleNaming::phi3;
    Notes notes;
    detail::read_quantization_config(*qc, where, naming, nested, *out.value, notes);
    out.warnings.append(notes);
}

}  // namespace

namespace detail {

Result<ModelArch> parse_hf_config_object(const json& root) {
    if (!root.is_object()) return Result<ModelArch>::failure({"bad_json", "hf_config: not a JSON object", ""});
    Notes warnings;
    ModelArch a;
    Reader top{root, ""};
    std::string mt;
    top.text("model_type", mt);
    if (top.failed) return Result<ModelArch>::failure(top.error);
    // Vision, diffusion and speech models (kinds.cpp); CLIP's vision tower is a ViT.
    {
        Result<ModelArch> kind_out = Result<ModelArch>::failure({"internal", "", ""});
        if (kinds::parse_kind_config(root, mt, kind_out)) return kind_out;
    }
    if (mt == "clip" || mt == "clip_vision_model") return parse_clip_vision(root, top, mt, a, warnings);
    // Multimodal wrappers (Gemma 3, Llava, Qwen2-VL, Llama 4) keep the language model in text_config.
    const json* text_cfg = top.find("text_config");
    const bool nested = text_cfg && text_cfg->is_object() && !top.has("hidden_size");
    Reader r{nested ? *text_cfg : root, nested ? "text_config." : ""};
    if (nested) {
        std::string inner;
        r.text("model_type", inner);
        if (!inner.empty()) mt = inner;
        if (std::optional<Error> err = wrapper_vision(top, r, a, warnings)) return Result<ModelArch>::failure(*err);
        // Gemma 3 keeps tie_word_embeddings at the top level.
        bool tie = true;
        if (top.flag({"tie_word_embeddings"}, tie)) a.tie_word_embeddings = tie;
    }
    if (mt.empty()) {
        warnings.add("hf_config: no model_type; read as a generic decoder", "hf_config:没有 model_type;按通用解码器读取");
        mt = "unknown";
    }
    a.model_type = mt;
    const Family fam = family_of(mt);
    Result<ModelArch> out = (fam == Family::bert || fam == Family::vit) ? parse_encoder(r, fam, a, warnings)
                                                                        : parse_decoder(r, fam, a, warnings);
    if (out.ok() && fam == Family::vit && !nested) out->kind = "vit";  // images in: their own units (kinds.cpp)
    if (out.ok() && nested) {
        bool tie = true;
        if (top.flag({"tie_word_embeddings"}, tie) && !r.has("tie_word_embeddings")) out->tie_word_embeddings = tie;
    }
    if (out.ok()) checkpoint_quantization(top, r, nested, fam, mt, out);
    return out;
}

}  // namespace detail

// [SECTION] infer_dense_arch

ModelArch infer_dense_arch(double params_b) {
    // A Llama-3-like decoder: V = 128256 (untied), d = 128, GQA with 8 KV heads, SwiGLU with
    // i ≈ 3.5h rounded to 256, L ≈ h/128 (Llama 3 8B: 4096/32; 70B: 8192/80 ≈ h/102). We pick
    // the hidden size h (multiple of 128) whose count is closest to the target.
    ModelArch a;
    a.model_type = "llama";
    a.inferred = true;
    a.vocab_size = 128256;
    a.head_dim = 128;
    a.gated_mlp = true;
    a.max_position_embeddings = 131072;
    double target = params_b * 1e9;
    if (!(target > 0)) target = 1e6;
    if (target > 1e14) target = 1e14;
    // For each h, the layer count that best meets the target, kept within 0.5–2× the h/128 aspect.
    double best_err = -1;
    for (std::uint64_t h = 128; h <= 262144; h += 128) {
        const std::uint64_t heads = h / 128;
        const std::uint64_t kv = heads >= 8 ? 8 : heads;
        const std::uint64_t i = (h * 7 / 2 + 255) / 256 * 256;
        const double hd = static_cast<double>(h);
        const double per_layer = hd * hd * 2 + 2 * hd * static_cast<double>(kv * 128) + 3 * hd * static_cast<double>(i) + 2 * hd;
        const double fixed = 2 * 128256.0 * hd + hd;
        const double aspect = hd / 128;
        double L = std::floor((target - fixed) / per_layer + 0.5);
        const double lo = std::fmax(2, std::floor(aspect / 2)), hi = std::fmin(1000, std::fmax(2, aspect * 2));
        if (L < lo) L = lo;
        if (L > hi) L = hi;
        const double total = L * per_layer + fixed;
        const double err = std::fabs(total - target);
        if (best_err < 0 || err < best_err) {
            best_err = err;
            a.hidden_size = h;
            a.num_heads = heads;
            a.num_kv_heads = kv;
            a.intermediate_size = i;
            a.num_layers = static_cast<std::uint64_t>(L);
        }
        if (fixed + lo * per_layer > target * 2) break;
    }
    return a;
}

}  // namespace gpusizer
