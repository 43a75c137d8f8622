// Compare: the pinned scenario (kept with its results when the user pinned it, or opened from a
// link with pin=…) beside the scenario being edited — what changed (core's scenario_changes), the
// memory per GPU as stacked bars on one scale, and each one's pick: GPUs, where, price per hour,
// time and cost. Every figure is core's; the strip only lays the two answers side by side.
//
// Tags (tests): compare_unpin, compare_changes (text: "key:before>after;…"), and for side
// pinned / now: compare_<side>_memory (total bytes), compare_<side>_pick (offer id),
// compare_<side>_price, compare_<side>_time, compare_<side>_cost (raw numbers).
#include <algorithm>
#include <string>

#include "format.hpp"
#include "gpusizer/link.hpp"
#include "labels.hpp"
#include "memory_bar.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "ui_parts.hpp"

namespace gpusizer::shell {
namespace {

const Offer* pick(const Results& r) {
    return r.recommendation.ok() && !r.recommendation->offers.empty() ? &r.recommendation->offers.front() : nullptr;
}

std::uint64_t capacity(const Results& r) {
    const Offer* o = pick(r);
    return o ? o->gpu_memory_bytes : 0;
}

void row_label(const char* text) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(palette().muted, "%s", text);
}

// One side's cell of the figure rows.
void side_figure(PanelContext& ctx, const Results& r, const char* side, const char* what) {
    ImGui::TableNextColumn();
    const Offer* o = pick(r);
    if (!o) {
        ImGui::TextColored(palette().muted, "-");
        return;
    }
    const OfferFigures f = offer_figures(*r.recommendation, *o);
    const std::string w = what;
    const Figure& fig = w == "price" ? f.price : w == "time" ? f.time : f.cost;
    if (fig.value.empty()) {
        ImGui::TextColored(palette().muted, "-");
        return;
    }
    ImGui::PushFont(font_for(FontRole::heading, fig.value.c_str()));
    ImGui::TextUnformatted(fig.value.c_str());
    ImGui::PopFont();
    const std::optional<double> number = w == "price" ? std::optional<double>(o->price_per_hour) : w == "time" ? time_number(*o)
                                                                                                            : cost_number(*o);
    const std::string raw = number ? format_value(*number) : "";
    ctx.tags.tag_item(std::string("compare_") + side + "_" + w, raw);
    ImGui::SameLine();
    ImGui::TextColored(palette().muted, "%s", fig.caption.c_str());
}

// "COMPARE" and the Unpin button at the right.
void compare_header(PanelContext& ctx) {
    label_line(tr("COMPARE", "对比"), palette().accent,
               ctx.ui.narrow ? nullptr : tr("pinned scenario and the one you are editing", "固定的场景与正在编辑的场景"));
    const char* unpin = tr("Unpin", "取消固定");
    const float bw = ImGui::CalcTextSize(unpin).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < bw) ImGui::NewLine();
    else ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - bw));
    if (ImGui::SmallButton(unpin)) ctx.ui.unpin_requested = true;
    ctx.tags.tag_item("compare_unpin");
}

// What changed since the pin, as a link spells the values.
void changes_line(PanelContext& ctx) {
    const Palette& pal = palette();
    const std::vector<KeyChange> changes = scenario_changes(*ctx.pinned, ctx.scenario);
    std::string shown, raw;
    for (const KeyChange& c : changes) {
        shown += (shown.empty() ? "" : "   ") + c.key + ": " + c.before + " \u2192 " + c.after;
        raw += c.key + ":" + c.before + ">" + c.after + ";";
    }
    ImGui::PushTextWrapPos(0);
    if (changes.empty())
        ImGui::TextColored(pal.muted, "%s", tr("Nothing changed yet: change an input and the pinned answer stays here to compare.",
                                               "尚无改动:修改任一输入,固定的答案会留在这里供对比。"));
    else
        ImGui::TextColored(pal.warn, "%s %s", tr("Changed:", "改动:"), shown.c_str());
    ImGui::PopTextWrapPos();
    ctx.tags.tag_item("compare_changes", raw);
}

using Sides = std::initializer_list<std::pair<const Results*, const char*>>;

// Each side's pick: GPUs, then provider and instance.
void pick_row(PanelContext& ctx, Sides sides) {
    const Palette& pal = palette();
    row_label(tr("Rent", "租用"));
    for (const auto& [r, side] : sides) {
        ImGui::TableNextColumn();
        if (const Offer* o = pick(*r)) {
            const std::string gpus = offer_gpus(*o);
            ImGui::PushFont(font_for(FontRole::heading, gpus.c_str()));
            ImGui::TextUnformatted(gpus.c_str());
            ImGui::PopFont();
            ctx.tags.tag_item(std::string("compare_") + side + "_pick", offer_id(*o));
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(pal.muted, "%s \u00b7 %s%s", offer_provider(*o).c_str(), offer_instance(*o).c_str(),
                               o->spot ? tr(" (spot)", "(抢占式)") : "");
            ImGui::PopTextWrapPos();
        } else {
            ImGui::TextColored(pal.bad, "%s", tr("no offer", "没有方案"));
            ctx.tags.tag_item(std::string("compare_") + side + "_pick", "");
        }
    }
}

// Memory per GPU, both bars on one scale.
void memory_row(PanelContext& ctx, Sides sides) {
    row_label(tr("Memory per GPU", "每 GPU 显存"));
    double scale = 1;
    for (const auto& side : sides)
        if (side.first->estimate.ok())
            scale = std::max({scale, static_cast<double>(side.first->estimate->memory_per_gpu_bytes.total),
                              static_cast<double>(capacity(*side.first))});
    for (const auto& [r, side] : sides) {
        ImGui::TableNextColumn();
        if (!r->estimate.ok()) {
            ImGui::TextColored(palette().bad, "%s", tr("no estimate", "无法估算"));
            continue;
        }
        const MemoryBreakdown& m = r->estimate->memory_per_gpu_bytes;
        ImGui::TextUnformatted(format_gib(m.total).c_str());
        ctx.tags.tag_item(std::string("compare_") + side + "_memory", std::to_string(m.total));
        memory_bar(m, capacity(*r), scale, ImGui::GetTextLineHeight() * 0.6f);
    }
}

}  // namespace

void panel_compare(PanelContext& ctx) {
    if (!ctx.pinned) return;
    const Palette& pal = palette();
    if (!box_begin("##compare", ctx.ui.compare_height)) {
        ImGui::EndChild();
        return;
    }
    compare_header(ctx);
    changes_line(ctx);
    if (!ctx.pinned_results) {
        ImGui::TextColored(pal.muted, "%s", tr("Computing...", "计算中……"));
        ImGui::EndChild();
        return;
    }
    const Results& a = *ctx.pinned_results;
    const Results& b = ctx.results;
    if (ImGui::BeginTable("##compare_cols", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch, ctx.ui.narrow ? 0.24f : 0.16f);
        ImGui::TableSetupColumn("pinned", ImGuiTableColumnFlags_WidthStretch, 0.42f);
        ImGui::TableSetupColumn("now", ImGuiTableColumnFlags_WidthStretch, 0.42f);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        label_line(tr("Pinned", "固定"), pal.muted, nullptr);
        ImGui::TableNextColumn();
        label_line(tr("Now", "当前"), pal.accent, nullptr);
        const Sides sides = {{&a, "pinned"}, {&b, "now"}};
        pick_row(ctx, sides);
        memory_row(ctx, sides);
        for (const auto& [label, what] : {std::pair<const char*, const char*>{tr("Price", "价格"), "price"},
                                          {tr("Time", "时间"), "time"},
                                          {tr("Cost", "费用"), "cost"}}) {
            row_label(label);
            side_figure(ctx, a, "pinned", what);
            side_figure(ctx, b, "now", what);
        }
        ImGui::EndTable();
    }
    box_end(ctx.ui.compare_height, ctx.ui);
}

}  // namespace gpusizer::shell
