// Ranking (docs/speed-and-cost.md "Ranking"): rank_by cost — the whole job's cost (serving: per
// million tokens at the load; without a token count, per hour) — hourly (the price per hour, for
// experiments and learning) or time (the whole job's hours; serving: time per token). Tight plans
// (< 10% free) and listings without a price go last; under region any, so do mainland China listings. One shape per listing is kept (the best-ranked of a per-GPU listing's
// machines or a TPU listing's slices). An offer is on the cost–time Pareto front when it is faster
// than every cheaper offer. Beside the pick, the cheapest and the fastest offers (alternatives).
#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>

#include "plan.hpp"

namespace gpusizer::plan {
namespace {

double cost_key(const Offer& o) {
    if (o.total_cost) return *o.total_cost;
    if (o.reference_cost) return *o.reference_cost;
    if (o.cost_per_million_tokens) return *o.cost_per_million_tokens;
    return o.price_per_hour;
}

// Lower is faster: the whole job's hours, else time per token, else 1 / throughput.
double time_key(const Offer& o) {
    if (o.hours) return *o.hours;
    if (o.reference_hours) return *o.reference_hours;
    if (o.serving) return o.serving->tpot_ms;
    return o.tokens_per_s > 0 ? 1 / o.tokens_per_s : 1e300;
}

// ASSUMPTION: without a deadline, a plan that runs longer than a week ranks after every plan that
// does not — an expert pays for speed rather than rent one machine for months to save a little.
constexpr double k_patience_hours = 168;

bool too_slow(const Context& ctx, const Offer& o) {
    return !ctx.s.deadline_hours && ctx.s.rank_by != RankBy::time && o.hours && *o.hours > k_patience_hours;
}

}  // namespace

// rank_by hourly (experiments, learning): one machine before several. ASSUMPTION: a learner wants the
// cheapest hour on one machine, not a cluster of cheap ones joined over a network.
bool several_for_hourly(const Context& ctx, const Offer& o) { return ctx.s.rank_by == RankBy::hourly && o.nodes > 1; }

namespace {

// What ranks_before compares, worked out once per offer (a sort compares each offer many times).
struct Keys {
    bool price_known, too_slow, several;
    double key, time, cost;  // key: by rank_by
};

Keys keys_of(const Context& ctx, const Offer& o) {
    Keys k{o.price_known, too_slow(ctx, o), several_for_hourly(ctx, o), cost_key(o), time_key(o), cost_key(o)};
    if (ctx.s.rank_by == RankBy::hourly) k.key = o.price_per_hour;
    if (ctx.s.rank_by == RankBy::time) k.key = k.time;
    return k;
}

// The last tie: the listing (provider, instance: `xi`, `yi` the offers' catalog rows; the same row
// when equal), spot, GPUs.
bool keys_before(const Keys& a, const Keys& b, const Offer& x, const Offer& y, const Instance* xi, const Instance* yi) {
    if (a.price_known != b.price_known) return a.price_known;  // unpriced listings last
    if (a.too_slow != b.too_slow) return !a.too_slow;
    if (a.several != b.several) return !a.several;
    if (a.key != b.key) return a.key < b.key;
    if (a.time != b.time) return a.time < b.time;
    if (a.cost != b.cost) return a.cost < b.cost;
    if (xi != yi && xi->provider != yi->provider) return xi->provider < yi->provider;
    if (xi != yi && xi->id != yi->id) return xi->id < yi->id;
    return std::tie(x.spot, x.gpu_count) < std::tie(y.spot, y.gpu_count);
}

}  // namespace

bool ranks_before(const Context& ctx, const Offer& x, const Offer& y) {
    return keys_before(keys_of(ctx, x), keys_of(ctx, y), x, y, nullptr, nullptr);  // one machine: one listing
}

// rank_by cost: plans within 15% of the cheapest go first, fewest GPUs first. ASSUMPTION: an expert
// takes one GPU over a node of eight for about the same money — nothing to set up across GPUs, and
// an 8-GPU spot node is the hardest capacity to get.
constexpr double k_simplicity_band = 0.15;

std::int64_t band_gpus(const Context& ctx, const Offer& o, double cheapest) {
    if (ctx.s.rank_by != RankBy::cost || !o.price_known || too_slow(ctx, o)) return -1;
    return cost_key(o) <= cheapest * (1 + k_simplicity_band) ? o.gpu_count : -1;
}

// Region any: a mainland China listing after every listing rentable outside China. ASSUMPTION:
// a user who did not choose a region has not said they hold a mainland real-name account (the
// mainland_account check); an expert would not pick what needs one for them. The cheapest
// alternative still names it when it is cheaper, and region cn_mainland ranks it as any other.
bool needs_mainland_account(const Context& ctx, const Candidate& c) {
    return ctx.s.region == Region::any && c.machine->inst->cn_mainland;
}

std::vector<std::size_t> rank(const Context& ctx, std::vector<Candidate>& offers) {
    // The simplicity band is measured from the cheapest offer of the first tier.
    const bool any_elsewhere = std::any_of(offers.begin(), offers.end(), [&](const Candidate& c) {
        return c.offer.price_known && !too_slow(ctx, c.offer) && !needs_mainland_account(ctx, c);
    });
    double cheapest = 1e301;
    for (const Candidate& c : offers)
        if (c.offer.price_known && !too_slow(ctx, c.offer) && !(any_elsewhere && needs_mainland_account(ctx, c)))
            cheapest = std::min(cheapest, cost_key(c.offer));
    std::vector<std::size_t> order(offers.size());  // sort indices: an Offer is large to move
    std::vector<std::int64_t> band(offers.size());
    std::vector<Keys> keys(offers.size());
    std::vector<char> mainland(offers.size());
    for (std::size_t i = 0; i < offers.size(); ++i) {
        order[i] = i, band[i] = band_gpus(ctx, offers[i].offer, cheapest), keys[i] = keys_of(ctx, offers[i].offer);
        mainland[i] = needs_mainland_account(ctx, offers[i]);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        // A tight plan (< 10% free: allocator spikes and the longest batch can run out of memory)
        // after every roomy one; it stays in the list with its failed headroom check.
        if (offers[x].plan->roomy != offers[y].plan->roomy) return offers[x].plan->roomy;
        if (mainland[x] != mainland[y]) return !mainland[x];
        if ((band[x] >= 0) != (band[y] >= 0)) return band[x] >= 0;
        if (band[x] >= 0 && band[x] != band[y]) return band[x] < band[y];
        return keys_before(keys[x], keys[y], offers[x].offer, offers[y].offer, offers[x].machine->inst, offers[y].machine->inst);
    });
    std::vector<std::size_t> kept;
    kept.reserve(offers.size());
    // One listing (a catalog row, whose provider and instance are unique, on demand or spot): the first.
    std::vector<char> listed(ctx.catalog.instances.size() * 2);
    for (std::size_t i : order) {
        const std::size_t row = static_cast<std::size_t>(offers[i].machine->inst - ctx.catalog.instances.data());
        char& seen = listed[row * 2 + (offers[i].offer.spot ? 1 : 0)];
        if (!seen) kept.push_back(i);
        seen = 1;
    }
    std::vector<std::size_t> by_cost = kept;
    std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
        const Offer &x = offers[a].offer, &y = offers[b].offer;
        if (cost_key(x) != cost_key(y)) return cost_key(x) < cost_key(y);
        return time_key(x) < time_key(y);
    });
    double best_time = 1e301;
    for (std::size_t i : by_cost) {
        Offer& o = offers[i].offer;
        if (o.price_known && time_key(o) < best_time) {
            o.pareto = true;
            best_time = time_key(o);
        }
    }
    return kept;
}

// The cheapest and the fastest priced offers, among those that leave room when any does (a tight
// plan may run out of memory: not an alternative to suggest). Ties: the faster, the cheaper, then rank.
void alternatives(const std::vector<Candidate>& offers, const std::vector<std::size_t>& ranked, Recommendation& rec) {
    const bool any_roomy = std::any_of(ranked.begin(), ranked.end(), [&](std::size_t i) { return offers[i].offer.price_known && offers[i].plan->roomy; });
    std::optional<std::size_t> cheapest, fastest;  // places in `ranked`
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        const Candidate& at = offers[ranked[i]];
        const Offer& o = at.offer;
        if (!o.price_known || (any_roomy && !at.plan->roomy)) continue;
        if (!cheapest) {
            cheapest = fastest = i;
            continue;
        }
        const Offer& c = offers[ranked[*cheapest]].offer;
        const Offer& f = offers[ranked[*fastest]].offer;
        if (std::make_pair(cost_key(o), time_key(o)) < std::make_pair(cost_key(c), time_key(c))) cheapest = i;
        if (std::make_pair(time_key(o), cost_key(o)) < std::make_pair(time_key(f), cost_key(f))) fastest = i;
    }
    if (cheapest) rec.cheapest = Alternative{*cheapest, {}, {}};
    if (fastest) rec.fastest = Alternative{*fastest, {}, {}};
}

}  // namespace gpusizer::plan
