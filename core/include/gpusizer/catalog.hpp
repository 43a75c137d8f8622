#pragma once
// The catalog: accelerators, cloud instances with prices, providers, model presets and
// currency rates. Parsed and validated from the static JSON asset (assets/catalog.json);
// every row keeps its source, date and confidence so the UI can mark estimates.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/model.hpp"
#include "gpusizer/result.hpp"

namespace gpusizer {

// [SECTION] Limits, checked before the JSON parser sees the text (docs/catalog.md)
inline constexpr std::size_t k_max_catalog_bytes = 8u << 20;  // 8 MiB; the built-in catalog is ~0.25 MiB
inline constexpr int k_max_catalog_depth = 32;                // nesting levels; presets' configs need ~5
inline constexpr std::size_t k_max_catalog_text = 4096;       // one string field (sources and notes run to ~1 KB)
inline constexpr std::size_t k_max_catalog_rows = 20000;     // per section; the built-in has <= 156
inline constexpr std::size_t k_max_catalog_warnings = 100;    // then one "... and N more problems" line
inline constexpr int k_catalog_schema = 1;                    // the `schema` key this parser understands
inline constexpr double k_max_instance_gpus = 1024;           // an instance's gpu_count (whole above 1; the built-in has <= 16)
inline constexpr double k_max_network_gbps = 100000;          // an instance's network_gbps (the built-in has <= 3200)

// How far a row was checked (shared/data/README.md): V, V-partial, V-draft, K.
// to_string gives the tag as written in the catalog ("V", "V-partial", "V-draft", "K").
enum class Confidence { verified, partial, draft, recalled };
const char* to_string(Confidence c);
std::optional<Confidence> parse_confidence(std::string_view tag);
inline bool is_estimate(Confidence c) { return c == Confidence::draft || c == Confidence::recalled; }

// A long text of a catalog row (a source, a note, a preset's config.json): read from a catalog
// file, it is a view into that file's text, which it keeps alive (copies of it, of its row and
// of the catalog share the text); made from a string, it holds its own copy. Reading the 0.4 MB
// catalog so copies none of its ~0.3 MB of such texts: in the page each fresh 4 kB page of memory
// costs ~15 µs on the machines it is tested on (docs/speed-and-cost.md "Catalog parse, tenth pass").
class CatalogText {
public:
    CatalogText() = default;
    CatalogText(std::string text);
    CatalogText(std::string_view text) : CatalogText(std::string(text)) {}
    CatalogText(const char* text) : CatalogText(std::string(text)) {}
    CatalogText(std::shared_ptr<const std::string> file, std::string_view part) : file_(std::move(file)), text_(part) {}

    std::string_view view() const { return text_; }
    operator std::string_view() const { return text_; }
    std::string str() const { return std::string(text_); }
    const char* data() const { return text_.data(); }  // not NUL-terminated
    std::size_t size() const { return text_.size(); }
    bool empty() const { return text_.empty(); }
    void clear() { *this = CatalogText(); }
    friend bool operator==(const CatalogText& a, std::string_view b) { return a.text_ == b; }
    friend bool operator!=(const CatalogText& a, std::string_view b) { return a.text_ != b; }

private:
    std::shared_ptr<const std::string> file_;  // the text `text_` views; null for ""
    std::string_view text_;
};

// The allowed Instance::price_basis tags; is_official_price is what the UI shows as "official".
inline constexpr const char* k_price_basis_official = "official";
inline constexpr const char* k_price_basis_third_party = "third-party";
inline constexpr const char* k_price_basis_estimate = "estimate";

struct Accelerator {
    std::string id;            // e.g. "h100_sxm"; the scenario's `gpu`
    std::string vendor, name, architecture;
    std::string name_zh;       // name with its English notes in Chinese ("" = not given: name is used)
    int year = 0;
    double memory_gb = 0;            // as marketed
    std::uint64_t memory_bytes = 0;  // what fit checks use (> 0)
    std::string memory_bytes_basis;  // "cloud catalog GpuInfo 183359 MiB" or "memory_gb x 2^30"
    std::string memory_type;
    double memory_bandwidth_gbps = 0;  // GB/s (1e9 B/s)
    // Dense peaks (no 2:4 sparsity); 0 = not supported by the part or not published.
    double tflops_fp32 = 0, tflops_tf32 = 0 /* JSON: tflops_tf32_dense */, tflops_bf16_dense = 0, tflops_fp16_dense = 0,
           tflops_fp8_dense = 0, tops_int8_dense = 0, tops_int4_dense = 0;
    double nvlink_bandwidth_gbps = 0;  // bidirectional per GPU; 0 = PCIe only
    int pcie_gen = 0;
    double tdp_w = 0;
    std::string form_factor;
    std::string software;       // cuda · rocm · cann · neuware · xla · neuron · synapse
    // restricted · china-compliant · china-available · domestic · legacy · not-sold-in-china · not-applicable
    std::string export_status;
    CatalogText export_status_note;         // the research text, e.g. "china-compliant (pre-Oct-2023 rules; now restricted)"
    std::string export_status_date;         // "2023-10" when the research states it, else "" (not known)
    CatalogText export_status_date_source;  // where the date comes from, or "not stated in shared/data"
    Confidence confidence = Confidence::recalled;
    std::vector<std::string> verified_fields;  // the numeric fields the research pass checked
    CatalogText source, notes;
};

struct Provider {
    std::string id, name;
    std::string name_zh;     // the name in Chinese ("阿里云"); "" = not given (name is used)
    std::string kind;        // hyperscaler · gpu_cloud · marketplace · china_cloud
    std::string spot_name;   // "Spot Instances", "抢占式实例 (preemptible instances)"; "" = not known
    double interruption_notice_s = 0;  // spot reclaim warning; 0 = not known (JSON null)
    double billing_granularity_s = 0;  // 0 = not known (JSON null)
    std::vector<std::string> regions;  // every region its instances name
    bool cn_mainland = false;          // has a row in mainland China
    Confidence confidence = Confidence::recalled;  // V: all three facts sourced; V-partial: some; K: none
    std::string source;                // "spot_name: …; interruption_notice_s: …" (one source per fact)
    CatalogText notes;
};

struct Instance {
    std::string provider;  // Provider::id
    std::string id;        // instance type, e.g. "p5.48xlarge"
    std::string name_zh;   // the id with its English notes in Chinese ("H100 SXM（市场中位价，已认证）");
                           // "" = not given (id is used)
    std::string gpu;       // Accelerator::id
    double gpu_count = 0;  // may be fractional (Azure NV12ads_A10_v5 = 1/3 GPU)
    std::string interconnect;  // nvswitch · nvlink · pcie · none · hccs
    double vcpus = 0, ram_gib = 0, local_ssd_gb = 0, network_gbps = 0;
    std::vector<std::string> regions;
    std::string price_region;
    bool cn_mainland = false;
    std::optional<double> ondemand_per_hour;  // in `currency`, per instance-hour
    std::optional<double> spot_per_hour;
    bool spot_is_typical_discount = false;    // spot derived from the provider's usual discount
    double scales_to_gpus = 0;                // per-GPU listing: up to this many GPUs in one machine at the
                                              // per-GPU price (0 = fixed shape); an assumption, docs/catalog.md
    std::string scaled_interconnect;          // between those GPUs (nvlink for SXM parts, else pcie)
    std::string currency = "USD";             // USD · CNY
    std::string price_date;                   // as researched: a day, or a catalog snapshot description
    std::string price_date_iso;               // "2026-11-09" when price_date is a day, else ""
    // Where the price comes from (docs/catalog.md): "official" (the provider's own list price, dated),
    // "third-party" (a dated marketplace median or price index), "estimate" (undated, derived or
    // recalled); "" = not stated (user catalogs). An official or third-party price needs price_date_iso.
    std::string price_basis;
    std::string spot_price_date;              // when the spot price was read, if not price_date; "" = same
    Confidence confidence = Confidence::recalled;
    CatalogText source, notes;

    bool is_official_price() const { return price_basis == k_price_basis_official; }
};

struct ModelPreset {
    std::string id;    // e.g. "llama-3.1-8b" (file name of the source config)
    std::string name;  // display name
    std::string family;
    std::string published_params;  // as published, e.g. "46.7B total / 12.9B active"
    CatalogText published_params_source;
    std::string licence;
    CatalogText licence_source;
    std::string hub_repo;  // the Hugging Face repository the config belongs to
    CatalogText source;    // where the config came from (repo@commit:path)
    std::string fidelity;  // file · md-block · py-dict-json-literal
    CatalogText notes;

    // The preset's config.json is kept as its text in the catalog and parsed when first asked
    // for (arch()): a page load reads the catalog without parsing ~100 configs it may never use.
    // `models_row` is its row in its file's `models` (arch()'s errors say "models[3].config…"),
    // npos for a config not read from a catalog file.
    void set_config(CatalogText json_text, std::size_t models_row = std::string::npos);
    // parse_hf_config of config(), warnings included: parsed on the first call, then kept (copies
    // of the preset share it; std::call_once makes the first call safe from several threads). A
    // config that does not parse gives its error with the path in its file
    // ("models[3].config.num_attention_heads"): the preset cannot be used (resolve_model says so).
    const Result<ModelArch>& arch() const;

private:
    // What arch() parsed, made on its first call: a catalog read makes two Parsed per preset (the
    // default and set_config's), and a Result<ModelArch> held in place (~600 bytes) cost the page's
    // parse ~130 kB of fresh memory for configs it may never use (docs/speed-and-cost.md "Catalog parse, eleventh pass").
    struct Parsed {
        std::once_flag once;
        std::unique_ptr<const Result<ModelArch>> arch;
    };
    CatalogText config_;
    std::size_t models_row_ = std::string::npos;
    std::shared_ptr<Parsed> parsed_ = std::make_shared<Parsed>();
};

struct CurrencyRate {
    double cny_per_usd = 0;
    std::string date;  // "" = not known
    Confidence confidence = Confidence::recalled;
    CatalogText source;
};

struct Catalog {
    int schema = k_catalog_schema;
    std::string version;       // "+user" / "+<user version>" appended by merge_catalog
    std::string prices_as_of;  // newest dated price (ISO day); many rows are undated snapshots
    std::string prices_oldest;
    std::vector<Accelerator> accelerators;
    std::vector<Provider> providers;
    std::vector<Instance> instances;
    std::vector<ModelPreset> models;
    CurrencyRate usd_cny;

    const Accelerator* find_accelerator(std::string_view id) const;
    const Provider* find_provider(std::string_view id) const;
    const ModelPreset* find_model(std::string_view id) const;
    const Instance* find_instance(std::string_view provider, std::string_view id) const;
};

// Validates everything (docs/catalog.md lists the rules). A bad row is dropped with a warning
// naming its JSON path ("instances[37].gpu: unknown accelerator 'h100-sxn'; row dropped"); a
// broken file (not JSON, too large or deep, a missing or mistyped top-level key) is an error.
// The catalog keeps a copy of the text (its CatalogText fields view it).
Result<Catalog> parse_catalog(std::string_view json_text);
// The same, keeping `json_text` itself instead of a copy (the page hands over its download).
Result<Catalog> parse_catalog(std::shared_ptr<const std::string> json_text);

// Merge a user catalog (same schema; every top-level key optional) over a base one: rows with
// the same id (instances: the same provider and id) replace in place, new ids are appended, and
// `currency` replaces the rate. User rows are validated like built-in ones and may refer to
// base rows; a bad user row is dropped with a warning, the base stays. The result keeps a copy
// of the user text, and shares the base's texts.
Result<Catalog> merge_catalog(const Catalog& base, std::string_view user_json_text);

// One section as a JSON array (`catalog list … --json`, exports): "gpus" (or "accelerators"),
// "instances", "providers", "models" (models give their parsed architecture, not the config;
// `arch` null and `arch_error` when the config does not parse).
// Keys follow assets/catalog.json; unknown numbers are null. "" for an unknown section name.
std::string catalog_section_json(const Catalog& catalog, std::string_view section);

}  // namespace gpusizer
