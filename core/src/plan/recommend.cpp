// recommend(): the planner as a list of named steps (core/src/plan/plan.hpp lists the files).
//   1. the model and what the user fixed        context.cpp
//   2. the machines the catalog rents            machines.cpp
//   3. per machine: plan, price, blocking checks  offers.cpp (train_plan / serve_plan, cost, checks)
//   4. rank by rank_by, one shape per listing;   rank.cpp
//      the cheapest and the fastest beside the pick
//   5. the offers kept: names, checks (outcomes;  cost.cpp, checks.cpp; words.cpp (word_offer)
//      their messages and the why when worded)
//   6. the answer and the reasons                summary.cpp
#include <algorithm>
#include <map>

#include "gpusizer/memory.hpp"
#include "memory/kinds_memory.hpp"
#include "plan.hpp"

namespace gpusizer {
namespace {

// A per-GPU listing's machines and a TPU listing's slices are tried smallest first. Training: the
// first that gives a roomy offer is the listing's shape — a bigger machine made of per-GPU rentals is
// an assumption (scales_to_gpus), worth it only to fit (a tight offer, < 10% free, lets the next
// shape be tried) or, with rank_by time, to finish sooner. Serving: the first two (one replica per
// GPU, or the model split over two for more users per replica), bigger ones only win on time.
constexpr int k_training_shapes_per_listing = 1;
constexpr int k_serving_shapes_per_listing = 2;

std::size_t row(const plan::Context& ctx, const plan::Machine& m) {
    return static_cast<std::size_t>(m.inst - ctx.catalog.instances.data());
}

// `offered`: roomy shapes offered so far, per catalog row.
bool skip_shape(const plan::Context& ctx, const plan::Machine& m, const std::vector<int>& offered) {
    const int most = ctx.training ? k_training_shapes_per_listing : k_serving_shapes_per_listing;
    return ctx.s.rank_by != RankBy::time && (m.per_gpu_listing || m.slice) && offered[row(ctx, m)] >= most;
}

// The first `top` of the ranked offers, and the cheapest and the fastest after them when they rank
// lower: the answer names them whatever `top` is (their indices follow).
void keep_top(std::vector<std::size_t>& ranked, std::size_t top, Recommendation& rec) {
    if (ranked.size() <= top) return;
    std::vector<std::size_t> keep(top);
    for (std::size_t i = 0; i < top; ++i) keep[i] = i;
    for (std::optional<Alternative>* alt : {&rec.cheapest, &rec.fastest})
        if (*alt && (*alt)->index >= top && std::find(keep.begin(), keep.end(), (*alt)->index) == keep.end())
            keep.push_back((*alt)->index);
    std::sort(keep.begin(), keep.end());
    std::vector<std::size_t> kept;
    kept.reserve(keep.size());
    for (std::size_t i : keep) kept.push_back(ranked[i]);
    for (std::optional<Alternative>* alt : {&rec.cheapest, &rec.fastest})
        if (*alt) (*alt)->index = static_cast<std::size_t>(std::find(keep.begin(), keep.end(), (*alt)->index) - keep.begin());
    ranked = std::move(kept);
}

}  // namespace

Result<Recommendation> recommend(const Catalog& catalog, const Scenario& s, std::size_t top, OfferWords words) {
    Result<ModelArch> arch = resolve_model(catalog, s);
    if (!arch.ok()) return Result<Recommendation>::failure(arch.error, arch.warnings);
    if (!s.gpu.empty() && !catalog.find_accelerator(s.gpu))
        return Result<Recommendation>::failure({"unknown_id", "gpu: unknown accelerator '" + s.gpu + "'", "gpu"});
    // Vision, diffusion and speech: their samples (images, 30 s windows) take the place of tokens.
    const bool kind = kinds::is_sample_kind(*arch);
    Scenario ks = s;
    if (kind) {
        const kinds::Walk w = kinds::walk(*arch, s.image_size.value_or(0));
        if (!w.error.empty()) return Result<Recommendation>::failure({"bad_model", "model: " + w.error, "model"}, arch.warnings);
        ks.train_tokens = kinds::job_samples(*arch, s);
        if (ks.train_tokens && !(*ks.train_tokens > 0)) ks.train_tokens.reset();
    }
    plan::Context ctx{catalog, ks, *arch, plan::fixed_keys(s), s.task != Task::inference, count_params(*arch, s), {}};
    ctx.scratch = ctx.replica = ks;
    ctx.detail = param_detail(*arch);
    ctx.download_bytes = plan::job_download_bytes(ctx);
    Recommendation rec;
    rec.scenario = s;
    if (kind) rec.model_kind = arch->kind;
    rec.warnings = arch.warnings;
    if (ctx.training && !ctx.s.train_tokens) rec.reference_tokens = plan::reference_tokens(ctx);

    std::vector<plan::Machine> machines = plan::machines(ctx, rec.considered);
    std::vector<plan::Candidate> offers;
    offers.reserve(machines.size() * 2);  // on demand + spot per machine: an Offer is large to move on growth
    std::vector<plan::Rejection> rejected;
    std::vector<int> offered(catalog.instances.size());
    for (plan::Machine& m : machines) {
        if (skip_shape(ctx, m, offered) || !plan::complete(ctx, m)) continue;
        const std::size_t before = offers.size();
        if (kind) plan::kind_offers(ctx, m, offers, rejected);
        else plan::machine_offers(ctx, m, offers, rejected);
        for (std::size_t i = before; i < offers.size(); ++i)
            if (offers[i].plan->roomy) {
                ++offered[row(ctx, m)];
                break;
            }
    }
    std::vector<std::size_t> ranked = plan::rank(ctx, offers);
    for (std::size_t i = 0; i < ranked.size(); ++i) offers[ranked[i]].offer.rank = i + 1;
    plan::alternatives(offers, ranked, rec);
    if (top > 0) keep_top(ranked, top, rec);
    rec.offers.reserve(ranked.size());
    std::map<const Accelerator*, Efficiency> explained;  // compute_efficiency with its why, once per accelerator
    for (std::size_t i : ranked) {  // names and checks only for what the answer keeps; words when asked
        plan::Candidate& c = offers[i];
        if (c.offer.step) {
            const Accelerator* a = c.machine->acc;
            auto it = explained.find(a);
            if (it == explained.end()) it = explained.emplace(a, compute_efficiency(s, ctx.arch, *a)).first;
            c.offer.step->efficiency = it->second;
        }
        plan::add_names(ctx, *c.machine, *c.plan, c.offer);
        if (words == OfferWords::all) plan::word(rec.scenario, rec.model_kind, c.offer);
        else plan::add_checks(rec.scenario, c.offer, /*words=*/false);
        rec.offers.push_back(std::move(c.offer));
    }
    plan::answer(ctx, rejected, rec);
    Notes w = rec.warnings;
    return Result<Recommendation>::success(std::move(rec), std::move(w));
}

}  // namespace gpusizer
