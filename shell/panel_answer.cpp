// The answer card: what to rent, said with weight. Left, the recommended offer (core's first) in
// large type: GPUs, where, price per hour, time, total, how full its memory is, and the levers and
// assumptions the plan relies on. Right, the cheapest and the fastest offers (core's
// Recommendation::cheapest / fastest) with the trade-off core words for each. Below, core's answer
// sentence. Every figure is a field of core's Recommendation; the shell formats it.
//
// Tags (tests): card_pick, card_gpus, card_where, card_price, card_time, card_cost, card_memory,
// card_pin; card_cheapest / card_fastest (the offer) and card_cheapest_trade_off /
// card_fastest_trade_off; recommendation (the sentence).
#include <algorithm>
#include <cstdio>
#include <string>

#include "format.hpp"
#include "imgui.h"
#include "offer_text.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "style.hpp"
#include "ui_parts.hpp"

namespace gpusizer::shell {
namespace {

const char* ranked_by(RankBy r) {
    switch (r) {
        case RankBy::cost: return tr("ranked by total cost", "按总费用排序");
        case RankBy::hourly: return tr("ranked by price per hour", "按每小时价格排序");
        case RankBy::time: return tr("ranked by time", "按用时排序");
    }
    return "";
}

// The number behind a figure, for the tests (the CLI's JSON has the same number).
std::string raw(const std::optional<double>& v) { return v ? format_value(*v) : std::string(); }

// The plan's levers and assumptions as chips.
void assumptions(const Recommendation& rec, const Offer& o) {
    const bool zh = language() == Language::zh;
    std::vector<std::string> items;
    for (const Lever& l : o.levers) items.emplace_back(zh && !l.text_zh.empty() ? l.text_zh : l.text);
    const Plan& p = o.plan;
    char buf[96];
    if (p.tensor_parallel > 1) items.push_back(tr("tensor parallel ", "张量并行 ") + std::to_string(p.tensor_parallel));
    if (p.pipeline_parallel > 1) items.push_back(tr("pipeline parallel ", "流水线并行 ") + std::to_string(p.pipeline_parallel));
    if (o.step && p.data_parallel > 1) items.push_back(tr("data parallel ", "数据并行 ") + std::to_string(p.data_parallel));
    if (o.step && p.zero_stage > 0) items.push_back("ZeRO-" + std::to_string(p.zero_stage));
    if (o.nodes > 1) {
        std::snprintf(buf, sizeof buf, tr("%lld nodes", "%lld 个节点"), static_cast<long long>(o.nodes));
        items.push_back(buf);
    }
    if (o.serving && !rec.model_kind.empty()) {  // images or audio windows: a batch per replica, not users
        const std::int64_t batch = o.serving->per_replica, replicas = o.serving->replicas;
        items.push_back(tr("batch ", "批大小 ") + std::to_string(batch) + tr(", ", ",") +
                        (replicas == 1 ? std::string(tr("1 replica", "1 个副本")) : std::to_string(replicas) + tr(" replicas", " 个副本")));
    } else if (o.serving) {
        const std::int64_t users = o.serving->users, replicas = o.serving->replicas;
        items.push_back((users == 1 ? std::string(tr("1 user", "1 个用户")) : std::to_string(users) + tr(" users", " 个用户")) +
                        tr(", ", ",") +
                        (replicas == 1 ? std::string(tr("1 replica", "1 个副本")) : std::to_string(replicas) + tr(" replicas", " 个副本")));
    }
    if (o.step && o.mfu > 0) {
        std::snprintf(buf, sizeof buf, tr("MFU %.2f (estimate)", "MFU %.2f(估计)"), o.mfu);
        items.push_back(buf);
    }
    if (o.spot && o.step && o.checkpoint_every_hours > 0)
        items.push_back(tr("spot: checkpoint every ", "抢占式:每 ") + format_hours(o.checkpoint_every_hours) + tr("", " 保存检查点"));
    else if (o.spot)
        items.push_back(tr("spot: can be reclaimed", "抢占式:可能被回收"));
    else
        items.push_back(tr("on demand", "按需"));
    if (!o.hours && rec.reference_tokens && o.reference_hours)
        items.push_back(tr("no token count given: a reference run", "未填写 token 数:按参考训练量"));
    Flow flow;
    for (const std::string& t : items) chip(flow, t.c_str(), palette().muted);
}

// The memory each GPU needs against what it has: a figure whose caption is a small bar.
void memory_figure(PanelContext& ctx, const Offer& o) {
    if (!o.gpu_memory_bytes) return;
    const Palette& pal = palette();
    const double share = static_cast<double>(o.memory_per_gpu_bytes) / static_cast<double>(o.gpu_memory_bytes);
    const bool roomy = share <= 0.9;  // core's headroom check: 10% free
    ImGui::BeginGroup();
    const float x0 = ImGui::GetCursorScreenPos().x;
    ImGui::PushFont(font(FontRole::figure));
    ImGui::TextUnformatted(format_gib(o.memory_per_gpu_bytes).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextColored(pal.muted, "/ %s %s", format_gib(o.gpu_memory_bytes).c_str(), tr("per GPU", "每 GPU"));
    const float width = std::max(ImGui::GetItemRectMax().x - x0, ImGui::GetFontSize() * 8);  // as wide as the figure
    const float h = ImGui::GetTextLineHeight() * 0.5f;
    const ImVec2 q = ImGui::GetCursorScreenPos();
    const float y = q.y + (ImGui::GetTextLineHeight() - h) / 2;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(q.x, y), ImVec2(q.x + width, y + h), ImGui::GetColorU32(pal.raised), h / 2);
    dl->AddRectFilled(ImVec2(q.x, y), ImVec2(q.x + width * static_cast<float>(std::min(share, 1.0)), y + h),
                      ImGui::GetColorU32(roomy ? pal.good : pal.warn), h / 2);
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    ImGui::EndGroup();
    ctx.tags.tag_item("card_memory", std::to_string(o.memory_per_gpu_bytes));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", roomy ? tr("Memory each GPU needs in this plan, against what it has.", "此方案中每块 GPU 需要的显存与其容量。")
                                      : tr("Less than 10% free: a longer batch or an allocator spike may run out of memory.",
                                           "剩余不足 10%:更长的批次或分配器峰值可能导致显存不足。"));
}

void pick_column(PanelContext& ctx, const Recommendation& rec) {
    const Palette& pal = palette();
    const Offer& o = rec.offers.front();
    label_line(tr("RECOMMENDED", "推荐方案"), pal.accent, ctx.ui.narrow ? nullptr : ranked_by(rec.scenario.rank_by));
    // Pin (compare) at the right of the label line, or under it when there is no room.
    const char* pin_text = ctx.pinned ? tr("Unpin", "取消固定") : tr("Pin to compare", "固定以对比");
    const float bw = ImGui::CalcTextSize(pin_text).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < bw) ImGui::NewLine();
    else ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - bw));
    if (ImGui::SmallButton(pin_text)) (ctx.pinned ? ctx.ui.unpin_requested : ctx.ui.pin_requested) = true;
    ctx.tags.tag_item("card_pin", ctx.pinned ? "pinned" : "");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Keep this scenario and its answer beside the one you edit next; the share link carries both.",
                                   "保留当前场景及其答案,与接下来编辑的场景并排对比;分享链接同时包含两者。"));
    const std::string gpus = offer_gpus(o);
    title_text(gpus, FontRole::title);
    ctx.tags.tag_item("card_gpus", std::to_string(o.gpu_count));
    ctx.tags.tag_item("card_pick", offer_id(o));
    const std::string where = offer_provider(o) + " \u00b7 " + offer_instance(o);
    ImGui::PushFont(font_for(FontRole::heading, where.c_str()));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(where.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    ctx.tags.tag_item("card_where", where);
    Flow badges;
    if (o.spot) badge(badges, tr("spot", "抢占式"), pal.warn);
    if (o.price_is_estimate) badge(badges, tr("\u2248 estimated price", "\u2248 估计价格"), pal.warn);
    // The figures in a row that wraps on a phone: price, time, cost, memory.
    const OfferFigures f = offer_figures(rec, o);
    const float gap = ImGui::GetFontSize() * 1.6f;
    Flow row(gap);
    row.next(ImGui::GetFontSize() * 5);
    figure(f.price, FontRole::figure);
    ctx.tags.tag_item("card_price", o.price_known ? format_value(o.price_per_hour) : "");
    if (!f.time.value.empty()) {
        row.next(ImGui::GetFontSize() * 5);
        figure(f.time, FontRole::figure);
        ctx.tags.tag_item("card_time", raw(time_number(o)));
    }
    if (!f.cost.value.empty()) {
        row.next(ImGui::GetFontSize() * 5);
        figure(f.cost, FontRole::figure);
        ctx.tags.tag_item("card_cost", raw(cost_number(o)));
    }
    row.next(ImGui::GetFontSize() * 12);
    memory_figure(ctx, o);
    assumptions(rec, o);
}

void alternative_block(PanelContext& ctx, const Recommendation& rec, const std::optional<Alternative>& alt, bool cheapest) {
    const Palette& pal = palette();
    const char* tag = cheapest ? "card_cheapest" : "card_fastest";
    label_line(cheapest ? tr("CHEAPEST", "最便宜") : tr("FASTEST", "最快"), cheapest ? pal.good : pal.fast, nullptr);
    if (!alt) {
        ImGui::TextColored(pal.muted, "%s", tr("No priced offer.", "没有带价格的方案。"));
        return;
    }
    if (alt->index == 0) {  // the pick itself: said in one line, not repeated
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.muted, "%s", cheapest ? tr("The recommendation is also the cheapest offer.", "推荐方案就是最便宜的方案。")
                                                     : tr("The recommendation is also the fastest offer.", "推荐方案就是最快的方案。"));
        ImGui::PopTextWrapPos();
        ctx.tags.tag_item(tag, offer_id(rec.offers.front()));
        ctx.tags.tag_item(std::string(tag) + "_trade_off", "");
        return;
    }
    const Offer& o = rec.offers[alt->index];
    title_text(offer_gpus(o), FontRole::heading);
    ctx.tags.tag_item(tag, offer_id(o));
    const std::string where = offer_provider(o) + " \u00b7 " + offer_instance(o) + (o.spot ? tr(" (spot)", "(抢占式)") : "");
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(pal.muted, "%s", where.c_str());
    ImGui::PopTextWrapPos();
    const OfferFigures f = offer_figures(rec, o);
    std::string line = f.price.value + tr("/h", "/小时");
    if (!f.time.value.empty()) line += "  \u00b7  " + f.time.value;
    if (!f.cost.value.empty()) line += "  \u00b7  " + f.cost.value + " " + f.cost.caption;
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(line.c_str());
    const std::string& t = language() == Language::zh ? alt->trade_off_zh : alt->trade_off;
    ImGui::TextColored(cheapest ? pal.good : pal.fast, "%s", t.c_str());
    ctx.tags.tag_item(std::string(tag) + "_trade_off", t);
    ImGui::PopTextWrapPos();
}

}  // namespace

void panel_answer(PanelContext& ctx) {
    const Palette& pal = palette();
    const Result<Recommendation>& r = ctx.results.recommendation;
    if (!box_begin("##card", ctx.ui.card_height)) {
        ImGui::EndChild();
        return;
    }
    if (!r.ok() || r->offers.empty()) {
        label_line(tr("NO OFFER", "没有方案"), pal.bad, nullptr);
        const std::string msg = r.ok() ? (language() == Language::zh ? r->summary_zh : r->summary)
                                       : tr("No offer fits this job; see \"What to rent\" below.", "没有方案满足此任务;见下方\"租用方案\"。");
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(msg.c_str());
        ImGui::PopTextWrapPos();
        ctx.tags.tag_item("recommendation", msg);
        return box_end(ctx.ui.card_height, ctx.ui);
    }
    const Recommendation& rec = *r;
    if (ctx.ui.narrow) {
        pick_column(ctx, rec);
        ImGui::Separator();
        alternative_block(ctx, rec, rec.cheapest, true);
        ImGui::Separator();
        alternative_block(ctx, rec, rec.fastest, false);
    } else if (ImGui::BeginTable("##card_cols", 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("pick", ImGuiTableColumnFlags_WidthStretch, 0.5f);
        ImGui::TableSetupColumn("cheapest", ImGuiTableColumnFlags_WidthStretch, 0.25f);
        ImGui::TableSetupColumn("fastest", ImGuiTableColumnFlags_WidthStretch, 0.25f);
        ImGui::TableNextColumn();
        pick_column(ctx, rec);
        ImGui::TableNextColumn();
        alternative_block(ctx, rec, rec.cheapest, true);
        ImGui::TableNextColumn();
        alternative_block(ctx, rec, rec.fastest, false);
        ImGui::EndTable();
    }
    // core's sentence: the same answer in words, with what to do when the job ends, folded
    // under a line that opens it.
    const std::string& summary = language() == Language::zh ? rec.summary_zh : rec.summary;
    const bool open = ImGui::TreeNodeEx(tr("The answer in words", "文字版答案"), ImGuiTreeNodeFlags_NoTreePushOnOpen);
    ctx.tags.tag_item("recommendation", summary);
    if (open) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.muted, "%s", summary.c_str());
        ImGui::PopTextWrapPos();
    }
    box_end(ctx.ui.card_height, ctx.ui);
}

}  // namespace gpusizer::shell
