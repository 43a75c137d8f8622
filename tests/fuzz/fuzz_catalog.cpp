// Fuzz target: a catalog file (parse_catalog and merge_catalog, core/src/catalog/catalog.cpp): the
// built-in asset, `--catalog FILE` and a user catalog loaded into the page.
// Invariants: never a crash or hang; errors carry a code and a short message; what is
// accepted is consistent (instances name known accelerators and providers, ids are unique,
// numbers are finite and non-negative: a bad row is dropped, never half-kept); merging the
// same text over the built-in catalog behaves the same way; the catalog's JSON reader accepts
// exactly the texts nlohmann accepts (the catalog's messages were written against nlohmann); the
// planner takes any instance rows a user catalog gets accepted (check_recommendation).
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/json_reader.hpp"
#include "fuzz_results.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"

using namespace gpusizer;

namespace {

void check_catalog(const Catalog& c, const char* what) {
    const std::string w = what;
    std::set<std::string> ids;
    for (const Accelerator& a : c.accelerators) {
        GPUSIZER_FUZZ_CHECK(ids.insert(a.id).second, w + ": duplicate accelerator id kept: " + a.id);
        for (double v : {a.memory_gb, a.memory_bandwidth_gbps, a.tflops_fp32, a.tflops_tf32, a.tflops_bf16_dense,
                         a.tflops_fp16_dense, a.tflops_fp8_dense, a.tops_int8_dense, a.tops_int4_dense,
                         a.nvlink_bandwidth_gbps, a.tdp_w})
            GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(v), w + ": accelerator " + a.id + " kept a negative or non-finite number");
        GPUSIZER_FUZZ_CHECK(c.find_accelerator(a.id) != nullptr, w + ": find_accelerator misses " + a.id);
    }
    ids.clear();
    for (const Provider& p : c.providers) {
        GPUSIZER_FUZZ_CHECK(ids.insert(p.id).second, w + ": duplicate provider id kept: " + p.id);
        GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(p.interruption_notice_s) &&
                                gpusizer_fuzz::finite_non_negative(p.billing_granularity_s),
                            w + ": provider " + p.id + " kept a negative or non-finite number");
    }
    for (const Instance& i : c.instances) {
        GPUSIZER_FUZZ_CHECK(c.find_accelerator(i.gpu) != nullptr,
                            w + ": instance " + i.provider + "/" + i.id + " kept with unknown accelerator '" + i.gpu + "'");
        GPUSIZER_FUZZ_CHECK(c.find_provider(i.provider) != nullptr,
                            w + ": instance " + i.id + " kept with unknown provider '" + i.provider + "'");
        for (double v : {i.gpu_count, i.vcpus, i.ram_gib, i.local_ssd_gb, i.network_gbps})
            GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(v), w + ": instance " + i.id + " kept a negative or non-finite number");
        GPUSIZER_FUZZ_CHECK(i.gpu_count > 0, w + ": instance " + i.id + " kept with no GPU");
        if (i.ondemand_per_hour)
            GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(*i.ondemand_per_hour), w + ": instance " + i.id + " price");
        if (i.spot_per_hour)
            GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(*i.spot_per_hour), w + ": instance " + i.id + " spot price");
    }
    ids.clear();
    for (const ModelPreset& m : c.models) {
        GPUSIZER_FUZZ_CHECK(ids.insert(m.id).second, w + ": duplicate model id kept: " + m.id);
        GPUSIZER_FUZZ_CHECK(c.find_model(m.id) != nullptr, w + ": find_model misses " + m.id);
    }
    GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::finite_non_negative(c.usd_cny.cny_per_usd), w + ": currency rate");
}

// The instance rows a user catalog gets accepted, planned alone (over the built-in accelerators,
// providers and models) for two small jobs: the planner must take whatever the reader accepts
// (K9: a gpu_count of 1e300 overflowed int64 in serve_plan.cpp).
void plan_user_rows(std::string_view text) {
    static const Catalog no_instances = [] {
        Catalog c = gpusizer_fuzz::builtin_catalog();
        c.instances.clear();
        return c;
    }();
    static const std::vector<Scenario> jobs = [] {
        std::vector<Scenario> out;
        for (const char* j : {R"({"model": "qwen2.5-0.5b", "task": "inference", "batch_size": 4, "seq_len": 2048})",
                              R"({"model": "qwen2.5-0.5b", "task": "lora", "seq_len": 1024, "train_tokens": 1e7})"}) {
            Result<Scenario> s = parse_scenario_json(j);
            if (!s.ok()) std::fprintf(stderr, "fuzz_catalog: %s\n", format_error(s.error).c_str()), std::abort();
            out.push_back(*s);
        }
        return out;
    }();
    Result<Catalog> u = merge_catalog(no_instances, text);
    if (!u.ok() || u->instances.empty()) return;
    for (const Scenario& s : jobs) {
        Result<Recommendation> r = recommend(*u, s, 3);
        gpusizer_fuzz::check_error_shape(r);
        if (r.ok()) gpusizer_fuzz::check_recommendation(*r, "a user catalog's instances");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    detail::JsonDoc doc;
    const bool ours = doc.parse(text, 1 << 20);
    const bool theirs = !nlohmann::json::parse(text.begin(), text.end(), nullptr, false).is_discarded();
    GPUSIZER_FUZZ_CHECK(ours == theirs, std::string("json reader ") + (ours ? "accepts" : "rejects") + " what nlohmann " +
                                            (theirs ? "accepts" : "rejects"));

    Result<Catalog> c = parse_catalog(text);
    gpusizer_fuzz::check_error_shape(c);
    if (c.ok()) check_catalog(*c, "parse_catalog");

    Result<Catalog> m = merge_catalog(gpusizer_fuzz::builtin_catalog(), text);
    gpusizer_fuzz::check_error_shape(m);
    if (m.ok()) {
        check_catalog(*m, "merge_catalog");
        plan_user_rows(text);
    }
    return 0;
}
