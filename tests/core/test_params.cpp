// Parameter counts: exact for Llama-family configs (hand-computed in docs/research/memory-model.md
// §2.1), and for every config in assets/src/hf_configs equal to the count its model card
// publishes, to the precision it is published with (shared/data/hf_configs/param_counts.csv).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusizer/memory.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

ModelArch fixture(const std::string& id) { return gpusizer_test::config_fixture(id); }

// Model cards round or truncate: "3.3B" is met by anything in [3.25, 3.4) — within one unit
// of the last published digit below, half a unit above.
bool matches_published(double ours, double published, double unit) {
    return ours >= published - unit / 2 && ours < published + unit;
}

struct Published {
    const char* id;
    double total_b, total_unit;
    double active_b, active_unit;  // 0 = dense (active == total)
    bool active_without_embedding;  // the vendor's "active" leaves out the input embedding table
    double non_embedding_b, non_embedding_unit;  // 0 = not published
};

// param_counts.csv. Conventions differ by vendor and are stated by the card: Mistral and Qwen
// count every weight a token touches including the embedding table (Mixtral 12.9B, Qwen3-30B-A3B
// 3.3B); OpenAI (gpt-oss) and DeepSeek/Moonshot leave the input embedding out of "active".
const Published k_published[] = {
    {"llama-2-7b", 7, 1, 0, 0, false, 0, 0},
    {"llama-3.1-8b", 8.03, 0.01, 0, 0, false, 0, 0},
    {"llama-3.1-70b", 70, 1, 0, 0, false, 0, 0},
    {"llama-3.1-405b", 405, 1, 0, 0, false, 0, 0},
    {"llama-3.3-70b", 70, 1, 0, 0, false, 0, 0},
    {"llama-3.2-1b", 1.23, 0.01, 0, 0, false, 0, 0},
    {"llama-3.2-3b", 3.21, 0.01, 0, 0, false, 0, 0},
    {"mixtral-8x7b", 46.7, 0.1, 12.9, 0.1, false, 0, 0},
    {"mixtral-8x22b", 141, 1, 39, 1, false, 0, 0},
    {"qwen2.5-3b", 3.09, 0.01, 0, 0, false, 2.77, 0.01},
    {"qwen2.5-7b", 7.61, 0.01, 0, 0, false, 6.53, 0.01},
    {"qwen2.5-14b", 14.7, 0.1, 0, 0, false, 0, 0},  // card non-embedding 13.1B: see below
    {"qwen3-0.6b", 0.6, 0.1, 0, 0, false, 0.44, 0.01},
    {"qwen3-1.7b", 1.7, 0.1, 0, 0, false, 1.4, 0.1},
    {"qwen3-8b", 8.2, 0.1, 0, 0, false, 6.95, 0.01},
    {"qwen3-14b", 14.8, 0.1, 0, 0, false, 13.2, 0.1},
    {"qwen3-32b", 32.8, 0.1, 0, 0, false, 31.2, 0.1},
    {"qwen3-30b-a3b", 30.5, 0.1, 3.3, 0.1, false, 29.9, 0.1},
    {"qwen3-235b-a22b", 235, 1, 22, 1, false, 234, 1},
    {"qwen3-coder-480b-a35b", 480, 1, 35, 1, false, 0, 0},
    {"deepseek-v3", 671, 1, 37, 1, true, 0, 0},
    {"deepseek-r1", 671, 1, 37, 1, true, 0, 0},
    {"kimi-k2", 1000, 100, 32, 1, true, 0, 0},
    {"gpt-oss-20b", 21, 1, 3.6, 0.1, true, 0, 0},
    {"gpt-oss-120b", 117, 1, 5.1, 0.1, true, 0, 0},
    {"phi-4", 14, 1, 0, 0, false, 0, 0},
};

}  // namespace

TEST_CASE("test_params: exact Llama counts (docs/research/memory-model.md §2.1)") {
    // Llama-2-7B: 32 × (4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096.
    CHECK(param_detail(fixture("llama-2-7b")).total == 6738415616ULL);
    // Llama-3.1-8B: GQA K/V 2·4096·1024, V = 128256 untied.
    CHECK(param_detail(fixture("llama-3.1-8b")).total == 8030261248ULL);
    // Llama-3.2-1B, tied: 16 × (2·2048·2048 + 2·2048·512 + 3·2048·8192 + 2·2048) + 128256·2048 + 2048.
    CHECK(param_detail(fixture("llama-3.2-1b")).total == 1235814400ULL);
}

TEST_CASE("test_params: every fixture equals its published count") {
    for (const Published& p : k_published) {
        const std::string id = p.id;
        CAPTURE(id);
        const ParamDetail d = param_detail(fixture(p.id));
        const double total = static_cast<double>(d.total) / 1e9;
        CHECK_MESSAGE(matches_published(total, p.total_b, p.total_unit), "total " << total << "B vs " << p.total_b);
        if (p.active_b > 0) {
            const double active = static_cast<double>(p.active_without_embedding ? d.active - d.embedding : d.active) / 1e9;
            CHECK_MESSAGE(matches_published(active, p.active_b, p.active_unit), "active " << active << "B vs " << p.active_b);
        } else {
            CHECK(d.active == d.total);
        }
        if (p.non_embedding_b > 0) {
            const double ne = static_cast<double>(d.total - d.embedding - d.lm_head) / 1e9;
            CHECK_MESSAGE(matches_published(ne, p.non_embedding_b, p.non_embedding_unit), "non-embedding " << ne << "B");
        }
    }
}

TEST_CASE("test_params: Qwen2.5-32B card says 32.5B, but its own config gives 32.76B") {
    // 64 × (5120·5120·2 + 2·5120·1024 + q/k/v biases 5120 + 2·1024 + 3·5120·27648 + 2·5120)
    // + 2·152064·5120 + 5120 = 32,763,876,352 (HF's safetensors metadata shows 32.8B). The card's
    // 32.5B / 31.0B disagree with the config; we follow the config.
    const ParamDetail d = param_detail(fixture("qwen2.5-32b"));
    CHECK(d.total == 32763876352ULL);
    // Same for Qwen2.5-14B: the card's non-embedding 13.1B vs the config's 13.21B (total 14.77B, HF shows 14.8B).
    const std::uint64_t layer14 = 5120ULL * 5120 * 2 + 2ULL * 5120 * 1024 + 5120 + 2048 + 3ULL * 5120 * 13824 + 2 * 5120;
    const ParamDetail d14 = param_detail(fixture("qwen2.5-14b"));
    CHECK(d14.total == 48 * layer14 + 2ULL * 152064 * 5120 + 5120);
}

TEST_CASE("test_params: MoE parts (Mixtral 8x7B by hand)") {
    const ParamDetail d = param_detail(fixture("mixtral-8x7b"));
    CHECK(d.moe_layers == 32);
    CHECK(d.dense_layers == 0);
    CHECK(d.expert == 3ULL * 4096 * 14336);
    CHECK(d.router == 4096ULL * 8);
    // 32 × (attention 41,943,040 + 8 experts 1,409,286,144 + router 32,768 + norms 8,192) + 2 × 131,072,000 + 4,096.
    CHECK(d.total == 46702792704ULL);
    // Top-2: 32 × (41,943,040 + 2 × 176,160,768 + 32,768 + 8,192) + 262,144,000 + 4,096.
    CHECK(d.active == 12879925248ULL);
}

TEST_CASE("test_params: DeepSeek-V3 dense-first layers and MLA") {
    const ModelArch a = fixture("deepseek-v3");
    const ParamDetail d = param_detail(a);
    CHECK(d.dense_layers == 3);
    CHECK(d.moe_layers == 58);
    // MLA attention (Megatron): q_lora·(h + a·(dn+dr) + 1) + kv_lora·(h + a·(dn+dv) + 1) + h·dr + a·dv·h
    const std::uint64_t mla = 1536ULL * (7168 + 128 * 192 + 1) + 512ULL * (7168 + 128 * 256 + 1) + 7168ULL * 64 + 128ULL * 128 * 7168;
    CHECK(d.attention == mla);
    CHECK(d.router == 7168ULL * 256 + 256);  // + e_score_correction_bias
    CHECK(d.shared == 3ULL * 7168 * 2048);
}

TEST_CASE("test_params: GPT-2 small, Pythia-70M, BERT-base, ViT-B/16 (classic layouts with biases)") {
    // GPT-2 small: 124,439,808 (HF GPT2Model, tied head; widely quoted).
    Result<ModelArch> g = parse_hf_config(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,
        "n_positions":1024,"vocab_size":50257})");
    REQUIRE(g.ok());
    CHECK(param_detail(*g).total == 124439808ULL);
    // Pythia-70M (GPT-NeoX, untied): 70,426,624 total, 18,915,328 non-embedding (Pythia paper Table 1).
    Result<ModelArch> p = parse_hf_config(R"({"model_type":"gpt_neox","hidden_size":512,"num_hidden_layers":6,
        "num_attention_heads":8,"intermediate_size":2048,"vocab_size":50304,"max_position_embeddings":2048,
        "tie_word_embeddings":false})");
    REQUIRE(p.ok());
    const ParamDetail pd = param_detail(*p);
    CHECK(pd.total == 70426624ULL);
    CHECK(pd.total - pd.embedding - pd.lm_head == 18915328ULL);
    // bert-base-uncased BertModel with pooler: 109,482,240.
    Result<ModelArch> b = parse_hf_config(R"({"model_type":"bert","hidden_size":768,"num_hidden_layers":12,
        "num_attention_heads":12,"intermediate_size":3072,"vocab_size":30522,"max_position_embeddings":512,
        "type_vocab_size":2})");
    REQUIRE(b.ok());
    CHECK(param_detail(*b).total == 109482240ULL);
    // google/vit-base-patch16-224 ViTForImageClassification (1000 labels): 86,567,656.
    std::string labels = "{";
    for (int i = 0; i < 1000; ++i) labels += (i ? ",\"" : "\"") + std::to_string(i) + "\":\"c\"";
    labels += "}";
    Result<ModelArch> v = parse_hf_config(R"({"model_type":"vit","hidden_size":768,"num_hidden_layers":12,
        "num_attention_heads":12,"intermediate_size":3072,"image_size":224,"patch_size":16,"num_channels":3,
        "id2label":)" + labels + "}");
    REQUIRE(v.ok());
    CHECK(param_detail(*v).total == 86567656ULL);
}

TEST_CASE("test_params: Gemma 2 9B (4 norms per layer, head_dim 256, tied)") {
    // 42 × (q 3584·4096 + k,v 2·3584·2048 + o 4096·3584 + 3·3584·14336 + 4·3584) + 256000·3584 + 3584 = 9,241,705,984.
    Result<ModelArch> g = parse_hf_config(R"({"model_type":"gemma2","hidden_size":3584,"num_hidden_layers":42,
        "num_attention_heads":16,"num_key_value_heads":8,"head_dim":256,"intermediate_size":14336,"vocab_size":256000,
        "sliding_window":4096})");
    REQUIRE(g.ok());
    CHECK(param_detail(*g).total == 9241705984ULL);
    CHECK(g->num_sliding_layers == 21);
}

TEST_CASE("test_params: LoRA adapters r·(d_in + d_out)") {
    Scenario s;
    s.task = Task::lora;
    s.lora_rank = 8;
    s.lora_targets = LoraTargets::qv;
    // PEFT README: Llama-2-7B r=8 q,v → 32·2·8·(4096+4096) = 4,194,304.
    CHECK(lora_params(fixture("llama-2-7b"), s) == 4194304ULL);
    // Unsloth: Llama-3-8B r=16 on all 7 linears → 41,943,040.
    s.lora_rank = 16;
    s.lora_targets = LoraTargets::all_linear;
    CHECK(lora_params(fixture("llama-3.1-8b"), s) == 41943040ULL);
    CHECK(count_params(fixture("llama-3.1-8b"), s).trainable == 41943040ULL);
    // Custom module list = the same as the preset.
    s.lora_targets = LoraTargets::custom;
    s.lora_modules = {"q_proj", "v_proj"};
    s.lora_rank = 8;
    CHECK(lora_params(fixture("llama-2-7b"), s) == 4194304ULL);
    Notes w;
    s.lora_modules = {"q_proj", "nonsense"};
    CHECK(lora_params(fixture("llama-2-7b"), s, &w) == 32ULL * 8 * 8192);
    CHECK(w.en().size() == 1);
    CHECK(w.zh() == std::vector<std::string>{"lora_targets:模块 'nonsense' 不是已知的线性层;已忽略"});
    // Mixtral all-linear: attention + every expert's w1/w2/w3 (PEFT adapts each expert Linear).
    s.lora_targets = LoraTargets::all_linear;
    s.lora_rank = 16;
    const std::uint64_t att = 16ULL * ((4096 + 4096) * 2 + (4096 + 1024) * 2);
    const std::uint64_t experts = 8ULL * 16 * (4096 + 14336) * 3;
    CHECK(lora_params(fixture("mixtral-8x7b"), s) == 32 * (att + experts));
}

TEST_CASE("test_params: trainable depends on the task") {
    const ModelArch a = fixture("qwen3-8b");
    Scenario s;
    s.task = Task::inference;
    CHECK(count_params(a, s).trainable == 0);
    s.task = Task::full_ft;
    CHECK(count_params(a, s).trainable == count_params(a, s).total);
    CHECK(count_params(a, s).embedding == 2ULL * 151936 * 4096);
}

TEST_CASE("test_params: absurd shapes saturate instead of wrapping") {
    ModelArch a;
    a.hidden_size = 4294967295ULL;
    a.num_layers = 4294967295ULL;
    a.num_heads = 1;
    a.num_kv_heads = 1;
    a.head_dim = 4294967295ULL;
    a.intermediate_size = 4294967295ULL;
    a.vocab_size = 4294967295ULL;
    const ParamDetail d = param_detail(a);
    CHECK(d.saturated);
    CHECK(d.total == k_u64_cap);
}
