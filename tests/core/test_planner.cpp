// The planner on a small hand-made catalog: each path worked by hand.
#include <doctest/doctest.h>

#include "gpusizer/recommend.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

constexpr std::uint64_t GiB = 1ull << 30;

Accelerator gpu(const char* id, double mem_gib, double bf16, double bw, double nvlink, const char* status = "restricted") {
    Accelerator a;
    a.id = id;
    a.name = id;
    a.vendor = "NVIDIA";
    a.year = 2022;
    a.memory_gb = mem_gib;
    a.memory_bytes = static_cast<std::uint64_t>(mem_gib * GiB);
    a.tflops_bf16_dense = bf16;
    a.tflops_fp16_dense = bf16;
    a.memory_bandwidth_gbps = bw;
    a.nvlink_bandwidth_gbps = nvlink;
    a.pcie_gen = 5;
    a.software = "cuda";
    a.export_status = status;
    a.confidence = Confidence::verified;
    return a;
}

Instance inst(const char* provider, const char* id, const char* g, double count, const char* ic, double vcpus,
              double ram, double od, std::optional<double> spot, bool cn = false, const char* cur = "USD",
              double net = 400) {
    Instance i;
    i.provider = provider;
    i.id = id;
    i.gpu = g;
    i.gpu_count = count;
    i.interconnect = ic;
    i.vcpus = vcpus;
    i.ram_gib = ram;
    i.network_gbps = net;
    i.price_region = cn ? "cn-beijing" : "us-east-1";
    i.cn_mainland = cn;
    i.ondemand_per_hour = od;
    i.spot_per_hour = spot;
    i.currency = cur;
    i.confidence = Confidence::verified;
    i.price_date = "2026-11-01";
    return i;
}

Provider provider(const char* id, const char* kind, double notice) {
    Provider p;
    p.id = id;
    p.name = id;
    p.kind = kind;
    p.interruption_notice_s = notice;
    return p;
}

ModelPreset preset(const char* id) {
    ModelPreset m;
    m.id = id;
    m.name = id;
    auto a = parse_hf_config(gpusizer_test::read_text(std::string("tests/fixtures/hf_configs/") + id + ".json"));
    REQUIRE(a.ok());
    m.arch = *a;
    return m;
}

Catalog test_catalog() {
    Catalog c;
    c.version = "test";
    c.prices_as_of = "2026-11-01";
    c.usd_cny.cny_per_usd = 7.2;
    c.usd_cny.date = "2026-11-01";
    c.accelerators = {gpu("h100", 80, 989.4, 3350, 900), gpu("a100_40", 40, 312, 1555, 600),
                      gpu("h20", 96, 148, 4000, 900, "china-compliant")};
    c.providers = {provider("cloud", "hyperscaler", 120), provider("cncloud", "china_cloud", 300)};
    c.instances = {
        inst("cloud", "h100x1", "h100", 1, "none", 26, 225, 6.88, 2.5),
        inst("cloud", "h100x8", "h100", 8, "nvswitch", 192, 2048, 55.04, 17.63),
        inst("cloud", "a100x8", "a100_40", 8, "nvswitch", 96, 1152, 21.96, 7.88),
        inst("cncloud", "h20x1", "h20", 1, "none", 16, 200, 60.0, 12.0, true, "CNY"),
    };
    c.models = {preset("llama-3.1-8b"), preset("llama-3.1-70b"), preset("llama-3.1-405b")};
    return c;
}

const Offer* find(const Recommendation& r, const std::string& instance, bool spot = false) {
    for (const Offer& o : r.offers)
        if (o.instance == instance && o.spot == spot) return &o;
    return nullptr;
}

}  // namespace

TEST_CASE("planner: an 8B model in bf16 fits one H100, no model parallelism") {
    const Catalog c = test_catalog();
    Scenario s;  // llama-3.1-8b inference, bf16, batch 1 × 2048
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100x1");
    REQUIRE(o);
    CHECK(o->gpu_count == 1);
    CHECK(o->plan.tensor_parallel == 1);
    CHECK(o->usd_per_hour == doctest::Approx(6.88));
    CHECK(o->memory_per_gpu_bytes < 80 * GiB);
    CHECK(o->memory_per_gpu_bytes > 2 * 8030261248ull);  // at least the weights
}

TEST_CASE("planner: a 70B model in bf16 needs tensor parallel inside an NVSwitch node") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-70b";
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    // 141 GB of weights do not fit one 80 GiB GPU: single-GPU instances need two nodes.
    if (const Offer* one = find(*r, "h100x1")) {
        CHECK(one->nodes == 2);
        CHECK(one->plan.pipeline_parallel == 2);
    }
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    CHECK(o->plan.tensor_parallel == 2);
    CHECK(o->plan.data_parallel == 4);  // the other GPUs of the node serve as replicas
    CHECK(o->nodes == 1);
}

TEST_CASE("planner: 405B in bf16 spans three 8×A100-40GB nodes") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-405b";
    s.providers = {"cloud"};
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "a100x8");
    REQUIRE(o);
    // 811 GB of weights / 320 GB per node: 3 nodes, TP 8 within a node, PP 3 across.
    CHECK(o->nodes == 3);
    CHECK(o->plan.tensor_parallel == 8);
    CHECK(o->plan.pipeline_parallel == 3);
    CHECK(o->usd_per_hour == doctest::Approx(3 * 21.96));
    bool fabric_checked = false;
    for (const Check& k : o->checks) fabric_checked = fabric_checked || k.id == "fabric";
    CHECK(fabric_checked);
}

TEST_CASE("planner: mainland-only keeps mainland rows and converts CNY prices") {
    const Catalog c = test_catalog();
    Scenario s;
    s.region = Region::cn_mainland;
    s.spot = SpotPolicy::allow;  // serving defaults to never; allowed here to see both prices
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->offers.size() == 2);  // h20x1 on demand and spot
    for (const Offer& o : r->offers) CHECK(o.cn_mainland);
    const Offer* o = find(*r, "h20x1");
    REQUIRE(o);
    CHECK(o->usd_per_hour == doctest::Approx(60.0 / 7.2));
    CHECK(o->price_per_hour == doctest::Approx(60.0 / 7.2));  // scenario currency USD
    s.currency = Currency::CNY;
    auto cny = recommend(c, s);
    CHECK(find(*cny, "h20x1")->price_per_hour == doctest::Approx(60.0));
}

TEST_CASE("planner: spot only, and spot overhead from interruptions") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.weight_dtype = WeightDtype::bf16;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::only;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    for (const Offer& o : r->offers) CHECK(o.spot);
    const Offer* o = find(*r, "h100x1", true);
    REQUIRE(o);
    // 1/24 interruptions per hour × (0.25 h lost + 0.25 h restart) = 2.08% more time.
    CHECK(o->spot_overhead_fraction == doctest::Approx(0.5 / 24));
    REQUIRE(o->hours);
    REQUIRE(o->total_cost);
    CHECK(*o->total_cost == doctest::Approx(*o->hours * 2.5));
}

TEST_CASE("planner: training time follows 6ND-style FLOPs, cost follows price") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::full_ft;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    REQUIRE(o->hours);
    // 8 GPUs × 989.4 TF × 0.35 MFU; FLOPs/token = 6N + 12·L·H·Q·T with N = 8.03e9, T = 2048.
    const double per_token = 6.0 * 8030261248.0 + 12.0 * 32 * 4096 * 2048;
    const double hours = 1e9 * per_token / (8 * 989.4e12 * 0.35) / 3600;
    CHECK(*o->hours == doctest::Approx(hours).epsilon(1e-9));
    CHECK(*o->total_cost == doctest::Approx(hours * 55.04).epsilon(1e-9));
}

TEST_CASE("planner: offers are ranked by total cost, and the summary names the best") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 5e8;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->offers.size() >= 3);
    for (std::size_t i = 1; i < r->offers.size(); ++i)
        CHECK(*r->offers[i - 1].total_cost <= *r->offers[i].total_cost);
    CHECK(r->offers.front().pareto);
    CHECK(r->summary.find(r->offers.front().instance) != std::string::npos);
    CHECK(r->summary.rfind("For LoRA on llama-3.1-8b: ", 0) == 0);
}

TEST_CASE("planner: a budget that is too small leaves nothing, with the reason") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::full_ft;
    s.train_tokens = 1e10;
    s.budget = 1.0;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    CHECK(r->offers.empty());
    REQUIRE_FALSE(r->rejected_reasons.empty());
    CHECK(r->rejected_reasons.front().find("over the budget") != std::string::npos);
    CHECK(r->summary.rfind("Nothing in the catalog can run", 0) == 0);
}

TEST_CASE("planner: host RAM too small for CPU offload removes the offer") {
    Catalog c = test_catalog();
    c.instances[0].ram_gib = 16;  // h100x1
    Scenario s;
    s.task = Task::full_ft;
    s.zero_stage = 3;
    s.offload = Offload::optimizer_and_params;
    s.train_tokens = 1e8;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    CHECK_FALSE(find(*r, "h100x1"));
    bool reason = false;
    for (const auto& x : r->rejected_reasons) reason = reason || x.find("h100x1") != std::string::npos;
    CHECK(reason);
}

TEST_CASE("planner: a deadline scales training out to more nodes") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::pretrain;
    s.train_tokens = 1e11;
    s.spot = SpotPolicy::never;
    s.providers = {"cloud"};
    auto slow = recommend(c, s);
    const Offer* one = find(*slow, "h100x8");
    REQUIRE(one);
    REQUIRE(one->hours);
    s.deadline_hours = *one->hours / 3.5;
    auto fast = recommend(c, s);
    const Offer* o = find(*fast, "h100x8");
    REQUIRE(o);
    CHECK(o->nodes == 4);
    CHECK(*o->hours <= *s.deadline_hours);
}

TEST_CASE("planner: a per-GPU listing grows to the smallest machine that fits, at N × the price") {
    Catalog c = test_catalog();
    Instance pod = inst("cloud", "h100-pod", "h100", 1, "none", 16, 125, 2.0, std::nullopt);
    pod.scales_to_gpus = 8;
    pod.scaled_interconnect = "nvlink";
    c.instances = {pod};
    Scenario s;
    s.model = "llama-3.1-70b";
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100-pod");
    REQUIRE(o);
    CHECK(o->gpu_count == 2);  // 141 GB of weights: two 80 GiB GPUs, not one, not eight
    CHECK(o->nodes == 1);
    CHECK(o->plan.tensor_parallel == 2);
    CHECK(o->interconnect == "nvlink");
    CHECK(o->usd_per_hour == doctest::Approx(4.0));
    CHECK(o->vcpus == doctest::Approx(32));
    bool noted = false;
    for (const Check& k : o->checks) noted = noted || k.id == "per_gpu_listing";
    CHECK(noted);
}

TEST_CASE("planner: an instance without a price is listed last, marked, and never summarised with a price") {
    Catalog c = test_catalog();
    Instance unpriced = inst("cncloud", "h20x8", "h20", 8, "nvswitch", 128, 1024, 1.0, std::nullopt, true, "CNY");
    unpriced.ondemand_per_hour.reset();
    c.instances = {unpriced};
    Scenario s;
    s.region = Region::cn_mainland;
    s.spot = SpotPolicy::allow;  // serving defaults to never; allowed here to see both prices
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->offers.size() == 1);
    CHECK_FALSE(r->offers[0].price_known);
    CHECK_FALSE(r->offers[0].total_cost);
    CHECK(r->summary.find("no price") != std::string::npos);
    c.instances.push_back(inst("cncloud", "h20x1", "h20", 1, "none", 16, 200, 60.0, 12.0, true, "CNY"));
    auto both = recommend(c, s);
    REQUIRE(both->offers.size() == 3);
    CHECK(both->offers.back().instance == "h20x8");
    CHECK(both->offers.front().price_known);
}
