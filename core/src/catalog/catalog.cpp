// The catalog: parse_catalog, merge_catalog and the lookups (catalog.hpp; rules in docs/catalog.md).
//
// Index
//   [SECTION] Confidence tags and lookups
//   [SECTION] A preset's config, parsed on first use
//   [SECTION] Reading one row: typed fields, each problem named by its JSON path
//   [SECTION] Rows: accelerators, providers, instances, models
//   [SECTION] The file: limits, top-level keys, sections in reference order
//   [SECTION] parse_catalog, merge_catalog
//
// Nothing here aborts: every value is type-checked before it is read, a bad row is dropped with
// one warning per problem, and only a broken file (not JSON, too large, too deep, a top-level key
// missing or mistyped) is an error. The file is read by catalog/json_reader.hpp (no DOM); a
// preset's config is kept as text and parsed by parse_hf_config when first used (arch()).
#include "gpusizer/catalog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "gpusizer/scenario_limits.hpp"
#include "catalog/json_reader.hpp"
#include "model/hf_config_internal.hpp"
#include "json_util.hpp"

namespace gpusizer {

using detail::json;
using detail::JsonValue;

// [SECTION] Confidence tags and lookups

const char* to_string(Confidence c) {
    switch (c) {
        case Confidence::verified: return "V";
        case Confidence::partial: return "V-partial";
        case Confidence::draft: return "V-draft";
        case Confidence::recalled: return "K";
    }
    return "K";
}

std::optional<Confidence> parse_confidence(std::string_view tag) {
    if (tag == "V") return Confidence::verified;
    if (tag == "V-partial") return Confidence::partial;
    if (tag == "V-draft") return Confidence::draft;
    if (tag == "K") return Confidence::recalled;
    return std::nullopt;
}

const Accelerator* Catalog::find_accelerator(std::string_view id) const {
    for (const auto& a : accelerators)
        if (a.id == id) return &a;
    return nullptr;
}
const Provider* Catalog::find_provider(std::string_view id) const {
    for (const auto& p : providers)
        if (p.id == id) return &p;
    return nullptr;
}
const ModelPreset* Catalog::find_model(std::string_view id) const {
    for (const auto& m : models)
        if (m.id == id) return &m;
    return nullptr;
}
const Instance* Catalog::find_instance(std::string_view provider, std::string_view id) const {
    for (const auto& i : instances)
        if (i.provider == provider && i.id == id) return &i;
    return nullptr;
}

// [SECTION] A preset's config, parsed on first use

CatalogText::CatalogText(std::string text) {
    if (text.empty()) return;
    file_ = std::make_shared<const std::string>(std::move(text));
    text_ = *file_;
}

void ModelPreset::set_config(CatalogText json_text, std::size_t models_row) {
    config_ = std::move(json_text);
    models_row_ = models_row;
    parsed_ = std::make_shared<Parsed>();  // copies made before keep what they parsed
}

const Result<ModelArch>& ModelPreset::arch() const {
    std::call_once(parsed_->once, [this] {
        // The text is an object the catalog reader checked: nlohmann reads it as it read it in the file.
        const json root = json::parse(config_.data(), config_.data() + config_.size(), nullptr, false);
        Result<ModelArch> a = detail::parse_hf_config_object(root);
        if (!a.ok()) {  // parse_hf_config's message starts with the key its path names: say it once
            const std::string key_prefix = a.error.path + ": ";
            if (!a.error.path.empty() && a.error.message.compare(0, key_prefix.size(), key_prefix) == 0)
                a.error.message.erase(0, key_prefix.size());
            if (models_row_ != std::string::npos)
                a.error.path = "models[" + std::to_string(models_row_) + "].config" + (a.error.path.empty() ? "" : "." + a.error.path);
        }
        parsed_->arch = std::make_unique<const Result<ModelArch>>(std::move(a));
    });
    return *parsed_->arch;
}

namespace {

// Allowed spellings (docs/catalog.md), kept in byte order: messages list them so.
struct Allowed {
    std::vector<std::string_view> words;
    Allowed(std::initializer_list<std::string_view> w) : words(w) { std::sort(words.begin(), words.end()); }
    bool has(std::string_view s) const { return std::find(words.begin(), words.end(), s) != words.end(); }
};
const Allowed k_export_statuses = {"restricted", "china-compliant", "china-available", "domestic",
                                   "legacy", "not-sold-in-china", "not-applicable"};
const Allowed k_provider_kinds = {"hyperscaler", "gpu_cloud", "marketplace", "china_cloud"};
const Allowed k_interconnects = {"nvswitch", "nvlink", "nvlink-bridge", "nvlink-c2c", "pcie", "none",
                                 "hccs", "neuronlink", "ici", "infinity-fabric", "varies"};
const Allowed k_currencies = {"USD", "CNY"};
const Allowed k_price_bases = {k_price_basis_official, k_price_basis_third_party, k_price_basis_estimate};

// "YYYY-MM-DD" with a month 01-12 and a day 01-31 (a shape check, not a calendar).
bool is_iso_day(const std::string& s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (std::size_t k : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (s[k] < '0' || s[k] > '9') return false;
    const int month = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

constexpr std::size_t k_max_text = k_max_catalog_text;

// A value as messages show it (detail::show of nlohmann's DOM of the value's text).
std::string show(const JsonValue& v) {
    const std::string_view t = v.text();
    return detail::show(json::parse(t.begin(), t.end(), nullptr, false));
}

// [SECTION] Messages, written only when there is a problem
// A message is given as pieces (views, numbers, values) and written by one out-of-line function,
// so the code that reads a clean row holds no string building: V8 compiles each function of the
// page's wasm when it is first called, and a clean catalog never calls these (docs/speed-and-cost.md
// "Catalog parse, seventh pass").

struct Piece {
    enum class Kind : unsigned char { text, quoted, number, value, allowed };
    Kind kind;
    std::string_view s;
    double d = 0;
    const void* p = nullptr;  // the JsonValue (value) or the Allowed (allowed)
    Piece(const char* t) : kind(Kind::text), s(t) {}
    Piece(std::string_view t) : kind(Kind::text), s(t) {}
    Piece(const std::string& t) : kind(Kind::text), s(t) {}
    Piece(Kind k, std::string_view t, double n, const void* ptr) : kind(k), s(t), d(n), p(ptr) {}
};
using Pieces = std::initializer_list<Piece>;
Piece in_quotes(std::string_view s) { return {Piece::Kind::quoted, s, 0, nullptr}; }  // 'text', cut to 60 bytes
Piece num(double d) { return {Piece::Kind::number, {}, d, nullptr}; }             // %.10g
Piece value(const JsonValue& v) { return {Piece::Kind::value, {}, 0, &v}; }       // as JSON, cut to 60 bytes
Piece allowed(const Allowed& a) { return {Piece::Kind::allowed, {}, 0, &a}; }     // "a, b, c"

[[gnu::noinline]] std::string text_of(Pieces pieces) {
    std::string out;
    for (const Piece& p : pieces) {
        switch (p.kind) {
            case Piece::Kind::text: out += p.s; break;
            case Piece::Kind::quoted:
                out += '\'';
                out += p.s.size() > 60 ? std::string(p.s.substr(0, 57)) + "..." : std::string(p.s);
                out += '\'';
                break;
            case Piece::Kind::number: {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%.10g", p.d);
                out += buf;
                break;
            }
            case Piece::Kind::value: out += show(*static_cast<const JsonValue*>(p.p)); break;
            case Piece::Kind::allowed: {
                bool first = true;
                for (const std::string_view w : static_cast<const Allowed*>(p.p)->words) {
                    if (!first) out += ", ";
                    out += w;
                    first = false;
                }
                break;
            }
        }
    }
    return out;
}

// Positions by key (byte order): read_section's rows and each_sorted_member's values share this type.
using KeyIndex = std::map<std::string, std::size_t>;
// The text of the file being read: the rows' CatalogText fields view it.
using File = std::shared_ptr<const std::string>;

// An object's members as nlohmann's DOM holds them, f(key, value) for each: by key (byte order),
// a key given twice once, with its last value.
template <class F>
void each_sorted_member(const JsonValue& obj, F f) {
    std::vector<JsonValue> values;
    KeyIndex last;  // key → its last value in `values`
    obj.each_member([&](JsonValue k, JsonValue v) {
        last[k.string()] = values.size();
        values.push_back(v);
    });
    for (const auto& [key, at] : last) f(key, values[at]);
}

// [SECTION] Reading one row: typed fields, each problem named by its JSON path

// Warnings, capped at k_max_catalog_warnings (a hostile file can have millions of bad rows).
struct Sink {
    Notes list;  // English only
    std::size_t suppressed = 0;
    void add(std::string w) {
        if (list.size() < k_max_catalog_warnings) list.add_en(std::move(w));
        else ++suppressed;
    }
    Notes take() {
        if (suppressed)
            list.add_en("... and " + std::to_string(suppressed) + " more problems not shown (their rows were dropped)");
        return std::move(list);
    }
};

[[gnu::noinline]] std::string row_path(const char* name, std::size_t index) {
    return index == std::string::npos ? name : name + ("[" + std::to_string(index) + "]");
}

// "<row path>: <message>; row dropped".
[[gnu::noinline]] void row_dropped(Sink& warnings, const char* name, std::size_t index, Pieces message) {
    warnings.add(row_path(name, index) + ": " + text_of(message) + "; row dropped");
}

// One object of an array section. Every accessor records its problem (path: message) and
// returns a neutral value, so a row reports all of its problems at once and is then dropped.
class Row {
public:
    // The row `index` of section `name` ("instances[3]"), or the object `name` when index is npos.
    Row(const JsonValue& obj, const char* name, std::size_t index, Sink& warnings, const File& file)
        : members_(obj), name_(name), index_(index), warnings_(warnings), file_(file) {}

    std::string path() const { return row_path(name_, index_); }
    std::size_t index() const { return index_; }
    bool ok() const { return problems_ == 0; }
    // A problem at the row's member named by the pieces of `key` ("gpu", "regions[2]").
    [[gnu::noinline]] void fail_at(Pieces key, Pieces message) {
        warnings_.add(path() + "." + text_of(key) + ": " + text_of(message) + "; row dropped");
        ++problems_;
    }
    void fail(std::string_view key, Pieces message) { fail_at({key}, message); }
    std::optional<JsonValue> get(std::string_view key) const { return members_.find(key); }

    // The string readers write `out` (a field of a freshly reset row): they leave it "" when the
    // value is absent (optional) or has a problem. A CatalogText views the file's text.
    // Required non-empty string.
    template <class Text>  // std::string or CatalogText
    void text(std::string_view key, Text& out, std::size_t max = k_max_text) {
        const std::optional<JsonValue> v = get(key);
        if (!v) return fail(key, {"missing (a string is required)"});
        if (!v->is_string()) return fail(key, {"must be a string, got ", value(*v)});
        read_string(*v, out);
        if (out.empty()) return fail(key, {"must not be empty"});
        if (out.size() > max) return fail(key, {"longer than ", num(static_cast<double>(max)), " bytes"}), out.clear();
    }
    // Optional string: absent or null gives "".
    template <class Text>
    void opt_text(std::string_view key, Text& out) {
        const std::optional<JsonValue> v = get(key);
        if (!v || v->is_null()) return;
        if (!v->is_string()) return fail(key, {"must be a string or null, got ", value(*v)});
        read_string(*v, out);
        if (out.size() > k_max_text) return fail(key, {"longer than ", num(k_max_text), " bytes"}), out.clear();
    }
    // A value's text as a CatalogText viewing the file (an object's, or a string's without escapes).
    CatalogText file_text(const JsonValue& v) const { return CatalogText(file_, v.is_string() ? v.written() : v.text()); }
    // Required id: letters, digits, - _ . (what share links and the CLI accept).
    void id(std::string_view key, std::string& out) {
        text(key, out, k_max_id_length);
        if (!out.empty() && !is_valid_id(out))
            fail(key, {in_quotes(out), " is not a valid id (letters, digits, - _ . only)"}), out.clear();
    }
    void one_of(std::string_view key, std::string& out, const Allowed& words, bool required) {
        if (required) text(key, out);
        else opt_text(key, out);
        if (!out.empty() && !words.has(out)) fail(key, {"unknown value ", in_quotes(out), " (allowed: ", allowed(words), ")"});
    }
    // Number, optional (absent/null -> nullopt) or required; `positive` demands > 0, else >= 0.
    std::optional<double> number(std::string_view key, bool required, bool positive) {
        const std::optional<JsonValue> v = get(key);
        if (!v || v->is_null()) {
            if (required) fail(key, {"missing (a number is required)"});
            return std::nullopt;
        }
        if (!v->is_number()) return fail(key, {"must be a number, got ", value(*v)}), std::nullopt;
        const double d = v->number().as_double();
        if (!std::isfinite(d)) return fail(key, {"must be finite"}), std::nullopt;
        if (positive ? d <= 0 : d < 0)
            return fail(key, {"impossible value ", num(d), positive ? " (must be > 0)" : " (must be >= 0)"}), std::nullopt;
        return d;
    }
    double num0(std::string_view key) { return number(key, false, false).value_or(0); }
    // Optional whole number from 0 to `hi` (absent or null: 0).
    int whole(std::string_view key, int hi) {
        const std::optional<JsonValue> v = get(key);
        if (!v || v->is_null()) return 0;
        if (!v->is_number()) return fail(key, {"must be a number, got ", value(*v)}), 0;
        const std::optional<std::int64_t> n = detail::as_int(v->number(), 0, hi);
        if (!n) return fail(key, {"expected a whole number from 0 to ", num(hi), ", got ", value(*v)}), 0;
        return static_cast<int>(*n);
    }
    bool flag(std::string_view key, bool def) {
        const std::optional<JsonValue> v = get(key);
        if (!v) return def;
        if (!v->is_boolean()) return fail(key, {"must be true or false, got ", value(*v)}), def;
        return v->boolean();
    }
    void strings(std::string_view key, std::vector<std::string>& out) {
        const std::optional<JsonValue> v = get(key);
        if (!v || v->is_null()) return;
        if (!v->is_array()) return fail(key, {"must be an array of strings, got ", value(*v)});
        out.resize(v->size());  // a problem drops the row: its element stays ""
        std::size_t i = 0;
        v->each_element([&](JsonValue e) {
            if (!e.is_string()) fail_at({key, "[", num(static_cast<double>(i)), "]"}, {"must be a string, got ", value(e)});
            else out[i] = e.string();
            ++i;
        });
    }
    Confidence confidence() {
        std::string tag;
        text("confidence", tag);
        if (tag.empty()) return Confidence::recalled;
        auto c = parse_confidence(tag);
        if (!c) fail("confidence", {"unknown tag ", in_quotes(tag), " (allowed: V, V-partial, V-draft, K)"});
        return c.value_or(Confidence::recalled);
    }

private:
    void read_string(const JsonValue& v, std::string& out) const { out = v.string(); }
    void read_string(const JsonValue& v, CatalogText& out) const { out = v.has_escapes() ? CatalogText(v.string()) : file_text(v); }

    detail::JsonMembers members_;
    const char* name_;
    std::size_t index_;
    Sink& warnings_;
    const File& file_;
    int problems_ = 0;
};

// [SECTION] Rows: accelerators, providers, instances, models
// Each step of `load` (the file, the top-level keys, each section, each row) is its own function,
// never inlined: V8's baseline compiler (Liftoff) takes time that grows faster than a function's
// size, and the page compiles each function on its first call. With every step inlined, `load`
// was 20 kB of wasm and took ~2 ms to compile; apart, the parse's first call is ~2 ms sooner
// (docs/speed-and-cost.md "Catalog parse, eighth pass").

[[gnu::noinline]] bool read_accelerator(Row& r, Accelerator& a) {
    r.id("id", a.id);
    r.text("vendor", a.vendor);
    r.text("name", a.name);
    r.opt_text("name_zh", a.name_zh);
    r.opt_text("architecture", a.architecture);
    a.year = r.whole("year", 9999);
    a.memory_gb = r.number("memory_gb", true, true).value_or(0);
    if (const auto v = r.get("memory_bytes")) {  // an integer > 0 that fits in 64 bits
        auto b = v->is_number() ? detail::as_int(v->number(), 1, INT64_MAX) : std::nullopt;
        if (!b) {
            if (v->is_number() && v->number().as_double() <= 0)
                r.fail("memory_bytes", {"impossible value ", value(*v), " (memory must be > 0)"});
            else
                r.fail("memory_bytes", {"must be a positive integer, got ", value(*v)});
        }
        a.memory_bytes = b ? static_cast<std::uint64_t>(*b) : 0;
    } else {
        r.fail("memory_bytes", {"missing (an integer byte count is required)"});
    }
    r.opt_text("memory_bytes_basis", a.memory_bytes_basis);
    r.opt_text("memory_type", a.memory_type);
    a.memory_bandwidth_gbps = r.number("memory_bandwidth_gbps", true, true).value_or(0);
    a.tflops_fp32 = r.num0("tflops_fp32");
    a.tflops_tf32 = r.num0("tflops_tf32_dense");
    a.tflops_bf16_dense = r.num0("tflops_bf16_dense");
    a.tflops_fp16_dense = r.num0("tflops_fp16_dense");
    a.tflops_fp8_dense = r.num0("tflops_fp8_dense");
    a.tops_int8_dense = r.num0("tops_int8_dense");
    a.tops_int4_dense = r.num0("tops_int4_dense");
    a.nvlink_bandwidth_gbps = r.num0("nvlink_bandwidth_gbps");
    a.pcie_gen = r.whole("pcie_gen", 99);
    a.tdp_w = r.num0("tdp_w");
    r.opt_text("form_factor", a.form_factor);
    r.opt_text("software", a.software);
    r.one_of("export_status", a.export_status, k_export_statuses, false);
    r.opt_text("export_status_note", a.export_status_note);
    r.opt_text("export_status_date", a.export_status_date);
    r.opt_text("export_status_date_source", a.export_status_date_source);
    a.confidence = r.confidence();
    r.strings("verified_fields", a.verified_fields);
    r.text("source", a.source);
    r.opt_text("notes", a.notes);
    return r.ok();
}

[[gnu::noinline]] bool read_provider(Row& r, Provider& p) {
    r.id("id", p.id);
    r.text("name", p.name);
    r.opt_text("name_zh", p.name_zh);
    r.one_of("kind", p.kind, k_provider_kinds, true);
    r.opt_text("spot_name", p.spot_name);
    p.interruption_notice_s = r.number("interruption_notice_s", false, true).value_or(0);
    p.billing_granularity_s = r.number("billing_granularity_s", false, true).value_or(0);
    r.strings("regions", p.regions);
    p.cn_mainland = r.flag("cn_mainland", false);
    p.confidence = r.confidence();
    if (const auto s = r.get("sources"); s && !s->is_null()) {  // {"fact": "where it comes from"}
        if (!s->is_object()) {
            r.fail("sources", {"must be an object of strings, got ", value(*s)});
        } else {
            each_sorted_member(*s, [&](const std::string& key, const JsonValue& value) {
                if (!value.is_string())
                    r.fail_at({"sources.", key}, {"must be a string, got ", gpusizer::value(value)});
                else
                    p.source += (p.source.empty() ? "" : "; ") + key + ": " + value.string();
            });
        }
    }
    r.opt_text("notes", p.notes);
    return r.ok();
}

[[gnu::noinline]] bool read_instance(Row& r, Instance& i, const Catalog& refs) {
    r.text("provider", i.provider, k_max_id_length);
    if (!i.provider.empty() && !refs.find_provider(i.provider))
        r.fail("provider", {"unknown provider ", in_quotes(i.provider)});
    r.text("id", i.id, k_max_id_length);
    r.opt_text("name_zh", i.name_zh);
    r.text("gpu", i.gpu, k_max_id_length);
    if (!i.gpu.empty() && !refs.find_accelerator(i.gpu)) r.fail("gpu", {"unknown accelerator ", in_quotes(i.gpu)});
    if (const auto c = r.get("gpu_count"); c && c->is_number() && c->number().as_double() == 0)
        r.fail("gpu_count", {"impossible value 0 (an instance has at least part of one GPU)"});
    else
        i.gpu_count = r.number("gpu_count", true, true).value_or(0);
    if (i.gpu_count >= 1 && (i.gpu_count != std::floor(i.gpu_count) || i.gpu_count > k_max_instance_gpus))
        r.fail("gpu_count", {"expected a share of one GPU (below 1) or a whole number from 1 to ", num(k_max_instance_gpus),
                             ", got ", num(i.gpu_count)}),
            i.gpu_count = 0;
    r.one_of("interconnect", i.interconnect, k_interconnects, true);
    i.vcpus = r.num0("vcpus");
    i.ram_gib = r.num0("ram_gib");
    i.local_ssd_gb = r.num0("local_ssd_gb");
    i.network_gbps = r.num0("network_gbps");
    if (i.network_gbps > k_max_network_gbps)
        r.fail("network_gbps", {"impossible value ", num(i.network_gbps), " (at most ", num(k_max_network_gbps), " Gbps)"});
    r.strings("regions", i.regions);
    r.opt_text("price_region", i.price_region);
    i.cn_mainland = r.flag("cn_mainland", false);
    r.one_of("currency", i.currency, k_currencies, true);
    i.ondemand_per_hour = r.number("ondemand_per_hour", false, true);  // price <= 0 is impossible
    i.spot_per_hour = r.number("spot_per_hour", false, true);
    i.spot_is_typical_discount = r.flag("spot_is_typical_discount", false);
    if (i.ondemand_per_hour && i.spot_per_hour && *i.spot_per_hour > *i.ondemand_per_hour)
        r.fail("spot_per_hour", {"spot price ", num(*i.spot_per_hour), " is above the on-demand price ", num(*i.ondemand_per_hour)});
    // Per-GPU listings: one machine holds up to scales_to_gpus at the per-GPU price.
    if (auto n = r.number("scales_to_gpus", false, true)) {
        if (*n < i.gpu_count || *n > 64 || *n != std::floor(*n))
            r.fail("scales_to_gpus", {"expected a whole number from gpu_count to 64, got ", num(*n)});
        else
            i.scales_to_gpus = *n;
        r.one_of("scaled_interconnect", i.scaled_interconnect, k_interconnects, true);
    }
    r.opt_text("price_date", i.price_date);
    if ((i.ondemand_per_hour || i.spot_per_hour) && i.price_date.empty())
        r.fail("price_date", {"missing: a price needs the date it was read"});
    r.opt_text("price_date_iso", i.price_date_iso);
    if (!i.price_date_iso.empty() && !is_iso_day(i.price_date_iso))
        r.fail("price_date_iso", {in_quotes(i.price_date_iso), " is not a day (YYYY-MM-DD)"});
    r.one_of("price_basis", i.price_basis, k_price_bases, false);
    // An undated price is only acceptable when the row says it is an estimate (docs/catalog.md).
    if ((i.ondemand_per_hour || i.spot_per_hour) && i.price_date_iso.empty() &&
        (i.price_basis == k_price_basis_official || i.price_basis == k_price_basis_third_party))
        r.fail("price_date_iso", {"missing: a price with price_basis ", in_quotes(i.price_basis),
                                  " needs the day it was read (YYYY-MM-DD); an undated price is an 'estimate'"});
    r.opt_text("spot_price_date", i.spot_price_date);
    i.confidence = r.confidence();
    r.text("source", i.source);
    r.opt_text("notes", i.notes);
    return r.ok();
}

[[gnu::noinline]] bool read_model(Row& r, ModelPreset& m) {
    r.id("id", m.id);
    r.text("name", m.name);
    r.text("family", m.family);
    r.opt_text("published_params", m.published_params);
    r.opt_text("published_params_source", m.published_params_source);
    r.opt_text("licence", m.licence);
    r.opt_text("licence_source", m.licence_source);
    r.opt_text("hub_repo", m.hub_repo);
    r.text("source", m.source);
    r.opt_text("fidelity", m.fidelity);
    r.opt_text("notes", m.notes);
    const auto cfg = r.get("config");
    if (!cfg)
        r.fail("config", {"missing (the config.json object is required)"});
    else if (!cfg->is_object())
        r.fail("config", {"must be an object (a config.json), got ", value(*cfg)});
    else  // parsed when the preset is first used (ModelPreset::arch)
        m.set_config(r.file_text(*cfg), r.index());
    return r.ok();
}

// [SECTION] The file: limits, top-level keys, sections in reference order
// Each check returns false with `err` set when the file is broken (file_error, out of line).

[[gnu::noinline]] bool file_error(std::optional<Error>& err, const char* code, Pieces message, std::string_view path = {}) {
    err = Error{code, text_of(message), std::string(path)};
    return false;
}

// Size, depth, then JSON, then an object. The reader stops at the depth limit; when it fails,
// nesting_within tells a text too deep (however broken after) from one that is not JSON.
[[gnu::noinline]] bool parse_file(std::string_view text, detail::JsonDoc& out, std::optional<Error>& err) {
    if (text.size() > k_max_catalog_bytes)
        return file_error(err, "too_large", {"catalog is ", num(static_cast<double>(text.size())), " bytes; the limit is ",
                                             num(k_max_catalog_bytes), " (8 MiB)"});
    if (!out.parse(text, k_max_catalog_depth)) {
        if (!detail::nesting_within(text, k_max_catalog_depth))
            return file_error(err, "too_deep", {"catalog nests deeper than ", num(k_max_catalog_depth), " levels"});
        return file_error(err, "bad_json", {"catalog is not valid JSON"});
    }
    const std::string_view json_text = out.root().text();  // a NUL ends the text for JSON, not for the depth check
    const std::size_t after = static_cast<std::size_t>(json_text.data() + json_text.size() - text.data());
    if (text.find_first_not_of(" \t\n\r", after) != std::string_view::npos && !detail::nesting_within(text, k_max_catalog_depth))
        return file_error(err, "too_deep", {"catalog nests deeper than ", num(k_max_catalog_depth), " levels"});
    if (!out.root().is_object()) return file_error(err, "bad_type", {"catalog must be a JSON object, got ", value(out.root())});
    return true;
}

bool schema(const JsonValue& root, bool required, std::optional<Error>& err) {
    const auto it = root.find("schema");
    if (!it) return !required || file_error(err, "missing", {"missing (an integer is required)"}, "schema");
    const auto s = it->is_number() ? detail::as_int(it->number(), 0, 1000000) : std::nullopt;
    if (!s) return file_error(err, "bad_type", {"must be an integer, got ", value(*it)}, "schema");
    if (*s != k_catalog_schema)
        return file_error(err, "unsupported", {"schema ", num(static_cast<double>(*s)), " is not supported (this build reads schema ",
                                               num(k_catalog_schema), ")"}, "schema");
    return true;
}

// A top-level array section: required in a full catalog, optional in a user catalog.
bool section(const JsonValue& root, const char* key, bool required, std::optional<JsonValue>& out, std::optional<Error>& err) {
    out.reset();
    const auto it = root.find(key);
    if (!it || it->is_null()) return !required || file_error(err, "missing", {"missing (an array is required)"}, key);
    if (!it->is_array()) return file_error(err, "bad_type", {"must be an array, got ", value(*it)}, key);
    if (it->size() > k_max_catalog_rows)
        return file_error(err, "too_many_rows", {num(static_cast<double>(it->size())), " rows; the limit is ", num(k_max_catalog_rows),
                                                 " per section"}, key);
    out = it;
    return true;
}

bool top_text(const JsonValue& root, const char* key, bool required, std::string& out, std::optional<Error>& err) {
    const auto it = root.find(key);
    if (!it || it->is_null()) return !required || file_error(err, "missing", {"missing (a string is required)"}, key);
    if (!it->is_string()) return file_error(err, "bad_type", {"must be a string, got ", value(*it)}, key);
    out = it->string();
    return true;
}

// The currency row's first problem as the file's error: prices cannot be shown in both
// currencies without it.
[[gnu::noinline]] bool currency_error(const Sink& problems, std::optional<Error>& err) {
    std::string first = problems.list.en().front();
    const std::string tail = "; row dropped";
    if (first.size() > tail.size()) first.resize(first.size() - tail.size());
    const auto colon = first.find(": ");
    return file_error(err, "bad_value", {std::string_view(first).substr(colon + 2)}, std::string_view(first).substr(0, colon));
}

bool read_currency(const JsonValue& root, bool required, std::optional<CurrencyRate>& out, std::optional<Error>& err, const File& file) {
    const auto it = root.find("currency");
    if (!it || it->is_null())
        return !required || file_error(err, "missing", {"missing (an object with cny_per_usd is required)"}, "currency");
    if (!it->is_object()) return file_error(err, "bad_type", {"must be an object, got ", value(*it)}, "currency");
    Sink problems;
    Row r(*it, "currency", std::string::npos, problems, file);
    CurrencyRate c;
    c.cny_per_usd = r.number("cny_per_usd", true, true).value_or(0);
    r.opt_text("date", c.date);
    c.confidence = r.confidence();
    r.text("source", c.source);
    if (!r.ok()) return currency_error(problems, err);
    out = c;
    return true;
}

std::string describe(const Accelerator& a) { return text_of({"accelerator id ", in_quotes(a.id)}); }
std::string describe(const Provider& p) { return text_of({"provider id ", in_quotes(p.id)}); }
std::string describe(const Instance& i) { return text_of({"instance ", in_quotes(i.id), " of provider ", in_quotes(i.provider)}); }
std::string describe(const ModelPreset& m) { return text_of({"model id ", in_quotes(m.id)}); }

// "<section>[i]: duplicate <row> (first at <section>[j]); row dropped".
template <class T>
[[gnu::noinline]] void duplicate_row(Sink& warnings, const char* name, std::size_t index, std::size_t first, const T& row) {
    row_dropped(warnings, name, index, {"duplicate ", describe(row), " (first at ", row_path(name, first), ")"});
}

std::string accel_key(const Accelerator& a) { return a.id; }
std::string provider_key(const Provider& p) { return p.id; }
std::string instance_key(const Instance& i) { return i.provider + '\0' + i.id; }  // one key per pair: a provider id has no NUL
std::string model_key(const ModelPreset& m) { return m.id; }

// One array section. A row with problems, or a duplicate key inside this file, is dropped; a key
// already in `rows` (the base catalog, in a merge) is replaced in place; a new key is appended.
// Rows are read in place at the end of `rows` (no copy per row, and none of the functions a copy
// needs for V8 to compile: docs/speed-and-cost.md "Catalog parse, fifth pass"); a slot left by a
// dropped or moved row is reset before it is read into again, and the unused tail is removed.
template <class T, class ReadFn>
[[gnu::noinline]] void read_section(const std::optional<JsonValue>& arr, const char* name, std::vector<T>& rows,
                  std::string (*key_of)(const T&), ReadFn read, Sink& warnings, const File& file) {
    if (!arr) return;
    KeyIndex row_of;  // key → its row in `rows`
    for (std::size_t i = 0; i < rows.size(); ++i) row_of.emplace(key_of(rows[i]), i);
    std::vector<std::size_t> in_file(rows.size() + arr->size(), std::string::npos);  // per row: its first row in this file
    std::size_t end = rows.size();  // rows kept so far; rows[end] is the next row's slot
    rows.reserve(end + arr->size());  // slots made one at a time (resize would compile vector::__append)
    std::size_t i = 0;
    arr->each_element([&](JsonValue obj) {
        const std::size_t index = i++;
        if (!obj.is_object()) return row_dropped(warnings, name, index, {"must be an object, got ", value(obj)});
        if (end == rows.size()) rows.emplace_back();
        else rows[end] = T();  // what a dropped or moved row left
        Row r(obj, name, index, warnings, file);
        if (!read(r, rows[end])) return;
        const auto [place, added] = row_of.try_emplace(key_of(rows[end]), end);
        const std::size_t at = place->second;
        if (in_file[at] != std::string::npos) return duplicate_row(warnings, name, index, in_file[at], rows[end]);
        in_file[at] = index;
        if (added) ++end;
        else rows[at] = std::move(rows[end]);
    });
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(end), rows.end());
}

// The top-level keys into `cat` and the sections' positions; false with `err` when the file is broken.
[[gnu::noinline]] bool read_top(Catalog& cat, const JsonValue& root, bool user, std::optional<JsonValue> (&sections)[4], std::optional<Error>& err,
                                const File& file) {
    std::string version, as_of, oldest;
    std::optional<CurrencyRate> rate;
    if (!schema(root, !user, err) || !top_text(root, "version", !user, version, err) ||
        !top_text(root, "prices_as_of", !user, as_of, err) || !top_text(root, "prices_oldest", false, oldest, err) ||
        !read_currency(root, !user, rate, err, file) || !section(root, "accelerators", !user, sections[0], err) ||
        !section(root, "providers", !user, sections[1], err) || !section(root, "instances", !user, sections[2], err) ||
        !section(root, "models", !user, sections[3], err))
        return false;
    if (user) {
        cat.version += "+" + (version.empty() ? std::string("user") : version);
        if (!as_of.empty()) cat.prices_as_of = as_of;
        if (!oldest.empty()) cat.prices_oldest = oldest;
    } else {
        cat.version = version;
        cat.prices_as_of = as_of;
        cat.prices_oldest = oldest;
    }
    if (rate) cat.usd_cny = *rate;
    return true;
}

// Reads `text` into `cat`. A full catalog (user == false) needs every top-level key; a user
// catalog may give any of them and its rows replace or extend what `cat` already holds.
Result<Catalog> load(Catalog cat, const File& text, bool user) {
    detail::JsonDoc doc;
    std::optional<JsonValue> sections[4];  // accelerators, providers, instances, models
    std::optional<Error> err;
    if (!parse_file(*text, doc, err) || !read_top(cat, doc.root(), user, sections, err, text))
        return Result<Catalog>::failure(std::move(*err));
    Sink warnings;
    // Accelerators and providers first: instances refer to them (user rows may refer to base rows).
    read_section(sections[0], "accelerators", cat.accelerators, accel_key, read_accelerator, warnings, text);
    read_section(sections[1], "providers", cat.providers, provider_key, read_provider, warnings, text);
    read_section(sections[2], "instances", cat.instances, instance_key,
                 [&cat](Row& r, Instance& i) { return read_instance(r, i, cat); }, warnings, text);
    read_section(sections[3], "models", cat.models, model_key, read_model, warnings, text);
    return Result<Catalog>::success(std::move(cat), warnings.take());
}

}  // namespace

// [SECTION] parse_catalog, merge_catalog

Result<Catalog> parse_catalog(std::string_view json_text) {
    return parse_catalog(std::make_shared<const std::string>(json_text));
}

Result<Catalog> parse_catalog(std::shared_ptr<const std::string> json_text) {
    if (!json_text) json_text = std::make_shared<const std::string>();
    return load(Catalog{}, json_text, false);
}

Result<Catalog> merge_catalog(const Catalog& base, std::string_view user_json_text) {
    return load(base, std::make_shared<const std::string>(user_json_text), true);
}

}  // namespace gpusizer
