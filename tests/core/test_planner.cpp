// The planner on small hand-made catalogs: each path worked by hand (docs/speed-and-cost.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpusizer/guided.hpp"
#include "gpusizer/recommend.hpp"
#include "embedded_catalog.hpp"
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
              double ram, std::optional<double> od, std::optional<double> spot, bool cn = false, const char* cur = "USD",
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
    m.set_config(gpusizer_test::read_text("assets/src/hf_configs/" + std::string(id) + ".json"));
    REQUIRE_MESSAGE(m.arch().ok(), id << ": " << m.arch().error.message);
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

const Check* check(const Offer& o, const std::string& id) {
    for (const Check& c : o.checks)
        if (c.id == id) return &c;
    return nullptr;
}

bool has_lever(const Offer& o, const std::string& key) {
    for (const Lever& l : o.levers)
        if (l.key == key) return true;
    return false;
}

// Hours as the planner's words spell them (core/src/plan/text.cpp hours_text), worked here by hand.
std::string plan_hours_text(double h) {
    char buf[48];
    if (h < 1) std::snprintf(buf, sizeof buf, "%.0f min", h * 60 < 1 ? 1 : h * 60);
    else if (h < 48) std::snprintf(buf, sizeof buf, "%.1f h", h);
    else std::snprintf(buf, sizeof buf, "%.1f days", h / 24);
    return buf;
}

// What the user gave, as the parsers record it.
void give(Scenario& s, std::initializer_list<Key> keys) {
    for (Key k : keys) s.given.set(static_cast<std::size_t>(k));
}

}  // namespace

// [SECTION] Serving

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
    REQUIRE(o->serving);
    CHECK(o->serving->users == 1);
    CHECK(o->serving->replicas == 1);
}

TEST_CASE("planner: a 70B model in bf16 needs tensor parallel inside an NVSwitch node, one replica for one user") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-70b";
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    // 141 GB of weights do not fit one 80 GiB GPU: single-GPU instances need two nodes (a pipeline
    // across their 400 Gb/s fabric).
    if (const Offer* one = find(*r, "h100x1")) {
        CHECK(one->nodes == 2);
        CHECK(one->plan.pipeline_parallel == 2);
    }
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    // One user: one replica (the old planner priced four, as if each served someone). The node is
    // rented whole, so the replica takes as many of its GPUs as makes it fastest: tensor parallel 8.
    CHECK(o->plan.tensor_parallel == 8);
    CHECK(o->plan.data_parallel == 1);
    CHECK(o->nodes == 1);
    CHECK(o->serving->replicas == 1);
}

TEST_CASE("planner: 405B in bf16 spans three 8×A100-40GB nodes, TP 8 inside and PP 3 across") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-405b";
    s.providers = {"cloud"};
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "a100x8");
    REQUIRE(o);
    // 811 GB of weights / 320 GB per node: 3 nodes.
    CHECK(o->nodes == 3);
    CHECK(o->plan.tensor_parallel == 8);
    CHECK(o->plan.pipeline_parallel == 3);
    CHECK(o->usd_per_hour == doctest::Approx(3 * 21.96));
    REQUIRE(check(*o, "fabric"));
    CHECK(check(*o, "fabric")->ok);
}

TEST_CASE("planner: serving is sized for its load — replicas from users, cost per million tokens at that load") {
    const Catalog c = test_catalog();
    Scenario s;
    s.providers = {"cloud"};
    s.batch_size = 40;  // concurrent users
    give(s, {Key::batch_size});
    s.engine = Engine::vllm;
    s.max_num_seqs = 16;  // one replica keeps at most 16 in flight
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    REQUIRE(o->serving);
    // 40 users, at most 16 per replica: ceil(40 / 16) = 3 replicas of one GPU, 14 users each.
    CHECK(o->serving->replicas == 3);
    CHECK(o->serving->per_replica == 14);
    CHECK(o->serving->users == 40);
    CHECK(o->plan.data_parallel == 3);
    // Throughput at the load: 40 users / time per token; cost per million tokens from it.
    CHECK(o->serving->tokens_per_s == doctest::Approx(40 / (o->serving->tpot_ms / 1e3)));
    CHECK(*o->cost_per_million_tokens == doctest::Approx(55.04 / (o->serving->tokens_per_s * 3600) * 1e6));
    // Three single-GPU machines: three nodes, priced as three.
    const Offer* small = find(*r, "h100x1");
    REQUIRE(small);
    CHECK(small->nodes == 3);
    CHECK(small->usd_per_hour == doctest::Approx(3 * 6.88));
    CHECK(r->summary.find("to 40 concurrent users") != std::string::npos);
}

TEST_CASE("planner: serving is on demand by default and never advised to checkpoint") {
    const Catalog c = test_catalog();
    Scenario s;  // inference: spot defaults to never (parser), so only on-demand prices
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    for (const Offer& o : r->offers) CHECK_FALSE(o.spot);
    CHECK(r->summary.find("checkpoint") == std::string::npos);
    s.spot = SpotPolicy::only;  // the user's choice: what it risks, not checkpoints
    auto spot = recommend(c, s);
    REQUIRE(spot.ok());
    CHECK(spot->summary.find("checkpoint") == std::string::npos);
    CHECK(spot->summary.find("on-demand replica") != std::string::npos);
}

TEST_CASE("planner: a latency target caps what one replica holds, so more replicas") {
    const Catalog c = test_catalog();
    Scenario s;
    s.providers = {"cloud"};
    s.engine = Engine::vllm;
    s.batch_size = 64;
    give(s, {Key::batch_size});
    auto loose = recommend(c, s);
    const Offer* a = find(*loose, "h100x1");
    REQUIRE(a);
    CHECK(a->serving->replicas == 1);
    s.max_tpot_ms = a->serving->tpot_ms * 0.6;  // faster per user than one GPU holding all 64
    auto tight = recommend(c, s);
    const Offer* b = find(*tight, "h100x1");
    REQUIRE(b);
    CHECK(b->serving->replicas > a->serving->replicas);
    CHECK(b->serving->tpot_ms <= *s.max_tpot_ms);
}

// [SECTION] Training: levers

TEST_CASE("planner: a tight 7B-class LoRA gets gradient checkpointing on one GPU, with its recompute timed") {
    Catalog c = test_catalog();
    c.accelerators.push_back(gpu("card24", 24, 165, 1008, 0, "china-available"));
    c.accelerators.back().pcie_gen = 4;
    Instance card = inst("market", "card", "card24", 1, "none", 16, 64, 0.5, std::nullopt, false, "USD", 10);
    card.scales_to_gpus = 8;
    card.scaled_interconnect = "pcie";
    c.instances = {card};
    c.providers.push_back(provider("market", "marketplace", 0));
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e8;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    const Offer& o = r->offers.front();
    CHECK(o.gpu_count == 1);                               // not split over PCIe GPUs
    CHECK(o.plan.tensor_parallel == 1);                    // never TP over PCIe for training
    CHECK(has_lever(o, "activation_checkpointing"));       // 8B LoRA at 2048 does not fit 24 GiB roomy without it
    REQUIRE(o.step);
    CHECK(o.step->recompute_s > 0.2 * o.step->compute_s);  // a third more compute: 2N + 4·span of 6N-ish
    REQUIRE(check(o, "headroom"));
    CHECK(check(o, "headroom")->ok);
    CHECK(o.why.find("gradient checkpointing") != std::string::npos);
    CHECK(r->summary.find("gradient checkpointing") != std::string::npos);
    CHECK(r->summary_zh.find("梯度检查点") != std::string::npos);
}

TEST_CASE("planner: a lever the user fixed is never turned on") {
    Catalog c = test_catalog();
    c.accelerators.push_back(gpu("card24", 24, 165, 1008, 0, "china-available"));
    c.instances = {inst("market", "card", "card24", 1, "none", 16, 64, 0.5, std::nullopt, false, "USD", 10)};
    Scenario s;
    s.task = Task::lora;
    s.activation_checkpointing = Checkpointing::none;
    give(s, {Key::activation_checkpointing});
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    for (const Offer& o : r->offers) CHECK_FALSE(has_lever(o, "activation_checkpointing"));
}

TEST_CASE("planner: 70B full fine-tuning on one 8-GPU node needs levers; a roomy plan beats a tight one") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-70b";
    s.task = Task::full_ft;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    s.providers = {"cloud"};
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    // 16 bytes per parameter × 70.6B = 1.13 TB of model states do not fit 640 GB: either more
    // nodes (ZeRO-3 over the 400 Gb/s fabric) or levers on one node; whichever it is, it is roomy.
    CHECK((o->nodes > 1 || !o->levers.empty()));
    CHECK(check(*o, "headroom")->ok);
    // Sharded one way or another: ZeRO over data parallel ranks, or tensor × pipeline stages.
    CHECK((o->plan.zero_stage >= 1 || o->plan.tensor_parallel * o->plan.pipeline_parallel >= 8));
}

// [SECTION] Training: time, cost and the whole job

TEST_CASE("planner: training time is the step's compute plus communication, and the whole job adds setup and saves") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::full_ft;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    s.providers = {"cloud"};
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    const Offer* o = find(*r, "h100x8");
    REQUIRE(o);
    REQUIRE(o->hours);
    REQUIRE(o->step);
    // Compute alone: 8 GPUs × 989.4 TF × 0.74 × (0.45/0.55) / (1 + 10.3 × 295.3 / 4096) over
    // 6N + 12·L·H·Q·T (+ recompute).
    const double eff = 0.74 * (0.45 / 0.55) / (1 + 10.3 * (989.4e12 / 3350e9) / 4096);
    const double per_token = 6.0 * 8030261248.0 + 12.0 * 32 * 4096 * 2048;
    const double recompute = o->step->compute_s > 0 ? o->step->recompute_s / o->step->compute_s : 0;
    CHECK(o->step->tokens / o->step->compute_s == doctest::Approx(8 * 989.4e12 * eff / per_token * (1 - recompute)));
    CHECK(o->step->step_s >= o->step->compute_s);
    const TimeParts& t = o->time_parts;
    CHECK(t.compute == doctest::Approx(1e9 / o->step->tokens_per_s / 3600));
    // Boot 5 min, a 15 GB image and the 16.06 GB bf16 checkpoint at 250 MB/s.
    CHECK(t.setup == doctest::Approx(5.0 / 60 + (15e9 + 2.0 * 8030261248.0) / 250e6 / 3600).epsilon(0.01));
    CHECK(*o->hours == doctest::Approx(t.setup + t.compute + t.checkpoints + t.spot));
    CHECK(*o->total_cost == doctest::Approx(*o->hours * 55.04));
    CHECK(r->summary.find("release the instance") != std::string::npos);
    CHECK(r->summary_zh.find("释放实例") != std::string::npos);
}

TEST_CASE("planner: spot only, with the reclaim rework counted and the checkpoint interval from Young's formula") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::only;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    for (const Offer& o : r->offers) CHECK(o.spot);
    const Offer* o = find(*r, "h100x1", true);
    REQUIRE(o);
    // LoRA saves tiny adapters: Young's interval is below 30 min, so 30 min; 1/24 reclaims per hour ×
    // (15 min lost + 15 min restart) = 2.08% more time.
    CHECK(o->checkpoint_every_hours == doctest::Approx(0.5));
    CHECK(o->spot_overhead_fraction == doctest::Approx(0.5 / 24));
    CHECK(o->time_parts.spot == doctest::Approx((o->time_parts.compute + o->time_parts.checkpoints) * 0.5 / 24));
    CHECK(*o->total_cost == doctest::Approx(*o->hours * 2.5));
}

TEST_CASE("planner: without a token count, training is compared on a reference run and says so") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->reference_tokens);
    CHECK(*r->reference_tokens == doctest::Approx(1e8));
    const Offer& o = r->offers.front();
    CHECK_FALSE(o.hours);
    CHECK_FALSE(o.total_cost);
    REQUIRE(o.reference_cost);
    CHECK(*o.reference_cost == doctest::Approx(o.price_per_hour * *o.reference_hours));
    CHECK(r->summary.find("100M-token run (assumed") != std::string::npos);
    s.task = Task::pretrain;
    auto p = recommend(c, s);
    REQUIRE(p->reference_tokens);
    CHECK(*p->reference_tokens == doctest::Approx(20.0 * 8030261248.0));  // Chinchilla: 20 tokens per parameter
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
    CHECK(one->nodes == 1);
    s.deadline_hours = *one->hours / 3.5;
    auto fast = recommend(c, s);
    const Offer* o = find(*fast, "h100x8");
    REQUIRE(o);
    CHECK(o->nodes >= 4);
    CHECK(*o->hours <= *s.deadline_hours);
}

// [SECTION] The user's layout and wishes

TEST_CASE("planner: num_gpus and tensor_parallel given are kept") {
    const Catalog c = test_catalog();
    Scenario s;
    s.model = "llama-3.1-70b";
    s.num_gpus = 8;
    s.tensor_parallel = 8;
    give(s, {Key::num_gpus, Key::tensor_parallel});
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    for (const Offer& o : r->offers) {
        CHECK(o.plan.tensor_parallel == 8);
        CHECK(o.plan.tensor_parallel * o.plan.pipeline_parallel * o.plan.data_parallel == 8);
    }
    CHECK_FALSE(find(*r, "h100x1"));  // tensor parallelism stays inside a node: not over eight VMs
    // num_gpus 1 given at its default value is kept too.
    Scenario one;
    one.model = "llama-3.1-70b";
    give(one, {Key::num_gpus});
    auto r1 = recommend(c, one);
    REQUIRE(r1.ok());
    CHECK(r1->offers.empty());  // 141 GB of weights on one 80 GiB GPU
}

TEST_CASE("planner: interconnect nvlink keeps only NVLink-class plans, across nodes only over a fabric") {
    Catalog c = test_catalog();
    c.instances.push_back(inst("cloud", "pcie8", "h100", 8, "pcie", 192, 2048, 30.0, std::nullopt));
    c.instances.push_back(inst("cloud", "h100x1-tcp", "h100", 1, "none", 26, 225, 6.0, std::nullopt, false, "USD", 25));
    Scenario s;
    s.model = "llama-3.1-70b";
    s.interconnect = InterconnectNeed::nvlink;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    CHECK(find(*r, "h100x8"));
    CHECK_FALSE(find(*r, "pcie8"));
    CHECK(find(*r, "h100x1"));             // 70B needs two of them: joined over their 400 Gb/s fabric
    CHECK_FALSE(find(*r, "h100x1-tcp"));   // …but not over a 25 Gb/s VM network
}

TEST_CASE("planner: rank_by hourly puts the cheapest hour first; rank_by time the fastest") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    s.rank_by = RankBy::hourly;
    s.region = Region::global;  // region any ranks mainland listings last (next test)
    auto h = recommend(c, s);
    REQUIRE(h.ok());
    for (std::size_t i = 1; i < h->offers.size(); ++i)
        CHECK(h->offers[i - 1].price_per_hour <= h->offers[i].price_per_hour);
    s.rank_by = RankBy::time;
    auto t = recommend(c, s);
    REQUIRE(t.ok());
    for (std::size_t i = 1; i < t->offers.size(); ++i) CHECK(*t->offers[i - 1].hours <= *t->offers[i].hours);
}

TEST_CASE("planner: region any ranks mainland China listings after the others; the cheapest alternative still names one") {
    Catalog c = test_catalog();
    for (Instance& i : c.instances)
        if (i.cn_mainland) i.ondemand_per_hour = 6.0;  // ¥6/h: the mainland H20 becomes the cheapest hour and job
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    s.rank_by = RankBy::hourly;  // cn_mainland: every listing by its hour
    for (const Region region : {Region::any, Region::cn_mainland}) {
        s.region = region;
        auto r = recommend(c, s);
        REQUIRE(r.ok());
        bool seen_mainland = false, seen_elsewhere = false;
        for (const Offer& o : r->offers) {
            if (region == Region::any && seen_mainland) CHECK(o.cn_mainland);  // no listing outside China after one inside
            seen_mainland |= o.cn_mainland;
            seen_elsewhere |= !o.cn_mainland;
        }
        if (region == Region::any) {
            REQUIRE(seen_mainland);
            REQUIRE(seen_elsewhere);
            CHECK_FALSE(r->offers.front().cn_mainland);
            // The test catalog's cheapest whole job is a mainland listing: named beside the pick.
            double cheapest_total = 1e300;
            bool cheapest_is_mainland = false;
            for (const Offer& o : r->offers)
                if (o.total_cost && *o.total_cost < cheapest_total) cheapest_total = *o.total_cost, cheapest_is_mainland = o.cn_mainland;
            REQUIRE(cheapest_is_mainland);
            REQUIRE(r->cheapest);
            CHECK(r->offers[r->cheapest->index].cn_mainland);
            CHECK(*r->offers[r->cheapest->index].total_cost == doctest::Approx(cheapest_total));
        } else {
            for (std::size_t i = 1; i < r->offers.size(); ++i)
                CHECK(r->offers[i - 1].price_per_hour <= r->offers[i].price_per_hour);
        }
    }
}

// [SECTION] Alternatives beside the pick

TEST_CASE("planner: beside the pick, the cheapest and the fastest, each saying what it trades") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e9;
    s.spot = SpotPolicy::never;
    s.providers = {"cloud"};
    s.rank_by = RankBy::time;  // the pick is the fastest; the cheapest is another offer
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->offers.size() >= 2);
    REQUIRE(r->fastest);
    REQUIRE(r->cheapest);
    CHECK(r->fastest->index == 0);
    CHECK(r->fastest->trade_off.empty());
    // The cheapest is the lowest whole-job cost of all offers (all roomy here: an 8B LoRA on 40-80 GB).
    const Offer& pick = r->offers[0];
    const Offer& cheap = r->offers.at(r->cheapest->index);
    for (const Offer& o : r->offers) CHECK(*cheap.total_cost <= *o.total_cost);
    REQUIRE(r->cheapest->index > 0);
    REQUIRE(*cheap.total_cost < *pick.total_cost);
    REQUIRE(*cheap.hours > *pick.hours);
    // "$<saving> less (-<saving / pick's total>%), <extra hours> longer" — the money first (it is the cheapest).
    const double saving = *pick.total_cost - *cheap.total_cost;
    char pct[32];
    std::snprintf(pct, sizeof pct, " (-%.0f%%)", 100 * saving / *pick.total_cost);
    const std::string hours = plan_hours_text(*cheap.hours - *pick.hours);
    CHECK(r->cheapest->trade_off == format_money_sig(saving, Currency::USD) + " less" + pct + ", " + hours + " longer");
    CHECK(r->cheapest->trade_off_zh.rfind("省 " + format_money_sig(saving, Currency::USD) + pct + ",多用 ", 0) == 0);
    // rank_by cost: the pick is within 15% of the cheapest on the fewest GPUs; the fastest then costs more.
    s.rank_by = RankBy::cost;
    auto k = recommend(c, s);
    REQUIRE(k.ok());
    REQUIRE(k->fastest);
    const Offer& fast = k->offers.at(k->fastest->index);
    for (const Offer& o : k->offers) CHECK(*fast.hours <= *o.hours);
    if (k->fastest->index > 0) CHECK(k->fastest->trade_off.find(" sooner") != std::string::npos);
}

TEST_CASE("planner: a spot alternative says it can be reclaimed; the JSON carries both alternatives") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e9;
    s.providers = {"cloud"};
    s.rank_by = RankBy::time;
    s.spot = SpotPolicy::allow;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE(r->cheapest);
    const Offer& cheap = r->offers.at(r->cheapest->index);
    if (cheap.spot && !r->offers[0].spot) {
        CHECK(r->cheapest->trade_off.find("; spot: can be reclaimed") != std::string::npos);
        CHECK(r->cheapest->trade_off_zh.find("抢占式:可能被回收") != std::string::npos);
    }
    const std::string json = recommendation_to_json(*r);
    CHECK(json.find("\"cheapest\":{\"index\":" + std::to_string(r->cheapest->index)) != std::string::npos);
    CHECK(json.find("\"fastest\":{\"index\":") != std::string::npos);
}

TEST_CASE("planner: Chinese names from the catalog in the Chinese answer, English in the English one") {
    Catalog c = test_catalog();
    c.providers[1].name = "CN Cloud";
    c.providers[1].name_zh = "中国云";
    c.instances[3].name_zh = "h20x1 (按 GPU 计)";
    c.accelerators[2].name = "H20 (China)";
    c.accelerators[2].name_zh = "H20 (中国特供版)";
    Scenario s;
    s.region = Region::cn_mainland;
    s.currency = Currency::CNY;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    const Offer& o = r->offers[0];
    CHECK(o.provider_name == "CN Cloud");
    CHECK(o.provider_name_zh == "中国云");
    CHECK(o.instance_zh == "h20x1 (按 GPU 计)");
    CHECK(o.gpu_name_zh == "H20 (中国特供版)");
    CHECK(r->summary_zh.find("中国云 h20x1 (按 GPU 计)") != std::string::npos);
    CHECK(r->summary_zh.find("H20 (中国特供版)") != std::string::npos);
    CHECK(r->summary_zh.find("China") == std::string::npos);
    CHECK(r->summary.find("CN Cloud h20x1") != std::string::npos);
    // A catalog without Chinese names: the English ones.
    auto plain = recommend(test_catalog(), s);
    REQUIRE(plain.ok());
    CHECK(plain->offers[0].provider_name_zh == plain->offers[0].provider_name);
    CHECK(plain->offers[0].instance_zh == plain->offers[0].instance);
}

TEST_CASE("planner: single-GPU VMs join only for data parallelism, slowed by their real network") {
    Catalog c = test_catalog();
    c.instances = {inst("cloud", "lonely", "h100", 1, "none", 26, 225, 2.0, std::nullopt, false, "USD", 0)};
    Scenario s;
    s.model = "llama-3.1-70b";
    s.task = Task::full_ft;
    s.train_tokens = 1e8;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    if (!r->offers.empty()) {
        const Offer& o = r->offers.front();
        CHECK(o.plan.tensor_parallel == 1);
        CHECK(o.plan.pipeline_parallel == 1);
        REQUIRE(check(o, "fabric"));
        CHECK_FALSE(check(o, "fabric")->ok);
        CHECK(check(o, "fabric")->message.find("assumed 10 Gbps") != std::string::npos);
        REQUIRE(o.step);
        CHECK(o.step->dp_exposed_s > o.step->compute_s);  // the network, not the GPUs, sets the pace
    }
}

TEST_CASE("planner: TPU chips are planned as the slices Google sells, one ICI domain") {
    Catalog c = test_catalog();
    Accelerator v5e = gpu("tpu_v5e", 16, 197, 819, 200, "not-sold-in-china");
    v5e.software = "xla";
    c.accelerators.push_back(v5e);
    c.instances = {inst("gcp", "TPU v5e (per chip)", "tpu_v5e", 1, "ici", 0, 0, 1.2, std::nullopt)};
    Scenario s;
    s.model = "llama-3.1-70b";
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    const Offer& o = r->offers.front();
    const std::vector<std::int64_t> slices = {1, 4, 8, 16, 32, 64, 128, 256};
    CHECK(std::find(slices.begin(), slices.end(), o.gpu_count) != slices.end());
    CHECK(o.nodes == 1);  // one slice, never separate "nodes" of chips
    CHECK(o.usd_per_hour == doctest::Approx(1.2 * double(o.gpu_count)));
    CHECK(check(o, "tpu_slice"));
    CHECK_FALSE(check(o, "fabric"));
}

TEST_CASE("planner: on a TPU the levers are what XLA runs — a chunked loss and checkpointing, no bitsandbytes, no Triton") {
    // The shipped catalog's Google Cloud rows: TPU slices and A3 GPU machines side by side.
    const Result<Catalog> c = parse_catalog(embedded_catalog_json());
    REQUIRE(c.ok());
    Scenario s;
    s.model = "llama-3.1-8b";
    s.task = Task::full_ft;
    s.seq_len = 16384;  // eight chips or GPUs for an 8B full fine-tune at 16k tokens: tight without a lever
    s.train_tokens = 1e8;
    s.num_gpus = 8;
    s.providers = {"gcp"};
    give(s, {Key::num_gpus});
    auto r = recommend(*c, s);
    REQUIRE(r.ok());
    bool tpu_with_levers = false, gpu_with_fused = false;
    for (const Offer& o : r->offers) {
        const Accelerator* a = c->find_accelerator(o.gpu);
        REQUIRE(a);
        for (const Lever& l : o.levers) {
            if (a->software == "xla") {
                tpu_with_levers = true;
                CHECK_MESSAGE(l.key != "optimizer", "bitsandbytes has no XLA build");
                CHECK_MESSAGE(l.key != "offload", "DeepSpeed's CPU Adam has no XLA build");
                if (l.key == "loss_impl") CHECK(l.value == "chunked");
            } else if (l.key == "loss_impl" && l.value == "fused") {
                gpu_with_fused = true;
            }
        }
    }
    CHECK(tpu_with_levers);
    CHECK(gpu_with_fused);  // on CUDA the fused loss is the first lever
}

TEST_CASE("planner: A16 rows are GPUs — a 4-GPU board instance is 4 GPUs of 16 GB") {
    Catalog c = test_catalog();
    c.accelerators.push_back(gpu("a16", 16, 17.9, 200, 0, "china-available"));
    c.instances = {inst("cloud", "a16x4", "a16", 4, "pcie", 48, 440, 4.0, std::nullopt)};
    Scenario s;
    s.batch_size = 4;
    give(s, {Key::batch_size});
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->offers.empty());
    const Offer& o = r->offers.front();
    CHECK(o.gpu_memory_bytes == 16 * GiB);
    CHECK(o.gpu_count == 4);
    CHECK(o.plan.tensor_parallel >= 2);  // 16 GB of bf16 Llama-3.1-8B weights do not fit one 16 GiB GPU
}

// [SECTION] Reasons a person can act on

TEST_CASE("planner: a mainland offer found with region any says it needs a mainland real-name account") {
    Scenario s;
    s.model = "llama-3.1-8b";
    auto r = recommend(test_catalog(), s);
    REQUIRE(r.ok());
    const Offer* cn = find(*r, "h20x1");
    REQUIRE(cn);
    const Check* c = check(*cn, "mainland_account");
    REQUIRE(c);
    CHECK_FALSE(c->ok);
    CHECK_FALSE(check(*find(*r, "h100x1"), "mainland_account"));
    s.region = Region::cn_mainland;  // chosen: no need to say it
    r = recommend(test_catalog(), s);
    REQUIRE(r.ok());
    REQUIRE(find(*r, "h20x1"));
    CHECK_FALSE(check(*find(*r, "h20x1"), "mainland_account"));
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

TEST_CASE("planner: an export-controlled gpu in mainland China names the controls and what is rented there") {
    Catalog c = test_catalog();
    c.accelerators[0].export_status_date = "2023-10";
    Scenario s;
    s.region = Region::cn_mainland;
    s.gpu = "h100";
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    CHECK(r->offers.empty());
    CHECK(r->summary.find("export controls") != std::string::npos);
    CHECK(r->summary.find("h20") != std::string::npos);  // the compliant part a mainland cloud rents
    CHECK(r->summary_zh.find("出口管制") != std::string::npos);
    REQUIRE_FALSE(r->notes.empty());
}

TEST_CASE("planner: a budget miss states the cheapest plan and by how much it misses") {
    const Catalog c = test_catalog();
    Scenario s;
    s.task = Task::full_ft;
    s.train_tokens = 1e10;
    s.budget = 1.0;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    CHECK(r->offers.empty());
    REQUIRE_FALSE(r->rejected_reasons.empty());
    bool over = false;
    for (const auto& x : r->rejected_reasons) over = over || x.find("over the budget") != std::string::npos;
    CHECK(over);
    CHECK(r->summary.rfind("Nothing in the catalog can run", 0) == 0);
    CHECK(r->summary.find("the cheapest plan costs $") != std::string::npos);
    CHECK(r->summary.find("over your $1.00 budget") != std::string::npos);
    CHECK(r->summary_zh.find("超出预算") != std::string::npos);
}

TEST_CASE("planner: with top N the answer still names the cheapest and the fastest of the whole ranking") {
    Scenario s;
    s.task = Task::lora;
    s.train_tokens = 1e8;
    auto all = recommend(test_catalog(), s);
    REQUIRE(all.ok());
    REQUIRE(all->fastest);
    const std::size_t fastest_rank = all->fastest->index + 1;
    REQUIRE(fastest_rank > 2);  // the case needs a fastest offer outside the top 2
    auto top = recommend(test_catalog(), s, 2);
    REQUIRE(top.ok());
    REQUIRE(top->fastest);
    const Offer& f = top->offers[top->fastest->index];
    CHECK(f.rank == fastest_rank);
    CHECK(f.instance == all->offers[all->fastest->index].instance);
    CHECK(top->fastest->trade_off == all->fastest->trade_off);
    CHECK(top->offers.size() <= 4);
    CHECK(top->offers[0].rank == 1);
    CHECK(top->offers[1].rank == 2);
}

TEST_CASE("planner: every check of every offer says it in Chinese too (the page shows the UI's language)") {
    auto has_cjk = [](const std::string& t) {
        for (unsigned char ch : t)
            if (ch >= 0xE3 && ch <= 0xE9) return true;  // lead bytes of U+3000–U+9FFF
        return false;
    };
    Scenario train;  // spot, headroom, host RAM, vCPUs, mainland account, export …
    train.task = Task::lora;
    train.train_tokens = 1e8;
    Scenario serve;
    serve.model = "llama-3.1-8b";
    int seen = 0;
    for (const Scenario& s : {train, serve}) {
        auto r = recommend(test_catalog(), s);
        REQUIRE(r.ok());
        for (const Offer& o : r->offers)
            for (const Check& c : o.checks) {
                INFO(c.id << ": " << c.message << " / " << c.message_zh);
                CHECK(has_cjk(c.message_zh));
                ++seen;
            }
    }
    CHECK(seen > 10);
}

TEST_CASE("planner: bf16 on a part without bf16 tensor cores is a warning, and the speed is fp16's") {
    Catalog c = test_catalog();
    Accelerator t4 = gpu("t4", 16, 0, 320, 0, "china-available");
    t4.tflops_fp16_dense = 65;
    t4.year = 2018;
    c.accelerators.push_back(t4);
    c.instances = {inst("cloud", "t4x1", "t4", 1, "pcie", 8, 32, 0.5, std::nullopt)};
    Scenario s;
    s.model = "llama-3.1-8b";
    s.task = Task::qlora;
    auto r = recommend(c, s);
    REQUIRE(r.ok());
    // QLoRA weights are nf4; the scenario's compute dtype stays bf16 in the warning's sense only when bf16.
    Scenario b;
    b.model = "llama-3.1-8b";
    b.weight_dtype = WeightDtype::int4_awq;  // serving: weights 4-bit, no bf16 involved
    auto rb = recommend(c, b);
    REQUIRE(rb.ok());
    Scenario bf;
    bf.model = "llama-3.1-8b";
    bf.weight_dtype = WeightDtype::bf16;
    bf.seq_len = 256;
    bf.gpu_memory_gib = 32.0;  // pretend it fits, to see the warning on an offer
    bf.gpu = "t4";
    auto rf = recommend(c, bf);
    REQUIRE(rf.ok());
    REQUIRE_FALSE(rf->offers.empty());
    REQUIRE(check(rf->offers.front(), "bf16"));
    CHECK_FALSE(check(rf->offers.front(), "bf16")->ok);
    CHECK(check(rf->offers.front(), "bf16")->message.find("fp16") != std::string::npos);
}

TEST_CASE("planner: an instance without a price is listed last, marked, and never summarised with a price") {
    Catalog c = test_catalog();
    Instance unpriced = inst("cncloud", "h20x8", "h20", 8, "nvswitch", 128, 1024, std::nullopt, std::nullopt, true, "CNY");
    c.instances = {unpriced};
    Scenario s;
    s.region = Region::cn_mainland;
    s.spot = SpotPolicy::allow;
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
    CHECK(check(*o, "per_gpu_listing"));
}

TEST_CASE("planner: without words an offer keeps every check's outcome; word_offer then writes recommend()'s words") {
    Catalog c = test_catalog();
    Instance pod = inst("cloud", "h100-pod", "h100", 1, "none", 16, 125, 2.0, std::nullopt);
    pod.scales_to_gpus = 8;
    pod.scaled_interconnect = "nvlink";
    c.instances.push_back(pod);
    Scenario train;
    train.task = Task::lora;
    train.train_tokens = 1e8;
    Scenario serve;
    serve.model = "llama-3.1-70b";
    for (const Scenario& s : {train, serve}) {
        const auto worded = recommend(c, s);
        auto bare = recommend(c, s, 0, OfferWords::none);
        REQUIRE(worded.ok());
        REQUIRE(bare.ok());
        REQUIRE(bare->offers.size() == worded->offers.size());
        for (std::size_t i = 0; i < bare->offers.size(); ++i) {
            Offer& o = bare->offers[i];
            const Offer& w = worded->offers[i];
            CHECK(o.why.empty());
            REQUIRE(o.checks.size() == w.checks.size());
            for (std::size_t k = 0; k < o.checks.size(); ++k) {
                CHECK(o.checks[k].id == w.checks[k].id);
                CHECK(o.checks[k].ok == w.checks[k].ok);
                CHECK(o.checks[k].message.empty());
            }
            word_offer(*bare, o);
            CHECK(o.why == w.why);
            CHECK(o.why_zh == w.why_zh);
            for (std::size_t k = 0; k < o.checks.size(); ++k) {
                CHECK(o.checks[k].message == w.checks[k].message);
                CHECK(o.checks[k].message_zh == w.checks[k].message_zh);
            }
        }
    }
    // Serving 70B on the pod: two GPUs (141 GB of weights), 2 × 16 vCPUs, two GPUs at 2 × $2.00.
    auto r = recommend(c, serve, 0, OfferWords::none);
    REQUIRE(r.ok());
    const auto it = std::find_if(r->offers.begin(), r->offers.end(), [](const Offer& o) { return o.instance == "h100-pod"; });
    REQUIRE(it != r->offers.end());
    word_offer(*r, *it);
    REQUIRE(check(*it, "vcpus"));
    CHECK(check(*it, "vcpus")->message == "16 vCPUs per GPU");
    REQUIRE(check(*it, "per_gpu_listing"));
    CHECK(check(*it, "per_gpu_listing")->message == "priced per GPU: assumes one machine with 2 GPUs (nvlink) at 2× the listed price");
}

TEST_CASE("planner: money prints at least 3 significant digits, never 0") {
    CHECK(format_money_sig(0.35, Currency::CNY) == "¥0.350");
    CHECK(format_money_sig(0.0412, Currency::USD) == "$0.0412");
    CHECK(format_money_sig(0.004123, Currency::USD) == "$0.00412");
    CHECK(format_money_sig(12.345, Currency::USD) == "$12.3");
    CHECK(format_money_sig(2078.4, Currency::CNY) == "¥2078");
    CHECK(format_money_sig(1.5, Currency::USD) == "$1.50");
}

// [SECTION] The guided start

TEST_CASE("guided: answers set the keys, mark them given, and the planner keeps them") {
    GuidedAnswers a;
    a.task = GuidedAnswers::serve;
    a.size = 4;  // about 70B
    a.gpus = GuidedAnswers::model_parallel;
    a.interruptible = false;
    a.where = GuidedAnswers::either;
    Scenario s;
    apply_guided(a, s);
    CHECK(s.model == "llama-3.1-70b");
    CHECK(s.num_gpus == 8);
    CHECK(s.tensor_parallel == 8);
    CHECK(s.interconnect == InterconnectNeed::nvlink);
    CHECK(s.spot == SpotPolicy::never);
    CHECK(is_given(s.given, Key::tensor_parallel));
    const Catalog c = test_catalog();
    auto split = recommend(c, s);
    REQUIRE(split.ok());
    for (const Offer& o : split->offers) CHECK(o.plan.tensor_parallel == 8);
    a.gpus = GuidedAnswers::one;  // "one GPU": a different answer from "model split"
    Scenario one;
    apply_guided(a, one);
    CHECK(one.num_gpus == 1);
    CHECK(is_given(one.given, Key::num_gpus));
    auto single = recommend(c, one);
    REQUIRE(single.ok());
    for (const Offer& o : single->offers) CHECK(o.gpu_count == 1);
    a.priority = GuidedAnswers::hourly;
    Scenario cheap;
    apply_guided(a, cheap);
    CHECK(cheap.rank_by == RankBy::hourly);
    a.where = GuidedAnswers::mainland;
    Scenario cn;
    apply_guided(a, cn);
    CHECK(cn.region == Region::cn_mainland);
    CHECK(cn.currency == Currency::CNY);
}
