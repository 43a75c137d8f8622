// The planner (docs/speed-and-cost.md): for each instance type the smallest node count and
// parallel plan that fit — re-estimated with the memory model, never scaled by a ratio —
// then speed, time, on-demand and spot cost, checks, ranking and a summary sentence.
//
// Index
// [SECTION] Assumptions (each with its source or marked as an assumption)
// [SECTION] Helpers
// [SECTION] Plan search
// [SECTION] Offers: speed, price, checks
// [SECTION] Ranking and summary
// [SECTION] recommend()

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "gpusizer/recommend.hpp"
#include "gpusizer/speed.hpp"

namespace gpusizer {

// [SECTION] Assumptions
namespace {

constexpr std::int64_t k_max_nodes_for_fit = 64;       // memory search stops here (512 GPUs of 8)
constexpr std::int64_t k_max_nodes_for_deadline = 1024;  // scaling out to meet a deadline stops here
constexpr double k_min_headroom_fraction = 0.05;  // below 5% free memory, allocator spikes can OOM
constexpr double k_host_ram_per_vram = 2.0;       // host RAM ≥ 2–3 × total GPU memory (data caching, offload)
constexpr double k_min_vcpus_per_gpu = 4.0;       // data loading workers per GPU (assumption, common guidance)
constexpr double k_fast_fabric_gbps = 100.0;      // InfiniBand / EFA / RoCE class links start here

// Spot interruptions per hour by provider kind. ASSUMPTIONS: providers publish no rates for GPU
// spot capacity (AWS's Spot Instance Advisor gives monthly buckets only); one reclaim a day on
// clouds, two on marketplaces, is what we assume until measured.
double interruptions_per_hour(const std::string& kind) {
    if (kind == "marketplace") return 1.0 / 12.0;
    return 1.0 / 24.0;
}

// [SECTION] Helpers

std::string fmt(const char* f, double v) {
    char buf[256];  // Chinese text: 3 bytes a character
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string money(double v, Currency c) {
    const char* sym = c == Currency::CNY ? "¥" : "$";
    if (v >= 100) return sym + fmt("%.0f", v);
    if (v >= 1) return sym + fmt("%.2f", v);
    return sym + fmt("%.3f", v);
}

std::string hours_text(double h) {
    if (h < 1) return fmt("%.0f min", h * 60);
    if (h < 48) return fmt("%.1f h", h);
    return fmt("%.1f days", h / 24);
}

std::string hours_text_zh(double h) {
    if (h < 1) return fmt("%.0f 分钟", h * 60);
    if (h < 48) return fmt("%.1f 小时", h);
    return fmt("%.1f 天", h / 24);
}

const char* task_title(Task t) {
    switch (t) {
        case Task::inference: return "serving";
        case Task::pretrain: return "pretraining";
        case Task::full_ft: return "full fine-tuning";
        case Task::lora: return "LoRA";
        case Task::qlora: return "QLoRA";
    }
    return "";
}
const char* task_title_zh(Task t) {
    switch (t) {
        case Task::inference: return "推理服务";
        case Task::pretrain: return "预训练";
        case Task::full_ft: return "全参数微调";
        case Task::lora: return "LoRA 微调";
        case Task::qlora: return "QLoRA 微调";
    }
    return "";
}

bool is_training(Task t) { return t != Task::inference; }

}  // namespace

double convert_currency(double amount, const std::string& from, Currency to, const CurrencyRate& rate) {
    const std::string target = to_string(to);
    if (from == target || rate.cny_per_usd <= 0) return amount;
    if (from == "USD" && to == Currency::CNY) return amount * rate.cny_per_usd;
    if (from == "CNY" && to == Currency::USD) return amount / rate.cny_per_usd;
    return amount;
}

// [SECTION] Plan search
namespace {

struct Fit {
    bool found = false;
    std::int64_t nodes = 0, gpus = 0;
    Plan plan;
    Estimate est;
};

struct Planner {
    const Catalog& catalog;
    const Scenario& base;
    ModelArch arch;
    std::map<std::tuple<const Accelerator*, std::uint64_t, std::int64_t, std::int64_t, std::int64_t, int>, std::optional<Estimate>>
        cache;  // (gpu, memory, gpus, tp, pp, zero) → estimate, shared by instances with the same GPU

    // The estimate of this plan when it fits, else nullptr; owned by the cache (std::map nodes
    // stay put), so asking again costs a lookup, not a copy.
    const Estimate* try_plan(const Accelerator& a, std::uint64_t memory, std::int64_t gpus, const Plan& p) {
        const auto key = std::make_tuple(&a, memory, gpus, p.tensor_parallel, p.pipeline_parallel, p.zero_stage);
        if (auto it = cache.find(key); it != cache.end()) return it->second ? &*it->second : nullptr;
        Scenario c = base;
        c.gpu = a.id;
        c.gpu_memory_gib = static_cast<double>(memory) / 1073741824.0;
        c.tensor_parallel = p.tensor_parallel;
        c.pipeline_parallel = p.pipeline_parallel;
        c.num_gpus = is_training(c.task) ? gpus : p.tensor_parallel * p.pipeline_parallel;  // inference: one replica
        c.zero_stage = p.zero_stage;
        std::optional<Estimate> out;
        Result<Estimate> e = estimate(catalog, c, k_estimate_memory_only);
        if (e.ok() && e->gpu && e->gpu->fits) out = std::move(*e.value);
        const auto it = cache.emplace(key, std::move(out)).first;
        return it->second ? &*it->second : nullptr;
    }

    // Plans at one node count, in order of preference: no pipeline before pipeline, least tensor
    // parallelism, then the lowest ZeRO stage (at least the scenario's).
    std::vector<Plan> plans_for(std::int64_t per_node, std::int64_t nodes) const {
        std::vector<Plan> out;
        const std::int64_t gpus = per_node * nodes;
        std::vector<std::int64_t> tps;
        for (std::int64_t tp = 1; tp <= per_node; tp *= 2)
            if (per_node % tp == 0) tps.push_back(tp);
        std::vector<std::int64_t> pps = {1};
        if (nodes > 1) pps.push_back(nodes);
        for (std::int64_t pp : pps)
            for (std::int64_t tp : tps) {
                // Inference across nodes: one replica spans them all (TP inside, PP across).
                if (!is_training(base.task) && nodes > 1 && (tp != tps.back() || pp != nodes)) continue;
                const int z0 = is_training(base.task) ? base.zero_stage : 0;
                const int z1 = is_training(base.task) && gpus / (tp * pp) > 1 ? 3 : z0;
                for (int z = z0; z <= std::max(z0, z1); ++z) {
                    Plan p;
                    p.tensor_parallel = tp;
                    p.pipeline_parallel = pp;
                    p.data_parallel = gpus / (tp * pp);
                    p.zero_stage = z;
                    out.push_back(p);
                }
            }
        return out;
    }

    // The first plan that fits at this node count, if any.
    Fit at_nodes(const Accelerator& a, std::uint64_t memory, std::int64_t per_node, std::int64_t nodes) {
        Fit f;
        for (const Plan& p : plans_for(per_node, nodes))
            if (const Estimate* e = try_plan(a, memory, per_node * nodes, p)) {
                f.found = true;
                f.nodes = nodes;
                f.gpus = per_node * nodes;
                f.plan = p;
                f.est = *e;
                break;
            }
        return f;
    }

    // Does anything fit at this node count? The most sharded plan of each pipeline depth decides
    // (pipelining is not always a saving: 1F1B keeps p micro-batches of activations in flight).
    bool fits_at(const Accelerator& a, std::uint64_t memory, std::int64_t per_node, std::int64_t nodes) {
        const std::vector<Plan> plans = plans_for(per_node, nodes);
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const bool last_of_depth = i + 1 == plans.size() || plans[i + 1].pipeline_parallel != plans[i].pipeline_parallel;
            if (last_of_depth && try_plan(a, memory, per_node * nodes, plans[i])) return true;
        }
        return false;
    }

    // Smallest node count (and within it the least model parallelism) that fits. Memory per GPU
    // of the most saving plan falls as nodes grow, so the node count is found by doubling and
    // bisection: about 2·log2(max nodes) estimates instead of one per node count and plan.
    Fit find(const Accelerator& a, std::uint64_t memory, std::int64_t per_node, bool fractional, std::int64_t min_nodes = 1,
             std::int64_t max_nodes = k_max_nodes_for_fit) {
        const std::int64_t last = fractional ? 1 : std::max(min_nodes, max_nodes);
        std::int64_t lo = min_nodes;
        if (fits_at(a, memory, per_node, lo)) return at_nodes(a, memory, per_node, lo);
        std::int64_t hi = lo;
        bool found = false;
        while (hi < last && !found) {
            lo = hi;
            hi = std::min(last, hi * 2);
            found = fits_at(a, memory, per_node, hi);
        }
        if (!found) return {};
        while (hi - lo > 1) {  // !fits(lo), fits(hi)
            const std::int64_t mid = lo + (hi - lo) / 2;
            if (fits_at(a, memory, per_node, mid)) hi = mid;
            else lo = mid;
        }
        return at_nodes(a, memory, per_node, hi);
    }
};

// [SECTION] Offers: speed, price, checks

void add_check(Offer& o, const char* id, bool ok, std::string message, bool blocking = false) {
    o.checks.push_back({id, ok, blocking && !ok, std::move(message)});
}

std::string gpu_label(const Accelerator& a) { return a.name.empty() ? a.id : a.name; }

}  // namespace

// [SECTION] recommend()

Result<Recommendation> recommend(const Catalog& catalog, const Scenario& s, std::size_t top) {
    Recommendation rec;
    rec.scenario = s;
    Result<ModelArch> arch = resolve_model(catalog, s);
    if (!arch.ok()) return Result<Recommendation>::failure(arch.error, arch.warnings);
    for (auto& w : arch.warnings) rec.warnings.push_back(w);
    if (!s.gpu.empty() && !catalog.find_accelerator(s.gpu))
        return Result<Recommendation>::failure({"unknown_id", "gpu: unknown accelerator '" + s.gpu + "'", "gpu"});

    Planner planner{catalog, s, *arch, {}};
    std::vector<Offer> offers;
    std::map<std::string, bool> no_fit_reported;

    for (const Instance& inst : catalog.instances) {
        if (!s.gpu.empty() && inst.gpu != s.gpu) continue;
        if (s.region == Region::global && inst.cn_mainland) continue;
        if (s.region == Region::cn_mainland && !inst.cn_mainland) continue;
        if (!s.providers.empty() && std::find(s.providers.begin(), s.providers.end(), inst.provider) == s.providers.end())
            continue;
        const Accelerator* a0 = catalog.find_accelerator(inst.gpu);
        const Provider* prov = catalog.find_provider(inst.provider);
        if (!a0 || inst.gpu_count <= 0) continue;

        // A fractional GPU (e.g. 1/3 of an A10) has that share of memory and speed.
        const bool fractional = inst.gpu_count < 1;
        Accelerator a = *a0;
        if (fractional) {
            const double f = inst.gpu_count;
            a.memory_bytes = static_cast<std::uint64_t>(static_cast<double>(a.memory_bytes) * f);
            a.memory_bandwidth_gbps *= f;
            a.tflops_bf16_dense *= f, a.tflops_fp16_dense *= f, a.tflops_fp8_dense *= f, a.tflops_tf32 *= f,
                a.tflops_fp32 *= f;
        }
        std::uint64_t memory = a.memory_bytes;
        if (s.gpu_memory_gib && !s.gpu.empty()) memory = static_cast<std::uint64_t>(*s.gpu_memory_gib * 1073741824.0);

        // The node: the listing's fixed shape, or for a per-GPU listing the smallest machine of
        // 1, 2, 4 … GPUs that fits (price, vCPUs and RAM scale with it; multi-node only at the largest).
        std::int64_t per_node = fractional ? 1 : static_cast<std::int64_t>(inst.gpu_count);
        std::string interconnect = inst.interconnect;
        double scale = 1;
        Fit fit;
        if (!fractional && inst.scales_to_gpus > inst.gpu_count) {
            const auto most = static_cast<std::int64_t>(inst.scales_to_gpus);
            for (std::int64_t k = per_node; k <= most && !fit.found; k *= 2) {
                fit = planner.find(a, memory, k, false, 1, k * 2 > most ? k_max_nodes_for_fit : 1);
                if (fit.found) {
                    per_node = k;
                    interconnect = k > 1 ? inst.scaled_interconnect : inst.interconnect;
                    scale = static_cast<double>(k) / inst.gpu_count;
                }
            }
        } else {
            fit = planner.find(a, memory, per_node, fractional);
        }
        const double vcpus = inst.vcpus * scale, ram_gib = inst.ram_gib * scale;
        ++rec.considered;
        if (!fit.found) {
            if (!no_fit_reported[a.id + std::to_string(per_node)]) {
                no_fit_reported[a.id + std::to_string(per_node)] = true;
                rec.rejected_reasons.push_back(inst.provider + " " + inst.id + ": does not fit on up to " +
                                               std::to_string(fractional ? 1 : k_max_nodes_for_fit) + " × " +
                                               std::to_string(per_node) + " " + gpu_label(a));
            }
            continue;
        }

        const bool pcie_mp = (interconnect == "pcie" || interconnect == "none") &&
                             (fit.plan.tensor_parallel > 1 || (fit.plan.pipeline_parallel > 1 && fit.nodes == 1));

        // Price options by spot policy; a listing without any price is still shown (price unknown).
        enum class PriceKind { ondemand, spot, unknown };
        std::vector<PriceKind> price_options;
        if (s.spot != SpotPolicy::only && inst.ondemand_per_hour) price_options.push_back(PriceKind::ondemand);
        if (s.spot != SpotPolicy::never && inst.spot_per_hour) price_options.push_back(PriceKind::spot);
        if (s.spot != SpotPolicy::only && !inst.ondemand_per_hour && !inst.spot_per_hour)
            price_options.push_back(PriceKind::unknown);

        for (PriceKind kind : price_options) {
            const bool spot = kind == PriceKind::spot;
            Fit f = fit;
            Offer o;
            o.provider = inst.provider;
            o.provider_name = prov ? prov->name : inst.provider;
            o.instance = inst.id;
            o.region = inst.price_region;
            o.gpu = a.id;
            o.gpu_name = gpu_label(a);
            o.interconnect = interconnect;
            o.vcpus = vcpus;
            o.ram_gib = ram_gib;
            o.price_known = kind != PriceKind::unknown;
            o.spot = spot;
            o.cn_mainland = inst.cn_mainland;
            o.currency = to_string(s.currency);
            o.gpu_memory_bytes = memory;
            const double node_price = (kind == PriceKind::spot       ? *inst.spot_per_hour
                                       : kind == PriceKind::ondemand ? *inst.ondemand_per_hour
                                                                     : 0.0) *
                                      scale;
            o.price_is_estimate = is_estimate(inst.confidence) || (spot && inst.spot_is_typical_discount);

            // Scale out for a deadline (training): more nodes until the run is short enough.
            auto evaluate = [&](const Fit& ff) {
                o.nodes = ff.nodes;
                o.gpu_count = ff.gpus;
                o.plan = ff.plan;
                o.memory_per_gpu_bytes = ff.est.memory_per_gpu_bytes.total;
                o.usd_per_hour = convert_currency(node_price, inst.currency, Currency::USD, catalog.usd_cny) *
                                 static_cast<double>(ff.nodes);
                o.price_per_hour = convert_currency(node_price, inst.currency, s.currency, catalog.usd_cny) *
                                   static_cast<double>(ff.nodes);
                o.hours.reset();
                o.gpu_hours.reset();
                o.total_cost.reset();
                o.cost_per_million_tokens.reset();
                const double overhead =
                    spot ? interruptions_per_hour(prov ? prov->kind : "") * (k_checkpoint_interval_hours / 2 + k_restart_hours)
                         : 0;
                o.spot_overhead_fraction = overhead;
                if (is_training(s.task)) {
                    TrainingSpeed t = training_speed(ff.est.scenario, *arch, ff.est.params, a, ff.gpus, pcie_mp);
                    o.tokens_per_s = t.tokens_per_s;
                    o.mfu = t.mfu;
                    if (s.train_tokens) {
                        o.hours = t.hours * (1 + overhead);
                        o.gpu_hours = *o.hours * static_cast<double>(ff.gpus);
                    }
                } else {
                    const std::int64_t replicas = ff.plan.data_parallel;
                    InferenceSpeed sp = inference_speed(ff.est.scenario, *arch, ff.est.params, ff.est.memory_per_gpu_bytes,
                                                        ff.est.kv_bytes_per_token, a, ff.plan.tensor_parallel, replicas,
                                                        interconnect);
                    o.tokens_per_s = sp.tokens_per_s;
                    o.mfu = 0;
                    if (s.train_tokens && sp.tokens_per_s > 0) {
                        o.hours = *s.train_tokens / sp.tokens_per_s / 3600.0 * (1 + overhead);
                        o.gpu_hours = *o.hours * static_cast<double>(ff.gpus);
                    }
                }
                if (!o.price_known) return;
                if (o.tokens_per_s > 0)
                    o.cost_per_million_tokens = o.price_per_hour * (1 + overhead) / (o.tokens_per_s * 3600.0) * 1e6;
                if (o.hours) o.total_cost = o.price_per_hour * *o.hours;
            };
            evaluate(f);
            if (s.deadline_hours && o.hours && *o.hours > *s.deadline_hours && is_training(s.task) && !fractional) {
                // Time scales with 1/GPUs at constant MFU: the node count that meets the deadline, re-planned.
                const double need = std::ceil(static_cast<double>(f.nodes) * *o.hours / *s.deadline_hours);
                const std::int64_t nodes = static_cast<std::int64_t>(std::min<double>(need, double(k_max_nodes_for_deadline)));
                Fit g = planner.find(a, memory, per_node, false, nodes, nodes);
                if (g.found) {
                    f = g;
                    evaluate(f);
                }
            }

            // Checks.
            const GpuFit& gf = *f.est.gpu;
            add_check(o, "memory_fit", true,
                      fmt("%.1f", double(gf.memory_bytes - gf.headroom_bytes) / 1073741824.0) + " of " +
                          fmt("%.1f", double(gf.memory_bytes) / 1073741824.0) + " GiB per GPU");
            const bool roomy = double(gf.headroom_bytes) >= k_min_headroom_fraction * double(gf.memory_bytes);
            add_check(o, "headroom", roomy,
                      roomy ? fmt("%.0f%% free", 100.0 * double(gf.headroom_bytes) / double(gf.memory_bytes))
                            : "less than 5% free: allocator spikes may run out of memory");
            if (f.plan.tensor_parallel > 1 || f.plan.pipeline_parallel > 1)
                add_check(o, "pcie_model_parallel", !pcie_mp,
                          pcie_mp ? "model parallelism over PCIe: utilisation can fall to ~50%"
                                  : "model parallel inside " + interconnect);
            if (f.nodes > 1) {
                const bool fast = inst.network_gbps >= k_fast_fabric_gbps;
                add_check(o, "fabric", fast,
                          fmt("%.0f", inst.network_gbps) + " Gbps between nodes" +
                              (fast ? "" : ": no InfiniBand/EFA/RoCE-class fabric, multi-node scaling will suffer"));
            }
            const double vram_gib = double(memory) / 1073741824.0 * double(per_node);
            const double host_need_gib = double(f.est.host_memory_bytes) / 1073741824.0 / double(f.nodes);
            const bool ram_ok = ram_gib <= 0 || ram_gib >= host_need_gib;
            if (ram_gib <= 0)
                add_check(o, "host_ram", false,
                          "host RAM not listed: check it holds " + fmt("%.0f", std::max(host_need_gib, k_host_ram_per_vram * vram_gib)) +
                              " GiB (2× GPU memory, or what offload needs)");
            else if (!ram_ok)
                add_check(o, "host_ram", false,
                          fmt("%.0f", ram_gib) + " GiB RAM per node, the job needs " + fmt("%.0f", host_need_gib) +
                              " GiB in host memory",
                          true);
            else
                add_check(o, "host_ram", ram_gib >= k_host_ram_per_vram * vram_gib,
                          fmt("%.0f", ram_gib) + " GiB RAM per node for " + fmt("%.0f", vram_gib) +
                              " GiB of GPU memory" +
                              (ram_gib >= k_host_ram_per_vram * vram_gib ? "" : " (less than 2×: data caching and offload are tight)"));
            const double vcpu_per_gpu = vcpus / double(per_node);
            if (vcpus <= 0)
                add_check(o, "vcpus", false, "vCPUs not listed: data loading wants at least 4 per GPU");
            else
                add_check(o, "vcpus", vcpu_per_gpu >= k_min_vcpus_per_gpu,
                          fmt("%.0f", vcpu_per_gpu) + " vCPUs per GPU" +
                              (vcpu_per_gpu >= k_min_vcpus_per_gpu ? "" : ": data loading may starve the GPUs"));
            if (scale != 1)
                add_check(o, "per_gpu_listing", false,
                          "priced per GPU: assumes one machine with " + std::to_string(per_node) + " GPUs (" + interconnect +
                              ") at " + std::to_string(per_node) + "× the listed price");
            if (!o.price_known) add_check(o, "price", false, "no price in the catalog: ask the provider");
            if (a.export_status == "restricted")
                add_check(o, "export", true,
                          inst.cn_mainland ? "export-restricted part, listed by a mainland provider"
                                           : "export-restricted: not sold in mainland China");
            if (!a.software.empty() && a.software != "cuda")
                add_check(o, "software", false,
                          "needs " + a.software + " instead of CUDA: check that your framework and engine support it");
            if (spot) {
                const std::string notice = prov && prov->interruption_notice_s > 0
                                               ? fmt("%.0f s", prov->interruption_notice_s) + " notice"
                                               : "notice unknown";
                add_check(o, "spot", true,
                          "can be reclaimed (" + notice + "); assumes a checkpoint every 30 min: +" +
                              fmt("%.0f", 100 * o.spot_overhead_fraction) + "% time");
            }
            if (o.price_is_estimate)
                add_check(o, "price_estimate", false, "price is an estimate (" + std::string(to_string(inst.confidence)) +
                                                          (spot && inst.spot_is_typical_discount ? ", typical spot discount" : "") + ")");
            bool rejected = !ram_ok;
            if (s.budget && !o.price_known) {  // a budget needs a price to hold it to
                add_check(o, "budget", false, "no price in the catalog, so it cannot be held to the budget", true);
                rejected = true;
            }
            if (s.budget && o.total_cost && *o.total_cost > *s.budget) {
                add_check(o, "budget", false, "total " + money(*o.total_cost, s.currency) + " is over the budget " +
                                                  money(*s.budget, s.currency), true);
                rejected = true;
            }
            if (s.deadline_hours && o.hours && *o.hours > *s.deadline_hours) {
                add_check(o, "deadline", false, hours_text(*o.hours) + " is over the deadline " + hours_text(*s.deadline_hours),
                          true);
                rejected = true;
            }
            // Why: the plan in words.
            std::string why = std::to_string(o.gpu_count) + "× " + o.gpu_name;
            if (o.nodes > 1) why += " on " + std::to_string(o.nodes) + " nodes";
            const Plan& p = o.plan;
            std::vector<std::string> parts;
            if (p.tensor_parallel > 1) parts.push_back("TP " + std::to_string(p.tensor_parallel));
            if (p.pipeline_parallel > 1) parts.push_back("PP " + std::to_string(p.pipeline_parallel));
            if (p.data_parallel > 1) parts.push_back((is_training(s.task) ? "DP " : "replicas ") + std::to_string(p.data_parallel));
            if (is_training(s.task) && p.zero_stage > 0) parts.push_back("ZeRO-" + std::to_string(p.zero_stage));
            if (!parts.empty()) {
                why += " (";
                for (std::size_t i = 0; i < parts.size(); ++i) why += (i ? ", " : "") + parts[i];
                why += ")";
            }
            why += ": needs " + fmt("%.1f", double(o.memory_per_gpu_bytes) / 1073741824.0) + " GiB per GPU";
            if (is_training(s.task) && s.zero_stage < p.zero_stage) why += "; ZeRO raised from " + std::to_string(s.zero_stage);
            if (o.hours) why += ", ~" + hours_text(*o.hours);
            if (is_training(s.task)) why += fmt(" at MFU %.2f", o.mfu);
            o.why = why;
            if (rejected) {
                for (const Check& c : o.checks)
                    if (c.blocking) {
                        rec.rejected_reasons.push_back(o.provider + " " + o.instance + (spot ? " (spot)" : "") + ": " + c.message);
                        break;
                    }
                continue;
            }
            offers.push_back(std::move(o));
        }
    }

    // [SECTION] Ranking and summary
    auto cost_key = [](const Offer& o) {
        if (o.total_cost) return *o.total_cost;
        if (o.cost_per_million_tokens) return *o.cost_per_million_tokens;
        return o.price_per_hour;
    };
    std::sort(offers.begin(), offers.end(), [&](const Offer& x, const Offer& y) {
        if (x.price_known != y.price_known) return x.price_known;  // unpriced listings last
        const double cx = cost_key(x), cy = cost_key(y);
        if (cx != cy) return cx < cy;
        if (x.tokens_per_s != y.tokens_per_s) return x.tokens_per_s > y.tokens_per_s;
        return std::tie(x.provider, x.instance, x.spot) < std::tie(y.provider, y.instance, y.spot);
    });
    // Pareto front on (cost, time): sorted by cost, an offer is on it when it is faster than every cheaper one.
    double best_speed = -1;
    for (Offer& o : offers) {
        if (o.price_known && o.tokens_per_s > best_speed) {
            o.pareto = true;
            best_speed = o.tokens_per_s;
        }
    }
    if (top > 0 && offers.size() > top) offers.resize(top);
    rec.offers = std::move(offers);

    const Offer* best = rec.offers.empty() ? nullptr : &rec.offers.front();
    std::string model_name = s.source == ModelSource::preset ? s.model : "this model";
    if (s.source == ModelSource::preset)
        if (const ModelPreset* m = catalog.find_model(s.model)) model_name = m->name.empty() ? m->id : m->name;
    const std::string where = s.region == Region::cn_mainland ? " in mainland China" : s.region == Region::global ? " outside mainland China" : "";
    const std::string where_zh = s.region == Region::cn_mainland ? "在中国大陆" : s.region == Region::global ? "在中国大陆以外" : "";
    if (!best) {
        rec.summary = std::string("Nothing in the catalog can run ") + task_title(s.task) + " on " + model_name + where +
                      (rec.rejected_reasons.empty() ? "." : ": " + rec.rejected_reasons.front() + ".");
        rec.summary_zh = where_zh + "目录中没有能运行 " + model_name + " " + task_title_zh(s.task) + " 的实例" +
                         (rec.rejected_reasons.empty() ? "。" : "：" + rec.rejected_reasons.front() + "。");
        auto w = rec.warnings;
        return Result<Recommendation>::success(std::move(rec), std::move(w));
    }
    std::string line = std::string("For ") + task_title(s.task) + " on " + model_name + where + ": " +
                       std::to_string(best->gpu_count) + "× " + best->gpu_name + " on " + best->provider_name + " " +
                       best->instance + (best->spot ? " (spot)" : "");
    std::string zh = where_zh + "对 " + model_name + " 做" + task_title_zh(s.task) + "：" + best->provider_name + " " +
                     best->instance + (best->spot ? "（抢占式）" : "") + " 上 " + std::to_string(best->gpu_count) + "× " +
                     best->gpu_name;
    if (!best->price_known) {
        rec.summary = line + " fits, but the catalog has no price for it: ask the provider.";
        rec.summary_zh = zh + " 可以运行，但目录中没有它的价格，请向云厂商询价。";
        auto w = rec.warnings;
        return Result<Recommendation>::success(std::move(rec), std::move(w));
    }
    line += " at " + money(best->price_per_hour, s.currency) + "/h";
    zh += "，" + money(best->price_per_hour, s.currency) + "/小时";
    if (best->hours && best->total_cost) {
        line += ", ~" + hours_text(*best->hours) + ", " + money(*best->total_cost, s.currency) + " total";
        zh += "，约 " + hours_text_zh(*best->hours) + "，共 " + money(*best->total_cost, s.currency);
    } else if (best->cost_per_million_tokens) {
        line += ", " + money(*best->cost_per_million_tokens, s.currency) + " per million tokens";
        zh += "，每百万 token " + money(*best->cost_per_million_tokens, s.currency);
    }
    // Spot saving against the same instance on demand.
    if (!best->spot) {
        for (const Offer& o : rec.offers)
            if (o.spot && o.provider == best->provider && o.instance == best->instance && cost_key(*best) > 0) {
                const double saving = 1 - cost_key(o) / cost_key(*best);
                if (saving > 0.05) {
                    line += fmt("; spot saves ~%.0f%% if you checkpoint every 30 minutes", 100 * saving);
                    zh += fmt("；如果每 30 分钟保存一次检查点，抢占式实例可省约 %.0f%%", 100 * saving);
                }
                break;
            }
    } else {
        line += "; it can be reclaimed, so checkpoint every 30 minutes";
        zh += "；可能被回收，请每 30 分钟保存检查点";
    }
    rec.summary = line + ".";
    rec.summary_zh = zh + "。";
    auto w = rec.warnings;
    return Result<Recommendation>::success(std::move(rec), std::move(w));
}

}  // namespace gpusizer
