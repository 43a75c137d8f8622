// `recommend --json`: {"scenario", "warnings", "summary", "offers": [...]} (docs/scenario.md).
#include "gpusizer/recommend.hpp"
#include "results_json.hpp"
#include "scenario_internal.hpp"

namespace gpusizer {

using detail::ojson;

ojson recommendation_to_ojson(const Recommendation& r) {
    auto opt = [](const std::optional<double>& o) { return o ? ojson(*o) : ojson(nullptr); };
    ojson j;
    j["scenario"] = scenario_to_ojson(r.scenario);
    j["warnings"] = r.warnings;
    j["summary"] = r.summary;
    j["summary_zh"] = r.summary_zh;
    ojson offers = ojson::array();
    for (const Offer& o : r.offers) {
        ojson x;
        x["provider"] = o.provider;
        x["instance"] = o.instance;
        x["region"] = o.region;
        x["gpu"] = o.gpu;
        x["gpu_count"] = o.gpu_count;
        x["nodes"] = o.nodes;
        x["interconnect"] = o.interconnect;
        x["plan"] = {{"tensor_parallel", o.plan.tensor_parallel},
                     {"pipeline_parallel", o.plan.pipeline_parallel},
                     {"data_parallel", o.plan.data_parallel},
                     {"zero_stage", o.plan.zero_stage}};
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
        x["tokens_per_s"] = o.tokens_per_s;
        x["mfu"] = o.mfu;
        x["hours"] = opt(o.hours);
        x["gpu_hours"] = opt(o.gpu_hours);
        x["total_cost"] = opt(o.total_cost);
        x["cost_per_million_tokens"] = opt(o.cost_per_million_tokens);
        x["currency"] = o.currency;
        x["spot_overhead_fraction"] = o.spot_overhead_fraction;
        x["pareto"] = o.pareto;
        ojson checks = ojson::array();
        for (const Check& c : o.checks)
            checks.push_back({{"id", c.id}, {"ok", c.ok}, {"blocking", c.blocking}, {"message", c.message}});
        x["checks"] = checks;
        x["why"] = o.why;
        offers.push_back(x);
    }
    j["offers"] = offers;
    j["considered"] = r.considered;
    j["rejected"] = r.rejected_reasons;
    return j;
}

std::string recommendation_to_json(const Recommendation& r) { return recommendation_to_ojson(r).dump(); }

}  // namespace gpusizer
