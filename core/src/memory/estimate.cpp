// resolve_model and estimate: the memory model's entry points, plus the solvers
// (fit and headroom, kv_capacity_tokens, max_batch_size, max_seq_len).
//
// Index
//   [SECTION] resolve_model
//   [SECTION] Solvers
//   [SECTION] estimate
#include <algorithm>
#include <cmath>
#include <string>

#include "gpusizer/estimate.hpp"
#include "gpusizer/memory.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "gpusizer/speed.hpp"
#include "gpusizer/units.hpp"
#include "kinds_memory.hpp"

namespace gpusizer {

// [SECTION] resolve_model

Result<ModelArch> resolve_model(const Catalog& catalog, const Scenario& s) {
    switch (s.source) {
        case ModelSource::preset: {
            const ModelPreset* p = catalog.find_model(s.model);
            if (!p)
                return Result<ModelArch>::failure(
                    {"unknown_id",
                     "model: unknown preset '" + s.model + "' (see `gpusizer catalog list models`)",
                     "model"});
            const Result<ModelArch>& a = p->arch();  // parsed on first use, then kept
            if (!a.ok())
                return Result<ModelArch>::failure(
                    {"bad_preset",
                     "model: preset '" + s.model + "' cannot be used: its config in the catalog does not parse (" +
                         format_error(a.error) + ")",
                     "model"});
            return Result<ModelArch>::success(*a);
        }
        case ModelSource::hf_config:
            return Result<ModelArch>::success(s.hf_config);
        case ModelSource::params_b: {
            ModelArch a = infer_dense_arch(s.params_b);
            const std::string hl = "h=" + std::to_string(a.hidden_size) + ", L=" + std::to_string(a.num_layers);
            Notes w;
            w.add("params_b: architecture inferred as a Llama-3-like dense decoder (" + hl + ", GQA 8 KV heads, V=128256); give a config.json for exact numbers",
                  "params_b:结构按类 Llama-3 的稠密解码器推断(" + hl + ",GQA 8 个 KV 头,V=128256);提供 config.json 可得到精确数字");
            return Result<ModelArch>::success(a, std::move(w));
        }
    }
    return Result<ModelArch>::failure({"internal", "unknown model source", "model"});
}

// [SECTION] Solvers

namespace {

constexpr std::int64_t k_solver_max = 1LL << 31;  // batch/sequence search bound (2.1e9)

// Largest v in [1, k_solver_max] with fits(v), assuming fits is monotone (memory never decreases
// with batch or sequence); 0 when even 1 does not fit.
template <class F>
std::int64_t largest_fitting(F fits) {
    if (!fits(1)) return 0;
    std::int64_t lo = 1, hi = 2;
    while (hi < k_solver_max && fits(hi)) {
        lo = hi;
        hi *= 2;
    }
    if (hi >= k_solver_max && fits(k_solver_max)) return k_solver_max;
    while (hi - lo > 1) {  // fits(lo), !fits(hi)
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

}  // namespace

bool fits_on_gpu(const MemoryDetail& md) { return md.budgeted_bytes <= md.limit_bytes; }

// Tokens the KV cache can hold: the budget left after weights, activations and overheads, minus
// what windowed layers keep for the current batch, over the full-layer rate (vLLM: whole blocks).
std::uint64_t kv_capacity_tokens(const Scenario& s, const MemoryDetail& md) {
    const double b = static_cast<double>(s.batch_size);
    const double w = md.kv.window > 0 ? std::fmin(static_cast<double>(md.kv.window), static_cast<double>(s.seq_len))
                                      : static_cast<double>(s.seq_len);
    const double budget = md.kv_budget_bytes;
    double tokens = 0;
    if (md.kv.full_per_token > 0)
        tokens = (budget - md.kv.sliding_per_token * b * w) / md.kv.full_per_token;
    else if (md.kv.sliding_per_token > 0)
        tokens = budget / md.kv.sliding_per_token;
    if (!(tokens > 0)) tokens = 0;
    if (tokens > 9.2e18) tokens = 9.2e18;
    std::uint64_t cap = static_cast<std::uint64_t>(std::floor(tokens));
    if (s.engine == Engine::vllm) cap = cap / 16 * 16;  // whole blocks of 16 tokens
    return cap;
}

// [SECTION] estimate — its steps, then the list that runs them

namespace {

// What the scenario asks that the estimate treats differently from how it reads.
void scenario_warnings(const ModelArch& a, const Scenario& s, const Layout& l, Estimate& e) {
    const bool train = s.task != Task::inference;
    if (!train && l.dp > 1)
        e.warnings.add("inference: num_gpus / (tp × pp) = " + std::to_string(l.dp) + " replicas; memory is per GPU of one replica",
                       "推理:num_gpus / (tp × pp) = " + std::to_string(l.dp) + " 个副本;显存按一个副本中的每块 GPU 计算");
    if (l.ep > 1 && a.num_experts == 0)
        e.warnings.add("expert_parallel: the model has no experts; ignored", "expert_parallel:模型没有专家;已忽略");
    if (s.zero_stage > 0 && !train) e.warnings.add("zero_stage: ignored for inference", "zero_stage:推理时忽略");
    if (s.offload != Offload::none && train && s.zero_stage < 2)
        e.warnings.add("offload: DeepSpeed offloads with ZeRO-2 or ZeRO-3; estimated as offloading the optimizer anyway",
                       "offload:DeepSpeed 需配合 ZeRO-2 或 ZeRO-3 才能卸载;仍按卸载优化器状态估算");
    if (s.attention == Attention::sdpa)
        e.warnings.add("attention sdpa: assumed to dispatch to the flash/memory-efficient kernel (no s² scores); a "
                       "custom mask falls back to the math kernel, which stores them like eager",
                       "attention sdpa:假定调度到 flash/memory-efficient 内核(不存 s² 注意力分数);"
                       "自定义 mask 会回退到 math 内核,它像 eager 一样存储分数");
    if (a.max_position_embeddings > 0 && static_cast<std::uint64_t>(s.seq_len) > a.max_position_embeddings && !a.encoder)
        e.warnings.add("seq_len " + std::to_string(s.seq_len) + " exceeds the model's max_position_embeddings " +
                           std::to_string(a.max_position_embeddings),
                       "seq_len " + std::to_string(s.seq_len) + " 超过模型的 max_position_embeddings " +
                           std::to_string(a.max_position_embeddings));
}

// The GPU memory to fit: the catalog accelerator's, or gpu_memory_gib alone / as an override.
// {0, ""} when neither is given (memory only, no fit).
struct GpuMemory {
    std::uint64_t bytes = 0;
    std::string id;
};

Result<GpuMemory> gpu_memory_of(const Catalog& catalog, const Scenario& s) {
    GpuMemory g;
    if (!s.gpu.empty()) {
        const Accelerator* acc = catalog.find_accelerator(s.gpu);
        if (!acc) return Result<GpuMemory>::failure({"unknown_id", "gpu: unknown accelerator '" + s.gpu + "'", "gpu"});
        g.bytes = acc->memory_bytes;
        g.id = acc->id;
    }
    if (s.gpu_memory_gib) {
        g.bytes = to_bytes(std::floor(*s.gpu_memory_gib * k_bytes_per_gib));
        if (g.id.empty()) g.id = "custom";
    }
    return Result<GpuMemory>::success(g);
}

Explanation params_explanation(const ParamCounts& p) {
    return {"params",
            "total " + std::to_string(p.total) + ", active " + std::to_string(p.active) + ", embedding " +
                std::to_string(p.embedding) + ", trainable " + std::to_string(p.trainable),
            "docs/research/memory-model.md §2.1 (Megatron theoretical_memory_usage.py), §2.6 (LoRA r·(d_in+d_out))"};
}

GpuFit fit_of(const GpuMemory& g, const MemoryDetail& md) {
    GpuFit fit;
    fit.id = g.id;
    fit.memory_bytes = g.bytes;
    fit.fits = fits_on_gpu(md);
    fit.headroom_bytes = fit.fits ? md.limit_bytes - md.budgeted_bytes : 0;
    fit.shortfall_bytes = fit.fits ? 0 : md.budgeted_bytes - md.limit_bytes;
    return fit;
}

void kv_capacity(const Scenario& s, const MemoryDetail& md, Estimate& e) {
    e.kv_capacity_tokens = kv_capacity_tokens(s, md);
    if (s.engine == Engine::vllm) e.kv_pool_bytes = to_bytes(std::fmax(0.0, md.kv_budget_bytes));
}

// The largest batch and sequence that fit (binary search over memory_per_gpu); the sequence is
// capped by the model's positions.
void solve_limits(const ModelArch& a, const Scenario& s, const Layout& l, std::uint64_t gpu_mem, const MemoryDetail& md,
                  bool explain, Estimate& e) {
    const ParamDetail pd = param_detail(a);
    auto fits_with = [&](std::int64_t batch, std::int64_t seq) {
        Scenario c = s;
        c.batch_size = batch;
        c.seq_len = seq;
        const MemoryDetail m = memory_per_gpu(a, pd, c, l, gpu_mem, /*explain=*/false);
        return m.budgeted_bytes <= m.limit_bytes;
    };
    e.max_batch_size = largest_fitting([&](std::int64_t v) { return fits_with(v, s.seq_len); });
    std::int64_t memory_seq = 0;
    if (!(a.encoder && a.patch_size > 0)) {
        memory_seq = largest_fitting([&](std::int64_t v) { return fits_with(s.batch_size, v); });
        // The model's own limit caps it: beyond its positions it needs RoPE scaling or a longer-context variant.
        const auto positions = static_cast<std::int64_t>(std::min<std::uint64_t>(a.max_position_embeddings, k_solver_max));
        e.max_seq_len = positions > 0 ? std::min(memory_seq, positions) : memory_seq;
        if (positions > 0 && memory_seq > positions)
            e.warnings.add("max_seq_len: memory allows " + std::to_string(memory_seq) + " tokens; capped at the model's " +
                               std::to_string(positions) + " positions (longer contexts need RoPE scaling)",
                           "max_seq_len:显存可容纳 " + std::to_string(memory_seq) + " 个 token;以模型的 " + std::to_string(positions) +
                               " 个位置为上限(更长的上下文需要 RoPE 缩放)");
    }
    if (!explain) return;
    e.explanations.push_back({"max_batch_size",
                              "largest batch_size with total ≤ " + std::to_string(md.limit_bytes) + " bytes at seq_len " +
                                  std::to_string(s.seq_len) + " (binary search)",
                              "memory only; engines also cap concurrency (vLLM max_num_seqs 256)"});
    e.explanations.push_back({"max_seq_len",
                              "largest seq_len with total ≤ " + std::to_string(md.limit_bytes) + " bytes at batch_size " +
                                  std::to_string(s.batch_size) + " (binary search: " + std::to_string(memory_seq) +
                                  "), at most the model's " + std::to_string(a.max_position_embeddings) + " positions",
                              "memory; config.json max_position_embeddings"});
}

}  // namespace

Result<Estimate> estimate(const Catalog& catalog, const Scenario& s, const EstimateOptions& options) {
    // 1. The model and the layout.
    Result<ModelArch> arch = resolve_model(catalog, s);
    if (!arch.ok()) return Result<Estimate>::failure(arch.error, arch.warnings);
    const ModelArch& a = *arch;
    if (auto err = check_layout(s)) return Result<Estimate>::failure(*err, arch.warnings);
    if (kinds::is_sample_kind(a)) return kinds::estimate_kind(catalog, s, a, arch.warnings, options);  // vision, diffusion, speech
    if (a.num_layers == 0 || a.hidden_size == 0)
        return Result<Estimate>::failure({"bad_model", "model: architecture has no layers or no hidden size", "model"},
                                         arch.warnings);
    Estimate e;
    e.scenario = s;
    e.warnings.append(arch.warnings);
    const Layout l = layout_of(s);
    scenario_warnings(a, s, l, e);
    // 2. Parameters and the checkpoint's size.
    Notes notes;
    e.params = count_params(a, s, &notes);
    e.model_bytes = model_bytes(a, s.weight_dtype, options.explain ? &notes : nullptr);  // the sizing note: words
    e.warnings.append(notes);
    Result<GpuMemory> gpu = gpu_memory_of(catalog, s);
    if (!gpu.ok()) return Result<Estimate>::failure(gpu.error, e.warnings);
    // 3. Memory per GPU at the peak, and on the host.
    MemoryDetail md = memory_per_gpu(a, s, l, gpu->bytes, options.explain);
    e.warnings.append(md.warnings);
    e.memory_per_gpu_bytes = md.gpu;
    e.host_memory_bytes = md.host_bytes;
    e.kv_bytes_per_token = s.task == Task::inference ? to_bytes(md.kv.full_per_token + md.kv.sliding_per_token) : 0;
    e.explanations = std::move(md.explanations);
    if (options.explain) e.explanations.push_back(params_explanation(e.params));
    // 4. The fit on the GPU, what the KV cache holds, the largest batch and sequence.
    if (gpu->bytes > 0) {
        e.gpu = fit_of(*gpu, md);
        if (s.task == Task::inference) kv_capacity(s, md, e);
        if (options.solvers) solve_limits(a, s, l, gpu->bytes, md, options.explain, e);
    }
    // 5. Throughput and time.
    if (options.explain || options.solvers) add_speed(catalog, s, a, e, options.explain);
    return Result<Estimate>::success(std::move(e), {});
}

}  // namespace gpusizer
