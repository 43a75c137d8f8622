#pragma once
// The catalog: accelerators, cloud instances with prices, providers, model presets and
// currency rates. Parsed and validated from the static JSON asset (assets/catalog.json);
// every row keeps its source, date and confidence so the UI can mark estimates.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/model.hpp"
#include "gpusizer/result.hpp"

namespace gpusizer {

// How far a row was checked (shared/data/README.md): V, V-partial, V-draft, K.
enum class Confidence { verified, partial, draft, recalled };
const char* to_string(Confidence c);
inline bool is_estimate(Confidence c) { return c == Confidence::draft || c == Confidence::recalled; }

struct Accelerator {
    std::string id;            // e.g. "h100_sxm"; the scenario's `gpu`
    std::string vendor, name, architecture;
    int year = 0;
    double memory_gb = 0;            // as marketed
    std::uint64_t memory_bytes = 0;  // what fit checks use
    std::string memory_type;
    double memory_bandwidth_gbps = 0;  // GB/s (1e9 B/s)
    // Dense peaks (no 2:4 sparsity); 0 = not supported by the part or not published.
    double tflops_fp32 = 0, tflops_tf32 = 0, tflops_bf16_dense = 0, tflops_fp16_dense = 0,
           tflops_fp8_dense = 0, tops_int8_dense = 0, tops_int4_dense = 0;
    double nvlink_bandwidth_gbps = 0;  // bidirectional per GPU; 0 = PCIe only
    int pcie_gen = 0;
    double tdp_w = 0;
    std::string form_factor;
    std::string software;       // cuda · rocm · cann · neuware · xla · neuron · synapse
    std::string export_status;  // restricted · china-compliant · domestic · china-available
    std::string export_status_date;
    Confidence confidence = Confidence::recalled;
    std::string source, notes;
};

struct Provider {
    std::string id, name;
    std::string kind;        // hyperscaler · gpu_cloud · marketplace · china_cloud
    std::string spot_name;   // "Spot Instances", "抢占式实例", "" = no spot market
    double interruption_notice_s = 0;
    double billing_granularity_s = 0;
    std::vector<std::string> regions;
    std::string source;
};

struct Instance {
    std::string provider;  // Provider::id
    std::string id;        // instance type, e.g. "p5.48xlarge"
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
    std::string currency = "USD";
    std::string price_date;
    Confidence confidence = Confidence::recalled;
    std::string source, notes;
};

struct ModelPreset {
    std::string id;    // e.g. "llama-3.1-8b" (file name of the source config)
    std::string name;  // display name
    std::string family;
    std::string published_params;  // as published, e.g. "46.7B total / 12.9B active"
    std::string licence;
    std::string source;  // where the config came from
    ModelArch arch;      // parsed from the preset's config.json with parse_hf_config
};

struct CurrencyRate {
    double cny_per_usd = 0;
    std::string date, source;
};

struct Catalog {
    std::string version;
    std::string prices_as_of;
    std::vector<Accelerator> accelerators;
    std::vector<Provider> providers;
    std::vector<Instance> instances;
    std::vector<ModelPreset> models;
    CurrencyRate usd_cny;

    const Accelerator* find_accelerator(std::string_view id) const;
    const Provider* find_provider(std::string_view id) const;
    const ModelPreset* find_model(std::string_view id) const;
};

// Validates everything. A bad row is dropped with a warning naming its JSON path
// ("instances[37].gpu: unknown accelerator 'h100-sxn'"); a broken file is an error.
Result<Catalog> parse_catalog(std::string_view json_text);

// Merge a user catalog over a base one: rows with the same id replace, new ids are added.
Result<Catalog> merge_catalog(const Catalog& base, std::string_view user_json_text);

}  // namespace gpusizer
