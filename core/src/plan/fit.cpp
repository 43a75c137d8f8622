// Memory of candidate plans: every candidate is the memory model's estimate of the scenario with that
// layout and those levers (never a ratio), cached by what changes it, so machines with the same
// GPU share them.
#include <algorithm>

#include "gpusizer/memory.hpp"
#include "gpusizer/units.hpp"
#include "plan.hpp"

namespace gpusizer::plan {
namespace {

// Below 10% free memory a plan is tight (issue 13): allocator spikes and the longest batch of the
// dataset can run out of memory, so the planner reaches for one more lever.
constexpr double k_roomy_fraction = 0.10;

}  // namespace

// The candidate's keys on top of the scenario's: the GPU, the layout, the levers.
void prepare_candidate(const Context& ctx, Scenario& c, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers,
                       std::int64_t batch) {
    const Scenario& s = ctx.s;
    c.gpu = m.acc->id;
    // The machine's GPU memory when it is not the catalog's (the user's gpu_memory_gib, a fractional
    // GPU's share); otherwise none, so the fit is against what CUDA reports, as in estimate().
    if (m.memory_given()) c.gpu_memory_gib = static_cast<double>(m.gpu_memory) / k_bytes_per_gib;
    else c.gpu_memory_gib.reset();
    c.tensor_parallel = l.tp;
    c.pipeline_parallel = l.pp;
    c.expert_parallel = l.ep;
    c.loss_impl = s.loss_impl;
    c.optimizer = s.optimizer;
    c.activation_checkpointing = s.activation_checkpointing;
    c.offload = s.offload;
    if (ctx.training) {
        c.num_gpus = gpus;
        c.zero_stage = l.zero;
        c.batch_size = s.batch_size;
    } else {
        c.num_gpus = l.tp * l.pp;  // one replica
        c.zero_stage = s.zero_stage;
        c.batch_size = batch;
    }
    apply_levers(c, levers);
}

const Scenario& scratch_candidate(Context& ctx, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers,
                                  std::int64_t batch) {
    prepare_candidate(ctx, ctx.scratch, m, gpus, l, levers, batch);
    return ctx.scratch;
}

namespace {

// A candidate's memory: the memory model's per-GPU breakdown directly (memory.hpp: "for estimate()
// and for the planner") with estimate()'s fit rule and, serving, its KV-cache capacity — the numbers
// estimate() gives for the candidate, without its text, checkpoint size and warnings. Serving fits
// as estimate() fits.
std::optional<Memory> serving_memory(const Context& ctx, const Scenario& c, std::uint64_t gpu_memory) {
    // What estimate() refuses (no layers) or cannot fit (no GPU memory), nothing fits.
    if (ctx.arch.num_layers == 0 || ctx.arch.hidden_size == 0 || gpu_memory == 0) return std::nullopt;
    const MemoryDetail md = memory_per_gpu(ctx.arch, ctx.detail, c, layout_of(c), gpu_memory, /*explain=*/false);
    if (md.budgeted_bytes > md.limit_bytes) return std::nullopt;
    Memory e;
    e.params = ctx.params;
    e.per_gpu = md.gpu;
    e.host_bytes = md.host_bytes;
    e.gpu_memory = gpu_memory;
    e.headroom = md.limit_bytes - md.budgeted_bytes;
    e.kv_bytes_per_token = to_bytes(md.kv.full_per_token + md.kv.sliding_per_token);
    e.kv_capacity_tokens = kv_capacity_tokens(c, md);
    return e;
}

// The slot of `key` in ctx.need_slots: open addressing, linear probing (the plan search asks ~750
// times per change; a tree's walk cost more than the estimates it saved). Kept under half full.
std::size_t need_slot(Context& ctx, const NeedKey& key) {
    if (2 * (ctx.training_needs.size() + 1) > ctx.need_slots.size()) {
        ctx.need_slots.assign(std::max<std::size_t>(256, 2 * ctx.need_slots.size()), 0);
        for (std::size_t n = 0; n < ctx.training_needs.size(); ++n)
            ctx.need_slots[need_slot(ctx, ctx.training_needs[n].key)] = static_cast<std::uint32_t>(n + 1);
    }
    std::uint64_t h = static_cast<std::uint64_t>(key.gpus);
    for (const std::int64_t v : {key.tp, key.pp, std::int64_t{key.zero}, std::int64_t{key.levers}})
        h = (h ^ static_cast<std::uint64_t>(v)) * 0x9E3779B97F4A7C15ULL;
    const std::size_t mask = ctx.need_slots.size() - 1;
    std::size_t i = static_cast<std::size_t>(h ^ (h >> 29)) & mask;
    while (ctx.need_slots[i] != 0 && !(ctx.training_needs[ctx.need_slots[i] - 1].key == key)) i = (i + 1) & mask;
    return i;
}

// Training fits when the whole total does (the budgeted part is the total). The memory model reads
// of the GPU only its limit, so the breakdown is made once per layout and levers and held to the
// limit of each GPU memory.
const Memory* training_memory(Context& ctx, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers) {
    const NeedKey key{gpus, l.tp, l.pp, l.zero, levers};
    const std::size_t slot = need_slot(ctx, key);
    if (ctx.need_slots[slot] == 0) {
        const Scenario& c = scratch_candidate(ctx, m, gpus, l, levers, 1);
        const MemoryDetail md = memory_per_gpu(ctx.arch, ctx.detail, c, layout_of(c), 0, /*explain=*/false);
        ctx.training_needs.push_back({key, md.gpu, md.host_bytes, {}});
        ctx.training_needs.back().fits.reserve(8);  // the GPU memory sizes asked of one candidate: a few
        ctx.need_slots[slot] = static_cast<std::uint32_t>(ctx.training_needs.size());
    }
    TrainingNeed& need = ctx.training_needs[ctx.need_slots[slot] - 1];
    const bool given = m.memory_given();
    for (const TrainingNeed::Fit& f : need.fits)
        if (f.gpu_memory == m.gpu_memory && f.given == given) return f.fit;
    const std::uint64_t limit = cuda_limit_bytes(m.gpu_memory, given);
    Memory* e = nullptr;
    if (need.gpu.total <= limit) {
        e = &ctx.training_fits.emplace_back();
        e->params = ctx.params;
        e->per_gpu = need.gpu;
        e->host_bytes = need.host_bytes;
        e->gpu_memory = m.gpu_memory;
        e->headroom = limit - need.gpu.total;
    }
    need.fits.push_back({m.gpu_memory, given, e});
    return e;
}

}  // namespace

const Memory* fit(Context& ctx, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers, std::int64_t batch) {
    if (ctx.training) return training_memory(ctx, m, gpus, l, levers);
    const FitKey key{m.row, m.gpu_memory, gpus, l.tp, l.pp, batch, l.zero, levers};
    if (auto it = ctx.estimates.find(key); it != ctx.estimates.end()) return it->second ? &*it->second : nullptr;
    std::optional<Memory> out = serving_memory(ctx, scratch_candidate(ctx, m, gpus, l, levers, batch), m.gpu_memory);
    const auto it = ctx.estimates.emplace(key, std::move(out)).first;
    return it->second ? &*it->second : nullptr;
}

bool roomy(const Memory& e) {
    return static_cast<double>(e.headroom) >= k_roomy_fraction * static_cast<double>(e.gpu_memory);
}

}  // namespace gpusizer::plan
