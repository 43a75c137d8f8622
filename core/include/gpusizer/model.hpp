#pragma once
// One model description, whatever it came from: a Hugging Face config.json, a catalog
// preset (which is a config.json too) or a bare parameter count.
//
// The fields live in one X-macro table so that the struct, equality, JSON output and the
// share-link codec all follow from the same list. Add a field here and every consumer
// learns about it. X(type, member, hf_key, link_key, default)
//   type: u64 (counts and sizes), flag (bool) or text (std::string)
//   hf_key: the config.json key it usually comes from (documentation; parsing handles aliases)
//   link_key: short key inside the share link's model part (unique)

#include <cstdint>
#include <string>
#include <string_view>

#include "gpusizer/result.hpp"

namespace gpusizer {

#define GPUSIZER_ARCH_FIELDS(X)                                                                   \
    X(text, model_type, "model_type", "mt", "")                  /* HF model_type, e.g. llama */   \
    X(u64, vocab_size, "vocab_size", "V", 0)                                                     \
    X(u64, hidden_size, "hidden_size", "h", 0)                                                   \
    X(u64, num_layers, "num_hidden_layers", "L", 0)                                              \
    X(u64, num_heads, "num_attention_heads", "a", 0)                                             \
    X(u64, num_kv_heads, "num_key_value_heads", "k", 0)           /* = heads for MHA */          \
    X(u64, head_dim, "head_dim", "d", 0)                          /* not always hidden/heads */  \
    X(u64, intermediate_size, "intermediate_size", "i", 0)        /* dense MLP width */          \
    X(flag, gated_mlp, "hidden_act", "g", true)                   /* SwiGLU/GeGLU: 3 matrices */ \
    X(flag, tie_word_embeddings, "tie_word_embeddings", "tie", false)                            \
    X(flag, qkv_bias, "attention_bias", "qb", false)              /* bias on q,k,v */            \
    X(flag, o_bias, "attention_bias", "ob", false)                /* bias on o_proj */           \
    X(flag, mlp_bias, "mlp_bias", "mb", false)                                                   \
    X(flag, layer_norm, "layer_norm_eps", "ln", false)            /* LayerNorm (w+b), else RMS */\
    X(flag, qk_norm, "model_type", "qkn", false)                  /* per-head q/k norm (Qwen3) */\
    X(u64, max_position_embeddings, "max_position_embeddings", "pos", 0)                        \
    X(flag, learned_positions, "n_positions", "lp", false)        /* GPT-2/BERT/ViT tables */    \
    X(u64, type_vocab_size, "type_vocab_size", "tv", 0)           /* BERT token types */         \
    X(flag, encoder, "is_decoder", "enc", false)                  /* bidirectional, no KV cache */\
    X(u64, num_experts, "num_local_experts", "E", 0)              /* routed experts; 0 = dense */\
    X(u64, experts_per_token, "num_experts_per_tok", "K", 0)                                     \
    X(u64, moe_intermediate_size, "moe_intermediate_size", "mi", 0) /* per routed expert */      \
    X(u64, num_shared_experts, "n_shared_experts", "S", 0)                                       \
    X(u64, shared_intermediate_size, "shared_expert_intermediate_size", "si", 0) /* per shared */\
    X(u64, first_dense_layers, "first_k_dense_replace", "fkd", 0)                                \
    X(u64, moe_layer_freq, "moe_layer_freq", "mf", 1)             /* every n-th layer is MoE */  \
    X(flag, router_bias, "router_bias", "rb", false)                                             \
    X(flag, shared_expert_gate, "shared_expert_gate", "seg", false) /* Qwen2-MoE h->1 gate */    \
    X(u64, q_lora_rank, "q_lora_rank", "qlr", 0)                  /* MLA; 0 = full q proj */     \
    X(u64, kv_lora_rank, "kv_lora_rank", "kvr", 0)                /* MLA when > 0 */             \
    X(u64, qk_nope_head_dim, "qk_nope_head_dim", "qn", 0)                                        \
    X(u64, qk_rope_head_dim, "qk_rope_head_dim", "qr", 0)                                        \
    X(u64, v_head_dim, "v_head_dim", "vd", 0)                                                    \
    X(u64, mtp_layers, "num_nextn_predict_layers", "mtp", 0)      /* DeepSeek MTP modules */     \
    X(u64, sliding_window, "sliding_window", "sw", 0)             /* tokens; 0 = none */         \
    X(u64, num_sliding_layers, "layer_types", "nsl", 0)           /* layers that use the window */\
    X(u64, image_size, "image_size", "img", 0)                    /* ViT */                      \
    X(u64, patch_size, "patch_size", "ps", 0)                                                    \
    X(u64, num_channels, "num_channels", "ch", 0)                                                \
    X(u64, norms_per_layer, "", "nl", 2)                          /* Gemma 2/3: 4 (pre+post) */  \
    X(flag, final_norm, "", "fn", true)                           /* norm after the last layer */\
    X(flag, embed_norm, "", "en", false)                          /* BERT: LayerNorm on embeddings*/\
    X(flag, attn_sinks, "", "snk", false)                         /* gpt-oss: one sink per head */\
    X(flag, pooler, "", "pool", false)                            /* BERT/ViT pooler h->h */      \
    X(u64, num_labels, "id2label", "nlab", 0)                     /* classifier head (ViT) */    \
    X(u64, extra_params, "vision_config", "xp", 0)                /* vision tower + projector */ \
    /* Other kinds (core/src/model/kinds.cpp): "" = a transformer over tokens (decoder, BERT); */ \
    /* cnn (ResNet, ConvNeXt), vit (ViT/DeiT/CLIP vision: images in, tokens inside), unet, dit, whisper */ \
    X(text, kind, "model_type", "kd", "")                                                       \
    X(text, stage_depths, "depths", "sdp", "")                    /* CNN blocks per stage; UNet transformer layers per block */ \
    X(text, stage_widths, "hidden_sizes", "swd", "")              /* CNN stage widths; UNet block_out_channels */ \
    X(flag, bottleneck, "layer_type", "bot", false)               /* ResNet bottleneck blocks */ \
    X(u64, layers_per_block, "layers_per_block", "lpb", 0)        /* UNet resnets per down block */\
    X(u64, context_dim, "cross_attention_dim", "cx", 0)           /* UNet cross-attn; DiT joint_attention_dim */\
    X(u64, add_embed_dim, "projection_class_embeddings_input_dim", "ae", 0) /* SDXL; DiT pooled_projection_dim */\
    X(u64, single_layers, "num_single_layers", "sgl", 0)          /* Flux single-stream blocks */ \
    X(flag, guidance_embeds, "guidance_embeds", "ge", false)      /* Flux-dev guidance embedder */\
    X(u64, encoder_layers, "encoder_layers", "el", 0)             /* Whisper encoder */          \
    X(u64, num_mel_bins, "num_mel_bins", "mel", 0)                                              \
    X(u64, source_positions, "max_source_positions", "srcp", 0)   /* Whisper: 1500 frames per 30 s */\
    X(u64, frozen_params, "", "frz", 0)                           /* diffusion: text encoders + VAE (counted in total, never trained) */\
    X(flag, inferred, "", "inf", false)                           /* shape guessed from params_b */\
    /* The checkpoint as stored (quantization_config); quant_method "" = stored as weight_dtype. */ \
    X(text, quant_method, "quantization_config", "qm", "")        /* fp8, mxfp4, gptq, awq, ... */\
    X(u64, quant_bits, "quantization_config", "qbt", 0)           /* bits per stored weight; 0 = not understood */\
    X(u64, quant_group, "quantization_config", "qg", 0)           /* input columns per scale; 0 = whole row */\
    X(u64, quant_group_rows, "quantization_config", "qgr", 1)     /* output rows per scale; 0 = all (per tensor) */\
    X(u64, quant_scale_bits, "quantization_config", "qsb", 0)     /* bits per scale */           \
    X(u64, quant_zero_bits, "quantization_config", "qzb", 0)      /* bits per zero point (one per scale) */\
    X(u64, quant_scale2_group, "quantization_config", "qs2", 0)   /* scales per fp32 2nd-level scale (bnb DQ) */\
    X(u64, quant_index_bits, "quantization_config", "qix", 0)     /* per input column (GPTQ g_idx: 32) */\
    X(u64, quant_attn_layers, "modules_to_not_convert", "qal", 0) /* layers with quantized attention */\
    X(u64, quant_mlp_layers, "modules_to_not_convert", "qml", 0)  /* dense layers with quantized MLP */\
    X(u64, quant_moe_layers, "modules_to_not_convert", "qel", 0)  /* MoE layers with quantized experts */\
    X(u64, quant_shared_layers, "modules_to_not_convert", "qsl", 0) /* MoE layers, quantized shared experts */\
    X(flag, quant_lm_head, "quantization_config", "qlm", false)   /* LM head quantized too */

#define GPUSIZER_ARCH_TYPE_u64 std::uint64_t
#define GPUSIZER_ARCH_TYPE_flag bool
#define GPUSIZER_ARCH_TYPE_text std::string

struct ModelArch {
#define GPUSIZER_X(type, member, hf, link, def) GPUSIZER_ARCH_TYPE_##type member = def;
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
};

bool operator==(const ModelArch& a, const ModelArch& b);
inline bool operator!=(const ModelArch& a, const ModelArch& b) { return !(a == b); }

// Parse a Hugging Face config.json text into a ModelArch. Errors name the key; assumptions
// and unknown/unsupported features come back as warnings.
Result<ModelArch> parse_hf_config(std::string_view json_text);

// A plausible dense decoder (Llama-like) of about params_b billion parameters; `inferred` set.
ModelArch infer_dense_arch(double params_b);

}  // namespace gpusizer
