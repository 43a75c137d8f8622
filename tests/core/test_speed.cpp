// The speed model: FLOPs per token, compute efficiency, training steps and serving, each worked
// by hand from the formulas of docs/speed-and-cost.md. (Communication: test_comm.cpp; published
// runs: test_published_runs.cpp.)
#include <doctest/doctest.h>

#include <cmath>

#include "gpusizer/speed.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

ModelArch arch_of(std::string fixture) {
    return gpusizer_test::config_fixture(fixture.substr(0, fixture.size() - 5));  // "x.json" -> "x"
}

Accelerator part(double bf16_tflops, double bandwidth_gbps, double fp8_tflops = 0) {
    Accelerator a;
    a.id = "test";
    a.year = 2022;
    a.software = "cuda";
    a.tflops_bf16_dense = bf16_tflops;
    a.tflops_fp16_dense = bf16_tflops;
    a.tflops_fp8_dense = fp8_tflops;
    a.memory_bandwidth_gbps = bandwidth_gbps;
    a.nvlink_bandwidth_gbps = 900;
    a.pcie_gen = 5;
    return a;
}

// An A100 80GB: ridge 312 TF / 2039 GB/s = 153 FLOP/B.
Accelerator a100() { return part(312, 2039); }

}  // namespace

// [SECTION] FLOPs per token

TEST_CASE("speed: 6ND without attention for 7e9 params and 1e12 tokens (validation_public train-flops-6nd)") {
    ModelArch a;  // zero layers: no attention term
    Scenario s;
    s.task = Task::pretrain;
    CHECK(model_flops_per_token(s, a, 7000000000ull) * 1e12 == doctest::Approx(4.2e22));
    s.task = Task::lora;
    CHECK(model_flops_per_token(s, a, 7000000000ull) == doctest::Approx(4 * 7e9));
}

TEST_CASE("speed: recompute adds the attention core (selective) or a whole forward (full)") {
    ModelArch a;
    a.num_layers = 2;
    a.num_heads = 4;
    a.head_dim = 8;
    Scenario s;
    s.task = Task::full_ft;
    s.seq_len = 100;
    const double span = 2.0 * 4 * 8 * 100;  // Σ layers heads × head_dim × T
    const double model = 6.0 * 1000 + 12 * span;
    CHECK(model_flops_per_token(s, a, 1000) == doctest::Approx(model));
    s.activation_checkpointing = Checkpointing::selective;
    CHECK(hardware_flops_per_token(s, a, 1000) == doctest::Approx(model + 4 * span));
    s.activation_checkpointing = Checkpointing::full;
    CHECK(hardware_flops_per_token(s, a, 1000) == doctest::Approx(model + 2.0 * 1000 + 4 * span));
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
    const double flops = hardware_flops_per_token(s, a, 530000000000ull) * 1920.0 * 2048.0;
    CHECK(flops / (2240.0 * 126e12) == doctest::Approx(60.1).epsilon(0.15));  // measured 60.1 s (MT-NLG paper §2.4)
}

// [SECTION] Peaks and compute efficiency

// efficiency = 0.74 × task / (1 + 10.3 × ridge / hidden), ridge = bf16 peak / memory bandwidth.
double expected(double task, double peak_tflops, double bandwidth_gbps, double hidden) {
    return 0.74 * task / (1 + 10.3 * (peak_tflops * 1e12) / (bandwidth_gbps * 1e9) / hidden);
}

TEST_CASE("speed: compute efficiency by task and model width, with its reasons") {
    ModelArch dense, moe;
    dense.hidden_size = moe.hidden_size = 4096;
    moe.num_experts = 8;
    Scenario s;
    s.task = Task::pretrain;
    CHECK(compute_efficiency(s, dense, a100()).value == doctest::Approx(expected(1, 312, 2039, 4096)));
    CHECK(compute_efficiency(s, dense, a100()).value == doctest::Approx(0.534).epsilon(0.002));
    CHECK(compute_efficiency(s, dense, a100()).why == "pretrain 0.53 (0.74 / (1 + 10.3 × ridge 153 FLOP/B / hidden 4096))");
    s.task = Task::full_ft;
    CHECK(compute_efficiency(s, dense, a100()).value == doctest::Approx(expected(0.45 / 0.55, 312, 2039, 4096)));
    s.task = Task::qlora;
    CHECK(compute_efficiency(s, dense, a100()).value == doctest::Approx(expected(0.30 / 0.55, 312, 2039, 4096)));
    // A wider model spends relatively less on element-wise work: 16384 wide on the same part.
    ModelArch wide;
    wide.hidden_size = 16384;
    s.task = Task::pretrain;
    CHECK(compute_efficiency(s, wide, a100()).value == doctest::Approx(expected(1, 312, 2039, 16384)));
    CHECK(compute_efficiency(s, wide, a100()).value > compute_efficiency(s, dense, a100()).value);
    // V100 (2017): MoE × 0.7 and pre-Ampere × 0.6.
    Accelerator v100 = part(125, 900);
    v100.year = 2017;
    s.task = Task::lora;
    const Efficiency e = compute_efficiency(s, moe, v100);
    CHECK(e.value == doctest::Approx(expected(0.45 / 0.55, 125, 900, 4096) * 0.7 * 0.6));
    CHECK(e.why.find(" × 0.70 (MoE) × 0.60 (pre-Ampere)") != std::string::npos);
}

TEST_CASE("speed: a bandwidth-starved part loses efficiency; Ascend and Cambricon use their published factor on an A100's") {
    Scenario s;
    s.task = Task::full_ft;
    ModelArch a;
    a.hidden_size = 4096;
    // H100 SXM: 989.4 TF / 3350 GB/s = ridge 295.3 against the A100's 153.0.
    const Efficiency h = compute_efficiency(s, a, part(989.4, 3350));
    CHECK(h.value == doctest::Approx(expected(0.45 / 0.55, 989.4, 3350, 4096)));
    CHECK(h.value < compute_efficiency(s, a, a100()).value);
    Accelerator ascend = part(320, 1600);
    ascend.software = "cann";
    CHECK(compute_efficiency(s, a, ascend).value == doctest::Approx(expected(0.45 / 0.55, 312, 2039, 4096) * 0.89));
    CHECK(compute_efficiency(s, a, ascend).why.find("ModelLink") != std::string::npos);
    Accelerator mlu = part(314, 2700);
    mlu.software = "neuware";
    CHECK(compute_efficiency(s, a, mlu).value == doctest::Approx(expected(0.45 / 0.55, 312, 2039, 4096) * 0.5));
    CHECK(compute_efficiency(s, a, mlu).why.find("assumed") != std::string::npos);
}

TEST_CASE("speed: fp8 training runs at 1.28 × bf16, never above the fp8 peak; bf16 on a part without it runs fp16") {
    Scenario s;
    s.task = Task::pretrain;
    s.weight_dtype = WeightDtype::fp8;
    CHECK(training_peak_flops(part(989.4, 3350, 1978.9), s) == doctest::Approx(1.28 * 989.4e12));
    CHECK(training_peak_flops(part(989.4, 3350, 1100), s) == doctest::Approx(1100e12));
    CHECK(peak_flops(part(989.4, 3350, 1978.9), s) == doctest::Approx(1978.9e12));  // MFU is against the fp8 peak
    Accelerator t4 = part(0, 320);
    t4.tflops_fp16_dense = 65;
    s.weight_dtype = WeightDtype::bf16;
    CHECK(lacks_bf16(t4, s));
    CHECK(peak_flops(t4, s) == doctest::Approx(65e12));
    CHECK_FALSE(lacks_bf16(a100(), s));
}

// [SECTION] Training steps

TEST_CASE("speed: one GPU's step is its compute: tokens/s = peak × efficiency / hardware FLOPs per token") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    Scenario s;
    s.task = Task::full_ft;
    s.seq_len = 2048;
    s.batch_size = 2;
    ParamCounts p;
    p.total = p.active = p.trainable = 8030261248ull;
    const Links links = node_links(a100(), "none", 1, 0);
    const TrainingStep t = training_step(s, a, p, a100(), links, JobLayout{});
    const double per_token = 6.0 * 8030261248.0 + 12.0 * 32 * 4096 * 2048;  // 6N + 12·L·H·Q·T
    const double eff = expected(0.45 / 0.55, 312, 2039, 4096);                 // 0.437
    CHECK(t.tokens_per_s == doctest::Approx(312e12 * eff / per_token));
    CHECK(t.mfu == doctest::Approx(eff));
    // 0.25M tokens per step: ceil(250000 / 4096) = 62 micro-batches of 2 × 2048.
    CHECK(t.micro_batches == doctest::Approx(62));
    CHECK(t.dp_s == 0);
    CHECK(t.tp_s == 0);
    // Gradient checkpointing: a third more compute (+2N + 4·span), so tokens/s falls by that ratio.
    s.activation_checkpointing = Checkpointing::full;
    const TrainingStep c = training_step(s, a, p, a100(), links, JobLayout{});
    const double recompute = per_token + 2.0 * 8030261248.0 + 4.0 * 32 * 4096 * 2048;
    CHECK(c.tokens_per_s == doctest::Approx(312e12 * eff / recompute));
    CHECK(c.recompute_s / c.compute_s == doctest::Approx(1 - per_token / recompute));
    CHECK(c.mfu == doctest::Approx(eff * per_token / recompute));
}

TEST_CASE("speed: the user's mfu is end to end") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    Scenario s;
    s.task = Task::pretrain;
    s.mfu = 0.5;
    ParamCounts p;
    p.total = p.active = p.trainable = 8030261248ull;
    JobLayout l;
    l.dp = 8;
    l.zero = 3;
    l.gpus_per_node = 8;
    const TrainingStep t = training_step(s, a, p, a100(), node_links(a100(), "nvswitch", 8, 0), l);
    CHECK(t.user_mfu);
    CHECK(t.mfu == doctest::Approx(0.5));
    CHECK(t.tokens_per_s == doctest::Approx(8 * 312e12 * 0.5 / model_flops_per_token(s, a, p.active)));
}

TEST_CASE("speed: Llama 3.1 405B pretraining GPU-hours on 16k H100 with the default efficiency and its layout") {
    const ModelArch a = arch_of("llama-3.1-405b.json");
    Scenario s;
    s.task = Task::pretrain;
    s.seq_len = 8192;
    s.batch_size = 1;
    ParamCounts p;
    p.total = p.active = p.trainable = 405000000000ull;
    JobLayout l;  // TP 8, PP 16, DP 128, 16M tokens per step (Llama 3 paper Table 4)
    l.tp = 8, l.pp = 16, l.dp = 128, l.nodes = 2048, l.gpus_per_node = 8, l.global_batch_tokens = 16e6;
    s.framework = Framework::megatron;  // a scheduled (1F1B) pipeline
    const Accelerator h100 = part(989.4, 3350);
    const TrainingStep t = training_step(s, a, p, h100, node_links(h100, "nvswitch", 8, 3200), l);
    const double gpu_hours = 15.6e12 / t.tokens_per_s / 3600 * 16384;
    // Llama 3.1 model card: 30.84M H100-80GB hours for 405B (every overhead included).
    CHECK(gpu_hours == doctest::Approx(30.84e6).epsilon(0.35));
}

// [SECTION] Serving

TEST_CASE("speed: batch-1 decode of an 8B bf16 model is memory-bound at bandwidth × efficiency") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    Scenario s;
    s.engine = Engine::vllm;
    s.prompt_tokens = 1;
    s.output_tokens = 1;
    s.seq_len = 2;
    ParamCounts p;
    p.total = p.active = 8030261248ull;
    MemoryBreakdown m;
    m.weights = 2 * p.total;
    const Accelerator h = part(989.4, 3350);
    const ServingSpeed r = serving_speed(s, a, p, m, 131072, h, node_links(h, "none", 1, 0), 1, 1, 1);
    CHECK(r.memory_bound);
    // 3350 GB/s × 0.80 over 16.06 GB of weights + 1.5 tokens of KV (mean context P + O/2).
    const double step = (2.0 * 8030261248.0 + 1.5 * 131072) / (3350e9 * 0.8);
    CHECK(r.decode_step_s == doctest::Approx(step));
    // Continuous batching: B/O = 1 newcomer per step, prefilled at 0.5 × peak: 2·N·P + 2·P·ΣHQ·P.
    const double prefill = (2.0 * 8030261248.0 + 2.0 * 32 * 4096) / (989.4e12 * 0.5);
    CHECK(r.tpot_s == doctest::Approx(step + prefill));
    CHECK(r.tokens_per_s == doctest::Approx(1 / (step + prefill)));
}

TEST_CASE("speed: larger decode batches raise throughput and lower per-sequence speed") {
    const ModelArch a = arch_of("llama-3.1-8b.json");
    ParamCounts p;
    p.total = p.active = 8030261248ull;
    MemoryBreakdown m;
    m.weights = 2 * p.total;
    Scenario s;
    s.seq_len = 4096;
    const Accelerator h = part(989.4, 3350);
    double last_total = 0, last_per_seq = 1e30;
    for (std::int64_t b : {1, 8, 64, 512}) {
        const ServingSpeed r = serving_speed(s, a, p, m, 131072, h, node_links(h, "none", 1, 0), 1, 1, b);
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
    s.prompt_tokens = 1;
    s.output_tokens = 1;
    s.seq_len = 2;
    s.engine = Engine::vllm;
    const Accelerator h = part(989.4, 3350);
    const ServingSpeed one = serving_speed(s, a, p, m, 131072, h, node_links(h, "none", 1, 0), 1, 1, 1);
    // Batch 1, top-2 of 8: reads ≈ active parameters, not all 46.7B.
    CHECK(one.decode_step_s == doctest::Approx(2.0 * 12879921152.0 / (3350e9 * 0.8)).epsilon(0.02));
}

TEST_CASE("speed: tensor parallel decode adds two all-reduces per layer") {
    const ModelArch a = arch_of("llama-3.1-70b.json");
    ParamCounts p;
    p.total = p.active = 70553706496ull;
    MemoryBreakdown m;
    m.weights = p.total / 2;  // bf16 split over TP 4
    Scenario s;
    s.engine = Engine::vllm;
    s.prompt_tokens = 1000;
    s.output_tokens = 1000;
    s.seq_len = 2000;
    const Accelerator h = part(989.4, 3350);
    const Links links = node_links(h, "nvswitch", 8, 0);
    const ServingSpeed r = serving_speed(s, a, p, m, 81920, h, links, 4, 1, 16);
    // 2 × 80 layers × (2·(4−1)/4 × 2·16·8192 bytes / 360 GB/s + 8 µs).
    const double one = 2.0 * 3 / 4 * (2.0 * 16 * 8192) / 360e9 + 8e-6;
    CHECK(r.tp_comm_s == doctest::Approx(2 * 80 * one));
    CHECK(engine_max_seqs(s) == 256);  // vLLM's default max_num_seqs
    s.engine = Engine::hf;
    CHECK(engine_max_seqs(s) > 100000);
}
