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

// A check with its message in English and in Chinese (the page shows the UI's language).
struct Text {
    std::string en, zh;
};

void add(Offer& o, const char* id, bool ok, Text message, bool blocking = false) {
    o.checks.push_back({id, ok, blocking && !ok, std::move(message.en), std::move(message.zh)});
}


// [SECTION] Memory and layout

void memory_checks(const Context& ctx, const PlanChoice& p, Offer& o) {
    if (!p.est) return;
    const Memory& g = *p.est;
    const std::string used = gib(g.per_gpu.total), of = gib(g.gpu_memory);
    add(o, "memory_fit", true, {cat({used, " of ", of, " GiB per GPU"}), cat({"每块 GPU ", of, " GiB 中用 ", used, " GiB"})});
    if (ctx.training) {
        const std::string pct = fmt("%.0f", 100 * static_cast<double>(g.headroom) / static_cast<double>(g.gpu_memory));
        add(o, "headroom", p.roomy,
            p.roomy ? Text{cat({pct, "% free"}), cat({"空闲 ", pct, "%"})}
                    : Text{cat({pct, "% free, below 10%: a longer batch or an allocator spike may run out of memory"}),
                           cat({"空闲 ", pct, "%,低于 10%:更长的批次或分配器峰值可能导致显存不足"})});
    }
    if (!o.levers.empty())
        add(o, "levers", true,
            {cat({"assumes ", lever_words(o.levers, false), ": set it in your trainer"}),
             cat({"假定", lever_words(o.levers, true), ":请在训练程序中设置"})});
}

void layout_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const bool model_parallel = p.layout.tp > 1 || (p.layout.pp > 1 && p.nodes == 1);
    if (model_parallel && !m.links.nvlink_class)
        add(o, "pcie_model_parallel", false,
            {"model parallel over " + m.interconnect + fmt(" (%.0f GB/s all-reduce): every layer waits on the link", m.links.intra_busbw / 1e9),
             "通过 " + m.interconnect + fmt(" 做模型并行(all-reduce %.0f GB/s):每一层都要等待链路", m.links.intra_busbw / 1e9)});
    if (ctx.training && p.step.step_s > 0 && !p.step.user_mfu) {
        const TrainingStep& t = p.step;
        const double comm = t.tp_s + t.ep_s + t.pp_bubble_s + t.pp_send_s + t.dp_exposed_s + t.offload_s;
        const double share = comm / t.step_s;
        const bool ok = share < k_comm_share_warn;
        const std::string pct = fmt("%.0f", 100 * share);
        add(o, "communication", ok,
            {cat({"communication, pipeline bubble and offload: ", pct, "% of each step", ok ? "" : " (compute waits on the links)"}),
             cat({"通信、流水线气泡和卸载占每步的 ", pct, "%", ok ? "" : "(计算在等待链路)"})});
    }
    if (p.nodes > 1 && (ctx.training || p.layout.pp > 1)) {
        const Links& l = m.links;
        const std::string speed = l.network_listed ? fmt("%.0f Gbps between nodes", l.network_gbps)
                                                   : fmt("network not listed: assumed %.0f Gbps between nodes", l.network_gbps);
        const std::string speed_zh = l.network_listed ? fmt("节点间 %.0f Gbps", l.network_gbps)
                                                      : fmt("未列出网络:假定节点间 %.0f Gbps", l.network_gbps);
        add(o, "fabric", l.rdma,
            {speed + (l.rdma ? " (InfiniBand/EFA/RoCE class)" : ": no RDMA fabric, so data parallel only, slowed by the network"),
             speed_zh + (l.rdma ? "(InfiniBand/EFA/RoCE 级)" : ":没有 RDMA 网络,只能数据并行,并受网络拖慢")});
    }
}

// [SECTION] The machine

// Host RAM for what the job keeps in host memory (offload); a machine whose RAM is not listed is
// ASSUMED to have about 2× its GPU memory, so offload beyond that is not planned on it.
struct HostRam {
    double need_gib = 0, vram_gib = 0;
    std::optional<Text> blocking;
};
HostRam host_ram(const Machine& m, const PlanChoice& p, const Offer& o) {
    HostRam h;
    h.vram_gib = static_cast<double>(m.gpu_memory) / k_bytes_per_gib * static_cast<double>(m.gpus);
    h.need_gib = p.est ? static_cast<double>(p.est->host_bytes) / k_bytes_per_gib / static_cast<double>(p.nodes) : 0;
    if (o.ram_gib <= 0 && h.need_gib > k_host_ram_per_vram * h.vram_gib)
        h.blocking = Text{"host RAM not listed and offload needs " + fmt("%.0f GiB in host memory: ask the provider", h.need_gib),
                          fmt("未列出主机内存,而卸载需要 %.0f GiB 主机内存:请询问服务商", h.need_gib)};
    else if (o.ram_gib > 0 && o.ram_gib < h.need_gib)
        h.blocking = Text{fmt("%.0f GiB RAM per node, the job needs ", o.ram_gib) + fmt("%.0f GiB in host memory", h.need_gib),
                          fmt("每节点内存 %.0f GiB,", o.ram_gib) + fmt("作业需要 %.0f GiB 主机内存", h.need_gib)};
    return h;
}

void machine_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const HostRam h = host_ram(m, p, o);
    if (h.blocking) {
        add(o, "host_ram", false, *h.blocking, true);
    } else if (o.ram_gib <= 0) {
        const double want = std::max(h.need_gib, k_host_ram_per_vram * h.vram_gib);
        add(o, "host_ram", false,
            {"host RAM not listed: check it holds " + fmt("%.0f", want) + " GiB (2× GPU memory, or what offload needs)",
             fmt("未列出主机内存:请确认至少 %.0f GiB(GPU 显存的 2 倍,或卸载所需)", want)});
    } else {
        const bool ok = o.ram_gib >= k_host_ram_per_vram * h.vram_gib;
        const std::string ram = fmt("%.0f", o.ram_gib), vram = fmt("%.0f", h.vram_gib);
        add(o, "host_ram", ok,
            {cat({ram, " GiB RAM per node for ", vram, " GiB of GPU memory", ok ? "" : " (less than 2×: data caching and offload are tight)"}),
             cat({"每节点内存 ", ram, " GiB,GPU 显存 ", vram, " GiB", ok ? "" : "(不到 2 倍:数据缓存和卸载会紧张)"})});
    }
    const double per_gpu = o.vcpus / static_cast<double>(m.gpus);
    if (o.vcpus <= 0) {
        add(o, "vcpus", false, {"vCPUs not listed: data loading wants at least 4 per GPU", "未列出 vCPU:数据加载每块 GPU 至少需要 4 个"});
    } else {
        const bool ok = per_gpu >= k_min_vcpus_per_gpu;
        const std::string n = fmt("%.0f", per_gpu);
        add(o, "vcpus", ok,
            {cat({n, " vCPUs per GPU", ok ? "" : ": data loading may starve the GPUs"}),
             cat({"每块 GPU ", n, " 个 vCPU", ok ? "" : ":数据加载可能喂不饱 GPU"})});
    }
    if (m.per_gpu_listing && m.scale != 1) {
        const std::string n = std::to_string(m.gpus);
        add(o, "per_gpu_listing", false,
            {cat({"priced per GPU: assumes one machine with ", n, " GPUs (", m.interconnect, ") at ", n, "× the listed price"}),
             cat({"按单卡计价:假定一台有 ", n, " 块 GPU(", m.interconnect, ")的机器,价格为标价的 ", n, " 倍"})});
    }
    // Mainland clouds and marketplaces rent to accounts verified with a mainland ID and phone number
    // (the PRC Cybersecurity Law's real-name rule), billed in CNY: a user who did not choose the
    // region should know before taking the offer.
    if (m.inst->cn_mainland && ctx.s.region == Region::any)
        add(o, "mainland_account", false,
            {"a mainland China provider: renting needs a real-name account (mainland ID and phone number), billed in CNY; "
             "region global lists only providers outside China",
             "中国大陆服务商:租用需要实名账号(大陆身份证和手机号),以人民币结算;地区选“全球”只列出中国以外的服务商"});
    if (m.slice)
        add(o, "tpu_slice", true,
            {"a TPU slice of " + std::to_string(m.gpus) + " chips joined by ICI, priced per chip",
             "由 ICI 连接的 " + std::to_string(m.gpus) + " 芯片 TPU 切片,按芯片计价"});
    const Accelerator& a = *m.acc;
    if (a.export_status == "restricted")
        add(o, "export", true,
            m.inst->cn_mainland ? Text{"export-restricted part, listed by a mainland provider", "受出口管制的型号,由大陆服务商列出"}
                                : Text{"export-restricted: not sold in mainland China", "受出口管制:中国大陆不销售"});
    if (!a.software.empty() && a.software != "cuda") {
        Text msg{"needs " + a.software + " instead of CUDA: check that your framework and engine support it",
                 "需要 " + a.software + " 而不是 CUDA:请确认你的框架和推理引擎支持"};
        if (ctx.training && (a.software == "cann" || a.software == "neuware")) {
            msg.en += "; speed assumes " + o.step->efficiency.why;
            msg.zh += ";速度假定 " + o.step->efficiency.why;
        }
        add(o, "software", false, msg);
    }
    if (lacks_bf16(a, ctx.s))
        add(o, "bf16", false,
            {gpu_label(a) + " has no bf16 tensor cores: it runs in fp16" + std::string(ctx.training ? " (with loss scaling)" : "") +
                 " and the estimate assumes that",
             gpu_label_zh(a) + " 没有 bf16 张量核心:以 fp16 运行" + std::string(ctx.training ? "(使用损失缩放)" : "") + ",估算已按此计算"});
}

// [SECTION] Price, spot and limits

// Budget and deadline (blocking): (check id, message) of each one missed.
std::vector<std::pair<const char*, Text>> limit_failures(const Context& ctx, const Offer& o) {
    const Scenario& s = ctx.s;
    std::vector<std::pair<const char*, Text>> out;
    if (s.budget && !o.price_known)
        out.push_back({"budget", {"no price in the catalog, so it cannot be held to the budget", "目录中没有价格,无法按预算核对"}});
    if (s.budget && o.total_cost && *o.total_cost > *s.budget) {
        const std::string total = format_money_sig(*o.total_cost, s.currency), budget = format_money_sig(*s.budget, s.currency);
        out.push_back({"budget", {"total " + total + " is over the budget " + budget, "总价 " + total + " 超出预算 " + budget}});
    }
    if (s.deadline_hours && o.hours && *o.hours > *s.deadline_hours)
        out.push_back({"deadline", {hours_text(*o.hours) + " is over the deadline " + hours_text(*s.deadline_hours),
                                    hours_text_zh(*o.hours) + ",超出期限 " + hours_text_zh(*s.deadline_hours)}});
    return out;
}

void price_checks(const Context& ctx, const Machine& m, Offer& o) {
    const Scenario& s = ctx.s;
    if (!o.price_known) add(o, "price", false, {"no price in the catalog: ask the provider", "目录中没有价格:请询问服务商"});
    if (o.spot) {
        const bool known = m.provider && m.provider->interruption_notice_s > 0;
        const double notice_s = known ? m.provider->interruption_notice_s : 0;
        const std::string notice = known ? fmt("%.0f s notice", notice_s) : "notice unknown";
        const std::string notice_zh = known ? fmt("提前 %.0f 秒通知", notice_s) : "通知时间未知";
        const std::string pct = fmt("%.0f", 100 * o.spot_overhead_fraction);
        if (ctx.training)
            add(o, "spot", true,
                {cat({"can be reclaimed (", notice, "); assumes a checkpoint every ", hours_text(o.checkpoint_every_hours), ": +", pct, "% time"}),
                 cat({"可能被回收(", notice_zh, ");假定每 ", hours_text_zh(o.checkpoint_every_hours), "保存一次检查点:时间 +", pct, "%"})});
        else
            add(o, "spot", false,
                {cat({"can be reclaimed (", notice, "): an online service needs an on-demand replica to fall back on"}),
                 cat({"可能被回收(", notice_zh, "):在线服务需要一个按需实例副本作为后备"})});
    }
    if (o.price_is_estimate) {
        const std::string basis = m.inst->price_basis.empty() ? std::string(to_string(m.inst->confidence)) : "price_basis " + m.inst->price_basis;
        const bool typical = o.spot && m.inst->spot_is_typical_discount;
        add(o, "price_estimate", false,
            {cat({"price is an estimate (", basis, typical ? ", typical spot discount" : "", ")"}),
             cat({"价格为估计值(", basis, typical ? ",按典型抢占式折扣" : "", ")"})});
    }
    if (o.serving) {
        const ServingLoad& l = *o.serving;
        const bool slow = !s.max_tpot_ms && l.tpot_ms > k_interactive_tpot_ms;
        const std::string tpot = fmt("%.0f", l.tpot_ms), ttft = fmt("%.0f", l.ttft_ms);
        add(o, "latency", !slow,
            {cat({tpot, " ms per output token per user, first token ", ttft, " ms", slow ? ": slower than MLPerf's 200 ms server bound" : ""}),
             cat({"每用户每个输出词元 ", tpot, " ms,首个词元 ", ttft, " ms", slow ? ":慢于 MLPerf 服务场景的 200 ms 上限" : ""})});
    }
    if (o.hours && *o.hours > k_long_run_hours && !s.deadline_hours)
        add(o, "long_run", false,
            {hours_text(*o.hours) + " of wall time: more GPUs finish sooner for about the same cost",
             "墙钟时间 " + hours_text_zh(*o.hours) + ":更多 GPU 能以差不多的费用更快完成"});
    for (const auto& [id, message] : limit_failures(ctx, o)) add(o, id, false, message, true);
}

}  // namespace

// [SECTION] add_checks

std::optional<std::string> blocking_reason(const Context& ctx, const Machine& m, const PlanChoice& p, const Offer& o) {
    if (std::optional<Text> ram = host_ram(m, p, o).blocking) return ram->en;
    const auto limits = limit_failures(ctx, o);
    if (!limits.empty()) return limits.front().second.en;
    return std::nullopt;
}

void add_checks(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    o.checks.reserve(12);  // an offer has up to about a dozen
    memory_checks(ctx, p, o);
    layout_checks(ctx, m, p, o);
    machine_checks(ctx, m, p, o);
    price_checks(ctx, m, o);
}

}  // namespace gpusizer::plan
