// `gpusizer recommend`: ranked cloud offers for a scenario (human table, or --format json|csv|markdown).
#include <cstdlib>

#include "gpusizer/units.hpp"
#include "cli.hpp"
#include "format.hpp"
#include "gpusizer/export.hpp"
#include "gpusizer/recommend.hpp"

namespace gpusizer::cli {

namespace {

void print_human(const Catalog& catalog, const Recommendation& r, Io& io) {
    io.out += r.summary + "\n";
    io.out += "catalog " + catalog.version + ", prices as of " + catalog.prices_as_of + "; " +
              std::to_string(r.considered) + " instance types considered, currency " + to_string(r.scenario.currency) +
              " (~ = estimated price, ? = not in the catalog)\n\n";
    Table t;
    t.add({"#", "provider", "instance", "GPUs", "plan", "GiB/GPU", "price/h", "hours", "total", "checks"});
    // Samples in place of tokens for vision, diffusion and speech (Recommendation::model_kind).
    const std::string per_million = r.model_kind.empty() ? "/Mtok" : r.model_kind == "whisper" ? "/M windows" : "/M images";
    for (const Offer& o : r.offers) {
        std::string plan = "tp" + std::to_string(o.plan.tensor_parallel) + " pp" + std::to_string(o.plan.pipeline_parallel) +
                           " dp" + std::to_string(o.plan.data_parallel);
        if (o.plan.zero_stage) plan += " z" + std::to_string(o.plan.zero_stage);
        const std::string warn = failed_checks(o, ",");
        t.add({std::to_string(o.rank), o.provider, o.instance + (o.spot ? " spot" : ""),
               std::to_string(o.gpu_count) + "× " + o.gpu, plan,
               num("%.1f", double(o.memory_per_gpu_bytes) / k_bytes_per_gib),
               !o.price_known ? std::string("?") : (o.price_is_estimate ? "~" : "") + num("%.2f", o.price_per_hour),
               o.hours ? num("%.1f", *o.hours) : "-",
               o.total_cost ? format_money_sig(*o.total_cost, r.scenario.currency)
                            : (o.cost_per_million_tokens ? format_money_sig(*o.cost_per_million_tokens, r.scenario.currency) + per_million : "-"),
               warn.empty() ? "ok" : warn});
    }
    if (!r.offers.empty()) io.out += t.render();
    // Beside the pick (#1): the cheapest and the fastest, with what each trades.
    if (r.cheapest || r.fastest) io.out += "\n";
    for (const auto& [name, alt] : {std::pair{"cheapest", &r.cheapest}, std::pair{"fastest", &r.fastest}}) {
        if (!*alt) continue;
        const Offer& o = r.offers[(*alt)->index];
        io.out += std::string(name) + ": #" + std::to_string(o.rank) + " " + o.provider + " " + o.instance +
                  (o.spot ? " spot" : "") + ((*alt)->index == 0 ? " (the pick)" : ": " + (*alt)->trade_off) + "\n";
    }
    if (r.offers.empty())
        for (const auto& reason : r.rejected_reasons) io.out += "  " + reason + "\n";
    for (const auto& w : r.warnings.en()) io.out += "warning: " + w + "\n";
}

}  // namespace

int cmd_recommend(const Catalog& catalog, const std::vector<std::string>& args, Io& io) {
    auto in = parse_scenario_args(args, io, {"--top"});
    if (!in) return k_exit_bad_input;
    std::size_t top = 0;
    for (const auto& [flag, value] : in->flags) {
        char* end = nullptr;
        const long n = std::strtol(value.c_str(), &end, 10);
        if (end == value.c_str() || *end || n < 1 || n > 100000) {
            io.err += "gpusizer: --top: expected a whole number in [1, 100000], got '" + value + "'\n";
            return k_exit_bad_input;
        }
        top = static_cast<std::size_t>(n);
    }
    Result<Recommendation> r = recommend(catalog, in->scenario, top);
    if (!r.ok()) {
        io.err += "gpusizer: " + format_error(r.error) + "\n";
        return k_exit_bad_input;
    }
    Recommendation rec = std::move(*r.value);
    rec.warnings.prepend(in->warnings);
    switch (in->format) {
        case OutputFormat::json: io.out += recommendation_to_json(rec) + "\n"; break;
        case OutputFormat::csv: io.out += recommendation_to_csv(rec); break;
        case OutputFormat::markdown: {
            // The summary also carries the memory table of the scenario as given.
            Result<Estimate> est = estimate(catalog, in->scenario);
            if (est.ok()) est->warnings.prepend(in->warnings);
            io.out += results_to_markdown(in->scenario, catalog, est, Result<Recommendation>::success(rec));
            break;
        }
        case OutputFormat::text: print_human(catalog, rec, io); break;
    }
    if (rec.offers.empty()) {
        io.err += "gpusizer: the scenario cannot be met: " + rec.summary + "\n";
        return k_exit_unmet;
    }
    return k_exit_ok;
}

}  // namespace gpusizer::cli
