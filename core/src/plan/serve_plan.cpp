// The serving deployment on one machine (docs/speed-and-cost.md "Serving"): the replica shape
// (tensor parallel inside a node; pipeline across nodes only over a fabric), how many sequences
// one replica keeps in flight (its KV cache, the engine's cap, the latency targets) and how many
// replicas the load needs (batch_size concurrent users, target_tokens_per_s). The cheapest such
// deployment wins (rank_by time: the lowest time per token).
//
// Index
// [SECTION] One replica shape
// [SECTION] serving_plan

#include <algorithm>
#include <cmath>

#include "plan.hpp"

namespace gpusizer::plan {
namespace {

constexpr std::int64_t k_max_nodes_for_serving = 1024;
constexpr std::int64_t k_max_pipeline_nodes = 8;  // a replica spans at most 8 nodes, the fewest that fit
// Serving replicas split a model over at most 8 GPUs by tensor parallelism (vLLM's usual
// tensor_parallel_size within one NVLink server; beyond it, pipeline stages across nodes).
constexpr std::int64_t k_max_serving_tp = 8;

// [SECTION] One replica shape

struct Replica {
    std::int64_t tp = 1, pp = 1;
    const Memory* one = nullptr;  // memory at one sequence (KV capacity, speed inputs)
    const Scenario* s = nullptr;  // the replica's scenario (ctx.replica)
    std::int64_t max_seqs = 0;      // after memory, the engine and the TPOT target
    std::string fail;
};

ServingSpeed speed_at(const Context& ctx, const Machine& m, const Replica& r, std::int64_t c) {
    return serving_speed(*r.s, ctx.arch, r.one->params, r.one->per_gpu, r.one->kv_bytes_per_token, *m.acc,
                         m.links, r.tp, r.pp, c);
}

// The most sequences one replica holds: whole sequences in its KV cache, the engine's cap, and
// the largest batch whose time per token meets max_tpot_ms (it grows with the batch: bisection).
std::int64_t max_sequences(Context& ctx, const Machine& m, const Replica& r) {
    if (ctx.arch.encoder) {  // BERT-style: no KV cache; the batch whose activations fit (bisection)
        JobLayout l;
        l.tp = r.tp;
        l.pp = r.pp;
        l.ep = ctx.s.expert_parallel;
        std::int64_t lo = 1, hi = engine_max_seqs(ctx.s);
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (fit(ctx, m, r.tp * r.pp, l, 0, mid)) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
    const double seq = static_cast<double>(std::max<std::int64_t>(1, ctx.s.seq_len));
    const double kv = r.one->kv_capacity_tokens ? static_cast<double>(*r.one->kv_capacity_tokens) : 0;
    std::int64_t c = static_cast<std::int64_t>(std::floor(std::min(kv / seq, 1e6)));
    c = std::min(c, engine_max_seqs(ctx.s));
    if (c < 1 || !ctx.s.max_tpot_ms) return c;
    const double target = *ctx.s.max_tpot_ms / 1e3;
    if (speed_at(ctx, m, r, 1).tpot_s > target) return 0;
    std::int64_t lo = 1, hi = c;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (speed_at(ctx, m, r, mid).tpot_s <= target) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

Replica replica(Context& ctx, const Machine& m, std::int64_t tp, std::int64_t pp) {
    Replica r;
    r.tp = tp;
    r.pp = pp;
    JobLayout l;
    l.tp = tp;
    l.pp = pp;
    l.ep = ctx.s.expert_parallel;
    r.one = fit(ctx, m, tp * pp, l, 0, 1);
    if (!r.one) {
        r.fail = "does not fit";
        return r;
    }
    prepare_candidate(ctx, ctx.replica, m, tp * pp, l, 0, 1);
    r.s = &ctx.replica;
    r.max_seqs = max_sequences(ctx, m, r);
    if (r.max_seqs < 1)
        r.fail = ctx.s.max_tpot_ms ? "cannot meet max_tpot_ms " + fmt("%.0f", *ctx.s.max_tpot_ms) : "no room for one sequence";
    else if (ctx.s.max_ttft_ms && speed_at(ctx, m, r, 1).ttft_s * 1e3 > *ctx.s.max_ttft_ms)
        r.fail = "cannot meet max_ttft_ms " + fmt("%.0f", *ctx.s.max_ttft_ms);
    if (!r.fail.empty()) r.max_seqs = 0;
    return r;
}

// Replicas for the load: enough for the users, and enough that the users together reach the
// target (fewer users per replica decode faster); without users, full replicas up to the target.
PlanChoice deploy(Context& ctx, const Machine& m, const Replica& r) {
    const Scenario& s = ctx.s;
    PlanChoice c;
    const std::int64_t users = ctx.fixed.users ? s.batch_size : (s.target_tokens_per_s ? 0 : 1);
    std::int64_t replicas = 1, per = r.max_seqs;
    if (ctx.fixed.num_gpus) {
        replicas = std::max<std::int64_t>(1, s.num_gpus / (r.tp * r.pp));
        per = (std::max<std::int64_t>(1, users) + replicas - 1) / replicas;
        if (per > r.max_seqs) return c;
    } else if (users > 0) {
        replicas = (users + r.max_seqs - 1) / r.max_seqs;
        per = (users + replicas - 1) / replicas;
        while (s.target_tokens_per_s && replicas < users &&
               static_cast<double>(users) / speed_at(ctx, m, r, per).tpot_s < *s.target_tokens_per_s) {
            ++replicas;
            per = (users + replicas - 1) / replicas;
        }
    } else {
        const double each = speed_at(ctx, m, r, per).tokens_per_s;
        replicas = each > 0 ? static_cast<std::int64_t>(std::ceil(*s.target_tokens_per_s / each)) : 1;
    }
    const std::int64_t gpus = replicas * r.tp * r.pp;
    const std::int64_t nodes = (gpus + m.gpus - 1) / m.gpus;
    if (nodes > k_max_nodes_for_serving || (r.tp * r.pp > m.gpus && !m.multi_node)) return c;
    JobLayout l;
    l.tp = r.tp;
    l.pp = r.pp;
    l.dp = replicas;
    l.ep = s.expert_parallel;
    l.nodes = nodes;
    l.gpus_per_node = m.gpus;
    const ServingSpeed v = speed_at(ctx, m, r, per);
    if (!(v.tpot_s > 0)) return c;  // a part without bandwidth or FLOPs in the catalog
    c.found = true;
    c.nodes = nodes;
    c.layout = l;
    c.est = fit(ctx, m, r.tp * r.pp, l, 0, per);
    if (!c.est) c.est = r.one;
    c.roomy = true;
    const std::int64_t served = users > 0 ? users : replicas * per;
    c.load = ServingLoad{served, replicas, per, r.max_seqs, static_cast<double>(served) / v.tpot_s, v.tpot_s * 1e3,
                         v.ttft_s * 1e3};
    return c;
}

bool cheaper(const Context& ctx, const PlanChoice& a, const PlanChoice& b) {
    if (ctx.s.rank_by == RankBy::time && a.load.tpot_ms != b.load.tpot_ms) return a.load.tpot_ms < b.load.tpot_ms;
    if (a.nodes != b.nodes) return a.nodes < b.nodes;
    return a.load.tpot_ms < b.load.tpot_ms;
}

// Every replica shape, each deployed for the load; the cheapest (rank_by time: the fastest).
// `in_node`: only replicas inside one node (they need no network between nodes).
PlanChoice search_deployment(Context& ctx, const Machine& m, bool in_node) {
    PlanChoice best;
    std::string fail;  // why the last replica that fits failed
    Few<std::pair<std::int64_t, std::int64_t>, 32> shapes;  // (tp, pp): TP 1 … 4096 (a TPU slice), or 1 … 8 and PP 2 … 8
    if (ctx.fixed.num_gpus && ctx.s.num_gpus % m.gpus != 0) {  // the user's GPU count: whole machines only
        best.fail = "cannot make " + std::to_string(ctx.s.num_gpus) + " GPUs out of machines of " + std::to_string(m.gpus);
        return best;
    }
    const std::int64_t most_tp = m.slice ? m.gpus : std::min(m.gpus, k_max_serving_tp);  // a TPU slice is one ICI mesh
    if (ctx.fixed.tp || ctx.fixed.pp) {
        shapes.push_back({ctx.s.tensor_parallel, ctx.s.pipeline_parallel});
    } else {
        for (std::int64_t tp = 1; tp <= most_tp; tp *= 2) shapes.push_back({tp, 1});
        if (!in_node && m.multi_node && m.links.rdma)  // a replica across nodes: TP inside, PP across
            for (std::int64_t pp = 2; pp <= k_max_pipeline_nodes; ++pp) shapes.push_back({std::min(m.gpus, k_max_serving_tp), pp});
    }
    for (const auto& [tp, pp] : shapes) {
        if (tp > m.gpus || (tp * pp > m.gpus && !(m.multi_node && m.links.rdma))) continue;  // TP inside a node
        if (ctx.fixed.num_gpus && ctx.s.num_gpus % (tp * pp) != 0) continue;
        if (best.found && pp > 1) break;  // pipeline across nodes only when a node is too small
        const Replica r = replica(ctx, m, tp, pp);
        if (r.max_seqs < 1) {
            if (r.fail != "does not fit") fail = r.fail;
            continue;
        }
        const PlanChoice c = deploy(ctx, m, r);
        if (c.found && (!best.found || cheaper(ctx, c, best))) best = c;
    }
    if (!best.found) best.fail = fail.empty() ? "does not fit one replica" : fail;
    return best;
}

}  // namespace

// [SECTION] serving_plan

const std::vector<PlanChoice>& serving_plan(Context& ctx, const Machine& m) {
    // Replicas inside one node are the same plan whatever the network: shared by such machines.
    const bool fixed_pp = ctx.fixed.pp && ctx.s.pipeline_parallel > 1;
    const PlanKey local{m.local_key, PlanFor::in_node, 0};
    if (!fixed_pp) {
        auto it = ctx.plans.find(local);
        if (it == ctx.plans.end()) it = ctx.plans.emplace(local, std::vector<PlanChoice>{search_deployment(ctx, m, true)}).first;
        if (it->second.front().found) return it->second;
    }
    const PlanKey key{m.key, PlanFor::search, 0};
    if (auto it = ctx.plans.find(key); it != ctx.plans.end()) return it->second;
    return ctx.plans.emplace(key, std::vector<PlanChoice>{search_deployment(ctx, m, false)}).first->second;
}

}  // namespace gpusizer::plan
