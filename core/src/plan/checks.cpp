// The checks of an offer (docs/speed-and-cost.md "Checks"), read from its figures and facts: each an
// outcome, and when the offer is worded a message a person can act
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

// A check's message in English and in Chinese (the page shows the UI's language).
struct Text {
    std::string en, zh;
};

// Adds an offer's checks: every outcome, the messages only when worded (`words`). Each message is
// a function called only then, so the checks are one code path whether worded or not.
struct Checks {
    const Scenario& s;
    bool training;
    bool words;
    const Offer& o;
    std::vector<Check>& out;
    template <class Words>
    void add(const char* id, bool ok, Words&& words_of, bool blocking = false) {
        Check& c = out.emplace_back();
        c.id = id;
        c.ok = ok;
        c.blocking = blocking && !ok;
        if (!words) return;
        Text t = words_of();
        c.message = std::move(t.en);
        c.message_zh = std::move(t.zh);
    }
};

// [SECTION] Memory and layout

void memory_checks(Checks& k) {
    const Offer& o = k.o;
    const OfferFacts& f = o.facts;
    k.add("memory_fit", true, [&] {
        const std::string used = gib(o.memory_per_gpu_bytes), of = gib(o.gpu_memory_bytes);
        return Text{cat({used, " of ", of, " GiB per GPU"}), cat({"每块 GPU ", of, " GiB 中用 ", used, " GiB"})};
    });
    if (k.training)
        k.add("headroom", f.roomy, [&] {
            const std::string pct = fmt("%.0f", 100 * static_cast<double>(f.headroom_bytes) / static_cast<double>(o.gpu_memory_bytes));
            return f.roomy ? Text{cat({pct, "% free"}), cat({"空闲 ", pct, "%"})}
                           : Text{cat({pct, "% free, below 10%: a longer batch or an allocator spike may run out of memory"}),
                                  cat({"空闲 ", pct, "%,低于 10%:更长的批次或分配器峰值可能导致显存不足"})};
        });
    if (!o.levers.empty())
        k.add("levers", true, [&] {
            return Text{cat({"assumes ", lever_words(o.levers, false), ": set it in your trainer"}),
                        cat({"假定", lever_words(o.levers, true), ":请在训练程序中设置"})};
        });
}

void layout_checks(Checks& k) {
    const Offer& o = k.o;
    const OfferFacts& f = o.facts;
    const bool model_parallel = o.plan.tensor_parallel > 1 || (o.plan.pipeline_parallel > 1 && o.nodes == 1);
    if (model_parallel && !f.nvlink_class)
        k.add("pcie_model_parallel", false, [&] {
            return Text{"model parallel over " + o.interconnect + fmt(" (%.0f GB/s all-reduce): every layer waits on the link", f.intra_busbw / 1e9),
                        "通过 " + o.interconnect + fmt(" 做模型并行(all-reduce %.0f GB/s):每一层都要等待链路", f.intra_busbw / 1e9)};
        });
    if (k.training && o.step && o.step->step_s > 0 && !o.step->user_mfu) {
        const TrainingStep& t = *o.step;
        const double comm = t.tp_s + t.ep_s + t.pp_bubble_s + t.pp_send_s + t.dp_exposed_s + t.offload_s;
        const double share = comm / t.step_s;
        const bool ok = share < k_comm_share_warn;
        k.add("communication", ok, [&] {
            const std::string pct = fmt("%.0f", 100 * share);
            return Text{cat({pct, "% of each step (links, pipeline bubble and offload)", ok ? "" : ": compute waits on the links"}),
                        cat({"占每步的 ", pct, "%(链路、流水线气泡和卸载)", ok ? "" : ":计算在等待链路"})};
        });
    }
    if (o.nodes > 1 && (k.training || o.plan.pipeline_parallel > 1))
        k.add("fabric", f.rdma, [&] {
            const std::string speed = f.network_listed ? fmt("%.0f Gbps between nodes", f.network_gbps)
                                                       : fmt("network not listed: assumed %.0f Gbps between nodes", f.network_gbps);
            const std::string speed_zh = f.network_listed ? fmt("节点间 %.0f Gbps", f.network_gbps)
                                                          : fmt("未列出网络:假定节点间 %.0f Gbps", f.network_gbps);
            return Text{speed + (f.rdma ? " (InfiniBand/EFA/RoCE class)" : ": no RDMA fabric, so data parallel only, slowed by the network"),
                        speed_zh + (f.rdma ? "(InfiniBand/EFA/RoCE 级)" : ":没有 RDMA 网络,只能数据并行,并受网络拖慢")};
        });
}

// [SECTION] The machine

// Host RAM for what the job keeps in host memory (offload); a machine whose RAM is not listed is
// ASSUMED to have about 2× its GPU memory, so offload beyond that is not planned on it.
struct HostRam {
    double need_gib = 0, vram_gib = 0;
    bool blocking = false;
};
HostRam host_ram(const Offer& o) {
    const OfferFacts& f = o.facts;
    HostRam h;
    h.vram_gib = static_cast<double>(o.gpu_memory_bytes) / k_bytes_per_gib * static_cast<double>(f.gpus_per_node);
    h.need_gib = static_cast<double>(f.host_bytes) / k_bytes_per_gib / static_cast<double>(o.nodes);
    h.blocking = (o.ram_gib <= 0 && h.need_gib > k_host_ram_per_vram * h.vram_gib) || (o.ram_gib > 0 && o.ram_gib < h.need_gib);
    return h;
}
Text host_ram_blocking(const Offer& o, const HostRam& h) {
    if (o.ram_gib <= 0)
        return {"host RAM not listed and offload needs " + fmt("%.0f GiB in host memory: ask the provider", h.need_gib),
                fmt("未列出主机内存,而卸载需要 %.0f GiB 主机内存:请询问服务商", h.need_gib)};
    return {fmt("%.0f GiB RAM per node, the job needs ", o.ram_gib) + fmt("%.0f GiB in host memory", h.need_gib),
            fmt("每节点内存 %.0f GiB,", o.ram_gib) + fmt("作业需要 %.0f GiB 主机内存", h.need_gib)};
}

void machine_checks(Checks& k) {
    const Offer& o = k.o;
    const OfferFacts& f = o.facts;
    const HostRam h = host_ram(o);
    if (h.blocking) {
        k.add("host_ram", false, [&] { return host_ram_blocking(o, h); }, true);
    } else if (o.ram_gib <= 0) {
        k.add("host_ram", false, [&] {
            const double want = std::max(h.need_gib, k_host_ram_per_vram * h.vram_gib);
            return Text{"host RAM not listed: check it holds " + fmt("%.0f", want) + " GiB (2× GPU memory, or what offload needs)",
                        fmt("未列出主机内存:请确认至少 %.0f GiB(GPU 显存的 2 倍,或卸载所需)", want)};
        });
    } else {
        const bool ok = o.ram_gib >= k_host_ram_per_vram * h.vram_gib;
        k.add("host_ram", ok, [&] {
            const std::string ram = fmt("%.0f", o.ram_gib), vram = fmt("%.0f", h.vram_gib);
            return Text{cat({ram, " GiB RAM per node for ", vram, " GiB of GPU memory", ok ? "" : " (less than 2×: data caching and offload are tight)"}),
                        cat({"每节点内存 ", ram, " GiB,GPU 显存 ", vram, " GiB", ok ? "" : "(不到 2 倍:数据缓存和卸载会紧张)"})};
        });
    }
    const double per_gpu = o.vcpus / static_cast<double>(f.gpus_per_node);
    if (o.vcpus <= 0) {
        k.add("vcpus", false, [] { return Text{"vCPUs not listed: data loading wants at least 4 per GPU", "未列出 vCPU:数据加载每块 GPU 至少需要 4 个"}; });
    } else {
        const bool ok = per_gpu >= k_min_vcpus_per_gpu;
        k.add("vcpus", ok, [&] {
            const std::string n = fmt("%.0f", per_gpu);
            return Text{cat({n, " vCPUs per GPU", ok ? "" : ": data loading may starve the GPUs"}),
                        cat({"每块 GPU ", n, " 个 vCPU", ok ? "" : ":数据加载可能喂不饱 GPU"})};
        });
    }
    if (f.priced_per_gpu)
        k.add("per_gpu_listing", false, [&] {
            const std::string n = std::to_string(f.gpus_per_node);
            return Text{cat({"priced per GPU: assumes one machine with ", n, " GPUs (", o.interconnect, ") at ", n, "× the listed price"}),
                        cat({"按单卡计价:假定一台有 ", n, " 块 GPU(", o.interconnect, ")的机器,价格为标价的 ", n, " 倍"})};
        });
    // Mainland clouds and marketplaces rent to accounts verified with a mainland ID and phone number
    // (the PRC Cybersecurity Law's real-name rule), billed in CNY: a user who did not choose the
    // region should know before taking the offer.
    if (o.cn_mainland && k.s.region == Region::any)
        k.add("mainland_account", false, [] {
            return Text{"a mainland China provider: renting needs a real-name account (mainland ID and phone number), billed in CNY; "
                        "region global lists only providers outside China",
                        "中国大陆服务商:租用需要实名账号(大陆身份证和手机号),以人民币结算;地区选“全球”只列出中国以外的服务商"};
        });
    if (f.tpu_slice)
        k.add("tpu_slice", true, [&] {
            return Text{"a TPU slice of " + std::to_string(f.gpus_per_node) + " chips joined by ICI, priced per chip",
                        "由 ICI 连接的 " + std::to_string(f.gpus_per_node) + " 芯片 TPU 切片,按芯片计价"};
        });
    if (f.export_restricted)
        k.add("export", true, [&] {
            return o.cn_mainland ? Text{"export-restricted part, listed by a mainland provider", "受出口管制的型号,由大陆服务商列出"}
                                 : Text{"export-restricted: not sold in mainland China", "受出口管制:中国大陆不销售"};
        });
    if (!f.software.empty() && f.software != "cuda")
        k.add("software", false, [&] {
            Text msg{"needs " + f.software + " instead of CUDA: check that your framework and engine support it",
                     "需要 " + f.software + " 而不是 CUDA:请确认你的框架和推理引擎支持"};
            if (k.training && (f.software == "cann" || f.software == "neuware")) {
                msg.en += "; speed assumes " + o.step->efficiency.why;
                msg.zh += ";速度假定 " + o.step->efficiency.why;
            }
            return msg;
        });
    if (f.lacks_bf16)
        k.add("bf16", false, [&] {
            return Text{o.gpu_name + " has no bf16 tensor cores: it runs in fp16" + std::string(k.training ? " (with loss scaling)" : "") +
                            " and the estimate assumes that",
                        o.gpu_name_zh + " 没有 bf16 张量核心:以 fp16 运行" + std::string(k.training ? "(使用损失缩放)" : "") + ",估算已按此计算"};
        });
}

// [SECTION] Price, spot and limits

// Budget and deadline (blocking): the checks missed, each with its message when `words`.
void limit_checks(Checks& k) {
    const Scenario& s = k.s;
    const Offer& o = k.o;
    if (s.budget && !o.price_known)
        k.add("budget", false, [] { return Text{"no price in the catalog, so it cannot be held to the budget", "目录中没有价格,无法按预算核对"}; }, true);
    if (s.budget && o.total_cost && *o.total_cost > *s.budget)
        k.add("budget", false, [&] {
            const std::string total = format_money_sig(*o.total_cost, s.currency), budget = format_money_sig(*s.budget, s.currency);
            return Text{"total " + total + " is over the budget " + budget, "总价 " + total + " 超出预算 " + budget};
        }, true);
    if (s.deadline_hours && o.hours && *o.hours > *s.deadline_hours)
        k.add("deadline", false, [&] {
            return Text{hours_text(*o.hours) + " is over the deadline " + hours_text(*s.deadline_hours),
                        hours_text_zh(*o.hours) + ",超出期限 " + hours_text_zh(*s.deadline_hours)};
        }, true);
}

void price_checks(Checks& k) {
    const Scenario& s = k.s;
    const Offer& o = k.o;
    const OfferFacts& f = o.facts;
    if (!o.price_known) k.add("price", false, [] { return Text{"no price in the catalog: ask the provider", "目录中没有价格:请询问服务商"}; });
    if (o.spot) {
        auto notice = [&](bool zh) {
            if (f.interruption_notice_s <= 0) return std::string(zh ? "通知时间未知" : "notice unknown");
            return fmt(zh ? "提前 %.0f 秒通知" : "%.0f s notice", f.interruption_notice_s);
        };
        if (k.training)
            k.add("spot", true, [&] {
                const std::string pct = fmt("%.0f", 100 * o.spot_overhead_fraction);
                return Text{cat({"can be reclaimed (", notice(false), "); assumes a checkpoint every ", hours_text(o.checkpoint_every_hours), ": +", pct, "% time"}),
                            cat({"可能被回收(", notice(true), ");假定每 ", hours_text_zh(o.checkpoint_every_hours), "保存一次检查点:时间 +", pct, "%"})};
            });
        else
            k.add("spot", false, [&] {
                return Text{cat({"can be reclaimed (", notice(false), "): an online service needs an on-demand replica to fall back on"}),
                            cat({"可能被回收(", notice(true), "):在线服务需要一个按需实例副本作为后备"})};
            });
    }
    if (o.price_is_estimate)
        k.add("price_estimate", false, [&] {
            const std::string basis = o.price_basis.empty() ? std::string(to_string(f.confidence)) : "price_basis " + o.price_basis;
            const bool typical = o.spot && f.typical_spot_discount;
            return Text{cat({"price is an estimate (", basis, typical ? ", typical spot discount" : "", ")"}),
                        cat({"价格为估计值(", basis, typical ? ",按典型抢占式折扣" : "", ")"})};
        });
    if (o.serving) {
        const ServingLoad& l = *o.serving;
        const bool slow = !s.max_tpot_ms && l.tpot_ms > k_interactive_tpot_ms;
        k.add("latency", !slow, [&] {
            const std::string tpot = fmt("%.0f", l.tpot_ms), ttft = fmt("%.0f", l.ttft_ms);
            return Text{cat({tpot, " ms per output token per user, first token ", ttft, " ms", slow ? ": slower than MLPerf's 200 ms server bound" : ""}),
                        cat({"每用户每个输出词元 ", tpot, " ms,首个词元 ", ttft, " ms", slow ? ":慢于 MLPerf 服务场景的 200 ms 上限" : ""})};
        });
    }
    if (o.hours && *o.hours > k_long_run_hours && !s.deadline_hours)
        k.add("long_run", false, [&] {
            return Text{hours_text(*o.hours) + " of wall time: more GPUs finish sooner for about the same cost",
                        "墙钟时间 " + hours_text_zh(*o.hours) + ":更多 GPU 能以差不多的费用更快完成"};
        });
    limit_checks(k);
}

}  // namespace

// [SECTION] add_checks

std::optional<std::string> blocking_reason(const Scenario& s, const Offer& o) {
    if (const HostRam h = host_ram(o); h.blocking) return host_ram_blocking(o, h).en;
    std::vector<Check> missed;
    Checks k{s, s.task != Task::inference, true, o, missed};
    limit_checks(k);
    if (!missed.empty()) return missed.front().message;
    return std::nullopt;
}

void add_checks(const Scenario& s, Offer& o, bool words) {
    o.checks.clear();
    o.checks.reserve(12);  // an offer has up to about a dozen
    Checks k{s, s.task != Task::inference, words, o, o.checks};
    memory_checks(k);
    layout_checks(k);
    machine_checks(k);
    price_checks(k);
}

}  // namespace gpusizer::plan
