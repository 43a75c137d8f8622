// The catalog: the real asset loads clean and holds every researched row with its source; each
// validation rule has a broken sample in tests/fixtures/catalog/ giving exactly its message and
// JSON path; a user catalog merges over the built-in one; the CLI lists and validates.
#include <doctest/doctest.h>

#include <regex>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "cli.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/memory.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

Result<Catalog> load_real() { return parse_catalog(gpusizer_test::read_text("assets/catalog.json")); }

Result<Catalog> fixture(const std::string& name) {
    return parse_catalog(gpusizer_test::read_text("tests/fixtures/catalog/" + name));
}

// Records of a CSV file (quoted fields may hold commas and newlines), header excluded.
std::size_t csv_records(const std::string& text) {
    std::size_t lines = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') quoted = !quoted;
        else if (text[i] == '\n' && !quoted) ++lines;
    }
    if (!text.empty() && text.back() != '\n') ++lines;
    return lines - 1;
}

std::string joined(const std::vector<std::string>& w) {
    std::string s;
    for (const auto& x : w) s += x + "\n";
    return s;
}

const Instance* instance(const Catalog& c, const char* provider, const char* id) { return c.find_instance(provider, id); }

}  // namespace

// [SECTION] The real catalog

TEST_CASE("catalog: assets/catalog.json loads with zero warnings and holds every researched row") {
    Result<Catalog> c = load_real();
    REQUIRE_MESSAGE(c.ok(), format_error(c.error));
    CHECK_MESSAGE(c.warnings.empty(), joined(c.warnings.en()));
    CHECK(c->schema == 1);
    CHECK_FALSE(c->version.empty());
    CHECK(c->prices_as_of == "2026-11-18");  // newest dated price (Azure NV12ads_A10_v5 spot)
    CHECK(c->prices_oldest == "2024-02-07");

    // Every row of gpus.csv; every row of instances.csv but the five in excluded_rows (Huawei ai1s has no
    // accelerator row; four family placeholders are not instance types: docs/catalog.md).
    CHECK(c->accelerators.size() == csv_records(gpusizer_test::read_text("assets/src/gpus.csv")));
    CHECK(c->accelerators.size() == 50);
    CHECK(c->instances.size() == csv_records(gpusizer_test::read_text("assets/src/instances.csv")) - 5);
    CHECK(c->instances.size() == 182);  // 163 of catalog II + 19 AWS China rows (cn-northwest-1, CNY)
    CHECK(c->providers.size() == 19);
    CHECK(c->models.size() >= 70);
}

TEST_CASE("catalog: H100 SXM is 80 GiB, 3350 GB/s, 989.4 dense bf16 TFLOPS, CUDA, restricted") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    const Accelerator* h = c->find_accelerator("h100_sxm");
    REQUIRE(h);
    CHECK(h->memory_bytes == 80ull << 30);
    CHECK(h->memory_gb == 80);
    CHECK(h->memory_bandwidth_gbps == 3350);
    CHECK(h->tflops_bf16_dense == doctest::Approx(989.4));
    CHECK(h->tflops_fp8_dense == doctest::Approx(1978.9));
    CHECK(h->nvlink_bandwidth_gbps == 900);
    CHECK(h->tdp_w == 700);
    CHECK(h->pcie_gen == 5);
    CHECK(h->software == "cuda");
    CHECK(h->export_status == "restricted");
    CHECK(h->confidence == Confidence::verified);
    CHECK_FALSE(is_estimate(h->confidence));
    CHECK(h->source.view().find("glennklockwood.com") != std::string::npos);
}

TEST_CASE("catalog: memory uses the cloud catalogs' MiB figure when the research gives one") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    // B200: AWS p6-b200 GpuInfo 183359 MiB per GPU, less than 180 GiB (184320 MiB).
    CHECK(c->find_accelerator("b200")->memory_bytes == 183359ull << 20);
    CHECK(c->find_accelerator("b200")->memory_bytes_basis.find("183359 MiB") != std::string::npos);
    CHECK(c->find_accelerator("a10g")->memory_bytes == 22888ull << 20);  // "AWS GpuInfo 22888 MiB usable"
    // No MiB figure: vendor GB taken as GiB.
    CHECK(c->find_accelerator("mi300x")->memory_bytes == 192ull << 30);
    CHECK(c->find_accelerator("mi300x")->memory_bytes_basis.find("2^30") != std::string::npos);
}

TEST_CASE("catalog: software stack by vendor and export-status dates only where the research states one") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    CHECK(c->find_accelerator("mi300x")->software == "rocm");
    CHECK(c->find_accelerator("ascend_910b")->software == "cann");
    CHECK(c->find_accelerator("mlu370_x8")->software == "neuware");
    CHECK(c->find_accelerator("tpu_v5e")->software == "xla");
    CHECK(c->find_accelerator("trainium2")->software == "neuron");
    CHECK(c->find_accelerator("gaudi3")->software == "synapse");
    CHECK(c->find_accelerator("ascend_910b")->export_status == "domestic");
    CHECK(c->find_accelerator("h20")->export_status == "china-compliant");
    // The research note: "US licence requirement imposed Apr-2025" (a month, not a day: not made up).
    CHECK(c->find_accelerator("h20")->export_status_date == "2025-04");
    // "china-compliant (pre-Oct-2023 rules; now restricted)": restricted by the BIS rules of 2023-10-17.
    CHECK(c->find_accelerator("h800_sxm")->export_status == "restricted");
    CHECK(c->find_accelerator("h800_sxm")->export_status_date == "2023-10-17");
    CHECK(c->find_accelerator("rtx4090")->export_status_date == "2023-10-17");  // "restricted (since Oct-2023)"
    CHECK(c->find_accelerator("h200_sxm")->export_status_date == "2026-01-15");  // case-by-case licences since
    // Every status is dated, or says that no export rule applies to it (domestic, legacy, not sold in China).
    for (const auto& a : c->accelerators)
        CHECK_MESSAGE((!a.export_status_date.empty() || a.export_status_date_source.view().rfind("no export rule applies", 0) == 0), a.id);
    CHECK(c->find_accelerator("ascend_910b")->export_status_date.empty());
    for (const auto& a : c->accelerators) {
        CHECK_MESSAGE(!a.software.empty(), a.id);
        CHECK_MESSAGE(!a.source.empty(), a.id);
        CHECK_MESSAGE(a.memory_bytes > 0, a.id);
    }
}

TEST_CASE("catalog: p5.48xlarge is 8 x h100_sxm at 55.04 USD/h on demand, 17.63 spot, outside mainland China") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    const Instance* p5 = instance(*c, "aws", "p5.48xlarge");
    REQUIRE(p5);
    CHECK(p5->gpu == "h100_sxm");
    CHECK(p5->gpu_count == 8);
    CHECK(p5->interconnect == "nvswitch");
    CHECK(p5->ram_gib == 2048);
    REQUIRE(p5->ondemand_per_hour);
    CHECK(*p5->ondemand_per_hour == doctest::Approx(55.04));
    REQUIRE(p5->spot_per_hour);
    CHECK(*p5->spot_per_hour == doctest::Approx(17.6289));
    CHECK_FALSE(p5->spot_is_typical_discount);
    CHECK(p5->currency == "USD");
    CHECK_FALSE(p5->cn_mainland);
    CHECK(p5->confidence == Confidence::verified);
    // On-demand dated by a second source that lists the same price (datareceipts, 2026-11-09); the spot
    // price still comes from the undated catalog snapshot, and says so.
    CHECK(p5->price_date_iso == "2026-11-09");
    CHECK(p5->price_basis == "official");
    CHECK(p5->is_official_price());
    CHECK(p5->spot_price_date.find("00148f2af367") != std::string::npos);
    CHECK(p5->price_region == "us-east-1");
    // p5e has spot but no on-demand price (Capacity Blocks only): kept, on-demand unknown.
    const Instance* p5e = instance(*c, "aws", "p5e.48xlarge");
    REQUIRE(p5e);
    CHECK_FALSE(p5e->ondemand_per_hour);
    CHECK(p5e->spot_per_hour);
    // Fractional GPU: Azure NV12ads_A10_v5 is a third of an A10.
    CHECK(instance(*c, "azure", "Standard_NV12ads_A10_v5")->gpu_count == doctest::Approx(0.333));
}

TEST_CASE("catalog: mainland China rows are flagged and CNY rows keep their native price") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    std::size_t mainland = 0;
    for (const auto& i : c->instances) {
        if (i.provider == "alibaba" || i.provider == "tencent" || i.provider == "huawei") CHECK_MESSAGE(i.cn_mainland, i.id);
        if (i.provider == "aws" || i.provider == "gcp" || i.provider == "lambda") CHECK_MESSAGE(!i.cn_mainland, i.id);
        mainland += i.cn_mainland;
    }
    // 27 "yes" rows in the research CSV, less the excluded Huawei ai1s and four family placeholders (gn8is was
    // wrongly "yes": its own note says it is sold only outside China), plus three JD Cloud rows and the 19 AWS China
    // rows (g5 x8, g4dn x7, p3 x3, p4d).
    CHECK(mainland == 44);
    // AWS China: official CNY on-demand per instance-hour, dated. tsaol/aws-gpu data/g5_instances_cn.js
    // ("Last updated: 2026-08-26"): g5.xlarge cn-northwest-1 6.70086, cn-north-1 9.51389.
    const Instance* cn = instance(*c, "aws_china", "g5.xlarge");
    REQUIRE(cn);
    CHECK(cn->currency == "CNY");
    REQUIRE(cn->ondemand_per_hour);
    CHECK(*cn->ondemand_per_hour == doctest::Approx(6.70086));
    CHECK(cn->price_region == "cn-northwest-1");
    CHECK(cn->price_date_iso == "2026-08-26");
    CHECK(cn->is_official_price());
    CHECK(cn->cn_mainland);
    CHECK(c->find_provider("aws_china")->cn_mainland);
    // The only A100 in the mainland rows with an official price: p4d.24xlarge, Ningxia only, 172.873412 CNY/h.
    const Instance* p4cn = instance(*c, "aws_china", "p4d.24xlarge");
    REQUIRE(p4cn);
    REQUIRE(p4cn->ondemand_per_hour);
    CHECK(*p4cn->ondemand_per_hour == doctest::Approx(172.873412));
    // JD Cloud: official CNY list prices per instance-hour from its documentation, an estimate because undated.
    const Instance* jd = instance(*c, "jdcloud", "p.n1v100.2xlarge");
    REQUIRE(jd);
    CHECK(jd->currency == "CNY");
    REQUIRE(jd->ondemand_per_hour);
    CHECK(*jd->ondemand_per_hour == doctest::Approx(20.73));
    CHECK(jd->price_basis == "estimate");
    CHECK(jd->cn_mainland);
    // 算家云 RTX 4090: 1.24 CNY per GPU-hour (the USD column of the CSV is a 7.2 conversion, not kept).
    const Instance* r = instance(*c, "suanjiayun", "RTX 4090 24GB (per GPU, marketplace low)");
    REQUIRE(r);
    CHECK(r->currency == "CNY");
    REQUIRE(r->ondemand_per_hour);
    CHECK(*r->ondemand_per_hour == doctest::Approx(1.24));
    CHECK(r->cn_mainland);
    CHECK(c->find_provider("suanjiayun")->cn_mainland);
    CHECK_FALSE(c->find_provider("aws")->cn_mainland);
    // 恒源云 appears under two spellings in the CSV; one provider.
    std::size_t gpushare = 0;
    for (const auto& i : c->instances) gpushare += i.provider == "gpushare";
    CHECK(gpushare == 2);
    // The CFETS central parity of a stated day (the research's 7.2 was an undated assumption).
    CHECK(c->usd_cny.cny_per_usd == doctest::Approx(7.0197));
    CHECK(c->usd_cny.date == "2026-01-08");
    CHECK(c->usd_cny.confidence == Confidence::partial);
    CHECK(c->usd_cny.source.view().find("China Foreign Exchange Trade System") != std::string::npos);
}

TEST_CASE("catalog: every price has a source and a date; uncertain rows are estimates") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    std::size_t estimates = 0;
    for (const auto& i : c->instances) {
        CHECK_MESSAGE(!i.source.empty(), i.id);
        if (i.ondemand_per_hour || i.spot_per_hour) CHECK_MESSAGE(!i.price_date.empty(), i.id);
        if (i.ondemand_per_hour && i.spot_per_hour) CHECK_MESSAGE(*i.spot_per_hour <= *i.ondemand_per_hour, i.id);
        CHECK_MESSAGE(c->find_accelerator(i.gpu), i.id);
        CHECK_MESSAGE(c->find_provider(i.provider), i.id);
        estimates += is_estimate(i.confidence);
    }
    // K and V-draft rows (most of them now carry no price): 106 in 2026.12.03-2, less the 27 AWS and 2 Azure K rows
    // whose withheld recalled price a dated source now gives (V, V-partial), less GCP a3-megagpu-8g (V-draft) and Azure
    // ND96isr MI300X v5 (K), now priced from dated reads (V-partial); the 19 AWS China rows are V.
    CHECK(estimates == 75);
    CHECK(is_estimate(instance(*c, "azure", "Standard_NC8as_T4_v3")->confidence));  // K: its recalled price is withheld
    CHECK_FALSE(instance(*c, "azure", "Standard_NC8as_T4_v3")->ondemand_per_hour);
    CHECK_FALSE(is_estimate(instance(*c, "aws", "g5.2xlarge")->confidence));  // V since the vantage.sh snapshot
    CHECK(is_estimate(instance(*c, "gcp", "a3-highgpu-8g")->confidence));  // V-draft
    CHECK(is_estimate(c->find_accelerator("ascend_910b")->confidence));
}

TEST_CASE("catalog: provider facts are sourced or left unknown") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    CHECK(c->find_provider("aws")->interruption_notice_s == 120);  // "two minutes before"
    CHECK(c->find_provider("aws")->spot_name == "Spot Instances");
    CHECK(c->find_provider("gcp")->interruption_notice_s == 30);
    CHECK(c->find_provider("azure")->interruption_notice_s == 30);
    CHECK(c->find_provider("alibaba")->interruption_notice_s == 300);  // "released 5 minutes later"
    CHECK(c->find_provider("lambda")->billing_granularity_s == 60);    // "bills in one-minute increments"
    CHECK(c->find_provider("aws")->kind == "hyperscaler");
    CHECK(c->find_provider("alibaba")->kind == "china_cloud");
    CHECK(c->find_provider("vastai")->kind == "marketplace");
    const Provider* oci = c->find_provider("oci");
    CHECK(oci->interruption_notice_s == 0);  // not found: 0 = unknown, never a guess
    CHECK(oci->spot_name.empty());
    CHECK(oci->confidence == Confidence::recalled);
    CHECK(c->find_provider("aws")->source.find("docs.aws.amazon.com") != std::string::npos);
    // Huawei's only rows were a family placeholder and an Ascend 310 row without an accelerator (both excluded).
    for (const auto& p : c->providers) CHECK_MESSAGE((!p.regions.empty() || p.id == "huawei"), p.id);
}

TEST_CASE("catalog: 40+ model presets, every shared hf_config among them, parsed by parse_hf_config") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    for (const char* id : {"llama-2-7b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3.3-70b", "llama-3.2-1b",
                           "llama-3.2-3b", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b",
                           "qwen2.5-32b", "qwen3-0.6b", "qwen3-1.7b", "qwen3-8b", "qwen3-14b", "qwen3-32b",
                           "qwen3-30b-a3b", "qwen3-235b-a22b", "qwen3-coder-480b-a35b", "deepseek-v3", "deepseek-r1",
                           "kimi-k2", "gpt-oss-20b", "gpt-oss-120b", "phi-4"})
        CHECK_MESSAGE(c->find_model(id), id);
    const ModelPreset* l = c->find_model("llama-3.1-8b");
    REQUIRE(l);
    CHECK(l->arch()->hidden_size == 4096);
    CHECK(l->arch()->num_layers == 32);
    CHECK(l->arch()->num_kv_heads == 8);
    CHECK(l->arch()->vocab_size == 128256);
    CHECK(l->published_params == "8B");
    CHECK(l->source.view().find("ai-dynamo/aiconfigurator@095f58a5") != std::string::npos);
    const ModelPreset* yi = c->find_model("yi-1.5-34b");
    REQUIRE(yi);
    CHECK(yi->arch()->hidden_size == 7168);
    CHECK(yi->arch()->num_layers == 60);
    CHECK(yi->source.view().find("ThanatosShinji/onnx-tool@21db62a5") != std::string::npos);
    CHECK(c->find_model("gpt2")->arch()->vocab_size == 50257);
    std::set<std::string> ids;
    for (const auto& m : c->models) {
        CHECK_MESSAGE(ids.insert(m.id).second, m.id);
        CHECK_MESSAGE(!m.source.empty(), m.id);
        REQUIRE_MESSAGE(m.arch().ok(), m.id << ": " << format_error(m.arch().error));  // parsed on first use: a broken shipped preset fails here
        CHECK_MESSAGE(m.arch()->hidden_size > 0, m.id);
    }
    CHECK(c->models.front().id == "llama-3.1-8b");  // curated order: the default preset first
}

// [SECTION] Catalog II: every price dated or marked an estimate, regions, anomalies, presets

namespace {
bool priced(const Instance& i) { return i.ondemand_per_hour || i.spot_per_hour; }
}  // namespace

TEST_CASE("catalog II: every price says what it is; an undated price is an estimate that says why") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    std::size_t n = 0, dated = 0, official = 0, estimate = 0, third = 0;
    for (const auto& i : c->instances) {
        if (!priced(i)) {
            CHECK_MESSAGE(i.price_basis.empty(), i.id);
            continue;
        }
        ++n;
        CHECK_MESSAGE((i.price_basis == "official" || i.price_basis == "third-party" || i.price_basis == "estimate"), i.id);
        if (i.price_basis != "estimate") CHECK_MESSAGE(i.price_date_iso.size() == 10, i.id);  // the build rule
        if (i.price_date_iso.empty()) CHECK_MESSAGE(!i.price_date.empty(), i.id);                // says why
        // Every priced row names the region its price is for, and never a bare "US" or "third-party hosts".
        CHECK_MESSAGE(!i.price_region.empty(), i.id);
        CHECK_MESSAGE(i.price_region != "US", i.id);
        CHECK_MESSAGE(i.price_region.find("third-party hosts") == std::string::npos, i.id);
        if (i.ondemand_per_hour && i.spot_per_hour) CHECK_MESSAGE(*i.spot_per_hour < *i.ondemand_per_hour, i.id);
        dated += !i.price_date_iso.empty();
        official += i.is_official_price();
        estimate += i.price_basis == "estimate";
        third += i.price_basis == "third-party";
    }
    // 2026.12.04-1: 104 of catalog II + 27 AWS prices withheld as recalled and now read from a dated snapshot
    // (vantage.sh, 2026-08-26) + 2 Azure ones (a seed dated 2026-08-09) + 19 AWS China rows - GCP n1 + T4
    // (withheld: its VM part was recalled) + GCP a3-megagpu-8g and Azure ND96isr MI300X v5 (dated reads of Google's
    // page and Azure's Retail Prices API, 2026-09). Estimates: AWS p5e (spot only), Tencent GN7, 8 marketplace rows, 3 JD.
    CHECK(n == 153);
    CHECK(dated == 140);
    CHECK(official == 137);
    CHECK(third == 3);
    CHECK(estimate == 13);
    CHECK(dated * 10 >= n * 9);  // the generator's floor: at least 90% of the prices carry an ISO day

    // GCP A100/L4 rows are priced from a dated copy of Google's price list (Cyclenerd pricing.yml, generated
    // 2025-03-06, us-central1), not recalled: the 8-GPU a2 is exactly twice the 4-GPU one, and g2-standard-24
    // (2 L4) costs exactly twice g2-standard-12 (1 L4, same vCPU share per GPU).
    const Instance* a2x4 = instance(*c, "gcp", "a2-highgpu-4g");
    const Instance* a2x8 = instance(*c, "gcp", "a2-highgpu-8g");
    REQUIRE(a2x4);
    REQUIRE(a2x8);
    REQUIRE(a2x4->ondemand_per_hour);
    REQUIRE(a2x8->ondemand_per_hour);
    CHECK(*a2x8->ondemand_per_hour == doctest::Approx(2 * *a2x4->ondemand_per_hour));
    CHECK(a2x8->price_date_iso == "2025-03-06");
    CHECK(a2x8->price_region == "us-central1");
    CHECK(a2x8->is_official_price());
    const Instance* g2x1 = instance(*c, "gcp", "g2-standard-12");
    const Instance* g2x2 = instance(*c, "gcp", "g2-standard-24");
    REQUIRE(g2x1);
    REQUIRE(g2x2);
    REQUIRE(g2x2->ondemand_per_hour);
    REQUIRE(g2x2->spot_per_hour);
    CHECK(*g2x2->ondemand_per_hour == doctest::Approx(2 * *g2x1->ondemand_per_hour).epsilon(0.001));
    CHECK(*g2x2->spot_per_hour == doctest::Approx(0.787192));
    CHECK(g2x2->price_date_iso == "2025-03-06");
    CHECK(c->prices_as_of == "2026-11-18");
    // Recalled prices are not shipped as prices (the figure stays in the notes, marked withheld): GCP n1-standard-8
    // + T4 added a recalled VM price to an undated T4 component.
    const Instance* n1 = instance(*c, "gcp", "n1-standard-8 + 1x T4");
    REQUIRE(n1);
    CHECK_FALSE(n1->ondemand_per_hour);
    CHECK_FALSE(n1->spot_per_hour);
    CHECK(n1->notes.view().find("PRICE WITHHELD") != std::string::npos);
    // A withheld recalled figure ships once a dated source gives it: g5.48xlarge 16.288 in us-east-1 in the
    // vantage.sh snapshot of 2026-08-26 (tsaol/aws-gpu data/all_gpu_instances.js).
    const Instance* g5 = instance(*c, "aws", "g5.48xlarge");
    REQUIRE(g5);
    REQUIRE(g5->ondemand_per_hour);
    CHECK(*g5->ondemand_per_hour == doctest::Approx(16.288));
    CHECK(g5->price_date_iso == "2026-08-26");
    const Instance* g5x = instance(*c, "aws", "g5.xlarge");
    REQUIRE(g5x);
    REQUIRE(g5x->ondemand_per_hour);
    CHECK(*g5x->ondemand_per_hour == doctest::Approx(1.006));
    CHECK(g5x->price_date_iso == "2026-08-26");
    // GCP a3-megagpu-8g, once unpriced (the SkyPilot catalog gave only its GPU component): Google's page read
    // 2026-09-08 for us-central1 gives $93.400712807 for the whole VM (8 H100), above a3-highgpu-8g.
    const Instance* mega = instance(*c, "gcp", "a3-megagpu-8g");
    REQUIRE(mega);
    REQUIRE(mega->ondemand_per_hour);
    CHECK(*mega->ondemand_per_hour == doctest::Approx(93.400712807));
    CHECK(mega->price_region == "us-central1");
    CHECK(mega->price_date_iso == "2026-09-08");
    CHECK(*mega->ondemand_per_hour > *instance(*c, "gcp", "a3-highgpu-8g")->ondemand_per_hour);
}

TEST_CASE("catalog II: a price without an ISO day needs price_basis 'estimate'; the estimate loads") {
    Result<Catalog> bad = fixture("row_price_official_undated.json");
    REQUIRE(bad.ok());
    REQUIRE(bad.warnings.size() == 1);
    CHECK(bad->instances.size() == 1);
    Result<Catalog> ok = fixture("valid_undated_estimate.json");
    REQUIRE(ok.ok());
    CHECK_MESSAGE(ok.warnings.empty(), joined(ok.warnings.en()));
    REQUIRE(ok->instances.size() == 2);
    CHECK(ok->instances[1].price_basis == "estimate");
    CHECK_FALSE(ok->instances[1].is_official_price());
    CHECK(ok->instances[0].price_basis.empty());  // not stated (user catalogs may omit it)
}

TEST_CASE("catalog II: spot prices per provider, CoreWeave with its page's spot prices") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    std::map<std::string, int> spot;
    for (const auto& i : c->instances)
        if (i.spot_per_hour) ++spot[i.provider];
    CHECK(spot["coreweave"] == 4);
    CHECK(spot["gcp"] >= 3);
    CHECK(spot["aws"] >= 10);
    const Instance* cw = instance(*c, "coreweave", "HGX H100 8x (per-GPU list)");
    REQUIRE(cw);
    REQUIRE(cw->spot_per_hour);
    CHECK(*cw->spot_per_hour == doctest::Approx(19.71));
    CHECK(*cw->ondemand_per_hour == doctest::Approx(49.24));
    CHECK(cw->price_date_iso == "2026-09-20");
}

TEST_CASE("catalog II regressions: the audit's anomalies stay fixed") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    // RunPod A100 80GB PCIe Secure was listed twice at two prices (the SkyPilot row, spot = on-demand).
    CHECK_FALSE(instance(*c, "runpod", "1x_A100-80GB_SECURE (SkyPilot)"));
    std::set<std::string> tiers;
    for (const auto& i : c->instances) {
        if (i.provider != "runpod" || !i.ondemand_per_hour) continue;
        const std::string tier = i.id.find("Secure") != std::string::npos ? "secure" : "community";
        CHECK_MESSAGE(tiers.insert(i.gpu + "/" + tier).second, i.id);
    }
    // Azure multi-GPU NC sizes cost more per GPU than the one-GPU size with the same vCPU/RAM per GPU: a
    // multi-GPU size with the same host share per GPU may not cost over 1.1x per GPU (the generator checks it too).
    for (const auto& m : c->instances) {
        if (!m.ondemand_per_hour || m.gpu_count <= 1 || m.vcpus == 0) continue;
        for (const auto& s : c->instances) {
            if (&s == &m || !s.ondemand_per_hour || s.gpu_count != 1 || s.provider != m.provider || s.gpu != m.gpu ||
                s.price_region != m.price_region || s.vcpus == 0 || s.ram_gib == 0)
                continue;
            const bool same_share = std::abs(m.vcpus / m.gpu_count - s.vcpus) <= 0.1 * s.vcpus &&
                                    std::abs(m.ram_gib / m.gpu_count - s.ram_gib) <= 0.1 * s.ram_gib;
            if (same_share) CHECK_MESSAGE(*m.ondemand_per_hour / m.gpu_count <= 1.1 * *s.ondemand_per_hour, m.id);
        }
    }
    CHECK_FALSE(instance(*c, "azure", "Standard_NC48ads_A100_v4")->ondemand_per_hour);
    // One Azure row mixed a recalled eastus on-demand price with a spot price from another source.
    const Instance* nv = instance(*c, "azure", "Standard_NV12ads_A10_v5");
    REQUIRE(nv);
    CHECK_FALSE(nv->ondemand_per_hour);
    CHECK(nv->spot_per_hour);
    // GCP H100 (a3-highgpu-8g) above H200 (a3-ultragpu-8g): kept (two dated sources), but each says its region
    // and the H100 row explains it.
    const Instance* a3 = instance(*c, "gcp", "a3-highgpu-8g");
    REQUIRE(a3);
    CHECK(a3->notes.view().find("H200") != std::string::npos);
    // On-demand and spot from one dated source and one region (a row never mixes regions): silybench's
    // a3-highgpu-1g in us-central1 on 2026-09-26, 10.9791 and 6.571 per GPU, x8.
    CHECK(a3->price_region == "us-central1");
    REQUIRE(a3->spot_per_hour);
    CHECK(*a3->spot_per_hour == doctest::Approx(8 * 6.571));
    CHECK(*a3->ondemand_per_hour == doctest::Approx(8 * 10.9791).epsilon(0.001));
    // L20: TF32 was above FP32 (a stale FP32 figure): now unknown rather than wrong.
    const Accelerator* l20 = c->find_accelerator("l20");
    CHECK((l20->tflops_tf32 == 0 || l20->tflops_tf32 <= l20->tflops_fp32));
    // A16 is a board of four 16 GB GPUs: modelled per GPU; instances count GPUs (a board = gpu_count 4).
    const Accelerator* a16 = c->find_accelerator("a16");
    CHECK(a16->memory_gb == 16);
    CHECK(a16->memory_bytes == 16ull << 30);
    CHECK(a16->memory_bandwidth_gbps == 200);
    for (const auto& i : c->instances)
        if (i.gpu == "a16") CHECK_MESSAGE(static_cast<int>(i.gpu_count) % 4 == 0, i.id);
    // Family placeholders are not instance types; gn8is is sold only outside mainland China.
    for (const auto& i : c->instances) {
        CHECK_MESSAGE(i.id.find("(family)") == std::string::npos, i.id);
        CHECK_MESSAGE(i.id.find(" / ") == std::string::npos, i.id);
    }
    CHECK(gpusizer_test::read_text("assets/src/instances.csv").find("ecs.gn8is (family),l20,1,none,,,,,outside mainland China only (per the ECI doc),,no,") !=
          std::string::npos);
    // Mainland clouds without an official price say "ask the provider" instead of carrying a guess.
    for (const auto& i : c->instances)
        if ((i.provider == "alibaba" || i.provider == "tencent") && !priced(i))
            CHECK_MESSAGE(i.notes.view().find("ask the provider") != std::string::npos, i.id);
    const Instance* gn10 = instance(*c, "tencent", "GN10Xp.2XLARGE40");
    REQUIRE(gn10);
    CHECK(gn10->vcpus == 10);
    CHECK(gn10->ram_gib == 40);
}

TEST_CASE("catalog II: 70+ presets with the families users ask for; hub_repo is owner/name or unknown") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    CHECK(c->models.size() >= 94);
    for (const char* id : {"mistral-7b-v0.3", "internlm2.5-7b", "minicpm-2b-sft", "chatglm-6b", "deepseek-v2-lite",
                           "qwen1.5-moe-a2.7b", "gemma-2-27b"})
        CHECK_MESSAGE(c->find_model(id), id);
    CHECK(c->find_model("deepseek-v2-lite")->arch()->num_experts == 64);
    CHECK(c->find_model("internlm2.5-7b")->arch()->num_kv_heads == 8);
    for (const char* id : {"qwen3-4b", "qwen2.5-72b-instruct", "qwen2.5-32b-instruct", "qwen2.5-vl-7b-instruct",
                           "gemma-3-1b-it", "qwen2-57b-a14b", "codeqwen1.5-7b", "llama-3.2-3b-instruct", "yi-1.5-9b",
                           "devstral-small-2-24b-instruct", "qwen3-embedding-4b"})
        CHECK_MESSAGE(c->find_model(id), id);
    const ModelPreset* q72 = c->find_model("qwen2.5-72b-instruct");
    REQUIRE(q72);
    CHECK(q72->arch()->hidden_size == 8192);
    CHECK(q72->arch()->num_layers == 80);
    CHECK(q72->arch()->num_kv_heads == 8);
    const ModelPreset* g3 = c->find_model("gemma-3-1b-it");
    REQUIRE(g3);
    CHECK(g3->arch()->num_layers == 26);
    // Traceable sources (repo@commit:path): all but the 5 that cite a stored-index id (docs/catalog.md); ten of the
    // fifteen of 2026.12.03-1 were re-sourced to a repo@commit:path copy identical key for key, one replaced.
    std::size_t traceable = 0;
    for (const auto& m : c->models) {
        const auto at = m.source.view().find('@'), colon = m.source.view().find(':', at == std::string::npos ? 0 : at);
        traceable += at != std::string::npos && at > 0 && m.source.view().find(' ') > at && colon != std::string::npos;
    }
    // Issue 16's vision presets (ResNet, ConvNeXt, ViT, CLIP) cite the Hub file they transcribe, not a stored copy.
    CHECK(traceable == c->models.size() - 5 - 8);
    for (const char* id : {"llama-2-13b", "llama-2-70b", "llama-3-8b", "bert-base-uncased", "gemma-2-9b", "deepseek-llm-7b-base"})
        CHECK_MESSAGE(c->find_model(id)->source.view().find("Girafboy/pytorchKQI@035d44b8") == 0, id);
    for (const auto& m : c->models) {
        if (m.hub_repo.empty()) {
            CHECK_MESSAGE(m.notes.view().find("hub_repo not confirmed") != std::string::npos, m.id);
            continue;
        }
        const auto slash = m.hub_repo.find('/');
        const bool owner_name = slash != std::string::npos && slash > 0 && slash + 1 < m.hub_repo.size() &&
                                m.hub_repo.find_first_of(" ()*") == std::string::npos &&
                                m.hub_repo.find('/', slash + 1) == std::string::npos;
        CHECK_MESSAGE(owner_name, m.id << ": " << m.hub_repo);
    }
}

TEST_CASE("catalog II: the Chinese families and the large models users ask for count to their hand-worked sizes") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    const Scenario s;
    auto total = [&](const char* id) -> std::uint64_t {
        const ModelPreset* m = c->find_model(id);
        REQUIRE_MESSAGE(m, id);
        return count_params(*m->arch(), s).total;
    };
    // Llama-like, untied, no biases: L x (4h^2 (MHA) + 3hi + 2h) + h + 2Vh.
    // Baichuan-13B (ALiBi: no position parameters): 40 x (4*5120^2 + 3*5120*13696 + 2*5120) + 5120 + 2*64000*5120.
    CHECK(total("baichuan-13b-chat") == 13264901120ULL);
    // Baichuan2-7B: 32 x (4*4096^2 + 3*4096*11008 + 2*4096) + 4096 + 2*125696*4096 = 7.506 B (the "7B" of the name).
    CHECK(total("baichuan2-7b-chat-4bits") == 7505973248ULL);
    // The published Baichuan2 4-bit checkpoints are stored as bitsandbytes NF4.
    const ModelArch& b2 = *c->find_model("baichuan2-13b-chat-4bits")->arch();
    CHECK(b2.quant_bits == 4);
    CHECK(b2.quant_method.find("bitsandbytes") != std::string::npos);
    // DeepSeek LLM 67B: GQA with 8 KV heads of 128: 95 x (2*8192^2 + 2*8192*1024 + 3*8192*22016 + 2*8192)
    // + 8192 + 2*102400*8192 = 67.43 B.
    CHECK(total("deepseek-llm-67b-chat") == 67425001472ULL);
    // Llama 3 70B: 80 x (2*8192^2 + 2*8192*1024 + 3*8192*28672 + 2*8192) + 8192 + 2*128256*8192 = 70.55 B.
    CHECK(total("llama-3-70b") == 70553706496ULL);
    // Qwen2.5-1.5B: the model card's 1.54 B (tied embeddings, q/k/v biases).
    CHECK(total("qwen2.5-1.5b") == doctest::Approx(1.54e9).epsilon(0.005));
    // Yi-34B (shapes of Yi-1.5-34B) and Qwen1.5-110B (its 111 B: 80 layers, intermediate 49152).
    CHECK(total("yi-34b-chat") == total("yi-1.5-34b"));
    CHECK(total("qwen1.5-110b-chat") == doctest::Approx(111.21e9).epsilon(0.001));
    CHECK_FALSE(c->find_model("qwen1.5-110b"));  // the untraceable base copy it replaces
    // MiniCPM-MoE-8x2B: 8 experts of the 2B FFN, top-2.
    const ModelArch& mm = *c->find_model("minicpm-moe-8x2b")->arch();
    CHECK(mm.num_experts == 8);
    CHECK(mm.experts_per_token == 2);
    // Mistral Nemo 12B: head_dim 128 is NOT hidden/heads (5120/32 = 160), so q/o are 5120x4096 and k/v 5120x1024:
    // 40 x (2*5120*4096 + 2*5120*1024 + 3*5120*14336 + 2*5120) + 5120 + 2*131072*5120 = 12.248 B (the "12B").
    const ModelArch& nemo = *c->find_model("mistral-nemo-base-2407")->arch();
    CHECK(nemo.head_dim == 128);
    CHECK(total("mistral-nemo-base-2407") == 12247782400ULL);
    for (const char* id : {"codellama-7b", "codellama-13b", "codellama-34b", "deepseek-coder-1.3b-base",
                           "deepseek-coder-7b-base-v1.5", "qwen1.5-32b-chat", "baichuan2-7b-chat-4bits"})
        CHECK_MESSAGE(c->find_model(id), id);
}

TEST_CASE("catalog III: Llama 4 and Qwen3-VL presets count to their hand-worked and published sizes") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    auto detail = [&](const char* id) -> ParamDetail {
        const ModelPreset* m = c->find_model(id);
        REQUIRE_MESSAGE(m, id);
        CHECK_MESSAGE(m->source.view().find("ai-dynamo/aiconfigurator@") == 0, id);
        return param_detail(*m->arch());
    };
    // Llama 4 Scout: 48 MoE layers x (attention 62,914,560 + norms 10,240 + 16 x 125,829,120 experts + shared 125,829,120
    // + router 81,920) + 2 x 202048 x 5120 + 5120 + vision 871,932,416 = 108,641,793,536 (card: "109B (Total)").
    const ParamDetail scout = detail("llama-4-scout-17b-16e-instruct");
    CHECK(scout.total == 108641793536ULL);
    CHECK(scout.moe_layers == 48);
    // Active without the vision weights: 48 x 314,664,960 + 2,068,976,640 = 17.17 B (card: "17B (Activated)").
    CHECK(scout.active - scout.extra == 17172894720ULL);
    // Llama 4 Maverick: 24 MoE layers of 128 experts + 24 dense layers of 16384 = 401,583,781,376 (card: "400B (Total)").
    const ParamDetail mav = detail("llama-4-maverick-17b-128e-instruct");
    CHECK(mav.total == 401583781376ULL);
    CHECK(mav.moe_layers == 24);
    CHECK(mav.dense_layers == 24);
    CHECK(mav.active - mav.extra == 17184691200ULL);
    // Qwen3-VL-235B-A22B: the language model only (94 layers x (attention 71,303,168 + q/k norms 256 + norms 8,192
    // + 128 experts x 18,874,368 + router 524,288) + 2 x 151936 x 4096 + 4096 = 235,093,634,560: the "235B" of the name),
    // the same as the Qwen3-235B-A22B preset; its vision tower is not counted.
    const ParamDetail vl = detail("qwen3-vl-235b-a22b-thinking");
    CHECK(vl.total == 235093634560ULL);
    CHECK(vl.extra == 0);
    CHECK(vl.total == detail("qwen3-235b-a22b").total);
    // 8 of 128 experts active: 94 x 222,830,848 + 1,244,663,808 = 22.19 B (the "A22B").
    CHECK(vl.active == 22190763520ULL);
}

TEST_CASE("catalog III: InternLM3 8B counts to its checkpoint index") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    const ModelPreset* m = c->find_model("internlm3-8b-instruct");
    REQUIRE(m);
    CHECK(m->arch()->num_kv_heads == 2);
    CHECK_FALSE(m->arch()->qkv_bias);
    // 48 x (q,o 2 x 4096^2 + k,v 2 x 4096 x 256 + MLP 3 x 4096 x 10240 + norms 2 x 4096) + 4096 + 2 x 128512 x 4096
    // = 48 x 161,488,896 + 1,052,774,400 = 8,804,241,408: the index's total_size 35,216,965,632 bytes / 4.
    CHECK(param_detail(*m->arch()).total == 8804241408ULL);
    CHECK(param_detail(*m->arch()).total * 4 == 35216965632ULL);
}

// [SECTION] Validation: one broken sample per rule

TEST_CASE("catalog: the minimal valid sample loads clean") {
    Result<Catalog> c = fixture("valid_minimal.json");
    REQUIRE_MESSAGE(c.ok(), format_error(c.error));
    CHECK(c.warnings.empty());
    CHECK(c->accelerators.size() == 2);
    CHECK(c->instances.size() == 2);
    CHECK(c->models.size() == 1);
}

TEST_CASE("catalog: a broken row is dropped with its JSON path, the rest loads") {
    struct Case {
        const char* file;
        std::vector<std::string> warnings;  // exactly these, in order
        std::size_t accelerators, providers, instances, models;
    };
    const std::vector<Case> cases = {
        {"row_unknown_accelerator.json", {"instances[0].gpu: unknown accelerator 'h100-sxn'; row dropped"}, 2, 1, 1, 1},
        {"row_unknown_provider.json", {"instances[1].provider: unknown provider 'awz'; row dropped"}, 2, 1, 1, 1},
        {"row_duplicate_accelerator.json",
         {"accelerators[2]: duplicate accelerator id 'h100_sxm' (first at accelerators[0]); row dropped"}, 2, 1, 2, 1},
        {"row_duplicate_instance.json",
         {"instances[2]: duplicate instance 'p5.48xlarge' of provider 'aws' (first at instances[0]); row dropped"}, 2, 1, 2, 1},
        {"row_price_zero.json", {"instances[0].ondemand_per_hour: impossible value 0 (must be > 0); row dropped"}, 2, 1, 1, 1},
        {"row_price_negative.json", {"instances[1].ondemand_per_hour: impossible value -1.5 (must be > 0); row dropped"}, 2, 1, 1, 1},
        {"row_gpu_count_zero.json",
         {"instances[1].gpu_count: impossible value 0 (an instance has at least part of one GPU); row dropped"}, 2, 1, 1, 1},
        {"row_spot_above_ondemand.json",
         {"instances[0].spot_per_hour: spot price 60 is above the on-demand price 55.04; row dropped"}, 2, 1, 1, 1},
        // A dropped accelerator takes the instances that use it along, each with its own message.
        {"row_memory_zero.json",
         {"accelerators[1].memory_bytes: impossible value 0 (memory must be > 0); row dropped",
          "instances[1].gpu: unknown accelerator 'l4'; row dropped"}, 1, 1, 1, 1},
        {"row_missing_source.json",
         {"accelerators[1].source: missing (a string is required); row dropped",
          "instances[1].gpu: unknown accelerator 'l4'; row dropped"}, 1, 1, 1, 1},
        {"row_mistyped_memory.json",
         {"accelerators[0].memory_gb: must be a number, got \"80GB\"; row dropped",
          "instances[0].gpu: unknown accelerator 'h100_sxm'; row dropped"}, 1, 1, 1, 1},
        {"row_bad_id.json",
         {"accelerators[1].id: 'l4 (24GB)' is not a valid id (letters, digits, - _ . only); row dropped",
          "instances[1].gpu: unknown accelerator 'l4'; row dropped"}, 1, 1, 1, 1},
        {"row_bad_confidence.json",
         {"instances[1].confidence: unknown tag 'high' (allowed: V, V-partial, V-draft, K); row dropped"}, 2, 1, 1, 1},
        {"row_bad_interconnect.json",
         {"instances[1].interconnect: unknown value 'infiniband' (allowed: hccs, ici, infinity-fabric, neuronlink, none, "
          "nvlink, nvlink-bridge, nvlink-c2c, nvswitch, pcie, varies); row dropped"}, 2, 1, 1, 1},
        {"row_bad_currency_code.json",
         {"instances[1].currency: unknown value 'EUR' (allowed: CNY, USD); row dropped"}, 2, 1, 1, 1},
        {"row_price_without_date.json",
         {"instances[1].price_date: missing: a price needs the date it was read; row dropped"}, 2, 1, 1, 1},
        // Catalog II: an undated price has to say it is an estimate; a day has to be a day.
        {"row_price_official_undated.json",
         {"instances[1].price_date_iso: missing: a price with price_basis 'official' needs the day it was read "
          "(YYYY-MM-DD); an undated price is an 'estimate'; row dropped"}, 2, 1, 1, 1},
        {"row_price_date_iso_bad.json", {"instances[1].price_date_iso: '2026-13-09' is not a day (YYYY-MM-DD); row dropped"}, 2, 1, 1, 1},
        {"row_bad_price_basis.json",
         {"instances[1].price_basis: unknown value 'list' (allowed: estimate, official, third-party); row dropped"}, 2, 1, 1, 1},
        {"row_not_object.json", {"providers[1]: must be an object, got \"gcp\"; row dropped"}, 2, 1, 2, 1},
        {"row_negative_vcpus.json", {"instances[1].vcpus: impossible value -4 (must be >= 0); row dropped"}, 2, 1, 1, 1},
        {"row_bad_export_status.json",
         {"accelerators[0].export_status: unknown value 'banned' (allowed: china-available, china-compliant, domestic, "
          "legacy, not-applicable, not-sold-in-china, restricted); row dropped",
          "instances[0].gpu: unknown accelerator 'h100_sxm'; row dropped"}, 1, 1, 1, 1},
        // A dropped provider takes its instances along.
        {"row_bad_provider_kind.json",
         {"providers[0].kind: unknown value 'cloud' (allowed: china_cloud, gpu_cloud, hyperscaler, marketplace); row dropped",
          "instances[0].provider: unknown provider 'aws'; row dropped",
          "instances[1].provider: unknown provider 'aws'; row dropped"}, 2, 0, 0, 1},
        {"row_model_config_not_object.json",
         {"models[0].config: must be an object (a config.json), got \"config.json\"; row dropped"}, 2, 1, 2, 0},
    };
    for (const Case& k : cases) {
        CAPTURE(k.file);
        Result<Catalog> c = fixture(k.file);
        REQUIRE_MESSAGE(c.ok(), format_error(c.error));
        CHECK(c.warnings.en() == k.warnings);
        CHECK(c->accelerators.size() == k.accelerators);
        CHECK(c->providers.size() == k.providers);
        CHECK(c->instances.size() == k.instances);
        CHECK(c->models.size() == k.models);
    }
}

TEST_CASE("catalog: a preset whose config does not parse loads, and using it is an error naming models[i].config") {
    // Configs are parsed when a preset is first used (ModelPreset::arch), not by parse_catalog.
    Result<Catalog> c = fixture("row_model_config_unparseable.json");  // {"model_type": "llama"} only
    REQUIRE(c.ok());
    CHECK(c.warnings.empty());
    REQUIRE(c->models.size() == 1);
    CHECK(c->instances.size() == 2);
    const Result<ModelArch>& a = c->models[0].arch();
    REQUIRE_FALSE(a.ok());
    // parse_hf_config's own error for the same object, under the preset's path in the file.
    const Result<ModelArch> alone = parse_hf_config(R"({"model_type": "llama"})");
    REQUIRE_FALSE(alone.ok());
    REQUIRE_FALSE(alone.error.path.empty());
    CHECK(a.error.path == "models[0].config." + alone.error.path);
    CHECK(a.error.code == alone.error.code);
    CHECK(format_error(a.error) == "models[0].config." + format_error(alone.error));
    CHECK(&c->models[0].arch() == &a);  // parsed once, then kept
    // Where it is used: estimate (and recommend) fail naming the preset and the path.
    Scenario s;
    s.model = "llama-3.2-1b";
    const Result<Estimate> e = estimate(*c, s);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error.code == "bad_preset");
    CHECK(e.error.path == "model");
    CHECK(e.error.message.find("preset 'llama-3.2-1b' cannot be used") != std::string::npos);
    CHECK(e.error.message.find(format_error(a.error)) != std::string::npos);
    // `catalog validate` parses every preset's config.
    gpusizer::cli::Io io;
    CHECK(gpusizer::cli::run({"catalog", "validate", gpusizer_test::source_path("tests/fixtures/catalog/row_model_config_unparseable.json")},
                             io) == 2);
    CHECK(io.out.find("warning: " + format_error(a.error) + "; the preset cannot be used\n") != std::string::npos);
}

TEST_CASE("catalog: a broken file is an error with its path, never an abort") {
    struct Case {
        const char* file;
        const char* code;
        const char* path;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"broken_not_json.json", "bad_json", "", "catalog is not valid JSON"},
        {"broken_top_level_array.json", "bad_type", "", "catalog must be a JSON object, got [1,2,3]"},
        {"broken_missing_instances.json", "missing", "instances", "missing (an array is required)"},
        {"broken_instances_not_array.json", "bad_type", "instances", "must be an array, got {\"p5\":1}"},
        {"broken_schema_version.json", "unsupported", "schema", "schema 2 is not supported (this build reads schema 1)"},
        {"broken_currency_rate.json", "bad_value", "currency.cny_per_usd", "impossible value 0 (must be > 0)"},
        {"broken_missing_version.json", "missing", "version", "missing (a string is required)"},
    };
    for (const Case& k : cases) {
        CAPTURE(k.file);
        Result<Catalog> c = fixture(k.file);
        REQUIRE_FALSE(c.ok());
        CHECK(c.error.code == k.code);
        CHECK(c.error.path == k.path);
        CHECK(c.error.message == k.message);
    }
    CHECK(parse_catalog("").error.code == "bad_json");
    CHECK(parse_catalog("null").error.code == "bad_type");
}

TEST_CASE("catalog: size and depth limits are checked before parsing") {
    std::string deep(k_max_catalog_depth + 1, '[');
    deep += std::string(k_max_catalog_depth + 1, ']');
    Result<Catalog> d = parse_catalog(deep);
    REQUIRE_FALSE(d.ok());
    CHECK(d.error.code == "too_deep");
    std::string big = "{\"x\":\"" + std::string(k_max_catalog_bytes, 'a') + "\"}";
    Result<Catalog> b = parse_catalog(big);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error.code == "too_large");
    CHECK(b.error.message.find("8 MiB") != std::string::npos);
}

TEST_CASE("catalog: warnings are capped and a section has a row limit") {
    std::string bad = "{\"instances\":[";
    for (int i = 0; i < 150; ++i) bad += std::string(i ? "," : "") + "1";
    bad += "]}";
    Result<Catalog> base = fixture("valid_minimal.json");
    REQUIRE(base.ok());
    Result<Catalog> m = merge_catalog(*base, bad);
    REQUIRE(m.ok());
    REQUIRE(m.warnings.size() == k_max_catalog_warnings + 1);
    CHECK(m.warnings.en()[0] == "instances[0]: must be an object, got 1; row dropped");
    CHECK(m.warnings.en().back() == "... and 50 more problems not shown (their rows were dropped)");
    CHECK(m->instances.size() == 2);  // the base rows stay

    std::string many = "{\"models\":[";
    for (std::size_t i = 0; i <= k_max_catalog_rows; ++i) many += std::string(i ? "," : "") + "0";
    many += "]}";
    Result<Catalog> r = merge_catalog(*base, many);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.code == "too_many_rows");
    CHECK(r.error.path == "models");
    CHECK(r.error.message == "20001 rows; the limit is 20000 per section");
}

// [SECTION] Merging a user catalog

TEST_CASE("catalog: a user catalog replaces rows by id in place and adds new ones") {
    Result<Catalog> base = fixture("valid_minimal.json");
    REQUIRE(base.ok());
    Result<Catalog> m = merge_catalog(*base, gpusizer_test::read_text("tests/fixtures/catalog/user_override.json"));
    REQUIRE_MESSAGE(m.ok(), format_error(m.error));
    CHECK_MESSAGE(m.warnings.empty(), joined(m.warnings.en()));
    CHECK(m->version == "test-1+negotiated-2026-12");
    // Replaced in place: same position, the negotiated price, no spot.
    REQUIRE(m->instances.size() == 4);
    CHECK(m->instances[0].id == "p5.48xlarge");
    CHECK(*m->instances[0].ondemand_per_hour == 40.0);
    CHECK_FALSE(m->instances[0].spot_per_hour);
    CHECK(m->instances[0].source == "our AWS private pricing");
    // Added: an on-prem provider and accelerator, and a user row using a built-in accelerator.
    CHECK(m->find_provider("onprem"));
    CHECK(m->find_accelerator("onprem_a100"));
    REQUIRE(m->find_instance("onprem", "node-8xa100"));
    CHECK(m->find_instance("onprem", "node-8xa100")->currency == "CNY");
    REQUIRE(m->find_instance("onprem", "node-1xh100"));
    CHECK(m->find_instance("onprem", "node-1xh100")->gpu == "h100_sxm");
    CHECK(m->usd_cny.cny_per_usd == 7.1);
    CHECK(m->usd_cny.date == "2026-12-01");
    // The base is untouched.
    CHECK(*base->instances[0].ondemand_per_hour == doctest::Approx(55.04));
}

TEST_CASE("catalog: sources, notes and configs outlive the text, the base and the catalog they were read from") {
    // The rows' CatalogText fields view the text read: parse_catalog and merge_catalog keep their
    // own copy, and a row (or a copy of it) keeps that alive. Under ASan (native-debug) a view
    // into freed text fails here; elsewhere it reads the overwritten bytes.
    std::optional<Catalog> merged;
    Instance escaped, built_in;
    ModelPreset preset;
    {
        std::string base_text = gpusizer_test::read_text("tests/fixtures/catalog/valid_minimal.json");
        Result<Catalog> base = parse_catalog(base_text);
        base_text.assign(base_text.size(), 'x');
        REQUIRE(base.ok());
        std::string user = R"({"version": "u", "instances": [{"provider": "aws", "id": "escaped", "gpu": "l4", "gpu_count": 1,)"
                           R"( "interconnect": "pcie", "currency": "USD", "confidence": "K",)"
                           R"( "source": "a \"quoted\" source, caf\u00e9", "notes": "line one\nline two \\ end"}]})";
        Result<Catalog> m = merge_catalog(*base, user);
        user.assign(user.size(), 'x');
        REQUIRE_MESSAGE(m.ok(), format_error(m.error));
        merged = std::move(*m);
        preset = base->models.at(0);
    }
    REQUIRE(merged->find_instance("aws", "escaped"));
    escaped = *merged->find_instance("aws", "escaped");
    built_in = *merged->find_instance("aws", "g6.2xlarge");
    CHECK(merged->accelerators.at(1).source == "test fixture");
    CHECK(merged->usd_cny.source == "test fixture");
    merged.reset();
    CHECK(escaped.source == "a \"quoted\" source, caf\xc3\xa9");
    CHECK(escaped.notes == "line one\nline two \\ end");
    CHECK(built_in.source == "test fixture");
    CHECK(built_in.notes.empty());
    CHECK(preset.source == "test fixture");
    REQUIRE_MESSAGE(preset.arch().ok(), format_error(preset.arch().error));
    CHECK(preset.arch()->hidden_size == 2048);
    CHECK(preset.arch()->num_layers == 16);
    // Made from a string, a text holds its own copy.
    std::string s = "our own words";
    CatalogText own(s);
    s.assign(s.size(), 'x');
    CHECK(own == "our own words");
    CHECK(CatalogText().empty());
}

TEST_CASE("catalog: a bad user row is dropped with a warning; the built-in rows stay") {
    Result<Catalog> base = fixture("valid_minimal.json");
    REQUIRE(base.ok());
    Result<Catalog> m = merge_catalog(*base, gpusizer_test::read_text("tests/fixtures/catalog/user_bad_row.json"));
    REQUIRE(m.ok());
    CHECK(m.warnings.en() == std::vector<std::string>{"instances[0].gpu: unknown accelerator 'a100-40'; row dropped"});
    CHECK(m->version == "test-1+user");
    CHECK(m->instances.size() == 2);
    CHECK(*m->find_instance("aws", "g6.2xlarge")->ondemand_per_hour == 0.5);  // the good user row applied
    Result<Catalog> broken = merge_catalog(*base, "{\"instances\": 3}");
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error.path == "instances");
    CHECK_FALSE(merge_catalog(*base, "not json").ok());
}

TEST_CASE("catalog: a bad element of a row's array or object is named by its path") {
    Result<Catalog> base = fixture("valid_minimal.json");
    REQUIRE(base.ok());
    Result<Catalog> m = merge_catalog(*base, R"({"providers": [
        {"id": "p1", "name": "P1", "kind": "gpu_cloud", "regions": ["eu", 7], "confidence": "K"},
        {"id": "p2", "name": "P2", "kind": "gpu_cloud", "sources": {"spot": "page", "billing": [1, 2]}, "confidence": "K"}]})");
    REQUIRE(m.ok());
    CHECK(m.warnings.en() == std::vector<std::string>{"providers[0].regions[1]: must be a string, got 7; row dropped",
                                                      "providers[1].sources.billing: must be a string, got [1,2]; row dropped"});
}

// Rows are read in place (read_section): a dropped row, a duplicate or a row moved onto the base row
// it replaces must leave nothing behind for the next row read into the same slot.
TEST_CASE("catalog: a row after a dropped, duplicate or replacing row keeps none of its fields") {
    Result<Catalog> base = fixture("valid_minimal.json");
    REQUIRE(base.ok());
    const std::string row_with_extras =
        R"("interconnect": "pcie", "currency": "USD", "ondemand_per_hour": 1.0, "price_date": "2026-12-01",
           "confidence": "V", "source": "x", "notes": "left behind", "name_zh": "遗留", "regions": ["r1"],
           "spot_per_hour": 0.5, "cn_mainland": true)";
    const std::string plain = R"("interconnect": "pcie", "currency": "USD", "confidence": "V", "source": "y")";
    const std::string user = R"({"instances": [)"
        R"({"provider": "aws", "id": "dropped", "gpu": "no-such-gpu", "gpu_count": 1, )" + row_with_extras + "},"
        R"({"provider": "aws", "id": "after-dropped", "gpu": "l4", "gpu_count": 1, )" + plain + "},"
        R"({"provider": "aws", "id": "twice", "gpu": "l4", "gpu_count": 1, )" + plain + "},"
        R"({"provider": "aws", "id": "twice", "gpu": "l4", "gpu_count": 1, )" + row_with_extras + "},"
        R"({"provider": "aws", "id": "after-duplicate", "gpu": "l4", "gpu_count": 1, )" + plain + "},"
        R"({"provider": "aws", "id": "p5.48xlarge", "gpu": "h100_sxm", "gpu_count": 8, )" + row_with_extras + "},"
        R"({"provider": "aws", "id": "after-replacing", "gpu": "l4", "gpu_count": 1, )" + plain + "}]}";
    Result<Catalog> m = merge_catalog(*base, user);
    REQUIRE_MESSAGE(m.ok(), format_error(m.error));
    CHECK(m.warnings.en() == std::vector<std::string>{
                                 "instances[0].gpu: unknown accelerator 'no-such-gpu'; row dropped",
                                 "instances[3]: duplicate instance 'twice' of provider 'aws' (first at instances[2]); row dropped"});
    CHECK(m->find_instance("aws", "p5.48xlarge")->notes == "left behind");  // the replacement itself
    for (const char* id : {"after-dropped", "twice", "after-duplicate", "after-replacing"}) {
        CAPTURE(id);
        const Instance* i = m->find_instance("aws", id);
        REQUIRE(i);
        CHECK(i->source == "y");
        CHECK(i->notes.empty());
        CHECK(i->name_zh.empty());
        CHECK(i->regions.empty());
        CHECK_FALSE(i->ondemand_per_hour);
        CHECK_FALSE(i->spot_per_hour);
        CHECK_FALSE(i->cn_mainland);
    }
    CHECK(m->instances.size() == base->instances.size() + 4);
}

// Found by reading core for casts of unchecked doubles (2026-12-05): the planner cast gpu_count to
// int64 (machines.cpp), so a user row of 1e300 GPUs overflowed in serve_plan.cpp (UBSan), and 2.5
// GPUs was silently planned as 2; network_gbps × 1000 was cast likewise.
TEST_CASE("catalog: an instance's gpu_count is a share below 1 or a whole number up to 1024; network_gbps at most 100000") {
    Result<Catalog> base = load_real();
    REQUIRE(base.ok());
    const std::string rest = R"("gpu": "h100_sxm", "interconnect": "nvswitch", "currency": "USD", "ondemand_per_hour": 10.0,
                                  "price_date": "2026-12-01", "confidence": "V", "source": "x")";
    const std::string user = R"({"instances": [)"
        R"({"provider": "aws", "id": "huge", "gpu_count": 1e300, )" + rest + "},"
        R"({"provider": "aws", "id": "half-and-more", "gpu_count": 2.5, )" + rest + "},"
        R"({"provider": "aws", "id": "fast-net", "gpu_count": 8, "network_gbps": 1e300, )" + rest + "},"
        R"({"provider": "aws", "id": "share", "gpu_count": 0.5, )" + rest + "},"
        R"({"provider": "aws", "id": "rack", "gpu_count": 1024, "network_gbps": 100000, )" + rest + "}]}";
    Result<Catalog> m = merge_catalog(*base, user);
    REQUIRE_MESSAGE(m.ok(), format_error(m.error));
    CHECK(m.warnings.en() == std::vector<std::string>{
                                 "instances[0].gpu_count: expected a share of one GPU (below 1) or a whole number from 1 to 1024, got 1e+300; row dropped",
                                 "instances[1].gpu_count: expected a share of one GPU (below 1) or a whole number from 1 to 1024, got 2.5; row dropped",
                                 "instances[2].network_gbps: impossible value 1e+300 (at most 100000 Gbps); row dropped"});
    REQUIRE(m->find_instance("aws", "share"));
    CHECK(m->find_instance("aws", "share")->gpu_count == 0.5);
    REQUIRE(m->find_instance("aws", "rack"));
    // The largest allowed machine plans (the sanitizer build checks the arithmetic on the way).
    Result<Scenario> s = parse_scenario_json(R"({"model": "llama-3.1-8b", "task": "inference", "batch_size": 32})");
    REQUIRE(s.ok());
    Result<Recommendation> r = recommend(*m, *s, 0);
    REQUIRE_MESSAGE(r.ok(), format_error(r.error));
}

TEST_CASE("catalog: merging over the real catalog keeps every built-in row") {
    Result<Catalog> base = load_real();
    REQUIRE(base.ok());
    Result<Catalog> m = merge_catalog(*base, gpusizer_test::read_text("tests/fixtures/catalog/user_override.json"));
    REQUIRE(m.ok());
    CHECK(m.warnings.empty());
    CHECK(m->instances.size() == base->instances.size() + 2);  // p5.48xlarge replaced, two on-prem rows added
    CHECK(*m->find_instance("aws", "p5.48xlarge")->ondemand_per_hour == 40.0);
    CHECK(m->models.size() == base->models.size());
}

// [SECTION] Tags, JSON export, CLI

TEST_CASE("catalog: confidence tags round-trip") {
    for (Confidence c : {Confidence::verified, Confidence::partial, Confidence::draft, Confidence::recalled})
        CHECK(parse_confidence(to_string(c)) == c);
    CHECK(std::string(to_string(Confidence::draft)) == "V-draft");
    CHECK_FALSE(parse_confidence("high"));
    CHECK(is_estimate(Confidence::draft));
    CHECK(is_estimate(Confidence::recalled));
    CHECK_FALSE(is_estimate(Confidence::partial));
}

TEST_CASE("catalog: each section exports as a JSON array that reads back") {
    Result<Catalog> c = load_real();
    REQUIRE(c.ok());
    const std::string gpus = catalog_section_json(*c, "gpus");
    CHECK(gpus.rfind("[{\"id\":\"b200\"", 0) == 0);
    CHECK(gpus.find("\"memory_bytes\":85899345920") != std::string::npos);  // h100_sxm
    CHECK(catalog_section_json(*c, "instances").find("\"ondemand_per_hour\":55.04") != std::string::npos);
    CHECK(catalog_section_json(*c, "models").find("\"hidden_size\":4096") != std::string::npos);
    CHECK(catalog_section_json(*c, "providers").find("\"interruption_notice_s\":120") != std::string::npos);
    CHECK(catalog_section_json(*c, "nonsense").empty());
}

TEST_CASE("cli: catalog list shows the version, prices date and marks estimates") {
    gpusizer::cli::Io io;
    CHECK(gpusizer::cli::run({"catalog", "list", "instances"}, io) == 0);
    CHECK(io.out.find("prices as of 2026-11-18") != std::string::npos);
    CHECK(io.out.find("p5.48xlarge") != std::string::npos);
    const std::regex k_row("\n~ azure +Standard_NC8as_T4_v3 "), v_row("\n  aws +p5\\.48xlarge ");
    CHECK(std::regex_search(io.out, k_row));  // K row marked
    CHECK(std::regex_search(io.out, v_row));  // V row not
    gpusizer::cli::Io g;
    CHECK(gpusizer::cli::run({"catalog", "list", "gpus"}, g) == 0);
    CHECK(g.out.find("h100_sxm") != std::string::npos);
    gpusizer::cli::Io m;
    CHECK(gpusizer::cli::run({"catalog", "list", "models", "--json"}, m) == 0);
    CHECK(m.out.rfind("[{\"id\":\"llama-3.1-8b\"", 0) == 0);
    gpusizer::cli::Io p;
    CHECK(gpusizer::cli::run({"catalog", "list", "providers"}, p) == 0);
    CHECK(p.out.find("Spot Instances") != std::string::npos);
    gpusizer::cli::Io bad;
    CHECK(gpusizer::cli::run({"catalog", "list", "cpus"}, bad) == 2);
    CHECK(bad.err.find("unknown section 'cpus'") != std::string::npos);
}

TEST_CASE("cli: catalog validate exits 0 when clean, 2 with dropped rows or a broken file") {
    gpusizer::cli::Io ok;
    CHECK(gpusizer::cli::run({"catalog", "validate", gpusizer_test::source_path("assets/catalog.json")}, ok) == 0);
    CHECK(ok.out.find("0 warnings (valid)") != std::string::npos);
    gpusizer::cli::Io row;
    CHECK(gpusizer::cli::run({"catalog", "validate",
                              gpusizer_test::source_path("tests/fixtures/catalog/row_unknown_accelerator.json")},
                             row) == 2);
    CHECK(row.out.find("warning: instances[0].gpu: unknown accelerator 'h100-sxn'; row dropped\n") != std::string::npos);
    gpusizer::cli::Io file;
    CHECK(gpusizer::cli::run({"catalog", "validate",
                              gpusizer_test::source_path("tests/fixtures/catalog/broken_missing_instances.json")},
                             file) == 2);
    CHECK(file.out.find("error: instances: missing (an array is required)\n") != std::string::npos);
    gpusizer::cli::Io none;
    CHECK(gpusizer::cli::run({"catalog", "validate", "/nonexistent/catalog.json"}, none) == 2);
    CHECK(none.err.find("cannot read '/nonexistent/catalog.json'") != std::string::npos);
}
