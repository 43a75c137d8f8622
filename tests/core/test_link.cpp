// Share links: readable, only non-default values, lossless, and never a hard failure.
#include <doctest/doctest.h>

#include <random>

#include "gpusizer/link.hpp"
#include "gpusizer/scenario_limits.hpp"

using namespace gpusizer;

TEST_CASE("link: the default scenario is just the version") {
    CHECK(encode_link(Scenario{}) == "v=1");
    auto d = decode_link("#v=1");
    REQUIRE(d.ok());
    CHECK(*d == Scenario{});
    CHECK(d.warnings.empty());
}

TEST_CASE("link: only non-default values, short keys, readable") {
    Scenario s;
    s.model = "qwen3-8b";
    s.task = Task::qlora;
    apply_dependent_defaults(s, GivenKeys{});  // nf4 and spot allowed: the defaults for qlora, so omitted
    s.seq_len = 4096;
    s.gpu = "rtx4090";
    s.providers = {"aws", "lambda"};
    CHECK(encode_link(s) == "v=1&m=qwen3-8b&t=qlora&s=4096&g=rtx4090&pr=aws,lambda");
}

TEST_CASE("link: full URLs, fragments and percent-escapes decode") {
    auto d = decode_link("https://example.org/gpusizer/#v=1&m=qwen3-8b&b=%34");
    REQUIRE(d.ok());
    CHECK(d->model == "qwen3-8b");
    CHECK(d->batch_size == 4);
}

TEST_CASE("link: bad values keep the default and are listed; the rest still opens") {
    auto d = decode_link("#v=1&m=qwen3-8b&b=-3&t=bogus&zz=1&s=8192&g=%3Cscript%3E&w=%ZZ");
    REQUIRE(d.ok());
    CHECK(d->model == "qwen3-8b");
    CHECK(d->seq_len == 8192);
    CHECK(d->batch_size == 1);
    CHECK(d->task == Task::inference);
    CHECK(d->gpu.empty());
    CHECK(d.warnings.size() == 5);
    bool named_batch = false;
    for (const auto& w : d.warnings.en()) named_batch = named_batch || w.find("batch_size") != std::string::npos;
    CHECK(named_batch);
}

TEST_CASE("link: inconsistent parallel layout falls back to one GPU, with a warning") {
    auto d = decode_link("#v=1&n=6&tp=4");
    REQUIRE(d.ok());
    CHECK(d->num_gpus == 1);
    CHECK(d->tensor_parallel == 1);
    CHECK_FALSE(d.warnings.empty());
}

TEST_CASE("link: what is not a link at all is an error") {
    CHECK_FALSE(decode_link("hello").ok());
    CHECK(decode_link(std::string(k_max_link_bytes + 1, 'a')).error.code == "too_large");
    CHECK_FALSE(decode_link("").ok());
}

TEST_CASE("link: an hf_config travels as its architecture fields") {
    Scenario s;
    s.source = ModelSource::hf_config;
    s.model.clear();
    s.hf_config.model_type = "llama";
    s.hf_config.vocab_size = 32000;
    s.hf_config.hidden_size = 4096;
    s.hf_config.num_layers = 32;
    s.hf_config.num_heads = 32;
    s.hf_config.num_kv_heads = 32;
    s.hf_config.head_dim = 128;
    s.hf_config.intermediate_size = 11008;
    const std::string l = encode_link(s);
    CHECK(l == "v=1&cfg.mt=llama&cfg.V=32000&cfg.h=4096&cfg.L=32&cfg.a=32&cfg.k=32&cfg.d=128&cfg.i=11008");
    auto d = decode_link(l);
    REQUIRE(d.ok());
    CHECK(*d == s);
}

namespace {

// Deterministic pseudo-random scenarios (std::mt19937 output is specified exactly).
struct Gen {
    std::mt19937 rng{20261202};
    std::uint32_t below(std::uint32_t n) { return rng() % n; }
    bool coin() { return below(2) == 1; }
    template <class E>
    E pick() { return static_cast<E>(below(static_cast<std::uint32_t>(EnumNames<E>::count))); }
};

Scenario random_scenario(Gen& g) {
    Scenario s;
    switch (g.below(3)) {
        case 0: s.model = g.coin() ? "qwen3-8b" : "deepseek-v3"; break;
        case 1:
            s.source = ModelSource::params_b;
            s.model.clear();
            s.params_b = (1 + g.below(100000)) / 100.0;
            break;
        default:
            s.source = ModelSource::hf_config;
            s.model.clear();
            s.hf_config.model_type = g.coin() ? "qwen2" : "mixtral";
            s.hf_config.hidden_size = 256 * (1 + g.below(64));
            s.hf_config.num_layers = 1 + g.below(120);
            s.hf_config.num_experts = g.coin() ? 8 : 0;
            s.hf_config.tie_word_embeddings = g.coin();
            s.hf_config.gated_mlp = g.coin();
            if (g.coin()) {  // a diffusion UNet: list-valued text fields and a parameter count past 2^32 travel too
                s.hf_config.kind = "unet";
                s.hf_config.stage_widths = "320,640,1280";
                s.hf_config.stage_depths = "0,2,10,10";
                s.hf_config.frozen_params = 901'374'183ULL + g.below(1000) * 10'000'000'000ULL;
            }
            break;
    }
    s.task = g.pick<Task>();
    s.weight_dtype = g.coin() ? g.pick<WeightDtype>() : default_weight_dtype(s.task);
    s.kv_cache_dtype = g.pick<KvDtype>();
    s.batch_size = 1 + g.below(512);
    if (g.coin()) {
        s.prompt_tokens = g.below(100000);
        s.output_tokens = 1 + g.below(8000);
    } else {
        s.seq_len = 1 + g.below(1000000);
    }
    s.framework = g.pick<Framework>();
    s.optimizer = g.coin() ? g.pick<Optimizer>() : default_optimizer(s.framework, s.task);
    s.optimizer_in_backward = g.coin() ? g.coin() : default_optimizer_in_backward(s.framework, s.task);
    s.activation_checkpointing = g.coin() ? g.pick<Checkpointing>() : default_checkpointing(s.framework);
    s.attention = g.pick<Attention>();
    s.dropout = g.coin();
    s.lora_rank = 1 + g.below(256);
    s.lora_targets = static_cast<LoraTargets>(g.below(4));
    if (s.lora_targets == LoraTargets::custom) s.lora_modules = {"q_proj", g.coin() ? "down_proj" : "v_proj"};
    s.zero_stage = static_cast<int>(g.below(4));
    s.offload = g.pick<Offload>();
    s.tensor_parallel = 1 << g.below(4);
    s.pipeline_parallel = 1 + g.below(3);
    s.num_gpus = s.tensor_parallel * s.pipeline_parallel * (1 + g.below(8));
    s.expert_parallel = 1 + g.below(4);
    s.sequence_parallel = g.coin();
    s.loss_impl = g.coin() ? g.pick<LossImpl>() : default_loss_impl(s.framework);
    s.engine = g.pick<Engine>();
    s.engine_version = g.pick<EngineVersion>();
    if (g.coin()) s.max_num_batched_tokens = 1 + g.below(65536);
    if (g.coin()) s.max_num_seqs = 1 + g.below(1024);
    s.enforce_eager = g.coin();
    if (g.coin()) s.gpu_layers = g.below(200);
    s.gpu_memory_utilization = (1 + g.below(100)) / 100.0;
    if (g.coin()) s.gpu = g.coin() ? "h100_sxm" : "rtx4090";
    if (g.coin()) s.gpu_memory_gib = (1 + g.below(2000)) / 8.0;
    if (g.coin()) s.train_tokens = 1e6 * (1 + g.below(100000));
    if (g.coin()) s.mfu = (1 + g.below(100)) / 100.0;
    if (g.coin()) s.image_size = 16 + g.below(4096);
    if (g.coin()) s.steps = 1 + g.below(200);
    if (g.coin()) s.train_images = 1000.0 * (1 + g.below(100000));
    s.epochs = 1 + g.below(300);
    if (g.coin()) s.audio_seconds = 0.5 * (1 + g.below(10000000));
    s.region = g.pick<Region>();
    if (g.coin()) s.providers = {"aws", "aliyun"};
    s.spot = g.coin() ? g.pick<SpotPolicy>() : default_spot(s.task);
    s.currency = g.pick<Currency>();
    if (g.coin()) s.budget = 10.0 * (1 + g.below(100000)) / 3.0;
    if (g.coin()) s.deadline_hours = 0.5 * (1 + g.below(1000));
    s.interconnect = g.pick<InterconnectNeed>();
    s.rank_by = g.pick<RankBy>();
    if (g.coin()) s.target_tokens_per_s = (1 + g.below(100000)) / 4.0;
    if (g.coin()) s.max_tpot_ms = (1 + g.below(1000)) / 2.0;
    if (g.coin()) s.max_ttft_ms = 10.0 * (1 + g.below(1000));
    s.master_weights = g.coin() ? default_master_weights(s.task, s.weight_dtype, s.framework) : g.coin();
    apply_dependent_defaults(s, ~GivenKeys{});  // every key given: only seq_len = prompt + output
    return s;
}

}  // namespace

TEST_CASE("link: decode(encode(s)) == s for 2000 random scenarios") {
    Gen g;
    int failures = 0;
    for (int i = 0; i < 2000; ++i) {
        const Scenario s = random_scenario(g);
        const std::string link = encode_link(s);
        auto d = decode_link(link);
        bool link_warning = false;
        for (const auto& w : d.warnings.en()) link_warning = link_warning || w.rfind("link:", 0) == 0;
        if (!d.ok() || !(*d == s) || link_warning) {
            if (++failures <= 3) {
                INFO("link: " << link);
                CHECK(d.ok());
                if (d.ok()) CHECK(scenario_to_json(*d) == scenario_to_json(s));
                for (const auto& w : d.warnings.en()) CHECK(w.rfind("link:", 0) != 0);
            }
        }
    }
    CHECK(failures == 0);
}

// [SECTION] Compare: a pinned scenario in the same link

TEST_CASE("link: a pinned scenario follows as pin=1 and pin.<key>, only its non-default values") {
    Scenario current;
    current.model = "qwen3-8b";
    current.seq_len = 4096;
    Scenario pinned;
    pinned.seq_len = 8192;
    pinned.gpu = "rtx4090";
    CHECK(encode_link(current, pinned) == "v=1&m=qwen3-8b&s=4096&pin=1&pin.s=8192&pin.g=rtx4090");
    // A pinned default scenario has no key of its own: pin=1 still says it is there.
    CHECK(encode_link(current, Scenario{}) == "v=1&m=qwen3-8b&s=4096&pin=1");
    CHECK(encode_link(current, std::nullopt) == encode_link(current));
    auto d = decode_link_pair("#v=1&m=qwen3-8b&s=4096&pin=1&pin.s=8192&pin.g=rtx4090");
    REQUIRE(d.ok());
    CHECK(d.warnings.empty());
    CHECK(d->current == current);
    REQUIRE(d->pinned);
    CHECK(d->pinned->seq_len == 8192);
    CHECK(d->pinned->gpu == "rtx4090");
    CHECK(d->pinned->model == Scenario{}.model);  // the pinned scenario does not inherit the current one's keys
    auto alone = decode_link_pair("v=1&pin=1");
    REQUIRE(alone.ok());
    REQUIRE(alone->pinned);
    CHECK(*alone->pinned == Scenario{});
}

TEST_CASE("link: links without a pin are read as before; decode_link ignores the pin quietly") {
    auto old = decode_link_pair("#v=1&m=qwen3-8b&t=qlora");
    REQUIRE(old.ok());
    CHECK_FALSE(old->pinned);
    CHECK(old.warnings.empty());
    auto one = decode_link("#v=1&m=qwen3-8b&pin=1&pin.t=lora");
    REQUIRE(one.ok());
    CHECK(one->model == "qwen3-8b");
    CHECK(one->task == Task::inference);
    CHECK(one.warnings.empty());
}

TEST_CASE("link: a bad pinned value is dropped with a warning naming the pin; the current scenario is untouched") {
    auto d = decode_link_pair("#v=1&m=qwen3-8b&b=4&pin.b=-3&pin.zz=1&pin.t=lora&pin.b=%ZZ");
    REQUIRE(d.ok());
    CHECK(d->current.model == "qwen3-8b");
    CHECK(d->current.batch_size == 4);
    REQUIRE(d->pinned);
    CHECK(d->pinned->task == Task::lora);
    CHECK(d->pinned->batch_size == 1);  // -3 refused, the default kept
    int pinned_warnings = 0;
    for (const auto& w : d.warnings.en()) pinned_warnings += w.rfind("link, pinned: ", 0) == 0;
    CHECK(pinned_warnings == 2);  // b=-3 and the unknown zz
    CHECK(d.warnings.size() == 3);  // and the broken %-escape
}

TEST_CASE("link: decode(encode(current, pinned)) gives both back for 500 random pairs") {
    Gen g;
    int failures = 0;
    for (int i = 0; i < 500; ++i) {
        const Scenario a = random_scenario(g), b = random_scenario(g);
        const std::string link = encode_link(a, b);
        auto d = decode_link_pair(link);
        if (!d.ok() || !(d->current == a) || !d->pinned || !(*d->pinned == b)) {
            if (++failures <= 3) {
                INFO("link: " << link);
                REQUIRE(d.ok());
                CHECK(scenario_to_json(d->current) == scenario_to_json(a));
                REQUIRE(d->pinned);
                CHECK(scenario_to_json(*d->pinned) == scenario_to_json(b));
            }
        }
    }
    CHECK(failures == 0);
}

TEST_CASE("link: scenario_changes lists the keys that differ, in table order, as a link spells them") {
    Scenario a, b;
    b.task = Task::qlora;
    b.seq_len = 4096;
    b.budget = 250;
    const std::vector<KeyChange> c = scenario_changes(a, b);
    REQUIRE(c.size() == 3);
    CHECK(c[0].key == "task");
    CHECK(c[0].before == "inference");
    CHECK(c[0].after == "qlora");
    CHECK(c[1].key == "seq_len");
    CHECK(c[1].before == "2048");
    CHECK(c[1].after == "4096");
    CHECK(c[2].key == "budget");
    CHECK(c[2].before == "-");
    CHECK(c[2].after == "250");
    CHECK(scenario_changes(a, a).empty());
}
