// parse_hf_config: every fixture config parses, and the traps of shared/data/hf_configs/SOURCES.md
// are read the way the transformers modeling code reads them.
#include <doctest/doctest.h>

#include <string>

#include "gpusizer/memory.hpp"
#include "gpusizer/model.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {
const char* const k_fixtures[] = {
    "deepseek-r1", "deepseek-v3", "gpt-oss-120b", "gpt-oss-20b", "kimi-k2", "llama-2-7b", "llama-3.1-405b",
    "llama-3.1-70b", "llama-3.1-8b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b", "mixtral-8x22b",
    "mixtral-8x7b", "phi-4", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-3b", "qwen2.5-7b", "qwen3-0.6b",
    "qwen3-1.7b", "qwen3-14b", "qwen3-235b-a22b", "qwen3-30b-a3b", "qwen3-32b", "qwen3-8b",
    "qwen3-coder-480b-a35b"};

ModelArch fixture(const std::string& id) {
    Result<ModelArch> r = parse_hf_config(gpusizer_test::read_text("tests/fixtures/hf_configs/" + id + ".json"));
    REQUIRE_MESSAGE(r.ok(), id << ": " << r.error.message);
    return *r;
}
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
    CHECK(r.warnings[0].find("brand_new") != std::string::npos);
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
