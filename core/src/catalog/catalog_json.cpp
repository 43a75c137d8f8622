// catalog_section_json: one catalog section as a JSON array, keys as in assets/catalog.json.
#include "gpusizer/catalog.hpp"
#include "json_util.hpp"

namespace gpusizer {

namespace {

using detail::ojson;

ojson or_null(double v) { return v > 0 ? ojson(v) : ojson(nullptr); }  // 0 = not known / not supported
ojson or_null(std::string_view s) { return s.empty() ? ojson(nullptr) : ojson(std::string(s)); }
ojson or_null(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson accelerator(const Accelerator& a) {
    ojson j;
    j["id"] = a.id, j["vendor"] = a.vendor, j["name"] = a.name, j["name_zh"] = or_null(a.name_zh), j["architecture"] = a.architecture;
    j["year"] = a.year ? ojson(a.year) : ojson(nullptr);
    j["memory_gb"] = a.memory_gb, j["memory_bytes"] = a.memory_bytes, j["memory_bytes_basis"] = a.memory_bytes_basis;
    j["memory_type"] = a.memory_type, j["memory_bandwidth_gbps"] = a.memory_bandwidth_gbps;
    j["tflops_fp32"] = or_null(a.tflops_fp32), j["tflops_tf32_dense"] = or_null(a.tflops_tf32);
    j["tflops_bf16_dense"] = or_null(a.tflops_bf16_dense), j["tflops_fp16_dense"] = or_null(a.tflops_fp16_dense);
    j["tflops_fp8_dense"] = or_null(a.tflops_fp8_dense), j["tops_int8_dense"] = or_null(a.tops_int8_dense);
    j["tops_int4_dense"] = or_null(a.tops_int4_dense), j["nvlink_bandwidth_gbps"] = a.nvlink_bandwidth_gbps;
    j["pcie_gen"] = a.pcie_gen ? ojson(a.pcie_gen) : ojson(nullptr), j["tdp_w"] = or_null(a.tdp_w);
    j["form_factor"] = a.form_factor, j["software"] = a.software;
    j["export_status"] = a.export_status, j["export_status_note"] = a.export_status_note.str();
    j["export_status_date"] = or_null(a.export_status_date), j["export_status_date_source"] = a.export_status_date_source.str();
    j["confidence"] = to_string(a.confidence), j["is_estimate"] = is_estimate(a.confidence);
    j["verified_fields"] = a.verified_fields, j["source"] = a.source.str(), j["notes"] = a.notes.str();
    return j;
}

ojson provider(const Provider& p) {
    ojson j;
    j["id"] = p.id, j["name"] = p.name, j["name_zh"] = or_null(p.name_zh), j["kind"] = p.kind, j["spot_name"] = or_null(p.spot_name);
    j["interruption_notice_s"] = or_null(p.interruption_notice_s);
    j["billing_granularity_s"] = or_null(p.billing_granularity_s);
    j["regions"] = p.regions, j["cn_mainland"] = p.cn_mainland;
    j["confidence"] = to_string(p.confidence), j["source"] = p.source, j["notes"] = p.notes.str();
    return j;
}

ojson instance(const Instance& i) {
    ojson j;
    j["provider"] = i.provider, j["id"] = i.id, j["name_zh"] = or_null(i.name_zh), j["gpu"] = i.gpu, j["gpu_count"] = i.gpu_count;
    j["interconnect"] = i.interconnect, j["vcpus"] = or_null(i.vcpus), j["ram_gib"] = or_null(i.ram_gib);
    j["local_ssd_gb"] = or_null(i.local_ssd_gb), j["network_gbps"] = or_null(i.network_gbps);
    j["regions"] = i.regions, j["price_region"] = or_null(i.price_region), j["cn_mainland"] = i.cn_mainland;
    j["currency"] = i.currency, j["ondemand_per_hour"] = or_null(i.ondemand_per_hour);
    j["spot_per_hour"] = or_null(i.spot_per_hour), j["spot_is_typical_discount"] = i.spot_is_typical_discount;
    if (i.scales_to_gpus > 0) j["scales_to_gpus"] = i.scales_to_gpus, j["scaled_interconnect"] = i.scaled_interconnect;
    j["price_date"] = i.price_date, j["price_date_iso"] = or_null(i.price_date_iso);
    j["price_basis"] = or_null(i.price_basis), j["price_official"] = i.is_official_price();
    j["spot_price_date"] = or_null(i.spot_price_date);
    j["confidence"] = to_string(i.confidence), j["is_estimate"] = is_estimate(i.confidence);
    j["source"] = i.source.str(), j["notes"] = i.notes.str();
    return j;
}

ojson model(const ModelPreset& m) {
    ojson j;
    j["id"] = m.id, j["name"] = m.name, j["family"] = m.family, j["hub_repo"] = m.hub_repo;
    j["published_params"] = or_null(m.published_params), j["published_params_source"] = or_null(m.published_params_source);
    j["licence"] = or_null(m.licence), j["licence_source"] = or_null(m.licence_source);
    j["source"] = m.source.str(), j["fidelity"] = m.fidelity, j["notes"] = m.notes.str();
    const Result<ModelArch>& a = m.arch();  // parsed now if not yet
    if (a.ok()) {
        ojson arch;
#define GPUSIZER_X(type, member, hf, link, def) arch[#member] = a->member;
        GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
        j["arch"] = std::move(arch);
    } else {
        j["arch"] = nullptr;
        j["arch_error"] = format_error(a.error);
    }
    j["arch_warnings"] = a.warnings.en();
    return j;
}

template <class T, class F>
std::string dump_all(const std::vector<T>& rows, F f) {
    ojson a = ojson::array();
    for (const auto& r : rows) a.push_back(f(r));
    return a.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace

std::string catalog_section_json(const Catalog& c, std::string_view section) {
    if (section == "gpus" || section == "accelerators") return dump_all(c.accelerators, accelerator);
    if (section == "providers") return dump_all(c.providers, provider);
    if (section == "instances") return dump_all(c.instances, instance);
    if (section == "models") return dump_all(c.models, model);
    return {};
}

}  // namespace gpusizer
