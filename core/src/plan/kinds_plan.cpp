// The plan of a vision, diffusion or speech job on one machine (docs/other-kinds.md): every GPU of
// the machine a data-parallel replica; training turns on activation checkpointing when the batch
// does not fit otherwise (unless the user fixed it). Its samples per second take the place of
// tokens per second in pricing, time and ranking (images, or 30 s audio windows).
#include <algorithm>

#include "memory/kinds_memory.hpp"
#include "plan.hpp"

namespace gpusizer::plan {

void kind_offers(Context& ctx, const Machine& m, std::vector<Candidate>& offers, std::vector<Rejection>& rejected) {
    const std::string label = m.inst->provider + " " + m.inst->id;
    if (ctx.fixed.num_gpus && ctx.s.num_gpus != m.gpus) {
        rejected.push_back({label + ": has " + std::to_string(m.gpus) + " GPUs, num_gpus is " + std::to_string(ctx.s.num_gpus), {}, {}});
        return;
    }
    const kinds::Walk w = kinds::walk(ctx.arch, ctx.s.image_size.value_or(0));
    Scenario c = ctx.s;
    c.num_gpus = m.gpus;
    c.tensor_parallel = c.pipeline_parallel = c.expert_parallel = 1;
    int levers = 0;
    kinds::KindMemory km = kinds::kind_memory(ctx.arch, w, c, static_cast<double>(m.gpu_memory), false);
    auto fits = [&] { return static_cast<double>(km.gpu.total) <= km.limit; };
    if (!fits() && ctx.training && !ctx.fixed.checkpointing && c.activation_checkpointing == Checkpointing::none) {
        c.activation_checkpointing = Checkpointing::full;
        km = kinds::kind_memory(ctx.arch, w, c, static_cast<double>(m.gpu_memory), false);
        levers = k_checkpointing;
    }
    if (!fits()) {
        rejected.push_back({label + ": needs " + gib(km.gpu.total) + " GiB per GPU at batch " + std::to_string(c.batch_size) +
                                ", has " + gib(static_cast<std::uint64_t>(km.limit)),
                            {}, {}});
        return;
    }
    Memory mem;
    mem.params = ctx.params;
    mem.per_gpu = km.gpu;
    mem.host_bytes = km.host;
    mem.gpu_memory = m.gpu_memory;
    mem.headroom = static_cast<std::uint64_t>(km.limit) - km.gpu.total;
    const FitKey key{m.acc, m.gpu_memory, m.gpus, 1, 1, c.batch_size, c.zero_stage, levers};
    std::optional<Memory>& slot = ctx.estimates[key];
    slot = mem;

    PlanChoice& p = ctx.kind_plans.emplace_back();
    p.found = true;
    p.nodes = 1;
    p.layout.dp = m.gpus;
    p.layout.zero = ctx.training ? c.zero_stage : 0;
    p.layout.gpus_per_node = m.gpus;
    p.levers = levers;
    p.est = &*slot;
    p.roomy = roomy(*slot);
    const kinds::KindSpeed v = kinds::kind_speed(ctx.arch, w, c, *m.acc, m.gpus);
    if (ctx.training) {
        p.step.tokens = static_cast<double>(c.batch_size * m.gpus);
        p.step.tokens_per_s = v.samples_per_s;
        p.step.step_s = v.samples_per_s > 0 ? p.step.tokens / v.samples_per_s : 0;
        p.step.compute_s = p.step.step_s;
        p.step.mfu = v.efficiency;
        p.step.user_mfu = true;  // the kind's own efficiency (no token-model check applies)
    } else {
        p.load.users = c.batch_size * m.gpus;
        p.load.replicas = m.gpus;
        p.load.per_replica = c.batch_size;
        p.load.max_per_replica = c.batch_size;
        p.load.tokens_per_s = v.samples_per_s;
    }
    for (PriceKind kind : price_kinds(ctx.s, *m.inst)) {
        Offer o = priced_offer(ctx, m, p, kind);
        if (const std::optional<std::string> blocked = blocking_reason(ctx.s, o)) {
            rejected.push_back({label + (o.spot ? " (spot)" : "") + ": " + *blocked, {}, {}});
            continue;
        }
        offers.emplace_back(std::move(o), &m, &p);
    }
}

}  // namespace gpusizer::plan
