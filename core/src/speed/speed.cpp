// The speed model's foundations (docs/speed-and-cost.md): dense peaks per dtype, FLOPs per token
// and the compute efficiency a training step reaches on each accelerator. Communication, steps
// and serving are in core/src/speed/. Only + − × ÷, comparisons and sqrt on doubles.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] Peaks
// [SECTION] Compute efficiency
// [SECTION] FLOPs per token

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpusizer/speed.hpp"
#include "speed/speed_internal.hpp"

namespace gpusizer {

// [SECTION] Constants
namespace {

// Compute efficiency: the GEMMs of a layer run near the peak, the element-wise work around them
// (norms, activations, softmax, residuals) at memory speed. Per token and layer the GEMMs are
// ~24·h² FLOPs and the element-wise traffic ~c·h bytes, so
//   efficiency = η / (1 + k · ridge / h),   ridge = peak FLOP/s ÷ memory B/s (FLOP per byte),
// bigger models and bandwidth-rich parts closer to η. Fitted on published runs (docs/speed-and-cost.md
// "Published runs"): Megatron-LM 2021 Table 1 (A100, h 2304 → 25600: 44–52% of peak with recompute),
// Korthikanti et al. 2022 Table 5, MegaScale, torchtitan's Llama-3 8B FSDP on A100 (56.8%) and on its
// H100s (96 GB HBM2e, 2.4 TB/s: 35.6%), Llama 3 405B (MFU 38–43%): η = 0.74, k = 10.3.
constexpr double k_gemm_efficiency = 0.74;
constexpr double k_elementwise_bytes_factor = 10.3;
// Fine-tuning stacks (HF Trainer, torchtune) run smaller batches and unfused optimizers: the old
// documented 0.35 : 0.40 ratio of fine-tuning to pretraining MFU (docs/research/memory-model.md §2.9);
// LoRA the same (torchtune Llama-3.1-70B LoRA on 8× A100: 42% MFU, 4N convention); QLoRA 0.30 : 0.55
// of pretraining (PEFT + bitsandbytes NF4 Llama-3 8B on one RTX 4090: 30% MFU, dequantization).
constexpr double k_task_full_ft = 0.45 / 0.55, k_task_lora = 0.45 / 0.55, k_task_qlora = 0.30 / 0.55;
// MoE 20–35% against 35–50% dense (docs/research/memory-model.md §2.9): × 0.7.
constexpr double k_moe_factor = 0.70;
// Volta/Turing (≤ 2018): GPT-3 on V100 21.3% MFU (PaLM Table 3) against ~40% on A100: × 0.6.
constexpr double k_pre_ampere_factor = 0.60;
// Huawei Ascend (CANN): ModelLink's own tables give 2730 tokens/s per NPU for LLaMA2-7B against 2884
// on its reference GPU, and 1550 vs 1750 for 13B; at peaks 320 vs 312 TF that is 0.92 and 0.86 of
// the reference's efficiency: 0.89 × an A100's (its ridge, not the NPU's).
constexpr double k_ascend_factor = 0.89;
// Cambricon (Neuware): no published LLM training throughput found (FlagPerf's Cambricon cases leave
// MFU blank). ASSUMPTION: half an A100's efficiency until measured.
constexpr double k_cambricon_factor = 0.50;
// The A100 80GB's ridge (312 TF / 2.039 TB/s = 153 FLOP/B), for parts measured against an A100.
constexpr double k_ridge_a100 = 312.0e12 / 2039.0e9;
// fp8 training (Float8 linears, the rest bf16): torchtitan Table 1, 8× H100 Llama-3.1-8B, FSDP +
// compile 6667 → + Float8 8532 tokens/s per GPU = 1.28 × the bf16 speed.
constexpr double k_fp8_training_speedup = 1.28;


}  // namespace

// [SECTION] Peaks

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

double training_peak_flops(const Accelerator& a, const Scenario& s) {
    if (s.weight_dtype != WeightDtype::fp8 || a.tflops_fp8_dense <= 0) return peak_flops(a, s);
    Scenario b = s;
    b.weight_dtype = WeightDtype::bf16;
    return std::min(peak_flops(a, b) * k_fp8_training_speedup, a.tflops_fp8_dense * 1e12);
}

bool lacks_bf16(const Accelerator& a, const Scenario& s) {
    return s.weight_dtype == WeightDtype::bf16 && a.tflops_bf16_dense <= 0 && a.tflops_fp16_dense > 0;
}

// [SECTION] Compute efficiency

Efficiency compute_efficiency(const Scenario& s, const ModelArch& arch, const Accelerator& a, bool explain) {
    Efficiency e;
    double task = 1;
    switch (s.task) {
        case Task::pretrain:
        case Task::inference: break;
        case Task::full_ft: task = k_task_full_ft; break;
        case Task::lora: task = k_task_lora; break;
        case Task::qlora: task = k_task_qlora; break;
    }
    Scenario bf = s;
    if (bf.weight_dtype == WeightDtype::fp8) bf.weight_dtype = WeightDtype::bf16;
    const double bandwidth = a.memory_bandwidth_gbps * 1e9;
    const bool measured_as_a100 = a.software == "cann" || a.software == "neuware";
    const double ridge = measured_as_a100 ? k_ridge_a100 : bandwidth > 0 ? peak_flops(a, bf) / bandwidth : k_ridge_a100;
    const double h = static_cast<double>(std::max<std::uint64_t>(1, arch.hidden_size));
    e.value = k_gemm_efficiency * task / (1 + k_elementwise_bytes_factor * ridge / h);
    if (explain)
        e.why = std::string(to_string(s.task)) + " " + fixed_text(e.value, 2) + " (0.74" +
                (task != 1 ? " × " + fixed_text(task, 2) : std::string()) + " / (1 + 10.3 × ridge " + fixed_text(ridge, 0) +
                " FLOP/B / hidden " + fixed_text(h, 0) + "))";
    auto factor = [&](double f, const char* why) {
        e.value *= f;
        if (explain) e.why += why;
    };
    if (arch.num_experts > 0) factor(k_moe_factor, " × 0.70 (MoE)");
    if (a.year > 0 && a.year <= 2018) factor(k_pre_ampere_factor, " × 0.60 (pre-Ampere)");
    if (a.software == "cann") factor(k_ascend_factor, " × 0.89 (Ascend: ModelLink's published LLaMA2 runs)");
    else if (a.software == "neuware") factor(k_cambricon_factor, " × 0.50 (Cambricon: assumed, no published training run)");
    return e;
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

double attention_span_of(const ModelArch& a, double T) { return attention_span(a, T); }

bool append_fixed(std::string& out, double v, int decimals) {
    if (!(v == v) || v >= 1e15 || v <= -1e15 || decimals > 6) return false;
    const bool negative = v < 0;
    std::uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const auto n = static_cast<std::uint64_t>(std::floor((negative ? -v : v) * static_cast<double>(scale) + 0.5));
    if (negative && n != 0) out += '-';
    out += std::to_string(n / scale);
    if (decimals > 0) {
        const std::string frac = std::to_string(n % scale);
        out += '.';
        out.append(static_cast<std::size_t>(decimals) - frac.size(), '0');
        out += frac;
    }
    return true;
}

std::string fixed_text(double v, int decimals) {
    std::string out;
    if (append_fixed(out, v, decimals)) return out;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

double model_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active) {
    const double n = static_cast<double>(active);
    // PaLM App. B: 6N + 12·L·H·Q·T per token. LoRA skips weight gradients of frozen weights:
    // forward 2N + input gradients 2N = 4N; attention-score work has no weights, so its 12·… stays.
    const double weights = (is_lora(s.task) ? 4.0 : 6.0) * n;
    return weights + 12.0 * attention_span(arch, static_cast<double>(s.seq_len));
}

double hardware_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active) {
    const double model = model_flops_per_token(s, arch, active);
    const double span = attention_span(arch, static_cast<double>(s.seq_len));
    switch (s.activation_checkpointing) {
        case Checkpointing::none: return model;
        // Selective recompute repeats the attention core only (Korthikanti et al. 2022 §5).
        case Checkpointing::selective: return model + 4.0 * span;
        // Full recompute repeats the forward pass: 2N + 4·L·H·Q·T (Narayanan et al. 2021: 96 vs 72).
        case Checkpointing::full:
        case Checkpointing::offload: return model + 2.0 * static_cast<double>(active) + 4.0 * span;
    }
    return model;
}

}  // namespace gpusizer
