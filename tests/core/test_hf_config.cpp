// parse_hf_config: every fixture config parses, and the traps of shared/data/hf_configs/SOURCES.md
// are read the way the transformers modeling code reads them.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusizer/link.hpp"
#include "gpusizer/memory.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/scenario.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {
const char* const k_fixtures[] = {
    "deepseek-r1", "deepseek-v3", "gpt-oss-120b", "gpt-oss-20b", "kimi-k2", "llama-2-7b", "llama-3.1-405b",
    "llama-3.1-70b", "llama-3.1-8b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b", "mixtral-8x22b",
    "mixtral-8x7b", "phi-4", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-3b", "qwen2.5-7b", "qwen3-0.6b",
    "qwen3-1.7b", "qwen3-14b", "qwen3-235b-a22b", "qwen3-30b-a3b", "qwen3-32b", "qwen3-8b",
    "qwen3-coder-480b-a35b"};

ModelArch fixture(const std::string& id) { return gpusizer_test::config_fixture(id); }
// Within 2% of the requested size (the inferred shape's own count, from params.cpp).
bool param_count_close(const ModelArch& a, double target) {
    const double got = static_cast<double>(param_detail(a).total);
    return got > target * 0.98 && got < target * 1.02;
}
}  // namespace

TEST_CASE("test_hf_config: every fixture config parses") {
    for (const char* id : k_fixtures) {
        CAPTURE(id);
        const ModelArch a = fixture(id);
        CHECK(a.hidden_size > 0);
        CHECK(a.num_layers > 0);
        CHECK(a.vocab_size > 0);
        CHECK(a.num_heads % a.num_kv_heads == 0);
    }
}

TEST_CASE("test_hf_config: Llama 3.1 8B keys") {
    const ModelArch a = fixture("llama-3.1-8b");
    CHECK(a.model_type == "llama");
    CHECK(a.hidden_size == 4096);
    CHECK(a.num_layers == 32);
    CHECK(a.num_heads == 32);
    CHECK(a.num_kv_heads == 8);
    CHECK(a.head_dim == 128);  // derived: 4096 / 32
    CHECK(a.intermediate_size == 14336);
    CHECK(a.vocab_size == 128256);
    CHECK_FALSE(a.tie_word_embeddings);
    CHECK(a.gated_mlp);
    CHECK_FALSE(a.layer_norm);
    CHECK(a.num_experts == 0);
}

TEST_CASE("test_hf_config: head_dim is read, not hidden/heads (Qwen3-0.6B, gpt-oss)") {
    CHECK(fixture("qwen3-0.6b").head_dim == 128);  // 1024 / 16 would say 64
    CHECK(fixture("qwen3-0.6b").qk_norm);
    CHECK(fixture("gpt-oss-20b").head_dim == 64);  // 2880 / 64 = 45 would be wrong
    CHECK(fixture("llama-3.2-1b").tie_word_embeddings);
}

TEST_CASE("test_hf_config: MoE spellings and per-expert widths") {
    const ModelArch mx = fixture("mixtral-8x7b");  // num_local_experts, intermediate_size per expert
    CHECK(mx.num_experts == 8);
    CHECK(mx.experts_per_token == 2);
    CHECK(mx.moe_intermediate_size == 14336);
    const ModelArch q = fixture("qwen3-30b-a3b");  // num_experts, moe_intermediate_size
    CHECK(q.num_experts == 128);
    CHECK(q.experts_per_token == 8);
    CHECK(q.moe_intermediate_size == 768);
    CHECK(q.num_shared_experts == 0);
    const ModelArch g = fixture("gpt-oss-20b");  // experts_per_token spelling, biases, sinks
    CHECK(g.num_experts == 32);
    CHECK(g.experts_per_token == 4);
    CHECK(g.moe_intermediate_size == 2880);
    CHECK(g.router_bias);
    CHECK(g.attn_sinks);
}

TEST_CASE("test_hf_config: MLA models keep their latent sizes (num_key_value_heads says nothing)") {
    const ModelArch d = fixture("deepseek-v3");
    CHECK(d.num_experts == 256);  // n_routed_experts
    CHECK(d.num_shared_experts == 1);
    CHECK(d.shared_intermediate_size == 2048);
    CHECK(d.first_dense_layers == 3);
    CHECK(d.kv_lora_rank == 512);
    CHECK(d.q_lora_rank == 1536);
    CHECK(d.qk_rope_head_dim == 64);
    CHECK(d.qk_nope_head_dim == 128);
    CHECK(d.v_head_dim == 128);
    CHECK(d.mtp_layers == 1);
    CHECK(d.router_bias);  // noaux_tc e_score_correction_bias
    const ModelArch k = fixture("kimi-k2");
    CHECK(k.num_experts == 384);
    CHECK(k.first_dense_layers == 1);
    CHECK(k.mtp_layers == 0);
}

TEST_CASE("test_hf_config: sliding windows") {
    const ModelArch g = fixture("gpt-oss-20b");  // layer_types alternates sliding/full
    CHECK(g.sliding_window == 128);
    CHECK(g.num_sliding_layers == 12);
    // Qwen2.5 writes sliding_window 131072 but use_sliding_window false: no window.
    const ModelArch q = fixture("qwen2.5-7b");
    CHECK(q.sliding_window == 0);
    CHECK(q.num_sliding_layers == 0);
    CHECK(q.qkv_bias);
    CHECK_FALSE(q.o_bias);
    // Mistral-7B-v0.1 style: a window on every layer.
    Result<ModelArch> m = parse_hf_config(R"({"model_type":"mistral","hidden_size":4096,"num_hidden_layers":32,
        "num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":14336,"vocab_size":32000,
        "sliding_window":4096})");
    REQUIRE(m.ok());
    CHECK(m->num_sliding_layers == 32);
    // Gemma 3 inside text_config, 5 local : 1 global.
    Result<ModelArch> g3 = parse_hf_config(R"({"model_type":"gemma3","text_config":{"model_type":"gemma3_text",
        "hidden_size":5376,"num_hidden_layers":62,"num_attention_heads":32,"num_key_value_heads":16,"head_dim":128,
        "intermediate_size":21504,"vocab_size":262208,"sliding_window":1024,"sliding_window_pattern":6}})");
    REQUIRE(g3.ok());
    CHECK(g3->hidden_size == 5376);
    CHECK(g3->num_sliding_layers == 62 - 10);
    CHECK(g3->tie_word_embeddings);
    CHECK(g3->norms_per_layer == 4);
}

TEST_CASE("test_hf_config: Llama 4 (llama4_text in text_config: interleaved MoE, shared expert, chunked attention)") {
    // The shapes of meta-llama/Llama-4-Scout-17B-16E-Instruct (assets/src/models/llama-4-scout-17b-16e-instruct.json).
    const std::string text = R"("text_config":{"model_type":"llama4_text","hidden_size":5120,"num_hidden_layers":48,
        "num_attention_heads":40,"num_key_value_heads":8,"head_dim":128,"intermediate_size":8192,
        "intermediate_size_mlp":16384,"num_local_experts":16,"num_experts_per_tok":1,"vocab_size":202048,
        "attention_chunk_size":8192,"use_qk_norm":true,)";
    const std::string vision = R"("vision_config":{"model_type":"llama4_vision_model","hidden_size":1408,
        "num_hidden_layers":34,"intermediate_size":5632,"image_size":336,"patch_size":14,"num_channels":3,
        "projector_input_dim":4096,"projector_output_dim":4096,"vision_output_dim":4096})";
    Result<ModelArch> s = parse_hf_config(R"({"model_type":"llama4",)" + text + R"("interleave_moe_layer_step":1},)" + vision + "}");
    REQUIRE(s.ok());
    CHECK(s->model_type == "llama4_text");
    CHECK(s->moe_intermediate_size == 8192);      // routed experts: intermediate_size
    CHECK(s->intermediate_size == 16384);         // dense layers: intermediate_size_mlp
    CHECK(s->num_shared_experts == 1);
    CHECK(s->shared_intermediate_size == 8192);
    CHECK_FALSE(s->shared_expert_gate);
    CHECK_FALSE(s->router_bias);
    CHECK_FALSE(s->qk_norm);                      // use_qk_norm is an L2 norm without weights
    CHECK_FALSE(s->tie_word_embeddings);
    CHECK(s->sliding_window == 8192);             // chunked attention on the RoPE layers
    CHECK(s->num_sliding_layers == 36);           // every 4th of 48 layers is global (NoPE)
    // Vision (modeling_llama4.py): unfold Linear 3*14*14*1408 = 827,904; class 1,408; positions 577*1408 = 812,416;
    // pre/post LayerNorm 4*1408 = 5,632; 34 blocks of 4*(1408^2+1408) + (1408*5632+5632) + (5632*1408+1408) + 4*1408
    // = 23,807,872 -> 809,467,648; adapter 5632*4096 + 4096*4096 = 39,845,888; projector 4096*5120 = 20,971,520.
    CHECK(s->extra_params == 871932416ULL);
    const ParamDetail ds = param_detail(*s);
    CHECK(ds.moe_layers == 48);
    CHECK(ds.dense_layers == 0);
    // Per layer: attention 2*5120^2 + 2*5120*1024 = 62,914,560; norms 10,240; 16 experts of 3*5120*8192 = 125,829,120
    // each; shared 125,829,120; router 5120*16 = 81,920 -> 2,202,101,760. 48 layers = 105,700,884,480; embeddings and
    // untied head 2*202048*5120 = 2,068,971,520; final norm 5,120; vision 871,932,416 -> 108,641,793,536, the
    // safetensors total of the Hub checkpoint (the card's "109B (Total)").
    CHECK(ds.total == 108641793536ULL);
    // Active: one expert + the shared expert per layer: 48 * 314,664,960 + 2,068,976,640 + 871,932,416
    // = 18,044,827,136 (17.17 B without the vision weights: the card's "17B (Activated)").
    CHECK(ds.active == 18044827136ULL);

    // Maverick: 128 experts on every second layer; the 24 others dense (3*5120*16384 = 251,658,240).
    std::string mav_text = text;
    mav_text.replace(mav_text.find("\"num_local_experts\":16"), 22, "\"num_local_experts\":128");
    Result<ModelArch> m = parse_hf_config(R"({"model_type":"llama4",)" + mav_text + R"("interleave_moe_layer_step":2},)" + vision + "}");
    REQUIRE(m.ok());
    const ParamDetail dm = param_detail(*m);
    CHECK(dm.moe_layers == 24);
    CHECK(dm.dense_layers == 24);
    // 24 * (62,924,800 + 128*125,829,120 + 125,829,120 + 5120*128) + 24 * (62,924,800 + 251,658,240)
    // + 2,068,976,640 + 871,932,416 = 401,583,781,376 (the card's "400B (Total)").
    CHECK(dm.total == 401583781376ULL);
}

TEST_CASE("test_hf_config: GPT-2 aliases") {
    Result<ModelArch> r = parse_hf_config(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,
        "n_positions":1024,"n_inner":null,"vocab_size":50257,"activation_function":"gelu_new"})");
    REQUIRE(r.ok());
    CHECK(r->hidden_size == 768);
    CHECK(r->num_layers == 12);
    CHECK(r->intermediate_size == 3072);
    CHECK(r->learned_positions);
    CHECK(r->layer_norm);
    CHECK_FALSE(r->gated_mlp);
    CHECK(r->tie_word_embeddings);
}

TEST_CASE("test_hf_config: wrong types and missing keys are errors naming the key") {
    Result<ModelArch> r = parse_hf_config(R"({"model_type":"llama","hidden_size":"4096","num_hidden_layers":32,
        "num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.path == "hidden_size");
    CHECK(r.error.message.find("hidden_size") != std::string::npos);
    Result<ModelArch> m = parse_hf_config(R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,
        "intermediate_size":11008,"vocab_size":32000})");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error.path == "num_hidden_layers");
    Result<ModelArch> neg = parse_hf_config(R"({"model_type":"llama","hidden_size":-1})");
    REQUIRE_FALSE(neg.ok());
    CHECK(neg.error.path == "hidden_size");
    CHECK_FALSE(parse_hf_config("not json").ok());
    CHECK_FALSE(parse_hf_config("[1,2]").ok());
}

TEST_CASE("test_hf_config: unknown model_type reads generic decoder keys and warns") {
    Result<ModelArch> r = parse_hf_config(R"({"model_type":"brand_new","hidden_size":1024,"num_hidden_layers":4,
        "num_attention_heads":8,"intermediate_size":4096,"vocab_size":1000})");
    REQUIRE(r.ok());
    CHECK(r->hidden_size == 1024);
    REQUIRE_FALSE(r.warnings.empty());
    CHECK(r.warnings.en()[0].find("brand_new") != std::string::npos);
}

TEST_CASE("test_hf_config: encoders (BERT, ViT)") {
    Result<ModelArch> b = parse_hf_config(R"({"model_type":"bert","hidden_size":768,"num_hidden_layers":12,
        "num_attention_heads":12,"intermediate_size":3072,"vocab_size":30522,"max_position_embeddings":512,
        "type_vocab_size":2,"hidden_act":"gelu"})");
    REQUIRE(b.ok());
    CHECK(b->encoder);
    CHECK(b->layer_norm);
    CHECK(b->type_vocab_size == 2);
    Result<ModelArch> v = parse_hf_config(R"({"model_type":"vit","hidden_size":768,"num_hidden_layers":12,
        "num_attention_heads":12,"intermediate_size":3072,"image_size":224,"patch_size":16,"num_channels":3})");
    REQUIRE(v.ok());
    CHECK(v->encoder);
    CHECK(v->max_position_embeddings == 197);  // 14 x 14 patches + [CLS]
}

TEST_CASE("test_hf_config: infer_dense_arch gives a plausible shape and says so") {
    const ModelArch a = infer_dense_arch(8.0);
    CHECK(a.inferred);
    CHECK(a.hidden_size % 128 == 0);
    CHECK(a.num_heads * 128 == a.hidden_size);
    CHECK(a.hidden_size >= 3584);
    CHECK(a.hidden_size <= 4608);
    CHECK(param_count_close(a, 8e9));
    CHECK(param_count_close(infer_dense_arch(2.783), 2.783e9));
    CHECK(param_count_close(infer_dense_arch(70), 70e9));
    const ModelArch huge = infer_dense_arch(1e4);  // 10T parameters: finite and sane
    CHECK(huge.hidden_size > 0);
    CHECK(huge.num_layers <= 1000);
    CHECK(param_count_close(huge, 1e13));
}

// [SECTION] quantization_config: the checkpoint as stored (docs/memory-model.md "Checkpoints as stored")

namespace {
using gpusizer_test::quant_fixture;
bool any_warning(const std::vector<std::string>& w, const std::string& part) {
    for (const auto& x : w)
        if (x.find(part) != std::string::npos) return true;
    return false;
}
// A small Llama with the given quantization_config (JSON text of the value).
Result<ModelArch> llama_with(const std::string& qc) {
    return parse_hf_config(R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,
        "num_key_value_heads":8,"intermediate_size":14336,"vocab_size":128256,"quantization_config":)" + qc + "}");
}
}  // namespace

TEST_CASE("test_hf_config: link keys of the model fields are unique (the quant_* fields included)") {
    std::vector<std::string> keys;
#define GPUSIZER_X(type, member, hf, link, def) keys.push_back(link);
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    for (std::size_t i = 0; i < keys.size(); ++i)
        for (std::size_t j = i + 1; j < keys.size(); ++j) CHECK_MESSAGE(keys[i] != keys[j], keys[i]);
}

TEST_CASE("test_hf_config: fp8 block-wise (DeepSeek-V3/R1, Kimi-K2): every linear, 128×128 fp32 scales") {
    for (const char* id : {"deepseek-v3", "deepseek-r1", "kimi-k2"}) {
        CAPTURE(id);
        const ModelArch a = fixture(id);
        CHECK(a.quant_method == "fp8");
        CHECK(a.quant_bits == 8);
        CHECK(a.quant_group == 128);       // weight_block_size [128, 128]: columns
        CHECK(a.quant_group_rows == 128);  // … and rows
        CHECK(a.quant_scale_bits == 32);   // weight_scale_inv is float32 (README_WEIGHTS.md)
        CHECK(a.quant_attn_layers == a.num_layers);
        CHECK(a.quant_mlp_layers == a.first_dense_layers);
        CHECK(a.quant_moe_layers == a.num_layers - a.first_dense_layers);
        CHECK(a.quant_shared_layers == a.num_layers - a.first_dense_layers);
        CHECK_FALSE(a.quant_lm_head);
    }
}

TEST_CASE("test_hf_config: mxfp4 (gpt-oss): only the experts, 4 bits + an e8m0 scale per 32") {
    for (const char* id : {"gpt-oss-20b", "gpt-oss-120b"}) {
        CAPTURE(id);
        const ModelArch a = fixture(id);
        CHECK(a.quant_method == "mxfp4");
        CHECK(a.quant_bits == 4);
        CHECK(a.quant_group == 32);
        CHECK(a.quant_scale_bits == 8);
        CHECK(a.quant_attn_layers == 0);  // "model.layers.*.self_attn" in modules_to_not_convert
        CHECK(a.quant_moe_layers == a.num_layers);
        CHECK_FALSE(a.quant_lm_head);
    }
    CHECK(fixture("llama-3.1-8b").quant_method.empty());  // no quantization_config: nothing changes
}

TEST_CASE("test_hf_config: fbgemm_fp8 with modules_to_not_convert (Llama-3.1-405B FP8 layout)") {
    // The list the Hugging Face conversion script writes: "model.layers.0", "model.layers.125",
    // "lm_head" and "model.layers.{1..124}.self_attn" (tests/fixtures/quant_configs/SOURCES.md).
    const ModelArch a = quant_fixture("llama-3.1-405b-fbgemm-fp8.constructed.json");
    CHECK(a.quant_method == "fbgemm_fp8");
    CHECK(a.quant_bits == 8);
    CHECK(a.quant_group == 0);  // one float32 scale per output row
    CHECK(a.quant_group_rows == 1);
    CHECK(a.quant_scale_bits == 32);
    CHECK(a.quant_attn_layers == 0);   // attention of every layer stays bf16
    CHECK(a.quant_mlp_layers == 124);  // the FFN of layers 1 … 124
    CHECK_FALSE(a.quant_lm_head);
}

TEST_CASE("test_hf_config: compressed-tensors with regex ignores (Kimi-K2-style int4 experts)") {
    const ModelArch a = quant_fixture("kimi-k2-int4-experts-tiny.json");
    CHECK(a.quant_method == "compressed-tensors");
    CHECK(a.quant_bits == 4);  // pack-quantized: 8 per int32
    CHECK(a.quant_group == 32);
    CHECK(a.quant_scale_bits == 16);  // bf16 weight_scale
    CHECK(a.quant_zero_bits == 0);    // symmetric
    CHECK(a.quant_attn_layers == 0);  // re:.*self_attn.*
    CHECK(a.quant_mlp_layers == 0);   // re:.*mlp\.(gate|up|gate_up|down)_proj.* (layer 0's dense MLP)
    CHECK(a.quant_moe_layers == 1);   // mlp.experts.N.* do not match it
    CHECK(a.quant_shared_layers == 0);  // re:.*shared_experts.*
    CHECK_FALSE(a.quant_lm_head);       // "lm_head" ignored
}

TEST_CASE("test_hf_config: GPTQ, AWQ and bitsandbytes keys") {
    const ModelArch g = quant_fixture("qwen2.5-32b-instruct-gptq-int4.json");
    CHECK(g.quant_method == "gptq");
    CHECK(g.quant_bits == 4);
    CHECK(g.quant_group == 128);
    CHECK(g.quant_scale_bits == 16);  // fp16 scales
    CHECK(g.quant_zero_bits == 4);    // qzeros packed, stored even when sym
    CHECK(g.quant_index_bits == 32);  // g_idx int32 per input column, always stored
    CHECK(g.quant_attn_layers == 64);
    CHECK(g.quant_mlp_layers == 64);
    const ModelArch w = quant_fixture("mistral-7b-awq-gemm.constructed.json");
    CHECK(w.quant_method == "awq");
    CHECK(w.quant_bits == 4);
    CHECK(w.quant_group == 128);
    CHECK(w.quant_zero_bits == 4);  // zero_point: true
    CHECK(w.quant_index_bits == 0);
    const ModelArch b = quant_fixture("meta-llama-3-8b-instruct-bnb-nf4.json");
    CHECK(b.quant_method == "bitsandbytes");
    CHECK(b.quant_bits == 4);
    CHECK(b.quant_group == 64);          // absmax per 64 weights
    CHECK(b.quant_scale_bits == 8);      // double quantization: uint8 absmax …
    CHECK(b.quant_scale2_group == 256);  // … + a float32 per 256 of them
    CHECK(b.quant_attn_layers == 32);
    CHECK_FALSE(b.quant_lm_head);
    // GPTQ group_size -1 is per channel; bitsandbytes 8-bit is int8 + a float32 per row.
    Result<ModelArch> pc = llama_with(R"({"quant_method":"gptq","bits":8,"group_size":-1,"desc_act":true,"lm_head":true})");
    REQUIRE(pc.ok());
    CHECK(pc->quant_group == 0);
    CHECK(pc->quant_lm_head);
    Result<ModelArch> b8 = llama_with(R"({"quant_method":"bitsandbytes","load_in_8bit":true})");
    REQUIRE(b8.ok());
    CHECK(b8->quant_bits == 8);
    CHECK(b8->quant_group == 0);
    CHECK(b8->quant_scale_bits == 32);
    Result<ModelArch> nodq = llama_with(R"({"quant_method":"bitsandbytes","load_in_4bit":true})");
    REQUIRE(nodq.ok());
    CHECK(nodq->quant_scale_bits == 32);  // fp32 absmax per 64: 4.5 bits
    CHECK(nodq->quant_scale2_group == 0);
}

TEST_CASE("test_hf_config: compressed-tensors strategies and formats") {
    // FP8-dynamic (float-quantized, per-channel) with lm_head ignored.
    Result<ModelArch> f = llama_with(R"({"quant_method":"compressed-tensors","format":"float-quantized",
        "config_groups":{"group_0":{"targets":["Linear"],"weights":{"num_bits":8,"type":"float","strategy":"channel",
        "symmetric":true,"dynamic":false},"input_activations":{"num_bits":8,"type":"float","strategy":"token","dynamic":true}}},
        "ignore":["lm_head"]})");
    REQUIRE(f.ok());
    CHECK(f->quant_bits == 8);
    CHECK(f->quant_group == 0);
    CHECK(f->quant_group_rows == 1);
    CHECK(f->quant_attn_layers == 32);
    CHECK_FALSE(f->quant_lm_head);
    // Without "lm_head" in ignore, the "Linear" target quantizes the LM head too.
    Result<ModelArch> h = llama_with(R"({"quant_method":"compressed-tensors","format":"int-quantized",
        "config_groups":{"group_0":{"targets":["Linear"],"weights":{"num_bits":8,"type":"int","strategy":"tensor"}}}})");
    REQUIRE(h.ok());
    CHECK(h->quant_lm_head);
    CHECK(h->quant_group_rows == 0);  // one scale per tensor
    // Block strategy; asymmetric pack-quantized keeps a packed zero point per scale.
    Result<ModelArch> bl = llama_with(R"({"quant_method":"compressed-tensors","format":"float-quantized",
        "config_groups":{"g":{"targets":["Linear"],"weights":{"num_bits":8,"type":"float","strategy":"block",
        "block_structure":[128,128]}}}})");
    REQUIRE(bl.ok());
    CHECK(bl->quant_group == 128);
    CHECK(bl->quant_group_rows == 128);
    Result<ModelArch> asym = llama_with(R"({"quant_method":"compressed-tensors","format":"pack-quantized",
        "config_groups":{"g":{"targets":["Linear"],"weights":{"num_bits":4,"type":"int","strategy":"group",
        "group_size":128,"symmetric":false,"actorder":"group"}}}})");
    REQUIRE(asym.ok());
    CHECK(asym->quant_zero_bits == 4);
    CHECK(asym->quant_index_bits == 32);
    // Two groups storing differently: sized with the one covering most weights, and said so.
    Result<ModelArch> mix = llama_with(R"({"quant_method":"compressed-tensors","format":"mixed-precision",
        "config_groups":{"group_0":{"targets":["re:.*self_attn.*"],"format":"float-quantized","weights":{"num_bits":8,
        "type":"float","strategy":"channel"}},"group_1":{"targets":["re:.*mlp.*"],"format":"pack-quantized",
        "weights":{"num_bits":4,"type":"int","strategy":"group","group_size":32}}}})");
    REQUIRE(mix.ok());
    CHECK(mix->quant_bits == 4);  // the MLP holds most of the weights
    CHECK(mix->quant_attn_layers == 32);
    CHECK(mix->quant_lm_head == false);  // no group targets it
    CHECK(any_warning(mix.warnings.en(), "groups store weights differently"));
}

TEST_CASE("test_hf_config: module patterns (names, globs, regexes) are read at segment boundaries") {
    auto attn_layers = [](const std::string& skip) {
        Result<ModelArch> r = llama_with(R"({"quant_method":"fbgemm_fp8","modules_to_not_convert":)" + skip + "}");
        REQUIRE(r.ok());
        return std::pair<std::uint64_t, std::uint64_t>(r->quant_attn_layers, r->quant_mlp_layers);
    };
    CHECK(attn_layers(R"(["model.layers.*.self_attn"])") == std::pair<std::uint64_t, std::uint64_t>(0, 32));
    CHECK(attn_layers(R"(["model.layers.1"])") == std::pair<std::uint64_t, std::uint64_t>(31, 31));  // not 10 … 19
    CHECK(attn_layers(R"(["layers.0."])") == std::pair<std::uint64_t, std::uint64_t>(31, 31));       // AWQ style
    CHECK(attn_layers(R"(["self_attn"])") == std::pair<std::uint64_t, std::uint64_t>(0, 32));
    CHECK(attn_layers(R"(["mlp.gate"])") == std::pair<std::uint64_t, std::uint64_t>(32, 32));  // the router, not gate_proj
    CHECK(attn_layers(R"(["re:model\\.layers\\.[0-9]\\..*"])") == std::pair<std::uint64_t, std::uint64_t>(22, 22));
    CHECK(attn_layers(R"(["re:.*\\.(q|k|v|o)_proj$"])") == std::pair<std::uint64_t, std::uint64_t>(0, 32));
    CHECK(attn_layers(R"(["model.language_model.layers.3.mlp"])") == std::pair<std::uint64_t, std::uint64_t>(32, 31));
    CHECK(attn_layers(R"(["vision_model.encoder.layers.3.self_attn"])") == std::pair<std::uint64_t, std::uint64_t>(32, 32));
    // Half of one layer's MLP weights (gate + up of down): counted quantized, with a warning.
    Result<ModelArch> part = llama_with(R"({"quant_method":"fbgemm_fp8","modules_to_not_convert":["model.layers.0.mlp.down_proj"]})");
    REQUIRE(part.ok());
    CHECK(part->quant_mlp_layers == 32);
    CHECK(any_warning(part.warnings.en(), "only part"));
    // A pathological regex is linear-time (Thompson NFA), and an unsupported one is named and left out.
    Result<ModelArch> slow = llama_with(R"({"quant_method":"fbgemm_fp8","modules_to_not_convert":["re:(a*)*(a*)*(a*)*b"]})");
    REQUIRE(slow.ok());
    CHECK(slow->quant_attn_layers == 32);
    Result<ModelArch> look = llama_with(R"J({"quant_method":"fbgemm_fp8","modules_to_not_convert":["re:(?=x)", "re:(a", "re:\\1"]})J");
    REQUIRE(look.ok());
    CHECK(look->quant_attn_layers == 32);
    CHECK(any_warning(look.warnings.en(), "modules_to_not_convert[0]: '"));
    CHECK(any_warning(look.warnings.en(), "modules_to_not_convert[2]: '"));
}

TEST_CASE("test_hf_config: a malformed quantization_config is a warning naming the key; the rest parses") {
    struct Bad {
        const char* qc;
        const char* key;
    };
    const Bad bad[] = {
        {R"("fp8")", "quantization_config: expected an object"},
        {R"({"quant_method":7})", "quantization_config.quant_method: expected a string"},
        {R"({"quant_method":"gptq","bits":"four"})", "quantization_config.bits: expected an integer between 2 and 8"},
        {R"({"quant_method":"gptq","bits":99})", "quantization_config.bits"},
        {R"({"quant_method":"gptq","bits":4,"group_size":0})", "quantization_config.group_size"},
        {R"({"quant_method":"awq","bits":4,"group_size":1e9})", "quantization_config.group_size"},
        {R"({"quant_method":"fp8","weight_block_size":[128]})", "quantization_config.weight_block_size"},
        {R"({"quant_method":"fp8","weight_block_size":[0,128]})", "quantization_config.weight_block_size"},
        {R"({"quant_method":"fbgemm_fp8","modules_to_not_convert":"lm_head"})", "quantization_config.modules_to_not_convert"},
        {R"({"quant_method":"mxfp4","modules_to_not_convert":[1]})", "quantization_config.modules_to_not_convert[0]"},
        {R"({"quant_method":"bitsandbytes"})", "quantization_config.load_in_4bit"},
        {R"({"quant_method":"bitsandbytes","load_in_4bit":"yes"})", "quantization_config.load_in_4bit"},
        {R"({"quant_method":"compressed-tensors","config_groups":[]})", "quantization_config.config_groups"},
        {R"({"quant_method":"compressed-tensors","config_groups":{"g":{"weights":{"num_bits":64}}}})",
         "quantization_config.config_groups.g.weights.num_bits"},
        {R"({"quant_method":"compressed-tensors","config_groups":{"g":{"weights":{"num_bits":4,"strategy":"group"}}}})",
         "quantization_config.config_groups.g.weights.group_size"},
        {R"({"quant_method":"compressed-tensors","config_groups":{"g":{"weights":{"num_bits":4,"strategy":"diagonal"}}}})",
         "quantization_config.config_groups.g.weights.strategy"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.qc);
        Result<ModelArch> r = llama_with(b.qc);
        REQUIRE(r.ok());
        CHECK(r->hidden_size == 4096);
        CHECK(r->quant_bits == 0);  // weights sized from weight_dtype
        CHECK(any_warning(r.warnings.en(), b.key));
    }
    // An unknown method is kept (it travels in the link) and sizes nothing.
    Result<ModelArch> u = llama_with(R"({"quant_method":"hqq","nbits":4})");
    REQUIRE(u.ok());
    CHECK(u->quant_method == "hqq");
    CHECK(u->quant_bits == 0);
    CHECK(any_warning(u.warnings.en(), "'hqq' is not a format gpusizer can size"));
    CHECK(weights_bytes(*u, WeightDtype::bf16) == 2ULL * 8030261248ULL);
}

TEST_CASE("test_hf_config: quant fields print, re-parse and travel in the share link unchanged") {
    for (const char* file : {"llama-3.1-405b-fbgemm-fp8.constructed.json", "kimi-k2-int4-experts-tiny.json",
                             "meta-llama-3-8b-instruct-bnb-nf4.json", "qwen2.5-32b-instruct-gptq-int4.json"}) {
        CAPTURE(file);
        Scenario s;
        s.source = ModelSource::hf_config;
        s.model.clear();
        s.hf_config = quant_fixture(file);
        Result<Scenario> p = parse_scenario_json(scenario_to_json(s));
        REQUIRE(p.ok());
        CHECK(p->hf_config == s.hf_config);
        Result<Scenario> d = decode_link(encode_link(s));
        REQUIRE(d.ok());
        CHECK(d->hf_config == s.hf_config);
    }
}

TEST_CASE("test_hf_config: many layers and many patterns stay bounded and consistent") {
    // 2000 layers: the first and last 256 are checked one by one, the middle by one representative.
    Result<ModelArch> a = parse_hf_config(R"({"model_type":"llama","hidden_size":256,"num_hidden_layers":2000,
        "num_attention_heads":4,"intermediate_size":512,"vocab_size":1000,"quantization_config":{"quant_method":"fbgemm_fp8",
        "modules_to_not_convert":["model.layers.0","model.layers.1999","re:.*self_attn.*"]}})");
    REQUIRE(a.ok());
    CHECK(a->quant_attn_layers == 0);
    CHECK(a->quant_mlp_layers == 1998);
    // Every other layer MoE (decoder_sparse_step 2), 3000 layers: experts of 1500 layers, dense MLP of 1500.
    Result<ModelArch> m = parse_hf_config(R"({"model_type":"qwen2_moe","hidden_size":256,"num_hidden_layers":3000,
        "num_attention_heads":4,"intermediate_size":512,"moe_intermediate_size":128,"num_experts":4,"num_experts_per_tok":2,
        "decoder_sparse_step":2,"vocab_size":1000,"quantization_config":{"quant_method":"fp8","weight_block_size":[128,128]}})");
    REQUIRE(m.ok());
    CHECK(m->quant_moe_layers == param_detail(*m).moe_layers);
    CHECK(m->quant_mlp_layers == param_detail(*m).dense_layers);
    CHECK(m->quant_attn_layers == 3000);
    // Thousands of globs: the matching budget runs out, the parse ends and says so.
    std::string globs = "[";
    for (int i = 0; i < 4000; ++i) globs += std::string(i ? "," : "") + "\"*x" + std::to_string(i) + "*y*\"";
    globs += "]";
    Result<ModelArch> g = llama_with(R"({"quant_method":"fbgemm_fp8","modules_to_not_convert":)" + globs + "}");
    REQUIRE(g.ok());
    CHECK(any_warning(g.warnings.en(), "take too long to evaluate"));
    CHECK(g->quant_attn_layers <= 32);
    CHECK(weights_bytes(*g, WeightDtype::bf16) > 0);
}
