// The best training plan on one machine (docs/speed-and-cost.md "Plans"): the fewest nodes that
// fit, and within them the layout (tensor, pipeline, data parallel, ZeRO) and memory levers
// whose step is fastest, a roomy plan (≥ 10% free) before a tight one. The user's num_gpus,
// tensor/pipeline parallel and ZeRO stage are kept. Without an RDMA-class fabric several nodes
// are joined for data parallelism only, and pay for it in the communication model.
//
// Index
// [SECTION] Layouts
// [SECTION] One layout: a staircase of (ZeRO stage, levers)
// [SECTION] One node count
// [SECTION] Node counts

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "plan.hpp"

namespace gpusizer::plan {
namespace {

constexpr std::int64_t k_max_nodes_for_fit = 64;  // memory search stops here (512 GPUs of 8)
// Tensor parallelism stops at 8: one HGX/DGX server's NVSwitch domain; beyond it Megatron-LM pairs
// TP 8 with pipeline and data parallelism (Narayanan et al. 2021 §3.3, Table 1).
constexpr std::int64_t k_max_tensor_parallel = 8;

// [SECTION] Layouts

Few<std::int64_t> tp_options(const Context& ctx, const Machine& m) {
    if (ctx.fixed.tp) return {ctx.s.tensor_parallel};
    // Training splits layers only inside an NVLink-class domain (Narayanan et al. 2021 §3.3: tensor
    // parallelism within a server, over NVLink); over PCIe every layer would wait on the link.
    if (!m.links.nvlink_class) return {1};
    Few<std::int64_t> out;
    const std::int64_t most = m.slice ? m.gpus : std::min(m.gpus, k_max_tensor_parallel);  // a TPU slice is one ICI mesh
    for (std::int64_t tp = 1; tp <= most; tp *= 2)
        if (m.gpus % tp == 0) out.push_back(tp);
    return out;
}

// Pipeline stages: none; one per node across an RDMA fabric; inside a PCIe node across its GPUs
// (activations cross PCIe, not every layer's all-reduce).
Few<std::int64_t> pp_options(const Context& ctx, const Machine& m, std::int64_t nodes, std::int64_t tp) {
    if (ctx.fixed.pp) return {ctx.s.pipeline_parallel};
    Few<std::int64_t> out = {1};
    if (nodes > 1 && m.links.rdma) out.push_back(nodes);
    if (nodes == 1 && !m.links.nvlink_class && m.gpus / tp > 1) out.push_back(m.gpus / tp);
    return out;
}

Few<int> zero_options(const Context& ctx, std::int64_t dp) {
    if (ctx.fixed.zero) return {ctx.s.zero_stage};
    if (dp <= 1) return {0};
    return {0, 1, 2, 3};
}

bool valid(const Context& ctx, const Machine& m, std::int64_t nodes, std::int64_t tp, std::int64_t pp) {
    const std::int64_t gpus = m.gpus * nodes;
    if (tp < 1 || pp < 1 || gpus % (tp * pp) != 0) return false;
    if (tp > m.gpus) return false;                                  // TP stays inside a node (§3.3)
    if (nodes > 1 && !m.links.rdma && pp > 1) return false;         // no fabric: data parallel only
    if (ctx.s.expert_parallel > 1 && (gpus / (tp * pp)) % ctx.s.expert_parallel != 0) return false;
    return true;
}

JobLayout layout(const Context& ctx, const Machine& m, std::int64_t nodes, std::int64_t tp, std::int64_t pp, int zero) {
    JobLayout l;
    l.tp = tp;
    l.pp = pp;
    l.dp = m.gpus * nodes / (tp * pp);
    l.ep = ctx.s.expert_parallel;
    l.zero = zero;
    l.nodes = nodes;
    l.gpus_per_node = m.gpus;
    return l;
}

// [SECTION] One layout: a staircase of (ZeRO stage, levers)

// For one (tp, pp): at each ZeRO stage the first lever set that fits roomy (≥ 10% free). Memory
// falls with the stage and with every lever, so walking the stages from the most sharded down, the
// first fitting set only moves later: a staircase of at most (stages + sets) estimates, stopped
// where no set can beat the best plan so far (`beat`, tokens/s). The first tight fit is kept too,
// for machines where nothing is roomy.
struct StageFit {
    int zero = 0;
    std::size_t index = 0;
    const Memory* est = nullptr;
};
struct Stairs {
    Few<StageFit> roomy;
    std::optional<StageFit> tight;
};

// The fastest a lever set can train on this machine: every GPU computing (recompute included) at
// the efficiency, no communication. Levers only add work, so it falls along the sets.
double tokens_per_s_bound(Context& ctx, const Machine& m, std::int64_t nodes, int levers) {
    Scenario& c = ctx.scratch;
    c.activation_checkpointing = ctx.s.activation_checkpointing;
    apply_levers(c, levers);
    double& flops = ctx.flops_with_levers[static_cast<std::size_t>(levers)];  // the same for every machine
    if (flops <= 0) flops = hardware_flops_per_token(c, ctx.arch, ctx.params.active);
    return flops > 0 ? static_cast<double>(m.gpus * nodes) * training_peak_flops(*m.acc, c) * m.efficiency.value / flops : 0;
}

Stairs staircase(Context& ctx, const Machine& m, std::int64_t nodes, std::int64_t tp, std::int64_t pp,
                 const Few<int>& sets, double beat) {
    Stairs out;
    const Few<int> zeros = zero_options(ctx, m.gpus * nodes / (tp * pp));
    std::size_t i = 0;
    for (int k = static_cast<int>(zeros.size()) - 1; k >= 0; --k) {
        const int* z = &zeros.v[k];
        const JobLayout l = layout(ctx, m, nodes, tp, pp, *z);
        const Memory* e = nullptr;
        for (; i < sets.size(); ++i) {
            if (tokens_per_s_bound(ctx, m, nodes, sets[i]) <= beat) return out;  // cannot win
            e = fit(ctx, m, m.gpus * nodes, l, sets[i], 1);
            if (e && roomy(*e)) break;
            if (e && !out.tight) out.tight = StageFit{*z, i, e};
            e = nullptr;
        }
        if (!e) return out;  // a lower stage saves less: nothing fits there either
        out.roomy.push_back({*z, i, e});
    }
    return out;
}

PlanChoice timed(Context& ctx, const Machine& m, JobLayout l, int levers, const Memory* est, bool is_roomy) {
    PlanChoice c;
    c.found = true;
    c.nodes = l.nodes;
    c.levers = levers;
    c.est = est;
    c.roomy = is_roomy;
    const Scenario& s = scratch_candidate(ctx, m, l.tp * l.pp * l.dp, l, levers, 1);
    l.zero = s.zero_stage;  // offload raised it
    c.layout = l;
    c.step = training_step(s, ctx.arch, est->params, *m.acc, m.links, l, &m.efficiency);
    return c;
}

// Roomy before tight, then the faster step, then (ties) the plan found first: less model parallelism.
bool better(const PlanChoice& a, const PlanChoice& b) {
    if (a.roomy != b.roomy) return a.roomy;
    return a.step.tokens_per_s > b.step.tokens_per_s * (1 + 1e-9);
}

bool settled(const PlanChoice& b) { return b.found && b.roomy && !(b.levers & k_slow_levers); }

// [SECTION] One node count

// Every layout at this node count, each with its staircase of (stage, levers); the fastest by
// better(). Pipelines only when no plan without slow levers is roomy; tensor parallelism grows
// until one is (and one step past it, since TP can beat recompute). Tight plans only when
// nothing is roomy.
PlanChoice best_at(Context& ctx, const Machine& m, std::int64_t nodes) {
    PlanChoice best, tight;
    const Few<int>& sets = m.lever_sets;
    int past_settled = 0;
    for (std::int64_t tp : tp_options(ctx, m)) {
        for (std::int64_t pp : pp_options(ctx, m, nodes, tp)) {
            if (!valid(ctx, m, nodes, tp, pp) || (pp > 1 && settled(best))) continue;
            const Stairs st = staircase(ctx, m, nodes, tp, pp, sets, best.found ? best.step.tokens_per_s : 0);
            for (const StageFit& f : st.roomy) {
                const PlanChoice c = timed(ctx, m, layout(ctx, m, nodes, tp, pp, f.zero), sets[f.index], f.est, true);
                if (!best.found || better(c, best)) best = c;
            }
            if (!best.found && st.tight) {
                const StageFit& f = *st.tight;
                const PlanChoice c = timed(ctx, m, layout(ctx, m, nodes, tp, pp, f.zero), sets[f.index], f.est, false);
                if (!tight.found || better(c, tight)) tight = c;
            }
        }
        if (settled(best) && ++past_settled > 1) break;
    }
    return best.found ? best : tight;
}

// Does the most saving plan fit at this node count? (The most sharded layout of each pipeline depth
// with every lever allowed; `offload` false leaves out CPU offload.)
bool fits_at(Context& ctx, const Machine& m, std::int64_t nodes, bool offload) {
    const Few<int>& sets = m.lever_sets;
    int most = 0;
    for (int v : sets)
        if (offload || !(v & (k_offload_optimizer | k_offload_params))) most = v;
    const std::int64_t tp = tp_options(ctx, m).back();
    for (std::int64_t pp : pp_options(ctx, m, nodes, tp)) {
        if (!valid(ctx, m, nodes, tp, pp)) continue;
        const JobLayout l = layout(ctx, m, nodes, tp, pp, zero_options(ctx, m.gpus * nodes / (tp * pp)).back());
        if (fit(ctx, m, m.gpus * nodes, l, most, 1)) return true;
    }
    return false;
}

// [SECTION] Node counts

// The fewest nodes in [lo, hi] at which something fits: memory per GPU of the most saving plan
// falls as nodes grow, so doubling then bisection (about 2·log2(hi) estimates).
std::int64_t fewest_nodes(Context& ctx, const Machine& m, std::int64_t lo, std::int64_t hi, bool offload) {
    if (lo > hi) return 0;
    if (fits_at(ctx, m, lo, offload)) return lo;
    std::int64_t a = lo, b = lo;
    bool found = false;
    while (b < hi && !found) {
        a = b;
        b = std::min(hi, b * 2);
        found = fits_at(ctx, m, b, offload);
    }
    if (!found) return 0;
    while (b - a > 1) {  // !fits(a), fits(b)
        const std::int64_t mid = a + (b - a) / 2;
        if (fits_at(ctx, m, mid, offload)) b = mid;
        else a = mid;
    }
    return b;
}

PlanChoice not_found(const std::string& why) {
    PlanChoice c;
    c.fail = why;
    return c;
}

}  // namespace

namespace {

// `at_one`: the one-node plan when the caller already made it (it fits there).
std::vector<PlanChoice> search_plans(Context& ctx, const Machine& m, std::int64_t nodes, const PlanChoice* at_one) {
    if (nodes > 0) return {best_at(ctx, m, nodes)};
    if (ctx.fixed.num_gpus) {  // the user's GPU count: whole machines of this shape only
        const std::int64_t n = ctx.s.num_gpus / m.gpus;
        if (ctx.s.num_gpus % m.gpus != 0 || (n > 1 && !m.multi_node))
            return {not_found("cannot make " + std::to_string(ctx.s.num_gpus) + " GPUs out of machines of " +
                              std::to_string(m.gpus))};
        PlanChoice c = best_at(ctx, m, n);
        if (!c.found) c.fail = "does not fit on " + std::to_string(ctx.s.num_gpus) + " × " + gpu_label(*m.acc);
        return {c};
    }
    const std::int64_t most = m.multi_node ? k_max_nodes_for_fit : 1;
    const std::int64_t n1 = at_one ? 1 : fewest_nodes(ctx, m, 1, most, true);
    if (n1 == 0)
        return {not_found("does not fit on up to " + std::to_string(most * m.gpus) + " × " + gpu_label(*m.acc) +
                          ", even with every memory lever")};
    std::vector<PlanChoice> out = {at_one ? *at_one : best_at(ctx, m, n1)};
    // CPU offload is slow: also offer the fewest nodes that need none.
    if (out.front().levers & (k_offload_optimizer | k_offload_params)) {
        const std::int64_t n2 = fewest_nodes(ctx, m, n1 + 1, std::min(most, n1 * 4), false);
        if (n2 > 0) out.push_back(best_at(ctx, m, n2));
    }
    return out;
}

}  // namespace

const std::vector<PlanChoice>& training_plans(Context& ctx, const Machine& m, std::int64_t nodes) {
    // One node without offload is the same plan whatever the network: machines that differ only in
    // it share the search.
    const bool open = nodes == 0 && !ctx.fixed.num_gpus;
    const PlanKey one{m.local_key, PlanFor::one_node, 0};
    if (open)
        if (auto it = ctx.plans.find(one); it != ctx.plans.end()) return it->second;
    const PlanKey key{m.key, nodes > 0 ? PlanFor::at_nodes : PlanFor::search, nodes > 0 ? nodes : 0};
    if (auto it = ctx.plans.find(key); it != ctx.plans.end()) return it->second;
    std::optional<PlanChoice> single;
    if (open && fits_at(ctx, m, 1, true)) {
        single = best_at(ctx, m, 1);
        if (!(single->levers & (k_offload_optimizer | k_offload_params)))
            return ctx.plans.emplace(one, std::vector<PlanChoice>{*single}).first->second;
    }
    return ctx.plans.emplace(key, search_plans(ctx, m, nodes, single ? &*single : nullptr)).first->second;
}

}  // namespace gpusizer::plan
