// The checks of an offer (docs/speed-and-cost.md "Checks"): each with a message a person can act
// on; a failed blocking one (host RAM for offload, budget, deadline, no price with a budget)
// removes the offer and becomes the reason.
//
// Index
// [SECTION] Constants
// [SECTION] Memory and layout
// [SECTION] The machine
// [SECTION] Price, spot and limits
// [SECTION] add_checks

#include <algorithm>
#include <optional>
#include <vector>

#include "gpusizer/units.hpp"
#include "plan.hpp"

namespace gpusizer::plan {
namespace {

// [SECTION] Constants

constexpr double k_host_ram_per_vram = 2.0;      // host RAM ≥ 2–3 × total GPU memory (data caching, offload)
constexpr double k_min_vcpus_per_gpu = 4.0;      // data loading workers per GPU (assumption, common guidance)
constexpr double k_comm_share_warn = 0.25;       // ASSUMPTION: beyond a quarter of the step, communication is the bottleneck
// MLPerf Inference's server scenario for Llama-2-70B bounds time per output token at 200 ms: slower
// than that, an interactive user waits on every word.
constexpr double k_interactive_tpot_ms = 200;
constexpr double k_long_run_hours = 168;  // a week: rank.cpp ranks such plans after the rest (same assumption)

void add(Offer& o, const char* id, bool ok, std::string message, bool blocking = false) {
    o.checks.push_back({id, ok, blocking && !ok, std::move(message)});
}

std::string joined(const std::vector<Lever>& levers) {
    std::string out;
    for (std::size_t i = 0; i < levers.size(); ++i)
        out += (i == 0 ? "" : i + 1 == levers.size() ? " and " : ", ") + levers[i].text;
    return out;
}

// [SECTION] Memory and layout

void memory_checks(const Context& ctx, const PlanChoice& p, Offer& o) {
    if (!p.est) return;
    const Memory& g = *p.est;
    add(o, "memory_fit", true, gib(g.per_gpu.total) + " of " + gib(g.gpu_memory) + " GiB per GPU");
    if (ctx.training) {
        const double free = static_cast<double>(g.headroom) / static_cast<double>(g.gpu_memory);
        add(o, "headroom", p.roomy,
            p.roomy ? fmt("%.0f%% free", 100 * free)
                    : fmt("%.0f%% free, below 10%%: a longer batch or an allocator spike may run out of memory", 100 * free));
    }
    if (!o.levers.empty()) add(o, "levers", true, "assumes " + joined(o.levers) + ": set it in your trainer");
}

void layout_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const bool model_parallel = p.layout.tp > 1 || (p.layout.pp > 1 && p.nodes == 1);
    if (model_parallel && !m.links.nvlink_class)
        add(o, "pcie_model_parallel", false,
            "model parallel over " + m.interconnect + fmt(" (%.0f GB/s all-reduce): every layer waits on the link", m.links.intra_busbw / 1e9));
    if (ctx.training && p.step.step_s > 0 && !p.step.user_mfu) {
        const TrainingStep& t = p.step;
        const double comm = t.tp_s + t.ep_s + t.pp_bubble_s + t.pp_send_s + t.dp_exposed_s + t.offload_s;
        const double share = comm / t.step_s;
        add(o, "communication", share < k_comm_share_warn,
            fmt("communication, pipeline bubble and offload: %.0f%% of each step", 100 * share) +
                (share < k_comm_share_warn ? "" : " (compute waits on the links)"));
    }
    if (p.nodes > 1 && (ctx.training || p.layout.pp > 1)) {
        const Links& l = m.links;
        const std::string speed = l.network_listed ? fmt("%.0f Gbps between nodes", l.network_gbps)
                                                   : fmt("network not listed: assumed %.0f Gbps between nodes", l.network_gbps);
        add(o, "fabric", l.rdma,
            speed + (l.rdma ? " (InfiniBand/EFA/RoCE class)" : ": no RDMA fabric, so data parallel only, slowed by the network"));
    }
}

// [SECTION] The machine

// Host RAM for what the job keeps in host memory (offload); a machine whose RAM is not listed is
// ASSUMED to have about 2× its GPU memory, so offload beyond that is not planned on it.
struct HostRam {
    double need_gib = 0, vram_gib = 0;
    std::optional<std::string> blocking;
};
HostRam host_ram(const Machine& m, const PlanChoice& p, const Offer& o) {
    HostRam h;
    h.vram_gib = static_cast<double>(m.gpu_memory) / k_bytes_per_gib * static_cast<double>(m.gpus);
    h.need_gib = p.est ? static_cast<double>(p.est->host_bytes) / k_bytes_per_gib / static_cast<double>(p.nodes) : 0;
    if (o.ram_gib <= 0 && h.need_gib > k_host_ram_per_vram * h.vram_gib)
        h.blocking = "host RAM not listed and offload needs " + fmt("%.0f GiB in host memory: ask the provider", h.need_gib);
    else if (o.ram_gib > 0 && o.ram_gib < h.need_gib)
        h.blocking = fmt("%.0f GiB RAM per node, the job needs ", o.ram_gib) + fmt("%.0f GiB in host memory", h.need_gib);
    return h;
}

void machine_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const HostRam h = host_ram(m, p, o);
    if (h.blocking) {
        add(o, "host_ram", false, *h.blocking, true);
    } else if (o.ram_gib <= 0) {
        add(o, "host_ram", false, "host RAM not listed: check it holds " + fmt("%.0f", std::max(h.need_gib, k_host_ram_per_vram * h.vram_gib)) +
                                      " GiB (2× GPU memory, or what offload needs)");
    } else {
        const bool ok = o.ram_gib >= k_host_ram_per_vram * h.vram_gib;
        add(o, "host_ram", ok, fmt("%.0f GiB RAM per node for ", o.ram_gib) + fmt("%.0f GiB of GPU memory", h.vram_gib) +
                                   (ok ? "" : " (less than 2×: data caching and offload are tight)"));
    }
    const double per_gpu = o.vcpus / static_cast<double>(m.gpus);
    if (o.vcpus <= 0) add(o, "vcpus", false, "vCPUs not listed: data loading wants at least 4 per GPU");
    else add(o, "vcpus", per_gpu >= k_min_vcpus_per_gpu, fmt("%.0f vCPUs per GPU", per_gpu) +
                                                           (per_gpu >= k_min_vcpus_per_gpu ? "" : ": data loading may starve the GPUs"));
    if (m.per_gpu_listing && m.scale != 1)
        add(o, "per_gpu_listing", false, "priced per GPU: assumes one machine with " + std::to_string(m.gpus) + " GPUs (" +
                                             m.interconnect + ") at " + std::to_string(m.gpus) + "× the listed price");
    // Mainland clouds and marketplaces rent to accounts verified with a mainland ID and phone number
    // (the PRC Cybersecurity Law's real-name rule), billed in CNY: a user who did not choose the
    // region should know before taking the offer.
    if (m.inst->cn_mainland && ctx.s.region == Region::any)
        add(o, "mainland_account", false,
            "a mainland China provider: renting needs a real-name account (mainland ID and phone number), billed in CNY; "
            "region global lists only providers outside China");
    if (m.slice) add(o, "tpu_slice", true, "a TPU slice of " + std::to_string(m.gpus) + " chips joined by ICI, priced per chip");
    const Accelerator& a = *m.acc;
    if (a.export_status == "restricted")
        add(o, "export", true, m.inst->cn_mainland ? "export-restricted part, listed by a mainland provider"
                                                   : "export-restricted: not sold in mainland China");
    if (!a.software.empty() && a.software != "cuda") {
        std::string msg = "needs " + a.software + " instead of CUDA: check that your framework and engine support it";
        if (ctx.training && (a.software == "cann" || a.software == "neuware")) msg += "; speed assumes " + o.step->efficiency.why;
        add(o, "software", false, msg);
    }
    if (lacks_bf16(a, ctx.s))
        add(o, "bf16", false, gpu_label(a) + " has no bf16 tensor cores: it runs in fp16" +
                                  std::string(ctx.training ? " (with loss scaling)" : "") + " and the estimate assumes that");
}

// [SECTION] Price, spot and limits

// Budget and deadline (blocking): (check id, message) of each one missed.
std::vector<std::pair<const char*, std::string>> limit_failures(const Context& ctx, const Offer& o) {
    const Scenario& s = ctx.s;
    std::vector<std::pair<const char*, std::string>> out;
    if (s.budget && !o.price_known) out.push_back({"budget", "no price in the catalog, so it cannot be held to the budget"});
    if (s.budget && o.total_cost && *o.total_cost > *s.budget)
        out.push_back({"budget", "total " + format_money_sig(*o.total_cost, s.currency) + " is over the budget " +
                                     format_money_sig(*s.budget, s.currency)});
    if (s.deadline_hours && o.hours && *o.hours > *s.deadline_hours)
        out.push_back({"deadline", hours_text(*o.hours) + " is over the deadline " + hours_text(*s.deadline_hours)});
    return out;
}

void price_checks(const Context& ctx, const Machine& m, Offer& o) {
    const Scenario& s = ctx.s;
    if (!o.price_known) add(o, "price", false, "no price in the catalog: ask the provider");
    if (o.spot) {
        const std::string notice = m.provider && m.provider->interruption_notice_s > 0
                                       ? fmt("%.0f s notice", m.provider->interruption_notice_s)
                                       : "notice unknown";
        if (ctx.training)
            add(o, "spot", true, "can be reclaimed (" + notice + "); assumes a checkpoint every " +
                                     hours_text(o.checkpoint_every_hours) + ": +" + fmt("%.0f%% time", 100 * o.spot_overhead_fraction));
        else
            add(o, "spot", false, "can be reclaimed (" + notice + "): an online service needs an on-demand replica to fall back on");
    }
    if (o.price_is_estimate)
        add(o, "price_estimate", false, "price is an estimate (" +
                                            (m.inst->price_basis.empty() ? std::string(to_string(m.inst->confidence))
                                                                         : "price_basis " + m.inst->price_basis) +
                                            (o.spot && m.inst->spot_is_typical_discount ? ", typical spot discount" : "") + ")");
    if (o.serving) {
        const ServingLoad& l = *o.serving;
        const bool slow = !s.max_tpot_ms && l.tpot_ms > k_interactive_tpot_ms;
        add(o, "latency", !slow, fmt("%.0f ms per output token per user", l.tpot_ms) + fmt(", first token %.0f ms", l.ttft_ms) +
                                     (slow ? ": slower than MLPerf's 200 ms server bound" : ""));
    }
    if (o.hours && *o.hours > k_long_run_hours && !s.deadline_hours)
        add(o, "long_run", false, hours_text(*o.hours) + " of wall time: more GPUs finish sooner for about the same cost");
    for (const auto& [id, message] : limit_failures(ctx, o)) add(o, id, false, message, true);
}

}  // namespace

// [SECTION] add_checks

std::optional<std::string> blocking_reason(const Context& ctx, const Machine& m, const PlanChoice& p, const Offer& o) {
    if (std::optional<std::string> ram = host_ram(m, p, o).blocking) return ram;
    const auto limits = limit_failures(ctx, o);
    if (!limits.empty()) return limits.front().second;
    return std::nullopt;
}

void add_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    memory_checks(ctx, p, o);
    layout_checks(ctx, m, p, o);
    machine_checks(ctx, m, p, o);
    price_checks(ctx, m, o);
}

}  // namespace gpusizer::plan
