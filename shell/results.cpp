#include "results.hpp"

#include <algorithm>
#include "gpusizer/memory.hpp"

namespace gpusizer::shell {

const std::vector<std::string>& badge_cards() {
    // One card per common memory size and market: consumer 24/32 GB, workstation 48 GB,
    // datacenter 80/141/192 GB, and what mainland China rents (H20 96 GB, Ascend 910B 64 GB).
    static const std::vector<std::string> cards = {"rtx4090", "rtx5090", "l40s", "a100_80_sxm", "h100_sxm",
                                                   "h200_sxm", "mi300x", "h20", "ascend_910b"};
    return cards;
}

namespace {

std::vector<std::int64_t> sweep_values(const Scenario& s, SweepAxis axis) {
    std::vector<std::int64_t> xs;
    if (axis == SweepAxis::seq_len)
        for (std::int64_t v = 256; v <= 131072; v *= 2) xs.push_back(v);
    else
        for (std::int64_t v = 1; v <= 256; v *= 2) xs.push_back(v);
    xs.push_back(axis == SweepAxis::seq_len ? s.seq_len : s.batch_size);  // the current value is on the curve
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    return xs;
}

}  // namespace

Results compute_results(const Catalog& catalog, const Scenario& s, SweepAxis axis) {
    Results r;
    r.axis = axis;
    r.estimate = estimate(catalog, s);
    r.recommendation = recommend(catalog, s, 0, OfferWords::none);  // words for the offers shown
    if (!r.estimate.ok()) return r;
    r.cards.reserve(badge_cards().size());
    for (const std::string& id : badge_cards()) {
        const Accelerator* a = catalog.find_accelerator(id);
        if (!a) continue;
        Scenario c = s;
        c.gpu = id;
        c.gpu_memory_gib.reset();
        Result<Estimate> e = estimate(catalog, c, k_estimate_memory_only);
        if (!e.ok() || !e->gpu) continue;
        r.cards.push_back(CardFit{id, a->name, e->gpu->memory_bytes, e->memory_per_gpu_bytes.total, e->gpu->fits});
    }
    for (std::int64_t x : sweep_values(s, axis)) {
        Scenario c = s;
        if (axis == SweepAxis::seq_len) {
            c.seq_len = x;
            c.prompt_tokens.reset();  // seq_len is the swept value, not prompt + output
            c.output_tokens.reset();
        } else {
            c.batch_size = x;
        }
        Result<Estimate> e = estimate(catalog, c, k_estimate_memory_only);
        if (e.ok()) r.sweep.push_back(SweepPoint{x, e->memory_per_gpu_bytes});
    }
    return r;
}

const Offer& worded_offer(const Results& r, std::size_t index) {
    const Recommendation& rec = *r.recommendation;
    auto it = r.worded.find(index);
    if (it == r.worded.end()) {
        it = r.worded.emplace(index, rec.offers[index]).first;
        word_offer(rec, it->second);
    }
    return it->second;
}

Result<Recommendation> worded_recommendation(const Results& r) {
    Result<Recommendation> out = r.recommendation;
    if (out.ok())
        for (Offer& o : out->offers) word_offer(*out, o);
    return out;
}

std::vector<PresetInfo> preset_infos(const Catalog& catalog) {
    std::vector<PresetInfo> out;
    out.reserve(catalog.models.size());
    Scenario s;
    for (const ModelPreset& m : catalog.models) {
        s.source = ModelSource::preset;
        s.model = m.id;
        PresetInfo info{m.id, m.family, m.name};
        Result<ModelArch> a = resolve_model(catalog, s);
        if (a.ok()) {
            const ParamCounts p = count_params(*a, s);
            info.total = p.total;
            info.active = p.active;
        }
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace gpusizer::shell
