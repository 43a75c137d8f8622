// The speed model (docs/speed-and-cost.md): FLOPs and MFU for training, a roofline for
// inference. Only + - * / and comparisons on doubles, so native and wasm agree bit for bit.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] Peaks and MFU
// [SECTION] FLOPs per token
// [SECTION] Training
// [SECTION] Inference

#include "gpusizer/speed.hpp"

#include <algorithm>
#include <cstdio>

namespace gpusizer {

// [SECTION] Constants
namespace {

// Default MFU per task (docs/research/memory-model.md §2.9 "rule of thumb"): large dense pretraining
// on A100/H100 35–50% (Llama 3 405B 38–43%, Megatron 45–55%); single-node fine-tuning with HF +
// flash attention 25–45%; QLoRA 15–30% (dequantization overhead).
constexpr double k_mfu_pretrain = 0.40;
constexpr double k_mfu_full_ft = 0.35;
constexpr double k_mfu_lora = 0.30;
constexpr double k_mfu_qlora = 0.20;
// MoE 20–35% against 35–50% dense (same table): × 0.7.
constexpr double k_mfu_moe_factor = 0.70;
// Volta/Turing (released ≤ 2018): GPT-3 on V100 reached 21.3% MFU (PaLM Table 3) against ~40% on
// A100/H100 for comparable jobs: × 0.6.
constexpr double k_mfu_pre_ampere_factor = 0.60;
// Model parallelism over PCIe: utilisation can fall to about half (issue #5; NCCL over PCIe
// without NVLink moves 32–64 GB/s against 450–900 GB/s).
constexpr double k_mfu_pcie_model_parallel_factor = 0.50;
// Inference: compute efficiency of prefill and of compute-bound decode (llm-analysis README
// suggests ≤ 0.7 for inference; 0.5 keeps kernels' launch and softmax costs in).
constexpr double k_inference_flops_efficiency = 0.50;
// One tensor-parallel all-reduce of a small message: ~10 µs of latency (assumption: NCCL
// ring/tree small-message latency is of this order within a node).
constexpr double k_allreduce_latency_s = 10e-6;
// PCIe x16 bandwidth per direction, GB/s: gen3 16, gen4 32, gen5 64, gen6 128 (PCI-SIG).
double pcie_gbps_per_direction(int gen) {
    switch (gen) {
        case 3: return 16;
        case 4: return 32;
        case 5: return 64;
        case 6: return 128;
        default: return 16;
    }
}

bool is_lora(Task t) { return t == Task::lora || t == Task::qlora; }

}  // namespace

// Achievable fraction of peak memory bandwidth in decode: gpu_poor's extraFactor (2 for HF,
// 1.5 for GGML, 1 for vLLM) on top of llm-analysis' 0.9 "aggressive" efficiency.
double memory_efficiency(Engine e) {
    switch (e) {
        case Engine::vllm: return 0.80;
        case Engine::llama_cpp: return 0.60;
        case Engine::hf: return 0.45;
    }
    return 0.45;
}

// [SECTION] Peaks and MFU

double peak_flops(const Accelerator& a, const Scenario& s) {
    const double bf16 = a.tflops_bf16_dense > 0 ? a.tflops_bf16_dense
                        : a.tflops_fp16_dense > 0 ? a.tflops_fp16_dense
                        : a.tflops_tf32 > 0       ? a.tflops_tf32
                                                  : a.tflops_fp32;
    // fp8 weights run fp8 tensor cores where the part has them (H100/H200/B200, MI300, Gaudi 3).
    if (s.weight_dtype == WeightDtype::fp8 && a.tflops_fp8_dense > 0) return a.tflops_fp8_dense * 1e12;
    if (s.weight_dtype == WeightDtype::fp32 && s.task != Task::inference)
        return (a.tflops_tf32 > 0 ? a.tflops_tf32 : a.tflops_fp32) * 1e12;  // fp32 training uses TF32 tensor cores
    return bf16 * 1e12;
}

MfuChoice default_mfu(const Scenario& s, const ModelArch& arch, const Accelerator& a, bool pcie_mp) {
    MfuChoice c;
    char buf[32];
    switch (s.task) {
        case Task::pretrain: c.mfu = k_mfu_pretrain; break;
        case Task::full_ft: c.mfu = k_mfu_full_ft; break;
        case Task::lora: c.mfu = k_mfu_lora; break;
        case Task::qlora: c.mfu = k_mfu_qlora; break;
        case Task::inference: c.mfu = k_inference_flops_efficiency; break;
    }
    std::snprintf(buf, sizeof buf, "%.2f", c.mfu);
    c.why = std::string(to_string(s.task)) + " default " + buf;
    if (arch.num_experts > 0) {
        c.mfu *= k_mfu_moe_factor;
        c.why += " × 0.70 (MoE)";
    }
    if (a.year > 0 && a.year <= 2018) {
        c.mfu *= k_mfu_pre_ampere_factor;
        c.why += " × 0.60 (pre-Ampere)";
    }
    if (pcie_mp) {
        c.mfu *= k_mfu_pcie_model_parallel_factor;
        c.why += " × 0.50 (model parallel over PCIe)";
    }
    return c;
}

// [SECTION] FLOPs per token
namespace {

// Σ over layers of (attention width × attended tokens) for one token at context T:
// full layers see T tokens, sliding-window layers min(T, W).
double attention_span(const ModelArch& a, double T) {
    const double width = static_cast<double>(a.num_heads) *
                         static_cast<double>(a.kv_lora_rank > 0 ? a.qk_nope_head_dim + a.qk_rope_head_dim : a.head_dim);
    const double sliding = static_cast<double>(std::min(a.num_sliding_layers, a.num_layers));
    const double full = static_cast<double>(a.num_layers) - sliding;
    const double w = a.sliding_window > 0 ? std::min(T, static_cast<double>(a.sliding_window)) : T;
    return width * (full * T + sliding * w);
}

}  // namespace

double model_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active) {
    const double n = static_cast<double>(active);
    // PaLM App. B: 6N + 12·L·H·Q·T per token. LoRA skips weight gradients of frozen weights:
    // forward 2N + input gradients 2N = 4N; attention-score work has no weights, so its 12·… stays.
    const double weights = (is_lora(s.task) ? 4.0 : 6.0) * n;
    return weights + 12.0 * attention_span(arch, static_cast<double>(s.seq_len));
}

double hardware_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active) {
    const double model = model_flops_per_token(s, arch, active);
    if (s.activation_checkpointing != Checkpointing::full && s.activation_checkpointing != Checkpointing::offload)
        return model;
    // Full recompute repeats the forward pass: 2N + 4·L·H·Q·T (Narayanan et al. 2021: 96 vs 72).
    return model + 2.0 * static_cast<double>(active) + 4.0 * attention_span(arch, static_cast<double>(s.seq_len));
}

// [SECTION] Training

TrainingSpeed training_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const Accelerator& a,
                             std::int64_t gpus, bool pcie_mp) {
    TrainingSpeed t;
    const MfuChoice m = default_mfu(s, arch, a, pcie_mp);
    t.mfu = s.mfu ? *s.mfu : m.mfu;
    t.mfu_why = s.mfu ? "set by the scenario" : m.why;
    const double flops = model_flops_per_token(s, arch, p.active);
    // T = C / (N_gpu · peak · MFU) (docs/research/memory-model.md §2.9).
    t.tokens_per_s = flops > 0 ? static_cast<double>(gpus) * peak_flops(a, s) * t.mfu / flops : 0;
    if (s.train_tokens && t.tokens_per_s > 0) {
        t.hours = *s.train_tokens / t.tokens_per_s / 3600.0;
        t.gpu_hours = t.hours * static_cast<double>(gpus);
    }
    return t;
}

// [SECTION] Inference
namespace {

// (1 − 1/E)^n by repeated squaring (exact IEEE operations, identical on every host).
double power(double base, std::uint64_t n) {
    double result = 1.0;
    while (n) {
        if (n & 1) result *= base;
        base *= base;
        n >>= 1;
    }
    return result;
}

// Fraction of all weights a decode step reads: dense parts always, experts only when some
// token of the batch is routed to them. Each token picks k distinct experts; with uniform
// routing an expert is missed by all B tokens with probability (1 − k/E)^B.
double weights_read_fraction(const ModelArch& a, const ParamCounts& p, std::int64_t batch) {
    if (a.num_experts == 0 || a.experts_per_token == 0 || p.total == 0 || a.experts_per_token >= a.num_experts)
        return 1.0;
    const double E = static_cast<double>(a.num_experts), k = static_cast<double>(a.experts_per_token);
    const double all_experts = static_cast<double>(p.total - std::min(p.total, p.active)) * E / (E - k);
    const double dense = std::max(0.0, static_cast<double>(p.total) - all_experts);
    const double distinct = E * (1.0 - power(1.0 - k / E, static_cast<std::uint64_t>(batch)));
    return std::min(1.0, (dense + all_experts * distinct / E) / static_cast<double>(p.total));
}

}  // namespace

InferenceSpeed inference_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p,
                               const MemoryBreakdown& per_gpu, std::uint64_t kv_per_token, const Accelerator& a,
                               std::int64_t tp, std::int64_t replicas, const std::string& interconnect) {
    InferenceSpeed r;
    const double B = static_cast<double>(s.batch_size);
    const double ctx = static_cast<double>(s.seq_len);
    const double bw = a.memory_bandwidth_gbps * 1e9 * memory_efficiency(s.engine);
    const double flops = peak_flops(a, s) * k_inference_flops_efficiency * static_cast<double>(tp);
    const double pp = static_cast<double>(std::max<std::int64_t>(1, s.pipeline_parallel));
    if (bw <= 0 || flops <= 0) return r;

    // Decode step (docs/research/memory-model.md §2.10): read the weights once and each sequence's KV;
    // pipeline stages run one after another for a single step.
    const double weight_bytes = static_cast<double>(per_gpu.weights) * weights_read_fraction(arch, p, s.batch_size);
    const double kv_bytes = B * ctx * static_cast<double>(kv_per_token);
    const double t_mem = pp * (weight_bytes + kv_bytes) / bw;
    const double t_compute = (2.0 * static_cast<double>(p.active) * B + 4.0 * B * attention_span(arch, ctx)) / flops;
    // Tensor parallel: two all-reduces per layer of B·h 16-bit values ((t−1)/t of it crosses links).
    double t_comm = 0;
    if (tp > 1) {
        const bool nvlink = interconnect == "nvlink" || interconnect == "nvswitch" || interconnect == "hccs";
        const double link = (nvlink && a.nvlink_bandwidth_gbps > 0 ? a.nvlink_bandwidth_gbps / 2
                                                                   : pcie_gbps_per_direction(a.pcie_gen)) * 1e9;
        const double bytes = 2.0 * B * static_cast<double>(arch.hidden_size) * (static_cast<double>(tp) - 1) /
                             static_cast<double>(tp);
        t_comm = 2.0 * static_cast<double>(arch.num_layers) * (k_allreduce_latency_s + bytes / link);
    }
    const double t_step = std::max(t_mem, t_compute) + t_comm;
    r.memory_bound = t_mem >= t_compute;
    r.decode_tokens_per_s_per_seq = t_step > 0 ? 1.0 / t_step : 0;
    r.tokens_per_s = r.decode_tokens_per_s_per_seq * B * static_cast<double>(replicas);

    // Prefill: 2·N·B·P + 2·B·P²·ΣHQ (causal QKᵀ and PV, halved), compute-bound past a few hundred tokens.
    const double P = s.prompt_tokens ? static_cast<double>(std::max<std::int64_t>(1, *s.prompt_tokens)) : ctx;
    const double prefill_flops = 2.0 * static_cast<double>(p.active) * B * P + 2.0 * B * P * attention_span(arch, P);
    const double t_prefill = std::max(prefill_flops / flops, pp * static_cast<double>(per_gpu.weights) / bw);
    r.prefill_tokens_per_s = t_prefill > 0 ? B * P / t_prefill : 0;
    return r;
}

}  // namespace gpusizer
