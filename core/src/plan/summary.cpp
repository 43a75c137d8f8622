// The words of an answer (docs/speed-and-cost.md "Reasons"): each offer's why, the one-sentence
// answer in English and Chinese with the levers it assumes and the release reminder, and when
// nothing is left the reason a person can act on — the cheapest plan and how far it is over the
// budget, the fastest and the deadline, export controls and the parts mainland clouds rent.
//
// Index
// [SECTION] An offer's why
// [SECTION] Alternatives: what the cheapest and the fastest trade against the pick
// [SECTION] Export controls
// [SECTION] Nothing left
// [SECTION] The answer

#include <algorithm>
#include <map>
#include <string_view>

#include "plan.hpp"

namespace gpusizer::plan {
namespace {

// [SECTION] An offer's why

// " (TP 2, DP 4, ZeRO-3)", or "" when nothing is split.
std::string layout_words(bool training, const Offer& o) {
    std::string out;
    auto part = [&](const char* name, std::int64_t v) { out.append(out.empty() ? " (" : ", ").append(name).append(std::to_string(v)); };
    const Plan& p = o.plan;
    if (p.tensor_parallel > 1) part("TP ", p.tensor_parallel);
    if (p.pipeline_parallel > 1) part("PP ", p.pipeline_parallel);
    if (training && p.data_parallel > 1) part("DP ", p.data_parallel);
    if (training && p.zero_stage > 0) part("ZeRO-", p.zero_stage);
    return out.empty() ? out : out + ")";
}

std::string users_words(std::int64_t users, std::int64_t replicas) {
    return std::to_string(replicas) + (replicas == 1 ? " replica" : " replicas") + " for " + std::to_string(users) +
           " concurrent " + (users == 1 ? "user" : "users");
}

// [SECTION] Alternatives: what the cheapest and the fastest trade against the pick

struct Words {
    std::string en, zh;
};

// Cost on the key ranking compares (the whole job; the reference run; per million tokens; per
// hour) and its unit words; nullopt when the two offers have no common key.
struct Amount {
    double pick = 0, alt = 0;
    const char* unit = "";
    const char* unit_zh = "";
};
Amount cost_amount(const Offer& p, const Offer& a, bool samples) {
    if (p.total_cost && a.total_cost) return {*p.total_cost, *a.total_cost, "", ""};
    if (p.reference_cost && a.reference_cost) return {*p.reference_cost, *a.reference_cost, " on the reference run", "按参考训练量"};
    if (p.cost_per_million_tokens && a.cost_per_million_tokens)
        return {*p.cost_per_million_tokens, *a.cost_per_million_tokens, samples ? " per million samples" : " per million tokens",
                samples ? "每百万样本" : "每百万 token "};
    return {p.price_per_hour, a.price_per_hour, " per hour", "每小时"};
}

Words money_words(const Context& ctx, const Offer& p, const Offer& a) {
    const Amount m = cost_amount(p, a, unit_words(ctx).samples);
    const Currency c = ctx.s.currency;
    if (m.alt == m.pick) return {std::string("same cost") + m.unit, std::string(m.unit_zh) + "费用相同"};
    const double delta = m.alt > m.pick ? m.alt - m.pick : m.pick - m.alt;
    const std::string pct = m.pick > 0 ? fmt(m.alt > m.pick ? " (+%.0f%%)" : " (-%.0f%%)", 100 * delta / m.pick) : "";
    const std::string money = format_money_sig(delta, c);
    if (m.alt < m.pick) return {money + " less" + m.unit + pct, std::string(m.unit_zh) + "省 " + money + pct};
    return {money + " more" + m.unit + pct, std::string(m.unit_zh) + "多花 " + money + pct};
}

Words time_words(const Offer& p, const Offer& a) {
    std::optional<std::pair<double, double>> h;
    if (p.hours && a.hours) h = {*p.hours, *a.hours};
    else if (p.reference_hours && a.reference_hours) h = {*p.reference_hours, *a.reference_hours};
    if (h) {
        const auto [ph, ah] = *h;
        if (ah == ph) return {"same time", "用时相同"};
        const double d = ah > ph ? ah - ph : ph - ah;
        return ah > ph ? Words{hours_text(d) + " longer", "多用 " + hours_text_zh(d)} : Words{hours_text(d) + " sooner", "快 " + hours_text_zh(d)};
    }
    if (p.serving && a.serving) {
        const double pt = p.serving->tpot_ms, at = a.serving->tpot_ms;
        if (fmt("%.0f", pt) == fmt("%.0f", at)) return {"same time per token", "每 token 用时相同"};
        const double d = at > pt ? at - pt : pt - at;
        return at > pt ? Words{fmt("%.0f ms slower per token", d), fmt("每 token 慢 %.0f 毫秒", d)}
                       : Words{fmt("%.0f ms faster per token", d), fmt("每 token 快 %.0f 毫秒", d)};
    }
    if (p.tokens_per_s > 0 && a.tokens_per_s > 0 && a.tokens_per_s != p.tokens_per_s) {
        const double r = a.tokens_per_s / p.tokens_per_s;
        return r < 1 ? Words{fmt("%.0f%% lower throughput", 100 * (1 - r)), fmt("吞吐量低 %.0f%%", 100 * (1 - r))}
                     : Words{fmt("%.0f%% higher throughput", 100 * (r - 1)), fmt("吞吐量高 %.0f%%", 100 * (r - 1))};
    }
    return {"", ""};
}

// "$41.2 less (-35%), 9.5 h longer; spot: can be reclaimed" — the alternative's side of the trade.
Words trade_off(const Context& ctx, const Offer& pick, const Offer& alt, bool cheapest) {
    const Words money = money_words(ctx, pick, alt), time = time_words(pick, alt);
    Words w = cheapest ? money : time;
    const Words& other = cheapest ? time : money;
    if (w.en.empty()) w = other;
    else if (!other.en.empty()) {
        w.en += ", " + other.en;
        w.zh += "," + other.zh;
    }
    if (alt.spot && !pick.spot) {
        w.en += "; spot: can be reclaimed";
        w.zh += ";抢占式:可能被回收";
    }
    if (alt.nodes > 1 && pick.nodes == 1) {
        w.en += "; " + std::to_string(alt.nodes) + " nodes over a network";
        w.zh += ";跨 " + std::to_string(alt.nodes) + " 个节点联网";
    }
    if (alt.price_is_estimate && !pick.price_is_estimate) {
        w.en += "; the price is an estimate";
        w.zh += ";价格为估计值";
    }
    return w;
}

// [SECTION] Export controls

// The parts mainland clouds in the catalog rent, largest memory first: export-compliant and domestic
// parts, then the export-restricted ones some mainland providers still list — stock from before the
// rules, or (for parts released after them, such as the RTX 5090) imports outside them.
std::string mainland_parts(const Catalog& c, bool zh) {
    std::vector<const Accelerator*> parts;
    for (const Instance& i : c.instances)
        if (i.cn_mainland)
            if (const Accelerator* a = c.find_accelerator(i.gpu))
                if (std::find(parts.begin(), parts.end(), a) == parts.end()) parts.push_back(a);
    std::stable_sort(parts.begin(), parts.end(), [](const Accelerator* a, const Accelerator* b) { return a->memory_gb > b->memory_gb; });
    std::string compliant, earlier;
    for (const Accelerator* a : parts) {
        std::string& list = a->export_status == "restricted" ? earlier : compliant;
        list += (list.empty() ? "" : ", ") + (zh ? gpu_label_zh(*a) : gpu_label(*a));
    }
    if (earlier.empty()) return compliant;
    return compliant + (zh ? ";受管制但仍有大陆平台挂牌(管制前库存或非正规进口):"
                           : "; export-restricted parts some mainland providers still list (stock from before the rules "
                             "or imports outside them): ") +
           earlier;
}
// Domestic accelerators (Huawei Ascend, Cambricon) no mainland instance of the catalog rents: named
// so the user knows to ask (their clouds publish no list price the catalog could carry).
std::string domestic_unlisted(const Catalog& c, bool zh) {
    std::string out;
    for (const Accelerator& a : c.accelerators) {
        if (a.export_status != "domestic") continue;
        const bool rented = std::any_of(c.instances.begin(), c.instances.end(),
                                        [&](const Instance& i) { return i.cn_mainland && i.gpu == a.id; });
        if (!rented) out += (out.empty() ? "" : ", ") + (zh ? gpu_label_zh(a) : gpu_label(a));
    }
    return out;
}

struct Note {
    std::string en, zh;
};

// The scenario's `gpu` cannot be rented where it must run: why, and what is rented there instead.
std::optional<Note> export_note(const Context& ctx) {
    const Scenario& s = ctx.s;
    const Accelerator* a = s.gpu.empty() ? nullptr : ctx.catalog.find_accelerator(s.gpu);
    if (!a || s.region != Region::cn_mainland) return std::nullopt;
    for (const Instance& i : ctx.catalog.instances)
        if (i.gpu == a->id && i.cn_mainland) return std::nullopt;
    const std::string name = gpu_label(*a), name_zh = gpu_label_zh(*a), others = mainland_parts(ctx.catalog, false),
                      others_zh = mainland_parts(ctx.catalog, true);
    const std::string domestic = domestic_unlisted(ctx.catalog, false), domestic_zh = domestic_unlisted(ctx.catalog, true);
    Note n;
    if (a->export_status == "restricted") {
        const std::string since = a->export_status_date.empty() ? "" : " (rules of " + a->export_status_date + ")";
        n.en = name + " is under US export controls" + since + " and no mainland China provider in the catalog rents it; "
               "export-compliant and domestic parts mainland clouds rent: " + others;
        n.zh = name_zh + " 受美国出口管制" + (a->export_status_date.empty() ? "" : "(" + a->export_status_date + " 规则)") +
               ",目录中没有中国大陆云厂商提供;大陆云厂商可租用的合规及国产加速卡:" + others_zh;
    } else if (a->export_status == "not-sold-in-china") {
        n.en = name + " is not sold in mainland China; parts rented there: " + others;
        n.zh = name_zh + " 不在中国大陆销售;大陆可租用:" + others_zh;
    } else {
        n.en = "no mainland China provider in the catalog rents " + name + "; parts rented there: " + others;
        n.zh = "目录中没有中国大陆云厂商提供 " + name_zh + ";大陆可租用:" + others_zh;
    }
    if (!domestic.empty() && domestic.find(name) == std::string::npos) {
        n.en += "; domestic accelerators offered without a public list price (ask the provider): " + domestic;
        n.zh += ";国产加速卡(无公开报价,请向云厂商询价):" + domestic_zh;
    }
    return n;
}

// [SECTION] Nothing left

// The most useful reason: the cheapest plan's cost against the budget, the fastest plan against
// the deadline, export controls, else the first reason.
Note nothing_reason(const Context& ctx, const std::vector<Rejection>& rejected, const std::optional<Note>& exported) {
    const Scenario& s = ctx.s;
    std::optional<double> cheapest, fastest;
    for (const Rejection& r : rejected) {
        if (r.over_budget_cost && (!cheapest || *r.over_budget_cost < *cheapest)) cheapest = r.over_budget_cost;
        if (r.over_deadline_hours && (!fastest || *r.over_deadline_hours < *fastest)) fastest = r.over_deadline_hours;
    }
    if (cheapest && s.budget) {
        const double over = *cheapest - *s.budget;
        const std::string pct = fmt("%.1f%%", 100 * over / *s.budget);
        return {"the cheapest plan costs " + format_money_sig(*cheapest, s.currency) + ", " + format_money_sig(over, s.currency) +
                    " (" + pct + ") over your " + format_money_sig(*s.budget, s.currency) + " budget",
                "最便宜的方案需 " + format_money_sig(*cheapest, s.currency) + ",超出预算 " + format_money_sig(*s.budget, s.currency) +
                    " " + format_money_sig(over, s.currency) + "(" + pct + ")"};
    }
    if (fastest && s.deadline_hours) {
        const double over = *fastest - *s.deadline_hours;
        return {"the fastest plan takes " + hours_text(*fastest) + ", " + hours_text(over) + " over your " +
                    hours_text(*s.deadline_hours) + " deadline",
                "最快的方案需 " + hours_text_zh(*fastest) + ",超出期限 " + hours_text_zh(*s.deadline_hours) + " " +
                    hours_text_zh(over)};
    }
    if (exported) return *exported;
    if (rejected.empty()) return {"no instance matches the filters", "没有符合筛选条件的实例"};
    return {rejected.front().reason, rejected.front().reason};
}

// [SECTION] The answer

std::string where_en(Region r) {
    return r == Region::cn_mainland ? " in mainland China" : r == Region::global ? " outside mainland China" : "";
}
std::string where_zh(Region r) { return r == Region::cn_mainland ? "在中国大陆" : r == Region::global ? "在中国大陆以外" : ""; }

// Spot: the saving against the same instance on demand, or what a spot best offer risks.
void spot_words(const Context& ctx, const Recommendation& rec, const Offer& best, std::string& en, std::string& zh) {
    auto key = [](const Offer& o) { return o.total_cost ? *o.total_cost : o.cost_per_million_tokens.value_or(o.price_per_hour); };
    if (best.spot) {
        if (ctx.training) {
            en += "; it can be reclaimed, so checkpoint every " + hours_text(best.checkpoint_every_hours);
            zh += ";可能被回收,请每 " + hours_text_zh(best.checkpoint_every_hours) + "保存一次检查点";
        } else {
            en += "; spot can be reclaimed, so keep an on-demand replica to fall back on";
            zh += ";抢占式实例可能被回收,请保留一个按需副本兜底";
        }
        return;
    }
    if (!ctx.training) return;
    for (const Offer& o : rec.offers)
        if (o.spot && o.provider == best.provider && o.instance == best.instance && key(best) > 0) {
            const double saving = 1 - key(o) / key(best);
            if (saving > 0.05) {
                en += fmt("; spot saves ~%.0f%% if you checkpoint every ", 100 * saving) + hours_text(o.checkpoint_every_hours);
                zh += ";如果每 " + hours_text_zh(o.checkpoint_every_hours) + fmt("保存一次检查点,抢占式实例可省约 %.0f%%", 100 * saving);
            }
            return;
        }
}

}  // namespace

std::string model_name(const Context& ctx) {
    const Scenario& s = ctx.s;
    if (s.source != ModelSource::preset) return "this model";
    if (const ModelPreset* m = ctx.catalog.find_model(s.model)) return m->name.empty() ? m->id : m->name;
    return s.model;
}

void describe(const Scenario& s, const std::string& model_kind, Offer& o) {
    const std::string layout = layout_words(s.task != Task::inference, o);
    std::string en = std::to_string(o.gpu_count) + "× " + o.gpu_name + (o.nodes > 1 ? " on " + std::to_string(o.nodes) + " nodes" : "") + layout;
    std::string zh = std::to_string(o.gpu_count) + "× " + o.gpu_name_zh + (o.nodes > 1 ? "," + std::to_string(o.nodes) + " 个节点" : "") + layout;
    en.reserve(256);  // a why is 100–250 bytes: grown once
    zh.reserve(256);
    if (!o.levers.empty()) {
        en += " with " + lever_words(o.levers, false);
        zh += ",使用" + lever_words(o.levers, true);
    }
    const std::string mem = gib(o.memory_per_gpu_bytes);
    const UnitWords u = unit_words(model_kind);
    if (o.serving && u.samples) {
        const ServingLoad& l = *o.serving;
        en += ": " + std::to_string(l.replicas) + (l.replicas == 1 ? " replica" : " replicas") + " at batch " + std::to_string(l.per_replica) +
              ", " + mem + " GiB per GPU, " + fmt("%.4g ", l.tokens_per_s) + u.many + " per second";
        zh += ":" + std::to_string(l.replicas) + " 个副本,批大小 " + std::to_string(l.per_replica) + ",每块 GPU " + mem + " GiB," +
              fmt("每秒 %.4g ", l.tokens_per_s) + u.zh;
    } else if (o.serving) {
        const ServingLoad& l = *o.serving;
        en += ": " + users_words(l.users, l.replicas) + ", " + mem + " GiB per GPU, " + fmt("%.0f ms per token per user", l.tpot_ms) +
              fmt(", %.0f tokens/s", l.tokens_per_s);
        zh += ":" + std::to_string(l.replicas) + " 个副本服务 " + std::to_string(l.users) + " 个并发用户,每块 GPU " + mem +
              " GiB," + fmt("每用户每 token %.0f 毫秒", l.tpot_ms) + fmt(",%.0f token/秒", l.tokens_per_s);
    } else {
        en += ": needs " + mem + " GiB per GPU";
        zh += ":每块 GPU 需 " + mem + " GiB";
        if (o.hours) {
            en += ", ~" + hours_text(*o.hours);
            zh += ",约 " + hours_text_zh(*o.hours);
        }
        en += fmt(" at MFU %.2f", o.mfu);
        zh += fmt(",MFU %.2f", o.mfu);
    }
    o.why = std::move(en);
    o.why_zh = std::move(zh);
}

// [SECTION] answer: the recommendation sentence, step by step

namespace {

// One reason per listing: a budget or deadline miss over a "does not fit" of a smaller shape.
void reasons_by_listing(const std::vector<Rejection>& rejected, Recommendation& rec) {
    std::vector<const std::string*> reasons;  // in the order the listings first appear
    std::vector<std::pair<std::string_view, std::size_t>> at;  // listing → place in `reasons`, sorted
    for (const Rejection& r : rejected) {
        const std::string_view listing = std::string_view(r.reason).substr(0, r.reason.find(": "));
        auto it = std::lower_bound(at.begin(), at.end(), listing, [](const auto& x, std::string_view l) { return x.first < l; });
        if (it == at.end() || it->first != listing) {
            at.insert(it, {listing, reasons.size()});
            reasons.push_back(&r.reason);
        } else if (r.over_budget_cost || r.over_deadline_hours) {
            reasons[it->second] = &r.reason;
        }
    }
    rec.rejected_reasons.reserve(reasons.size());
    for (const std::string* reason : reasons) rec.rejected_reasons.push_back(*reason);
}

// "Nothing in the catalog can run …" with the most useful reason.
void nothing_answer(const Context& ctx, const std::vector<Rejection>& rejected, const std::optional<Note>& exported,
                    const std::string& name, Recommendation& rec) {
    const Scenario& s = ctx.s;
    const Note why = nothing_reason(ctx, rejected, exported);
    rec.summary = std::string("Nothing in the catalog can run ") + task_title(s.task) + " on " + name + where_en(s.region) +
                  ": " + why.en + ".";
    rec.summary_zh = where_zh(s.region) + "目录中没有能运行 " + name + " " + task_title_zh(s.task) + " 的方案:" + why.zh + "。";
    if (why.en.rfind("the cheapest", 0) == 0 || why.en.rfind("the fastest", 0) == 0) rec.notes.push_back(why.en);
}

// What the cheapest and the fastest trade against the pick.
void trade_offs(const Context& ctx, Recommendation& rec) {
    const Offer& b = rec.offers.front();
    for (std::optional<Alternative>* alt : {&rec.cheapest, &rec.fastest})
        if (*alt && (*alt)->index > 0 && (*alt)->index < rec.offers.size()) {
            const Words w = trade_off(ctx, b, rec.offers[(*alt)->index], alt == &rec.cheapest);
            (*alt)->trade_off = w.en;
            (*alt)->trade_off_zh = w.zh;
        }
}

// "For <task> on <model> [to N users]: <GPUs> on <provider> <instance>[, with <levers>]".
void pick_words(const Context& ctx, const std::string& name, const Offer& b, std::string& en, std::string& zh) {
    const Scenario& s = ctx.s;
    en = std::string("For ") + task_title(s.task) + " on " + name + where_en(s.region);
    zh = where_zh(s.region) + "对 " + name + " 做" + task_title_zh(s.task);
    if (b.serving && unit_words(ctx).samples) {
        en += " at batch " + std::to_string(b.serving->per_replica);
        zh += "(批大小 " + std::to_string(b.serving->per_replica) + ")";
    } else if (b.serving) {
        en += " to " + std::to_string(b.serving->users) + " concurrent " + (b.serving->users == 1 ? "user" : "users");
        zh += "(" + std::to_string(b.serving->users) + " 个并发用户)";
    }
    en += ": " + std::to_string(b.gpu_count) + "× " + b.gpu_name + " on " + b.provider_name + " " + b.instance + (b.spot ? " (spot)" : "");
    zh += ":" + b.provider_name_zh + " " + b.instance_zh + (b.spot ? "(抢占式)" : "") + " 上 " + std::to_string(b.gpu_count) + "× " + b.gpu_name_zh;
    if (!b.levers.empty()) {
        en += ", with " + lever_words(b.levers, false);
        zh += ",使用" + lever_words(b.levers, true);
    }
}

// The price per hour and, when serving, the speed in the job's units.
void price_and_speed_words(const Context& ctx, const Offer& b, std::string& en, std::string& zh) {
    const Scenario& s = ctx.s;
    en += " at " + format_money_sig(b.price_per_hour, s.currency) + "/h" + (b.spot ? "" : " on demand");
    zh += "," + format_money_sig(b.price_per_hour, s.currency) + "/小时" + (b.spot ? "" : "(按需)");
    const UnitWords u = unit_words(ctx);
    if (b.serving && ctx.arch.kind == "whisper") {
        en += fmt(", %.3g× real time", b.serving->tokens_per_s * 30);
        zh += fmt(",%.3g 倍实时速度", b.serving->tokens_per_s * 30);
    } else if (b.serving && u.samples) {
        en += fmt(", %.4g ", b.serving->tokens_per_s) + u.many + " per second";
        zh += fmt(",每秒 %.4g ", b.serving->tokens_per_s) + u.zh;
    } else if (b.serving) {
        en += fmt(", %.0f ms per token per user", b.serving->tpot_ms);
        zh += fmt(",每用户每 token %.0f 毫秒", b.serving->tpot_ms);
    }
}

// The whole job's time and cost, a reference run's when the size was not given, or the cost per
// million units of a service.
void job_cost_words(const Context& ctx, const Recommendation& rec, const Offer& b, std::string& en, std::string& zh) {
    const Scenario& s = ctx.s;
    const UnitWords u = unit_words(ctx);
    if (b.hours && b.total_cost) {
        en += ", ~" + hours_text(*b.hours) + " for the whole job, " + format_money_sig(*b.total_cost, s.currency) + " total";
        zh += ",整个作业约 " + hours_text_zh(*b.hours) + ",共 " + format_money_sig(*b.total_cost, s.currency);
    } else if (b.reference_hours && b.reference_cost && rec.reference_tokens && u.samples) {
        const std::string run = fmt("%.4g", *rec.reference_tokens / 1e6);
        const bool speech = ctx.arch.kind == "whisper";
        en += std::string("; a run of ") + run + "M " + u.many + " (assumed" + (speech ? ": 1,000 hours of audio" : ": ImageNet-1k") +
              " × epochs; give " + (speech ? "audio_seconds" : "train_images") + " for yours) takes ~" + hours_text(*b.reference_hours) + ", " +
              format_money_sig(*b.reference_cost, s.currency);
        zh += ";" + run + " 百万" + u.zh + "的训练(假设值,请填写 " + (speech ? "audio_seconds" : "train_images") + ")约需 " +
              hours_text_zh(*b.reference_hours) + "," + format_money_sig(*b.reference_cost, s.currency);
    } else if (b.reference_hours && b.reference_cost && rec.reference_tokens) {
        const std::string run = fmt("%.0f", *rec.reference_tokens / 1e6);
        en += "; a " + run + "M-token run (assumed: give train_tokens for yours) takes ~" + hours_text(*b.reference_hours) + ", " +
              format_money_sig(*b.reference_cost, s.currency);
        zh += ";" + run + " 百万 token 的训练(假设值,请填写 train_tokens)约需 " + hours_text_zh(*b.reference_hours) + "," +
              format_money_sig(*b.reference_cost, s.currency);
    } else if (b.cost_per_million_tokens) {
        en += ", " + format_money_sig(*b.cost_per_million_tokens, s.currency) + " per million " + u.many + (b.serving ? " at that load" : "");
        zh += ",每百万" + std::string(u.samples ? u.zh : " token ") + format_money_sig(*b.cost_per_million_tokens, s.currency) + (b.serving ? "(按此负载)" : "");
    }
}

}  // namespace

void answer(const Context& ctx, const std::vector<Rejection>& rejected, Recommendation& rec) {
    const std::string name = model_name(ctx);
    const std::optional<Note> exported = export_note(ctx);
    if (exported) rec.notes.push_back(exported->en);
    reasons_by_listing(rejected, rec);
    if (rec.offers.empty()) return nothing_answer(ctx, rejected, exported, name, rec);
    trade_offs(ctx, rec);
    const Offer& b = rec.offers.front();
    std::string en, zh;
    pick_words(ctx, name, b, en, zh);
    if (!b.price_known) {
        rec.summary = en + ", fits, but the catalog has no price for it: ask the provider.";
        rec.summary_zh = zh + ",可以运行,但目录中没有它的价格,请向云厂商询价。";
        return;
    }
    price_and_speed_words(ctx, b, en, zh);
    job_cost_words(ctx, rec, b, en, zh);
    spot_words(ctx, rec, b, en, zh);
    if (ctx.training || b.hours) {  // a job that ends
        en += ". When it ends, release the instance: end the script with `sudo shutdown -h now` or use the provider's "
              "auto-stop (a stopped instance's disks still bill)";
        zh += "。作业结束后请释放实例:在脚本末尾加上 `sudo shutdown -h now` 或使用云厂商的自动释放(已停止实例的磁盘仍会计费)";
    }
    rec.summary = en + ".";
    rec.summary_zh = zh + "。";
}

}  // namespace gpusizer::plan
