// Training steps (docs/speed-and-cost.md "Training"): one optimizer step of a layout is its
// compute (model FLOPs + recompute at the compute efficiency) plus what communication and the
// pipeline add on top: tensor-parallel all-reduces, pipeline fill/drain and sends, expert
// all-to-all, data-parallel / ZeRO traffic beyond what overlaps with compute, CPU offload.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] Pieces of a step
// [SECTION] training_step

#include <algorithm>
#include <cmath>

#include "gpusizer/speed.hpp"
#include "speed_internal.hpp"

namespace gpusizer {

// [SECTION] Constants
namespace {

// Tokens per optimizer step when gradient accumulation fills a global batch: pretraining 4M
// (Llama 2; FlagPerf's Llama-3 70B case; GPT-3 175B 3.2M); fine-tuning ASSUMPTION 0.25M (128
// sequences of 2048, the scale of HF/TRL recipes' batch × accumulation × GPUs).
constexpr double k_global_batch_pretrain = 4.0e6;
constexpr double k_global_batch_finetune = 0.25e6;
// Megatron TP: per layer 2 all-reduces forward, 2 backward, 2 more in a full recompute (ZeRO paper §8).
constexpr double k_tp_allreduces_fwd = 2, k_tp_allreduces_bwd = 2;
// Frameworks overlap data-parallel traffic with compute (DDP buckets during backward; FSDP / ZeRO-3
// prefetch during forward and backward). ASSUMPTION: a tenth of it stays exposed however long the
// window (the last bucket, the step's synchronisation); Korthikanti et al. §6.3 measured 3.5% for
// a fully exposed DP all-reduce at DP 8.
constexpr double k_dp_min_exposed = 0.10;
// Backward is 2/3 of a full step's FLOPs (4N of 6N); LoRA's backward is half (2N of 4N).
constexpr double k_backward_share_full = 2.0 / 3.0, k_backward_share_lora = 0.5;
// Host↔device copies reach ~78% of PCIe: A100 Gen4 x16 measured 25 of 32 GB/s (BaM #54).
constexpr double k_host_device_fraction = 0.78;
// ASSUMPTION: DeepSpeed CPU-Adam updates 1e9 parameters per second per node (memory-bound at ~28
// bytes per parameter on ~100 GB/s of host memory, a third of that reached).
constexpr double k_cpu_adam_params_per_s = 1.0e9;



// [SECTION] Pieces of a step

struct StepShape {
    double micro_tokens = 0;   // b × seq, one micro-batch of one DP rank
    double m = 1;              // micro-batches per step
    double compute_mb = 0;     // seconds per micro-batch per GPU
    double model_share = 0;    // model FLOPs / hardware FLOPs
    double trainable = 0;      // parameters per GPU (after TP/PP split) that get gradients
    double all_params = 0;     // parameters per GPU (after TP/PP split)
    double grad_bytes = 2;     // bytes per gradient element reduced
    std::int64_t dp_local = 1, tp_local = 1, ep_local = 1;
};

double tensor_parallel_s(const Scenario& s, const ModelArch& arch, const Links& links, const JobLayout& l,
                         const StepShape& k) {
    if (l.tp <= 1) return 0;
    const double bytes = k.micro_tokens * static_cast<double>(arch.hidden_size) * 2;  // bf16 activations
    const bool full = s.activation_checkpointing == Checkpointing::full || s.activation_checkpointing == Checkpointing::offload;
    const double per_layer = k_tp_allreduces_fwd * (full ? 2 : 1) + k_tp_allreduces_bwd;
    const double layers = static_cast<double>(arch.num_layers) / static_cast<double>(l.pp);
    return k.m * layers * per_layer * all_reduce_s(links, bytes, l.tp, k.tp_local);
}

double expert_parallel_s(const ModelArch& arch, const Links& links, const JobLayout& l, const StepShape& k) {
    if (l.ep <= 1 || arch.num_experts == 0) return 0;
    const double freq = static_cast<double>(std::max<std::uint64_t>(1, arch.moe_layer_freq));
    const double moe_layers = (static_cast<double>(arch.num_layers) - static_cast<double>(arch.first_dense_layers)) / freq;
    // Each token goes to k experts: dispatch and combine, forward and backward (4 all-to-all).
    const double bytes = k.micro_tokens * static_cast<double>(std::max<std::uint64_t>(1, arch.experts_per_token)) *
                         static_cast<double>(arch.hidden_size) * 2;
    return k.m * moe_layers / static_cast<double>(l.pp) * 4 * all_to_all_s(links, bytes, l.ep, k.ep_local);
}

// Data-parallel / ZeRO bytes per step (ZeRO paper §7.2: DP and ZeRO-1/2 move 2Ψ, ZeRO-3 3Ψ), and
// the compute they can hide behind.
struct DpTraffic {
    double seconds = 0, window = 0;
};
DpTraffic data_parallel(const Scenario& s, const Links& links, const JobLayout& l, const StepShape& k) {
    DpTraffic t;
    if (l.dp <= 1) return t;
    const double backward = k.compute_mb * (is_lora(s.task) ? k_backward_share_lora : k_backward_share_full);
    const double grads = k.trainable * k.grad_bytes;
    const double params = k.all_params * 2;  // bf16 copies gathered
    if (l.zero >= 3) {  // per micro-batch: gather params for forward and backward, scatter gradients
        t.seconds = k.m * (2 * reduce_scatter_s(links, params, l.dp, k.dp_local) +
                           reduce_scatter_s(links, grads, l.dp, k.dp_local));
        t.window = k.m * k.compute_mb;
    } else if (l.zero == 2) {  // gradients scattered every micro-batch; parameters gathered once
        t.seconds = k.m * reduce_scatter_s(links, grads, l.dp, k.dp_local) +
                    reduce_scatter_s(links, k.trainable * 2, l.dp, k.dp_local);
        t.window = k.m * backward;
    } else {  // DDP / ZeRO-1: one all-reduce per step (no_sync while accumulating)
        t.seconds = all_reduce_s(links, grads, l.dp, k.dp_local);
        t.window = backward;
    }
    return t;
}

// CPU offload (ZeRO-Offload / ZeRO-Infinity): gradients down and parameters up each step, the
// optimizer on the CPU; offloaded parameters stream up for every micro-batch's forward and backward.
double offload_s(const Scenario& s, const Accelerator& a, const JobLayout& l, const StepShape& k) {
    if (s.offload == Offload::none) return 0;
    const double shard = k.trainable / static_cast<double>(l.dp);
    const double pcie = pcie_bytes_per_s(a.pcie_gen) * k_host_device_fraction;
    double t = 4 * shard / pcie + shard * static_cast<double>(l.gpus_per_node) / k_cpu_adam_params_per_s;
    if (s.offload == Offload::optimizer_and_params) {
        const double fetch = 2 * 2 * k.all_params / static_cast<double>(l.dp) / pcie;  // fwd + bwd, bf16
        t += k.m * std::max(0.0, fetch - k.compute_mb) + k.m * k_dp_min_exposed * fetch;
    }
    return t;
}

StepShape step_shape(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const Accelerator& a,
                     const JobLayout& l, double global_batch_tokens, const Efficiency* given, TrainingStep& out) {
    StepShape k;
    k.micro_tokens = static_cast<double>(s.batch_size) * static_cast<double>(s.seq_len);
    const double global = global_batch_tokens > 0 ? global_batch_tokens
                          : s.task == Task::pretrain ? k_global_batch_pretrain
                                                     : k_global_batch_finetune;
    k.m = std::max(1.0, std::ceil(global / (k.micro_tokens * static_cast<double>(l.dp))));
    const double hw = hardware_flops_per_token(s, arch, p.active);
    const double model = model_flops_per_token(s, arch, p.active);
    k.model_share = hw > 0 ? model / hw : 1;
    out.efficiency = given ? *given : compute_efficiency(s, arch, a);
    const double rate = training_peak_flops(a, s) * out.efficiency.value;
    const double mp = static_cast<double>(l.tp * l.pp);
    k.compute_mb = rate > 0 ? k.micro_tokens * hw / mp / rate : 0;
    k.trainable = static_cast<double>(p.trainable) / mp;
    k.all_params = static_cast<double>(p.total) / mp;
    k.grad_bytes = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;
    const std::int64_t per_node = std::max<std::int64_t>(1, l.gpus_per_node);
    const std::int64_t stages_in_node = std::max<std::int64_t>(1, l.pp / std::max<std::int64_t>(1, l.nodes));
    k.tp_local = std::min(l.tp, per_node);
    k.dp_local = std::max<std::int64_t>(1, std::min(l.dp, per_node / std::max<std::int64_t>(1, l.tp * stages_in_node)));
    k.ep_local = std::max<std::int64_t>(1, std::min(l.ep, per_node / std::max<std::int64_t>(1, l.tp)));
    return k;
}

}  // namespace

// [SECTION] training_step

TrainingStep training_step(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const Accelerator& a,
                           const Links& links, const JobLayout& l, const Efficiency* efficiency) {
    TrainingStep t;
    const StepShape k = step_shape(s, arch, p, a, l, l.global_batch_tokens, efficiency, t);
    const double gpus = static_cast<double>(l.tp * l.pp * l.dp);
    t.micro_batches = k.m;
    t.tokens = k.m * k.micro_tokens * static_cast<double>(l.dp);
    const double peak = peak_flops(a, s);
    const double model_flops = model_flops_per_token(s, arch, p.active);
    if (s.mfu) {  // the user's MFU is end to end: communication, bubble and recompute included
        t.user_mfu = true;
        t.mfu = *s.mfu;
        t.step_s = peak > 0 ? t.tokens * model_flops / (gpus * peak * *s.mfu) : 0;
        t.compute_s = t.step_s;
    } else {
        t.compute_s = k.m * k.compute_mb;
        t.recompute_s = t.compute_s * (1 - k.model_share);
        t.tp_s = tensor_parallel_s(s, arch, links, l, k);
        t.ep_s = expert_parallel_s(arch, links, l, k);
        if (l.pp > 1) {
            // DeepSpeed's 1F1B: (pp − 1) micro-batch slots of fill and drain. Megatron-LM interleaves v
            // virtual stages per GPU (Narayanan et al. 2021 §2.2.2: bubble (pp − 1) / (m · v), v sends
            // as many); ASSUMPTION v = the layers of a stage, as in its and Llama 3's large runs. The
            // HF stack, torchtune and Unsloth split a model with device_map, naive model parallelism:
            // one stage works at a time, so the others idle (pp − 1) / pp of the step.
            const double layers = static_cast<double>(arch.num_layers) / static_cast<double>(l.pp);
            const double v = s.framework == Framework::megatron ? std::max(1.0, std::floor(layers)) : 1.0;
            const bool scheduled = s.framework == Framework::deepspeed || s.framework == Framework::megatron;
            t.pp_bubble_s = static_cast<double>(l.pp - 1) * k.compute_mb * (scheduled ? 1 / v : k.m);
            const double act = k.micro_tokens * static_cast<double>(arch.hidden_size) * 2;
            t.pp_send_s = k.m * 2 * v * send_s(links, act, l.nodes > 1);
        }
        const DpTraffic dp = data_parallel(s, links, l, k);
        t.dp_s = dp.seconds;
        t.dp_exposed_s = std::max(dp.seconds - dp.window, k_dp_min_exposed * dp.seconds);
        t.offload_s = offload_s(s, a, l, k);
        t.step_s = t.compute_s + t.tp_s + t.ep_s + t.pp_bubble_s + t.pp_send_s + t.dp_exposed_s + t.offload_s;
    }
    t.tokens_per_s = t.step_s > 0 ? t.tokens / t.step_s : 0;
    if (!s.mfu) t.mfu = peak > 0 && t.step_s > 0 ? t.tokens_per_s * model_flops / (gpus * peak) : 0;
    return t;
}

}  // namespace gpusizer
