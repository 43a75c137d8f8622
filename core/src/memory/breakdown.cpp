// memory_per_gpu: the per-GPU breakdown for one parallel layout, as a list of named steps
// (steps.hpp). Each term is what is resident at the moment of the peak, so the total is the
// peak and still the sum of the terms.
//
// Index
//   [SECTION] Text helpers
//   [SECTION] The job
//   [SECTION] The peak moment (training)
//   [SECTION] memory_per_gpu
#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>

#include "steps.hpp"

namespace gpusizer {

namespace memory {

// [SECTION] Text helpers

std::string num(double v) {
    char buf[64];
    if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.4g", v);
    else std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

namespace {

bool is_16bit_or_32(WeightDtype w) { return w == WeightDtype::fp32 || w == WeightDtype::bf16 || w == WeightDtype::fp16; }

// [SECTION] The job

Job make_job(const ModelArch& a, const Scenario& s, const Layout& l, const ParamDetail& pd, double gpu_memory,
             bool explain) {
    Job j{a, s, l, pd, traits(s.framework)};
    j.train = s.task != Task::inference;
    j.lora = s.task == Task::lora || s.task == Task::qlora;
    j.explain = explain;
    j.t = static_cast<double>(l.tp);
    j.p = static_cast<double>(l.pp);
    j.dp = static_cast<double>(l.dp);
    j.ep = static_cast<double>(l.ep);
    j.L = static_cast<double>(a.num_layers);
    j.layers = std::ceil(j.L / j.p);  // the most loaded pipeline stage
    j.moe_layers = std::fmin(static_cast<double>(pd.moe_layers), j.layers);
    j.dense_layers = j.layers - j.moe_layers;
    j.b = static_cast<double>(s.batch_size > 0 ? s.batch_size : 1);
    j.S = static_cast<double>(s.seq_len > 0 ? s.seq_len : 1);
    if (a.encoder && a.patch_size > 0) j.S = static_cast<double>(a.max_position_embeddings);  // ViT: patches + [CLS]
    j.e = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;
    j.gpu_memory = gpu_memory;
    return j;
}

// [SECTION] The peak moment (training)
// Full training passes two candidate peaks: the start of the backward pass (every activation
// kept, only the LM head's gradient made) and the optimizer step (every gradient, activations
// freed). Each term takes its value at the larger. One micro-batch per step is assumed: with
// gradient accumulation the gradients stay live through every backward.
struct Moment {
    double activations = 0, gradients = 0;
    const char* when = "";
};
Moment peak_moment(const Job& j, const States& st, const Activations& act) {
    const double saved = act.total() + st.autocast_copies;  // what the backward pass will consume
    const double at_backward = saved + st.gradients_at_backward;
    if (j.lora || j.s.optimizer_in_backward || at_backward >= st.gradients)
        return {saved, j.lora ? st.gradients : st.gradients_at_backward,
                st.autocast_copies > 0
                    ? "peak at the start of the backward pass: every saved activation and autocast's 16-bit weight "
                      "copies, the gradients made so far"
                    : "peak at the start of the backward pass: every saved activation, the gradients made so far"};
    return {0, st.gradients, "peak at the optimizer step: every gradient, the activations already freed"};
}

}  // namespace
}  // namespace memory

Layout layout_of(const Scenario& s) {
    Layout l;
    l.tp = s.tensor_parallel > 0 ? s.tensor_parallel : 1;
    l.pp = s.pipeline_parallel > 0 ? s.pipeline_parallel : 1;
    const std::int64_t g = s.num_gpus > 0 ? s.num_gpus : 1;
    l.dp = g / (l.tp * l.pp) > 0 ? g / (l.tp * l.pp) : 1;
    l.ep = s.expert_parallel > 0 ? s.expert_parallel : 1;
    l.zero = s.zero_stage;
    l.sp = s.sequence_parallel;
    return l;
}

// [SECTION] memory_per_gpu

std::uint64_t cuda_limit_bytes(std::uint64_t gpu_memory_bytes, bool given) {
    return to_bytes(std::floor(memory::cuda_visible_bytes(static_cast<double>(gpu_memory_bytes), given)));
}

MemoryDetail memory_per_gpu(const ModelArch& a, const Scenario& s, const Layout& l, std::uint64_t gpu_memory_bytes,
                            bool explaining) {
    return memory_per_gpu(a, param_detail(a), s, l, gpu_memory_bytes, explaining);
}

MemoryDetail memory_per_gpu(const ModelArch& a, const ParamDetail& pd, const Scenario& s_in, const Layout& l,
                            std::uint64_t gpu_memory_bytes, bool explaining) {
    using namespace memory;
    MemoryDetail out;
    // Full training of quantized weights is estimated as bf16 training: a copy of the scenario only
    // then (the planner sizes hundreds of candidates).
    std::optional<Scenario> retyped;
    if ((s_in.task == Task::pretrain || s_in.task == Task::full_ft) && !is_16bit_or_32(s_in.weight_dtype)) {
        out.warnings.add(std::string("weight_dtype: ") + to_string(s_in.weight_dtype) +
                             " weights cannot be trained directly; estimated as bf16 training",
                         std::string("weight_dtype:") + to_string(s_in.weight_dtype) + " 权重无法直接训练;按 bf16 训练估算");
        retyped = s_in;
        retyped->weight_dtype = WeightDtype::bf16;
    }
    const Scenario& s = retyped ? *retyped : s_in;
    const bool train = s.task != Task::inference;
    const double gpu_memory = static_cast<double>(gpu_memory_bytes);
    const Job j = make_job(a, s, l, pd, gpu_memory, explaining);

    // 1. Weights and parameters on the most loaded GPU.
    const Share sh = share_on_gpu(j, out);
    // 2. Training states (weights, gradients, optimizer) or the frozen weights alone.
    States st;
    st.weights = sh.weights;
    if (train) st = training_states(j, sh, out);
    else if (explaining)
        out.explanations.push_back({"weights", weights_formula(j, sh) + " = " + format_gib(st.weights), k_weights_source});
    // 3. Activations and KV cache.
    out.kv = kv_rate(a, s, l.tp, l.pp);
    double activations = 0, gradients = st.gradients, kv = 0, dequant = 0, offloaded = st.host;
    if (train) {
        const Activations act = training_activations(j, out);
        const Moment m = peak_moment(j, st, act);
        activations = m.activations;
        gradients = m.gradients;
        dequant = act.dequant;
        offloaded += act.host;
        if (explaining) out.explanations.push_back({"peak", m.when, "autograd frees each saved tensor as the backward pass consumes it"});
    } else {
        const Inference inf = inference_memory(j, sh, out);
        activations = inf.activations;
        kv = inf.kv;
    }
    // 4. Overheads, part by part.
    States at_peak = st;
    at_peak.gradients = gradients;
    const OverheadParts parts = overhead_parts(j, at_peak, activations, kv, dequant, out);
    const double overhead = static_cast<double>(parts.cuda_context) + static_cast<double>(parts.nccl) +
                            static_cast<double>(parts.cuda_graphs) + static_cast<double>(parts.ddp_buckets) +
                            static_cast<double>(parts.dequant_buffer) + static_cast<double>(parts.allocator_slack);
    // 5. Host memory for the whole job. K4 (docs/limits.md): the sum saturates like every GPU term, and says so.
    bool host_clamped = false;
    out.host_bytes = to_bytes(host_bytes(j, offloaded, sh, out), &host_clamped);
    if (host_clamped || out.host_bytes == k_u64_cap)
        out.warnings.add("host_memory_bytes: exceeded 9.2e18 bytes and was clamped", "host_memory_bytes:超过 9.2e18 字节,已截断");

    // 6. Totals.
    bool clamped = false;
    MemoryBreakdown& m = out.gpu;
    m.weights = to_bytes(st.weights, &clamped);
    m.gradients = to_bytes(gradients, &clamped);
    m.optimizer = to_bytes(st.optimizer, &clamped);
    m.activations = to_bytes(activations, &clamped);
    m.kv_cache = to_bytes(kv, &clamped);
    m.overhead = to_bytes(overhead, &clamped);
    m.total = sat_add(sat_add(sat_add(m.weights, m.gradients), sat_add(m.optimizer, m.activations)), sat_add(m.kv_cache, m.overhead));
    if (clamped || m.total == k_u64_cap)
        out.warnings.add("memory: a term exceeded 9.2e18 bytes and was clamped", "memory:某一项超过 9.2e18 字节,已截断");
    m.overhead_parts = parts;
    const std::uint64_t untracked = sat_add(sat_add(parts.cuda_context, parts.nccl), parts.allocator_slack);
    m.torch_peak_allocated = m.total > untracked ? m.total - untracked : 0;
    // vLLM captures its CUDA graphs after the KV cache is allocated: they live in the headroom
    // that gpu_memory_utilization leaves, outside the budget.
    out.budgeted_bytes = m.total > parts.cuda_graphs ? m.total - parts.cuda_graphs : 0;

    // 7. The budget: the memory CUDA lets the process use (vLLM: that × gpu_memory_utilization).
    if (gpu_memory_bytes > 0) {
        const bool vllm = !train && s.engine == Engine::vllm;
        const double visible = cuda_visible_bytes(gpu_memory, s.gpu_memory_gib.has_value());
        const double limit = vllm ? visible * s.gpu_memory_utilization : visible;
        out.limit_bytes = vllm ? to_bytes(std::floor(limit)) : cuda_limit_bytes(gpu_memory_bytes, s.gpu_memory_gib.has_value());
        const double non_kv = st.weights + activations + overhead - static_cast<double>(parts.cuda_graphs);
        out.kv_budget_bytes = limit - non_kv;
        if (explaining)
            out.explanations.push_back(
                {"limit",
                 "CUDA lets a process use " + format_gib(visible) + " of " + format_gib(gpu_memory) +
                     (s.gpu_memory_gib ? " (gpu_memory_gib, taken as the usable total)" : " (the driver keeps ~1%, ≥ 0.45 GiB)") +
                     (vllm ? "; vLLM takes gpu_memory_utilization " + num(s.gpu_memory_utilization * 100) + "% of it" : ""),
                 "torch.cuda.mem_get_info totals in vLLM logs: 79.15–79.19 GiB of 80 GiB, 23.55 GiB of 24 GiB"});
        if (vllm && explaining)
            out.explanations.push_back(
                {"kv_capacity_tokens",
                 format_gib(limit) + " − weights − profiled activations − non-torch memory = " + format_gib(out.kv_budget_bytes) +
                     " of KV blocks (16 tokens each); vLLM pre-allocates all of it; CUDA graphs (" +
                     format_gib(static_cast<double>(parts.cuda_graphs)) + ") come out of the rest",
                 "vLLM gpu_worker.determine_available_memory (V1), worker.determine_num_available_blocks (V0)"});
    }
    return out;
}

}  // namespace gpusizer
