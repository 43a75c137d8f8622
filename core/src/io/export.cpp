// Exports of the results: CSV, the Markdown summary and the combined JSON (export.hpp).
//
// [SECTION] Number and text helpers
// [SECTION] CSV
// [SECTION] Markdown
// [SECTION] Combined JSON
#include "gpusizer/units.hpp"
#include "gpusizer/export.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "gpusizer/link.hpp"
#include "results_json.hpp"

namespace gpusizer {

using detail::ojson;

namespace {

// [SECTION] Number and text helpers


std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Shortest text that reads back as the same double (nlohmann's printer: the same digits as the
// JSON export on every host); "" for a missing or non-finite value, never "nan".
std::string number(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return "";
    return ojson(*v).dump();
}

const char* boolean(bool b) { return b ? "true" : "false"; }

// [SECTION] CSV

void csv_row(std::string& out, const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ',';
        out += csv_field(fields[i]);
    }
    out += "\r\n";  // RFC 4180 line end
}

// [SECTION] Markdown

// A table cell: `|` escaped, line breaks folded to spaces (a cell is one line).
std::string cell(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\r' || c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

void md_row(std::string& out, const std::vector<std::string>& cells) {
    out += '|';
    for (const auto& c : cells) out += ' ' + cell(c) + " |";
    out += '\n';
}

void md_header(std::string& out, const std::vector<std::string>& cells) {
    md_row(out, cells);
    out += '|';
    for (std::size_t i = 0; i < cells.size(); ++i) out += "---|";
    out += '\n';
}

std::string gib_text(std::uint64_t bytes) { return fmt("%.2f", static_cast<double>(bytes) / k_bytes_per_gib); }

std::string model_text(const Scenario& s, const Catalog& catalog) {
    if (s.source == ModelSource::hf_config) return "config.json (" + s.hf_config.model_type + ")";
    if (s.source == ModelSource::params_b) return "~" + fmt("%g", s.params_b) + " B (inferred shape)";
    const ModelPreset* p = catalog.find_model(s.model);
    return p && !p->name.empty() && p->name != s.model ? p->name + " (" + s.model + ")" : s.model;
}

bool failed(const Error& e) { return !e.code.empty(); }  // else: not computed (export.hpp)

void add_unique(std::vector<std::string>& out, const std::vector<std::string>& more) {
    for (const auto& w : more) {
        bool seen = false;
        for (const auto& o : out) seen = seen || o == w;
        if (!seen) out.push_back(w);
    }
}

}  // namespace

std::string failed_checks(const Offer& o, std::string_view sep) {
    std::string out;
    for (const Check& c : o.checks)
        if (!c.ok) {
            if (!out.empty()) out += sep;
            out += c.id;
        }
    return out;
}

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string estimate_to_csv(const Estimate& e) {
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const std::pair<const char*, std::uint64_t> rows[] = {
        {"weights", m.weights},         {"gradients", m.gradients}, {"optimizer", m.optimizer},
        {"activations", m.activations}, {"kv_cache", m.kv_cache},   {"overhead", m.overhead},
        {"total", m.total}};
    std::string out;
    csv_row(out, {"term", "bytes", "gib"});
    for (const auto& [term, bytes] : rows)
        csv_row(out, {term, std::to_string(bytes), fmt("%.4f", static_cast<double>(bytes) / k_bytes_per_gib)});
    return out;
}

std::string recommendation_to_csv(const Recommendation& r) {
    std::string out;
    csv_row(out, {"rank", "provider", "instance", "region", "gpu", "gpu_count", "nodes", "interconnect",
                  "tensor_parallel", "pipeline_parallel", "data_parallel", "zero_stage", "vcpus", "ram_gib",
                  "price_per_hour", "currency", "spot", "price_is_estimate", "tokens_per_s", "hours", "gpu_hours",
                  "total_cost", "cost_per_million_tokens", "memory_per_gpu_bytes", "gpu_memory_bytes", "pareto",
                  "failed_checks"});
    for (const Offer& o : r.offers) {
        // vCPUs and RAM of 0 mean "not listed in the catalog" (the planner's host_ram/vcpus checks).
        auto listed = [](double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; };
        csv_row(out, {std::to_string(o.rank), o.provider, o.instance, o.region, o.gpu, std::to_string(o.gpu_count),
                      std::to_string(o.nodes), o.interconnect, std::to_string(o.plan.tensor_parallel),
                      std::to_string(o.plan.pipeline_parallel), std::to_string(o.plan.data_parallel),
                      std::to_string(o.plan.zero_stage), number(listed(o.vcpus)), number(listed(o.ram_gib)),
                      o.price_known ? number(o.price_per_hour) : "", o.currency, boolean(o.spot),
                      boolean(o.price_is_estimate), number(o.tokens_per_s), number(o.hours), number(o.gpu_hours),
                      number(o.total_cost), number(o.cost_per_million_tokens), std::to_string(o.memory_per_gpu_bytes),
                      std::to_string(o.gpu_memory_bytes), boolean(o.pareto), failed_checks(o, ";")});
    }
    return out;
}

std::string results_to_markdown(const Scenario& s, const Catalog& catalog, const Result<Estimate>& e,
                                const Result<Recommendation>& r, const MarkdownOptions& options) {
    const bool zh = options.chinese;
    auto t = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    std::string out;
    // Vision, diffusion and speech count images or 30 s audio windows (Estimate/Recommendation::model_kind).
    const std::string kind = e.ok() ? e->model_kind : r.ok() ? r->model_kind : std::string();
    const std::string unit = kind.empty() ? " × " + std::to_string(s.seq_len) + t(" tokens", " token")
                             : kind == "whisper" ? t(" × 30 s audio windows", " × 30 秒音频段")
                             : s.image_size ? t(" images of ", " 张图像,") + std::to_string(*s.image_size) + " px"
                                            : t(" images", " 张图像");
    out += "# gpusizer — " + model_text(s, catalog) + ", " + to_string(s.task) + ", " + to_string(s.weight_dtype) +
           t(", batch ", "，批量 ") + std::to_string(s.batch_size) + unit + "\n\n";
    const std::string link = options.page_url + "#" + encode_link(s);
    // An absolute URL is an autolink; a bare fragment is a code span (it is not a URL by itself).
    out += t("Share link: ", "分享链接：") +
           (options.page_url.empty() ? "`" + link + "`" : "<" + link + ">") + "\n\n";

    std::vector<std::string> warnings;  // in the export's language
    if (e.ok() || failed(e.error)) {
        out += t("## Memory per GPU\n\n", "## 每块 GPU 的显存\n\n");
        if (!e.ok()) {
            out += t("Estimate failed: ", "估算失败：") + format_error(e.error) + "\n\n";
        } else {
            const MemoryBreakdown& m = e->memory_per_gpu_bytes;
            const std::pair<const char*, std::uint64_t> rows[] = {
                {"weights", m.weights},         {"gradients", m.gradients}, {"optimizer", m.optimizer},
                {"activations", m.activations}, {"kv_cache", m.kv_cache},   {"overhead", m.overhead}};
            md_header(out, {t("term", "项"), "GiB", t("how", "计算方式")});
            for (const auto& [term, bytes] : rows) {
                std::string how;
                for (const Explanation& x : e->explanations)
                    if (x.term == term) {
                        how = x.formula;
                        break;
                    }
                md_row(out, {term, gib_text(bytes), how});
            }
            md_row(out, {"**total**", "**" + gib_text(m.total) + "**", ""});
            out += '\n';
            out += t("Checkpoint as stored: ", "检查点（存储大小）：") + gib_text(e->model_bytes) + " GiB (" +
                   std::to_string(e->model_bytes) + t(" bytes: download and disk size)", " 字节：下载与磁盘大小）") + "\n\n";
            if (e->gpu) {
                const GpuFit& g = *e->gpu;
                out += "GPU " + g.id + " (" + gib_text(g.memory_bytes) + " GiB): " +
                       (g.fits ? t("fits, headroom ", "放得下，余量 ") + gib_text(g.headroom_bytes) + " GiB"
                               : t("does NOT fit, short by ", "放不下，还差 ") + gib_text(g.shortfall_bytes) + " GiB") +
                       "\n\n";
            }
            add_unique(warnings, e->warnings.lines(zh));
        }
        add_unique(warnings, e.warnings.lines(zh));
    }

    if (r.ok() || failed(r.error)) {
        out += t("## Recommendation\n\n", "## 推荐\n\n");
        if (!r.ok()) {
            out += t("Recommendation failed: ", "推荐失败：") + format_error(r.error) + "\n\n";
        } else {
            const Recommendation& rec = *r;
            out += (zh && !rec.summary_zh.empty() ? rec.summary_zh : rec.summary) + "\n\n";
            if (!rec.offers.empty()) {
                md_header(out, {"#", t("provider", "提供商"), t("instance", "实例"), "GPU", t("price/h", "每小时价格"),
                                t("hours", "小时"), t("total", "总价"), t("checks", "检查")});
                const std::size_t n = rec.offers.size() < 5 ? rec.offers.size() : 5;
                for (std::size_t i = 0; i < n; ++i) {
                    const Offer& o = rec.offers[i];
                    const std::string price =
                        !o.price_known ? "?" : (o.price_is_estimate ? "~" : "") + fmt("%.3f", o.price_per_hour) + " " + o.currency;
                    const std::string total =
                        o.total_cost ? fmt("%.2f", *o.total_cost) + " " + o.currency
                        : o.cost_per_million_tokens ? fmt("%.3f", *o.cost_per_million_tokens) + " " + o.currency +
                                                          (rec.model_kind.empty() ? "/Mtok" : rec.model_kind == "whisper" ? "/M windows" : "/M images")
                                                    : "-";
                    const std::string checks = failed_checks(o, ", ");
                    md_row(out, {std::to_string(o.rank), o.provider, o.instance + (o.spot ? " (spot)" : ""),
                                 std::to_string(o.gpu_count) + "× " + o.gpu, price, o.hours ? fmt("%.1f", *o.hours) : "-",
                                 total, checks.empty() ? "ok" : checks});
                }
                out += t("\n~ = estimated price, ? = no price in the catalog; ", "\n~ = 估计价格，? = 目录中没有价格；") +
                       std::to_string(rec.offers.size()) + t(" offers in all.\n\n", " 个方案。\n\n");
            } else {
                for (const auto& reason : rec.rejected_reasons) out += "- " + cell(reason) + "\n";
                if (!rec.rejected_reasons.empty()) out += '\n';
            }
            add_unique(warnings, rec.warnings.lines(zh));
        }
        add_unique(warnings, r.warnings.lines(zh));
    }

    if (!warnings.empty()) {
        out += t("## Warnings\n\n", "## 警告\n\n");
        for (const auto& w : warnings) out += "- " + cell(w) + "\n";
        out += '\n';
    }
    out += t("Catalog ", "目录 ") + catalog.version + t(", prices as of ", "，价格截至 ") + catalog.prices_as_of +
           t(".\n", "。\n");
    return out;
}

// [SECTION] Combined JSON

std::string results_to_json(const Result<Estimate>& e, const Result<Recommendation>& r) {
    auto part = [](const auto& res, auto to_ojson) -> ojson {
        if (res.ok()) return to_ojson(*res);
        if (!failed(res.error)) return nullptr;
        ojson x;
        x["error"] = {{"code", res.error.code}, {"message", res.error.message}, {"path", res.error.path}};
        x["warnings"] = res.warnings.en();
        return x;
    };
    ojson j;
    j["estimate"] = part(e, [](const Estimate& v) { return estimate_to_ojson(v); });
    j["recommendation"] = part(r, [](const Recommendation& v) { return recommendation_to_ojson(v); });
    return j.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace gpusizer
