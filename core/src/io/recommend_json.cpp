// `recommend --json`: {"scenario", "warnings", "summary", "offers": [...], "cheapest", "fastest", …} (docs/scenario.md).
#include "gpusizer/recommend.hpp"
#include "results_json.hpp"
#include "scenario/scenario_internal.hpp"

namespace gpusizer {

using detail::ojson;

namespace {

ojson opt(const std::optional<double>& o) { return o ? ojson(*o) : ojson(nullptr); }

ojson step_to_ojson(const std::optional<TrainingStep>& step) {
    if (!step) return nullptr;
    const TrainingStep& t = *step;
    return {{"seconds", t.step_s},       {"tokens", t.tokens},         {"micro_batches", t.micro_batches},
            {"compute_s", t.compute_s},   {"recompute_s", t.recompute_s}, {"tensor_parallel_s", t.tp_s},
            {"pipeline_bubble_s", t.pp_bubble_s}, {"pipeline_send_s", t.pp_send_s},
            {"expert_parallel_s", t.ep_s}, {"data_parallel_s", t.dp_s},
            {"data_parallel_exposed_s", t.dp_exposed_s}, {"offload_s", t.offload_s},
            {"efficiency", t.efficiency.value}, {"efficiency_why", t.efficiency.why}};
}

ojson serving_to_ojson(const std::optional<ServingLoad>& serving) {
    if (!serving) return nullptr;
    const ServingLoad& l = *serving;
    return {{"users", l.users},         {"replicas", l.replicas},   {"per_replica", l.per_replica},
            {"max_per_replica", l.max_per_replica}, {"tokens_per_s", l.tokens_per_s},
            {"tpot_ms", l.tpot_ms},     {"ttft_ms", l.ttft_ms}};
}

ojson offer_to_ojson(const Offer& o) {
    ojson x;
    x["rank"] = o.rank;
    x["provider"] = o.provider;
    x["provider_name"] = o.provider_name;
    x["provider_name_zh"] = o.provider_name_zh;
    x["instance"] = o.instance;
    x["instance_zh"] = o.instance_zh;
    x["region"] = o.region;
    x["gpu"] = o.gpu;
    x["gpu_name"] = o.gpu_name;
    x["gpu_name_zh"] = o.gpu_name_zh;
    x["gpu_count"] = o.gpu_count;
    x["nodes"] = o.nodes;
    x["interconnect"] = o.interconnect;
    x["plan"] = {{"tensor_parallel", o.plan.tensor_parallel},
                 {"pipeline_parallel", o.plan.pipeline_parallel},
                 {"data_parallel", o.plan.data_parallel},
                 {"zero_stage", o.plan.zero_stage}};
    ojson levers = ojson::array();
    for (const Lever& l : o.levers) levers.push_back({{"key", std::string(l.key)}, {"value", std::string(l.value)}, {"text", std::string(l.text)}});
    x["levers"] = levers;
    x["memory_per_gpu_bytes"] = o.memory_per_gpu_bytes;
    x["gpu_memory_bytes"] = o.gpu_memory_bytes;
    x["vcpus"] = o.vcpus;
    x["ram_gib"] = o.ram_gib;
    x["usd_per_hour"] = o.usd_per_hour;
    x["price_per_hour"] = o.price_per_hour;
    x["spot"] = o.spot;
    x["cn_mainland"] = o.cn_mainland;
    x["price_known"] = o.price_known;
    x["price_is_estimate"] = o.price_is_estimate;
    x["price_basis"] = o.price_basis.empty() ? ojson(nullptr) : ojson(o.price_basis);
    x["tokens_per_s"] = o.tokens_per_s;
    x["mfu"] = o.mfu;
    x["network_gbps"] = o.network_gbps;
    x["hours"] = opt(o.hours);
    x["time_parts"] = {{"setup", o.time_parts.setup},
                       {"compute", o.time_parts.compute},
                       {"checkpoints", o.time_parts.checkpoints},
                       {"spot", o.time_parts.spot}};
    x["gpu_hours"] = opt(o.gpu_hours);
    x["total_cost"] = opt(o.total_cost);
    x["cost_per_million_tokens"] = opt(o.cost_per_million_tokens);
    x["reference_hours"] = opt(o.reference_hours);
    x["reference_cost"] = opt(o.reference_cost);
    x["currency"] = o.currency;
    x["spot_overhead_fraction"] = o.spot_overhead_fraction;
    x["checkpoint_every_hours"] = o.checkpoint_every_hours;
    x["pareto"] = o.pareto;
    x["step"] = step_to_ojson(o.step);
    x["serving"] = serving_to_ojson(o.serving);
    ojson checks = ojson::array();
    for (const Check& c : o.checks)
        checks.push_back({{"id", c.id}, {"ok", c.ok}, {"blocking", c.blocking}, {"message", c.message}, {"message_zh", c.message_zh}});
    x["checks"] = checks;
    x["why"] = o.why;
    x["why_zh"] = o.why_zh;
    return x;
}

}  // namespace

ojson recommendation_to_ojson(const Recommendation& r) {
    ojson j;
    j["scenario"] = scenario_to_ojson(r.scenario);
    j["warnings"] = r.warnings.en();
    j["warnings_zh"] = r.warnings.zh();
    j["summary"] = r.summary;
    j["summary_zh"] = r.summary_zh;
    ojson offers = ojson::array();
    for (const Offer& o : r.offers) offers.push_back(offer_to_ojson(o));
    j["offers"] = offers;
    auto alternative = [](const std::optional<Alternative>& a) {
        return a ? ojson{{"index", a->index}, {"trade_off", a->trade_off}, {"trade_off_zh", a->trade_off_zh}} : ojson(nullptr);
    };
    j["cheapest"] = alternative(r.cheapest);
    j["fastest"] = alternative(r.fastest);
    j["considered"] = r.considered;
    j["rejected"] = r.rejected_reasons;
    j["notes"] = r.notes;
    j["reference_tokens"] = opt(r.reference_tokens);
    if (!r.model_kind.empty()) j["model_kind"] = r.model_kind;  // samples (images, 30 s windows) in place of tokens
    return j;
}

std::string recommendation_to_json(const Recommendation& r) { return recommendation_to_ojson(r).dump(); }

}  // namespace gpusizer
