// One machine's offers: its plans (training: the fewest nodes, and without offload when that
// differs; serving: the deployment for the load), each priced on demand and on spot, scaled out
// when a deadline needs it, and held to the blocking checks. The better plan per price is kept.
#include <algorithm>
#include <cmath>

#include "plan.hpp"

namespace gpusizer::plan {
namespace {

constexpr std::int64_t k_max_nodes_for_deadline = 1024;  // scaling out to meet a deadline stops here

std::string label(const Machine& m, bool spot) {
    return m.inst->provider + " " + m.inst->id + (spot ? " (spot)" : "");
}

struct Priced {
    Offer offer;
    const PlanChoice* plan;  // in ctx.plans
};

// Training that misses the deadline: time scales about as 1/nodes, so the node count that meets
// it, re-planned (communication grows, so it is timed again).
Priced meet_deadline(Context& ctx, const Machine& m, const PlanChoice& p, PriceKind kind) {
    Priced out{priced_offer(ctx, m, p, kind), &p};
    const Scenario& s = ctx.s;
    const Offer& o = out.offer;
    if (!ctx.training || !s.deadline_hours || !o.hours || *o.hours <= *s.deadline_hours) return out;
    if (ctx.fixed.num_gpus || !m.multi_node) return out;
    const double run = o.time_parts.compute + o.time_parts.checkpoints + o.time_parts.spot;
    const double room = *s.deadline_hours - o.time_parts.setup;
    if (room <= 0) return out;
    const double need = std::ceil(static_cast<double>(p.nodes) * run / room);
    const auto nodes = static_cast<std::int64_t>(std::min<double>(need, double(k_max_nodes_for_deadline)));
    if (nodes <= p.nodes) return out;
    const std::vector<PlanChoice>& more = training_plans(ctx, m, nodes);
    if (more.empty() || !more.front().found) return out;
    Offer scaled = priced_offer(ctx, m, more.front(), kind);
    if (scaled.hours && *scaled.hours < *o.hours) out = {std::move(scaled), &more.front()};
    return out;
}

}  // namespace

void machine_offers(Context& ctx, const Machine& m, std::vector<Candidate>& offers, std::vector<Rejection>& rejected) {
    const std::vector<PlanChoice>& plans = ctx.training ? training_plans(ctx, m) : serving_plan(ctx, m);
    if (plans.empty() || !plans.front().found) {
        rejected.push_back({label(m, false) + ": " + (plans.empty() ? std::string("no plan") : plans.front().fail), {}, {}});
        return;
    }
    for (PriceKind kind : price_kinds(ctx.s, *m.inst)) {
        const std::size_t before = offers.size();  // the best plan at this price goes at offers[before]
        std::optional<Rejection> why_not;
        for (const PlanChoice& p : plans) {
            if (!p.found) continue;
            Priced priced = meet_deadline(ctx, m, p, kind);
            const Offer& o = priced.offer;
            if (const std::optional<std::string> blocked = blocking_reason(ctx.s, o)) {
                Rejection r{label(m, o.spot) + ": " + *blocked, {}, {}};
                if (ctx.s.budget && o.total_cost && *o.total_cost > *ctx.s.budget) r.over_budget_cost = o.total_cost;
                if (ctx.s.deadline_hours && o.hours && *o.hours > *ctx.s.deadline_hours) r.over_deadline_hours = o.hours;
                if (!why_not) why_not = r;
                continue;
            }
            if (offers.size() == before) offers.emplace_back(std::move(priced.offer), &m, priced.plan);
            else if (ranks_before(ctx, o, offers.back().offer)) offers.back() = Candidate(std::move(priced.offer), &m, priced.plan);
        }
        if (offers.size() == before && why_not) rejected.push_back(*why_not);
    }
}

}  // namespace gpusizer::plan
