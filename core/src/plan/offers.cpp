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

// Training that misses the deadline: time scales about as 1/nodes, so the node count that meets
// it, re-planned (communication grows, so it is timed again); `c` becomes that plan when it is sooner.
void meet_deadline(Context& ctx, const Machine& m, Candidate& c, PriceKind kind) {
    const Scenario& s = ctx.s;
    const Offer& o = c.offer;
    const PlanChoice& p = *c.plan;
    if (!ctx.training || !s.deadline_hours || !o.hours || *o.hours <= *s.deadline_hours) return;
    if (ctx.fixed.num_gpus || !m.multi_node) return;
    const double run = o.time_parts.compute + o.time_parts.checkpoints + o.time_parts.spot;
    const double room = *s.deadline_hours - o.time_parts.setup;
    if (room <= 0) return;
    const double need = std::ceil(static_cast<double>(p.nodes) * run / room);
    const auto nodes = static_cast<std::int64_t>(std::min<double>(need, double(k_max_nodes_for_deadline)));
    if (nodes <= p.nodes) return;
    const std::vector<PlanChoice>& more = training_plans(ctx, m, nodes);
    if (more.empty() || !more.front().found) return;
    Offer scaled = priced_offer(ctx, m, more.front(), kind);
    if (scaled.hours && *scaled.hours < *o.hours) {
        c.offer = std::move(scaled);
        c.plan = &more.front();
    }
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
            Candidate& c = offers.emplace_back(ctx, m, p, kind);
            meet_deadline(ctx, m, c, kind);
            const Offer& o = c.offer;
            if (const std::optional<std::string> blocked = blocking_reason(ctx.s, o)) {
                Rejection r{label(m, o.spot) + ": " + *blocked, {}, {}};
                if (ctx.s.budget && o.total_cost && *o.total_cost > *ctx.s.budget) r.over_budget_cost = o.total_cost;
                if (ctx.s.deadline_hours && o.hours && *o.hours > *ctx.s.deadline_hours) r.over_deadline_hours = o.hours;
                if (!why_not) why_not = r;
                offers.pop_back();
                continue;
            }
            if (offers.size() > before + 1) {  // a plan at this price was kept: the better one stays
                if (ranks_before(ctx, o, offers[before].offer)) offers[before] = std::move(c);
                offers.pop_back();
            }
        }
        if (offers.size() == before && why_not) rejected.push_back(*why_not);
    }
}

}  // namespace gpusizer::plan
