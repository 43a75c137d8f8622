// The speed model against published training runs and hand-worked roofline cases.
#include <doctest/doctest.h>

#include "gpusizer/speed.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

ModelArch arch_of(const char* fixture) {
    auto a = parse_hf_config(gpusizer_test::read_text(std::string("tests/fixtures/hf_configs/") + fixture));
    REQUIRE(a.ok());
    return *a;
}

Accelerator h100_like(double bf16_tflops, double fp8_tflops = 0) {
    Accelerator a;
    a.id = "test";
    a.year = 2022;
    a.tflops_bf16_dense = bf16_tflops;
    a.tflops_fp8_dense = fp8_tflops;
    a.memory_bandwidth_gbps = 3350;
    return a;
}

}  // namespace

TEST_CASE("speed: 6ND without attention for 7e9 params and 1e12 tokens (validation_public train-flops-6nd)") {
    ModelArch a;  // zero layers: no attention term
    Scenario s;
    s.task = Task::pretrain;
    CHECK(model_flops_per_token(s, a, 7000000000ull) * 1e12 == doctest::Approx(4.2e22));
    s.task = Task::lora;
    CHECK(model_flops_per_token(s, a, 7000000000ull) == doctest::Approx(4 * 7e9));
}

TEST_CASE("speed: MT-NLG 530B iteration time from hardware FLOPs at 126 TFLOP/s per GPU") {
    // h 20480, L 105, a 128, seq 2048, global batch 1920, 2240 A100s, full recompute (Megatron).
    ModelArch a;
    a.hidden_size = 20480;
    a.num_layers = 105;
    a.num_heads = 128;
    a.head_dim = 160;
    Scenario s;
    s.task = Task::pretrain;
    s.seq_len = 2048;
    s.activation_checkpointing = Checkpointing::full;
    const double tokens = 1920.0 * 2048.0;
    const double flops = hardware_flops_per_token(s, a, 530000000000ull) * tokens;
    const double seconds = flops / (2240.0 * 126e12);
    CHECK(seconds == doctest::Approx(60.1).epsilon(0.15));  // measured 60.1 s (MT-NLG paper §2.4)
}

TEST_CASE("speed: Llama 3.1 405B pretraining GPU-hours with the default MFU") {
    const ModelArch a = arch_of("llama-3.1-405b.json");
    Scenario s;
    s.task = Task::pretrain;
    s.seq_len = 8192;
    s.train_tokens = 15.6e12;
    ParamCounts p;
    p.total = p.active = 405000000000ull;
    const TrainingSpeed t = training_speed(s, a, p, h100_like(989.4), 16384, false);
    CHECK(t.mfu == doctest::Approx(0.40));
    // Llama 3.1 model card: 30.84M H100-80GB hours for 405B.
    CHECK(t.gpu_hours == doctest::Approx(30.84e6).epsilon(0.30));
}

TEST_CASE("speed: DeepSeek-V3 pretraining GPU-hours with the default MFU (FP8 on H800)") {
    const ModelArch a = arch_of("deepseek-v3.json");
    Scenario s;
    s.task = Task::pretrain;
    s.weight_dtype = WeightDtype::fp8;
    s.seq_len = 4096;
    s.train_tokens = 14.8e12;
    ParamCounts p;
    p.total = 671000000000ull;
    p.active = 37000000000ull;
    const TrainingSpeed t = training_speed(s, a, p, h100_like(989.4, 1978.9), 2048, false);
    CHECK(t.mfu == doctest::Approx(0.28));  // 0.40 × 0.70 for MoE
    // DeepSeek-V3 report: 2.664M H800 GPU-hours of pre-training for 14.8T tokens.
    CHECK(t.gpu_hours == doctest::Approx(2.664e6).epsilon(0.30));
}

TEST_CASE("speed: MFU defaults and their reasons") {
    ModelArch dense, moe;
    moe.num_experts = 8;
    Accelerator v100 = h100_like(125);
    v100.year = 2017;
    Scenario s;
    s.task = Task::qlora;
    CHECK(default_mfu(s, dense, h100_like(989), false).mfu == doctest::Approx(0.20));
    s.task = Task::full_ft;
    const MfuChoice c = default_mfu(s, moe, v100, true);
    CHECK(c.mfu == doctest::Approx(0.35 * 0.7 * 0.6 * 0.5));
    CHECK(c.why == "full_ft default 0.35 × 0.70 (MoE) × 0.60 (pre-Ampere) × 0.50 (model parallel over PCIe)");
    s.mfu = 0.5;
    ParamCounts p;
    p.active = 1000000000;
    CHECK(training_speed(s, dense, p, h100_like(100), 1, false).mfu == doctest::Approx(0.5));
}

TEST_CASE("speed: batch-1 decode of an 8B bf16 model is memory-bound at bandwidth × efficiency") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    Scenario s;
    s.engine = Engine::vllm;
    s.seq_len = 1;
    ParamCounts p;
    p.total = p.active = 8030261248ull;
    MemoryBreakdown m;
    m.weights = 2 * p.total;
    const InferenceSpeed r = inference_speed(s, a, p, m, 131072, h100_like(989.4), 1, 1, "nvswitch");
    CHECK(r.memory_bound);
    // 3350 GB/s × 0.80 / 16.06 GB ≈ 166.9 tokens/s (plus one token of KV: negligible).
    CHECK(r.decode_tokens_per_s_per_seq == doctest::Approx(3350e9 * 0.8 / (2.0 * 8030261248.0)).epsilon(0.001));
    CHECK(r.tokens_per_s == doctest::Approx(r.decode_tokens_per_s_per_seq));
}

TEST_CASE("speed: larger decode batches raise throughput and lower per-sequence speed") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    ParamCounts p;
    p.total = p.active = 8030261248ull;
    MemoryBreakdown m;
    m.weights = 2 * p.total;
    Scenario s;
    s.seq_len = 4096;
    double last_total = 0, last_per_seq = 1e30;
    for (std::int64_t b : {1, 8, 64, 512}) {
        s.batch_size = b;
        const InferenceSpeed r = inference_speed(s, a, p, m, 131072, h100_like(989.4), 1, 1, "nvswitch");
        CHECK(r.tokens_per_s > last_total);
        CHECK(r.decode_tokens_per_s_per_seq < last_per_seq);
        last_total = r.tokens_per_s;
        last_per_seq = r.decode_tokens_per_s_per_seq;
    }
}

TEST_CASE("speed: MoE decode at batch 1 reads only the routed experts") {
    const ModelArch a = arch_of("mixtral-8x7b.json");
    ParamCounts p;
    p.total = 46702792704ull;
    p.active = 12879921152ull;
    MemoryBreakdown m;
    m.weights = 2 * p.total;
    Scenario s;
    s.seq_len = 1;
    s.engine = Engine::vllm;
    const InferenceSpeed one = inference_speed(s, a, p, m, 131072, h100_like(989.4), 1, 1, "nvswitch");
    // Batch 1, top-2 of 8: reads ≈ active parameters, not all 46.7B.
    CHECK(one.decode_tokens_per_s_per_seq == doctest::Approx(3350e9 * 0.8 / (2.0 * 12879921152.0)).epsilon(0.02));
}
