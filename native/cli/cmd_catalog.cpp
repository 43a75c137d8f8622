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

std::string num(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Display width of UTF-8 text: CJK and full-width characters take two columns.
std::size_t width(const std::string& s) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        unsigned cp = c;
        std::size_t n = 1;
        if (c >= 0xF0) cp = ((c & 0x07u) << 18), n = 4;
        else if (c >= 0xE0) cp = ((c & 0x0Fu) << 12), n = 3;
        else if (c >= 0xC0) cp = ((c & 0x1Fu) << 6), n = 2;
        for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
            cp |= (static_cast<unsigned char>(s[i + k]) & 0x3Fu) << (6 * (n - 1 - k));
        w += (cp >= 0x1100 && (cp <= 0x115F || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
                               (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFF60)))
                 ? 2
                 : 1;
        i += n;
    }
    return w;
}

// Left-aligned column of `w` display columns (longer text is kept whole, then one space).
std::string col(const std::string& s, std::size_t w) {
    const std::size_t have = width(s);
    return s + std::string(have < w ? w - have : 1, ' ');
}

std::string mark(Confidence c) { return is_estimate(c) ? "~" : " "; }
std::string opt(double v, const char* f) { return v > 0 ? num(f, v) : "-"; }
std::string price(const std::optional<double>& v) { return v ? num("%.4g", *v) : "-"; }

void header(const Catalog& c, const std::string& what, std::size_t rows, Io& io) {
    io.out += "catalog " + c.version + " · prices as of " + c.prices_as_of +
              (c.prices_oldest.empty() ? "" : " (oldest " + c.prices_oldest + ")") + " · " + std::to_string(rows) + " " +
              what + " · ~ = estimate (confidence V-draft or K)\n";
}

void list_gpus(const Catalog& c, Io& io) {
    header(c, "accelerators", c.accelerators.size(), io);
    io.out += col("", 2) + col("id", 14) + col("vendor", 10) + col("memory GiB", 11) + col("GB/s", 7) + col("bf16 TF", 8) +
              col("fp8 TF", 8) + col("link GB/s", 10) + col("TDP W", 6) + col("stack", 8) + col("export", 18) + "conf\n";
    for (const auto& a : c.accelerators)
        io.out += col(mark(a.confidence), 2) + col(a.id, 14) + col(a.vendor, 10) +
                  col(num("%.2f", double(a.memory_bytes) / k_bytes_per_gib), 11) + col(opt(a.memory_bandwidth_gbps, "%.0f"), 7) +
                  col(opt(a.tflops_bf16_dense, "%.1f"), 8) + col(opt(a.tflops_fp8_dense, "%.1f"), 8) +
                  col(opt(a.nvlink_bandwidth_gbps, "%.0f"), 10) + col(opt(a.tdp_w, "%.0f"), 6) + col(a.software, 8) +
                  col(a.export_status + (a.export_status_date.empty() ? "" : " " + a.export_status_date), 18) +
                  to_string(a.confidence) + "\n";
}

void list_instances(const Catalog& c, Io& io) {
    header(c, "instance types", c.instances.size(), io);
    io.out += col("", 2) + col("provider", 12) + col("instance", 34) + col("GPUs", 18) + col("region", 20) + col("CN", 4) +
              col("on-demand/h", 12) + col("spot/h", 10) + col("cur", 5) + col("date", 12) + "conf\n";
    for (const auto& i : c.instances) {
        const std::string count = i.gpu_count == static_cast<double>(static_cast<long long>(i.gpu_count))
                                      ? num("%.0f", i.gpu_count)
                                      : num("%.3g", i.gpu_count);
        const std::string region = !i.price_region.empty() ? i.price_region : (i.regions.empty() ? "-" : i.regions[0]);
        io.out += col(mark(i.confidence), 2) + col(i.provider, 12) + col(i.id, 34) + col(count + "× " + i.gpu, 18) +
                  col(region.size() > 19 ? region.substr(0, 18) + "…" : region, 20) + col(i.cn_mainland ? "yes" : "", 4) +
                  col(price(i.ondemand_per_hour), 12) +
                  col(price(i.spot_per_hour) + (i.spot_is_typical_discount ? "*" : ""), 10) + col(i.currency, 5) +
                  col(i.price_date_iso.empty() ? "snapshot" : i.price_date_iso, 12) + to_string(i.confidence) + "\n";
    }
    io.out += "prices per instance-hour in the row's currency (1 USD = " + num("%.4g", c.usd_cny.cny_per_usd) +
              " CNY" + (c.usd_cny.date.empty() ? ", undated estimate" : " on " + c.usd_cny.date) +
              "); \"snapshot\" = catalog snapshot without a date (see --json price_date); * = spot from a typical discount\n";
}

void list_models(const Catalog& c, Io& io) {
    header(c, "model presets", c.models.size(), io);
    io.out += col("id", 24) + col("name", 38) + col("family", 10) + col("params (published)", 34) + col("layers", 7) +
              col("hidden", 7) + "source\n";
    for (const auto& m : c.models) {
        std::string params = m.published_params.empty() ? "-" : m.published_params;
        if (params.size() > 33) params = params.substr(0, 32) + "…";
        io.out += col(m.id, 24) + col(m.name, 38) + col(m.family, 10) + col(params, 34) +
                  col(std::to_string(m.arch.num_layers), 7) + col(std::to_string(m.arch.hidden_size), 7) + m.fidelity + "\n";
    }
}

void list_providers(const Catalog& c, Io& io) {
    header(c, "providers", c.providers.size(), io);
    io.out += col("", 2) + col("id", 12) + col("name", 30) + col("kind", 12) + col("spot", 34) + col("notice s", 9) +
              col("billing s", 10) + col("regions", 8) + "conf\n";
    for (const auto& p : c.providers)
        io.out += col(mark(p.confidence), 2) + col(p.id, 12) + col(p.name, 30) + col(p.kind, 12) +
                  col(p.spot_name.empty() ? "-" : p.spot_name, 34) + col(opt(p.interruption_notice_s, "%.0f"), 9) +
                  col(opt(p.billing_granularity_s, "%.0f"), 10) + col(std::to_string(p.regions.size()), 8) +
                  to_string(p.confidence) + "\n";
    io.out += "- = not found in the sources read (never guessed); see --json for each fact's source\n";
}

int validate(const std::string& path, Io& io) {
    auto text = read_file(path);
    if (!text) {
        io.err += "gpusizer: catalog validate: cannot read '" + path + "'\n";
        return k_exit_bad_input;
    }
    Result<Catalog> c = parse_catalog(*text);
    for (const auto& w : c.warnings) io.out += "warning: " + w + "\n";
    if (!c.ok()) {
        io.out += "error: " + format_error(c.error) + "\n";
        io.out += path + ": invalid\n";
        return k_exit_bad_input;
    }
    io.out += path + ": " + std::to_string(c->accelerators.size()) + " accelerators, " +
              std::to_string(c->providers.size()) + " providers, " + std::to_string(c->instances.size()) +
              " instances, " + std::to_string(c->models.size()) + " models; " + std::to_string(c.warnings.size()) +
              (c.warnings.size() == 1 ? " warning" : " warnings") + (c.warnings.empty() ? " (valid)" : " (rows dropped)") +
              "\n";
    return c.warnings.empty() ? k_exit_ok : k_exit_bad_input;
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
