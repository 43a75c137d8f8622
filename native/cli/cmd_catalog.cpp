// `gpusizer catalog list gpus|instances|models|providers [--json]` and `gpusizer catalog validate FILE`.
// Human tables mark estimates (confidence V-draft or K) with a leading "~"; --json prints the
// section with the keys of assets/catalog.json (catalog_section_json).
#include <cstdio>

#include "gpusizer/units.hpp"
#include "cli.hpp"
#include "format.hpp"

namespace gpusizer::cli {

namespace {

constexpr const char* k_catalog_usage =
    "usage: gpusizer catalog list (gpus|instances|models|providers) [--json]\n"
    "       gpusizer catalog validate FILE        exit 0 when valid with no warnings, 2 otherwise\n";

std::string mark(Confidence c) { return is_estimate(c) ? "~ " : "  "; }
std::string opt(double v, const char* f) { return v > 0 ? num(f, v) : "-"; }
std::string price(const std::optional<double>& v) { return v ? num("%.4g", *v) : "-"; }

void header(const Catalog& c, const std::string& what, std::size_t rows, Io& io) {
    io.out += "catalog " + c.version + " · prices as of " + c.prices_as_of +
              (c.prices_oldest.empty() ? "" : " (oldest " + c.prices_oldest + ")") + " · " + std::to_string(rows) + " " +
              what + " · ~ = estimate (confidence V-draft or K)\n";
}

void list_gpus(const Catalog& c, Io& io) {
    header(c, "accelerators", c.accelerators.size(), io);
    Table t;
    t.add({"  id", "vendor", "memory GiB", "GB/s", "bf16 TF", "fp8 TF", "link GB/s", "TDP W", "stack", "export", "conf"});
    for (const auto& a : c.accelerators)
        t.add({mark(a.confidence) + a.id, a.vendor, num("%.2f", double(a.memory_bytes) / k_bytes_per_gib),
               opt(a.memory_bandwidth_gbps, "%.0f"), opt(a.tflops_bf16_dense, "%.1f"), opt(a.tflops_fp8_dense, "%.1f"),
               opt(a.nvlink_bandwidth_gbps, "%.0f"), opt(a.tdp_w, "%.0f"), a.software,
               a.export_status + (a.export_status_date.empty() ? "" : " " + a.export_status_date), to_string(a.confidence)});
    io.out += t.render();
}

void list_instances(const Catalog& c, Io& io) {
    header(c, "instance types", c.instances.size(), io);
    Table t;
    t.add({"  provider", "instance", "GPUs", "region", "CN", "on-demand/h", "spot/h", "cur", "date", "conf"});
    for (const auto& i : c.instances) {
        const std::string count = i.gpu_count == static_cast<double>(static_cast<long long>(i.gpu_count))
                                      ? num("%.0f", i.gpu_count)
                                      : num("%.3g", i.gpu_count);
        const std::string region = !i.price_region.empty() ? i.price_region : (i.regions.empty() ? "-" : i.regions[0]);
        t.add({mark(i.confidence) + i.provider, i.id, count + "× " + i.gpu,
               region.size() > 19 ? region.substr(0, 18) + "…" : region, i.cn_mainland ? "yes" : "",
               price(i.ondemand_per_hour), price(i.spot_per_hour) + (i.spot_is_typical_discount ? "*" : ""), i.currency,
               i.price_date_iso.empty() ? "snapshot" : i.price_date_iso, to_string(i.confidence)});
    }
    io.out += t.render();
    io.out += "prices per instance-hour in the row's currency (1 USD = " + num("%.4g", c.usd_cny.cny_per_usd) +
              " CNY" + (c.usd_cny.date.empty() ? ", undated estimate" : " on " + c.usd_cny.date) +
              "); \"snapshot\" = catalog snapshot without a date (see --json price_date); * = spot from a typical discount\n";
}

void list_models(const Catalog& c, Io& io) {
    header(c, "model presets", c.models.size(), io);
    Table t;
    t.add({"id", "name", "family", "params (published)", "layers", "hidden", "source"});
    for (const auto& m : c.models) {
        std::string params = m.published_params.empty() ? "-" : m.published_params;
        if (params.size() > 33) params = params.substr(0, 32) + "…";
        const Result<ModelArch>& a = m.arch();
        t.add({m.id, m.name, m.family, params, a.ok() ? std::to_string(a->num_layers) : "-",
               a.ok() ? std::to_string(a->hidden_size) : "-", m.fidelity});
    }
    io.out += t.render();
}

void list_providers(const Catalog& c, Io& io) {
    header(c, "providers", c.providers.size(), io);
    Table t;
    t.add({"  id", "name", "kind", "spot", "notice s", "billing s", "regions", "conf"});
    for (const auto& p : c.providers)
        t.add({mark(p.confidence) + p.id, p.name, p.kind, p.spot_name.empty() ? "-" : p.spot_name,
               opt(p.interruption_notice_s, "%.0f"), opt(p.billing_granularity_s, "%.0f"), std::to_string(p.regions.size()),
               to_string(p.confidence)});
    io.out += t.render();
    io.out += "- = not found in the sources read (never guessed); see --json for each fact's source\n";
}

int validate(const std::string& path, Io& io) {
    auto text = read_file(path);
    if (!text) {
        io.err += "gpusizer: catalog validate: cannot read '" + path + "'\n";
        return k_exit_bad_input;
    }
    Result<Catalog> c = parse_catalog(*text);
    std::vector<std::string> warnings = c.warnings.en();
    if (c.ok())  // the presets' configs, which the others parse only when a preset is used
        for (const ModelPreset& m : c->models)
            if (!m.arch().ok()) warnings.push_back(format_error(m.arch().error) + "; the preset cannot be used");
    for (const auto& w : warnings) io.out += "warning: " + w + "\n";
    if (!c.ok()) {
        io.out += "error: " + format_error(c.error) + "\n";
        io.out += path + ": invalid\n";
        return k_exit_bad_input;
    }
    io.out += path + ": " + std::to_string(c->accelerators.size()) + " accelerators, " +
              std::to_string(c->providers.size()) + " providers, " + std::to_string(c->instances.size()) +
              " instances, " + std::to_string(c->models.size()) + " models; " + std::to_string(warnings.size()) +
              (warnings.size() == 1 ? " warning" : " warnings") + (warnings.empty() ? " (valid)" : " (rows dropped or unusable)") +
              "\n";
    return warnings.empty() ? k_exit_ok : k_exit_bad_input;
}

}  // namespace

int cmd_catalog(const Catalog& catalog, const std::vector<std::string>& args, Io& io) {
    if (args.size() == 2 && args[0] == "validate") return validate(args[1], io);
    if ((args.size() == 2 || args.size() == 3) && args[0] == "list") {
        const std::string& what = args[1];
        bool json = false;
        if (args.size() == 3) {
            if (args[2] != "--json") {
                io.err += "gpusizer: catalog list: unexpected argument '" + args[2] + "'\n" + k_catalog_usage;
                return k_exit_bad_input;
            }
            json = true;
        }
        if (what != "gpus" && what != "instances" && what != "models" && what != "providers") {
            io.err += "gpusizer: catalog list: unknown section '" + what + "' (gpus, instances, models, providers)\n";
            return k_exit_bad_input;
        }
        if (json) {
            io.out += catalog_section_json(catalog, what) + "\n";
            return k_exit_ok;
        }
        if (what == "gpus") list_gpus(catalog, io);
        else if (what == "instances") list_instances(catalog, io);
        else if (what == "models") list_models(catalog, io);
        else list_providers(catalog, io);
        return k_exit_ok;
    }
    io.err += std::string("gpusizer: catalog: ") + (args.empty() ? "missing subcommand" : "bad arguments") + "\n" +
              k_catalog_usage;
    return k_exit_bad_input;
}

}  // namespace gpusizer::cli
