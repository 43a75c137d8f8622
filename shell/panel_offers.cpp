// The offers panel: core's recommendation sentence, the rent filters (scenario keys: region,
// providers, spot, currency, budget, deadline), the ranked offers as a sortable, filterable
// table, and cost against time with the Pareto front.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "format.hpp"
#include "imgui.h"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "style.hpp"
#include "widgets.hpp"

namespace gpusizer::shell {
namespace {

const ImVec4 k_warn(0.95f, 0.65f, 0.2f, 1.0f);

// [SECTION] Filters
void providers_combo(PanelContext& ctx) {
    std::vector<std::string>& chosen = ctx.scenario.providers;
    std::string preview = chosen.empty() ? tr("all providers", "全部云厂商") : std::string();
    for (std::size_t i = 0; i < chosen.size(); ++i) preview += (i ? ", " : "") + chosen[i];
    if (!combo_begin(ctx, "providers", preview.c_str())) return;
    if (combo_item(ctx, "providers", "__all", tr("all providers", "全部云厂商"), chosen.empty())) chosen.clear();
    for (const Provider& p : ctx.catalog.providers) {
        const auto it = std::find(chosen.begin(), chosen.end(), p.id);
        bool on = it != chosen.end();
        ImGui::PushID(p.id.c_str());
        const std::string text = p.name + (p.cn_mainland ? tr("  (mainland China)", "(中国大陆)") : "");
        if (ImGui::Checkbox(text.c_str(), &on)) {
            if (on)
                chosen.push_back(p.id);
            else
                chosen.erase(it);
        }
        ImGui::PopID();
        ctx.tags.tag_item("providers_item:" + p.id, on ? "1" : "0");
    }
    ImGui::EndCombo();
}

void filters(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    const int columns = ctx.ui.narrow ? 1 : 2;
    if (!ImGui::BeginTable("##rent_filters", columns, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    if (form_begin("##rent_a")) {
        form_row(tr("Region", "地区"), tr("Mainland China clouds sell H20, A800/H800, RTX 4090D and Ascend instead of "
                                         "A100/H100 (export controls).",
                                         "受出口管制,中国大陆云厂商提供 H20、A800/H800、RTX 4090D 和昇腾,而不是 A100/H100。"));
        enum_combo(ctx, "region", s.region, [](Region v) { return label(v); });
        form_row(tr("Providers", "云厂商"));
        providers_combo(ctx);
        form_row(tr("Spot / preemptible", "抢占式实例"), tr("Spot costs less but can be reclaimed: fine for jobs that "
                                                          "checkpoint and resume. Its cost includes the expected rework.",
                                                          "抢占式实例更便宜但可能被回收:适合能保存检查点并恢复的作业。费用已计入预计的重算。"));
        enum_combo(ctx, "spot", s.spot, [](SpotPolicy v) { return label(v); });
        form_end();
    }
    ImGui::TableNextColumn();
    if (form_begin("##rent_b")) {
        form_row(tr("Currency", "货币"));
        enum_combo(ctx, "currency", s.currency, [](Currency v) { return label(v); });
        form_row(tr("Budget", "预算"), tr("Total cost limit, in the chosen currency.", "总费用上限(所选货币)。"));
        optional_real(ctx, "budget", s.budget, k_limit_budget, 1000, 1.0, "%.6g");
        form_row(tr("Deadline (hours)", "期限(小时)"));
        optional_real(ctx, "deadline", s.deadline_hours, k_limit_deadline_hours, 72, 1.0, "%.6g");
        form_end();
    }
    ImGui::EndTable();
}

// [SECTION] Table
// Left to right: what a buyer compares first stays in view; the rest scrolls sideways.
enum Column { c_rank, c_provider, c_instance, c_price, c_total, c_hours, c_gpus, c_link, c_host, c_checks, c_count };
const char* const k_column_ids[c_count] = {"rank", "provider", "instance", "price", "total", "hours", "gpus", "link", "host", "checks"};

double total_or_rate(const Offer& o) {
    if (o.total_cost) return *o.total_cost;
    return o.cost_per_million_tokens.value_or(o.price_per_hour);
}

std::vector<int> display_order(const std::vector<Offer>& offers, const UiState& ui) {
    std::vector<int> order;
    for (int i = 0; i < static_cast<int>(offers.size()); ++i) {
        const Offer& o = offers[static_cast<std::size_t>(i)];
        const char* f = ui.offer_filter;
        auto has = [&](const std::string& s) {
            std::string a = s, b = f;
            for (char& c : a) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            for (char& c : b) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            return a.find(b) != std::string::npos;
        };
        if (!*f || has(o.provider) || has(o.provider_name) || has(o.instance) || has(o.gpu_name) || has(o.gpu) || has(o.region))
            order.push_back(i);
    }
    if (ui.sort_column < 0 || ui.sort_column == c_rank) {
        if (ui.sort_descending) std::reverse(order.begin(), order.end());
        return order;
    }
    auto key = [&](const Offer& o) -> double {
        switch (ui.sort_column) {
            case c_gpus: return static_cast<double>(o.gpu_count);
            case c_host: return o.ram_gib;
            case c_price: return o.price_known ? o.price_per_hour : HUGE_VAL;
            case c_hours: return o.hours.value_or(HUGE_VAL);
            case c_total: return o.price_known ? total_or_rate(o) : HUGE_VAL;
            case c_checks: return static_cast<double>(std::count_if(o.checks.begin(), o.checks.end(), [](const Check& c) { return !c.ok; }));
            default: return 0;
        }
    };
    auto text = [&](const Offer& o) -> std::string {
        switch (ui.sort_column) {
            case c_provider: return o.provider_name;
            case c_instance: return o.instance;
            case c_link: return o.interconnect;
            default: return {};
        }
    };
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        const Offer& a = offers[static_cast<std::size_t>(x)];
        const Offer& b = offers[static_cast<std::size_t>(y)];
        const bool textual = ui.sort_column == c_provider || ui.sort_column == c_instance || ui.sort_column == c_link;
        if (textual) return ui.sort_descending ? text(b) < text(a) : text(a) < text(b);
        return ui.sort_descending ? key(b) < key(a) : key(a) < key(b);
    });
    return order;
}

void header_cell(PanelContext& ctx, int column, const char* name) {
    ImGui::TableSetColumnIndex(column);
    std::string text = name;
    if (ctx.ui.sort_column == column) text += ctx.ui.sort_descending ? " \u2193" : " \u2191";
    ImGui::PushID(column);
    if (ImGui::Selectable((text + "##h").c_str(), ctx.ui.sort_column == column)) {
        if (ctx.ui.sort_column == column)
            ctx.ui.sort_descending = !ctx.ui.sort_descending;
        else {
            ctx.ui.sort_column = column;
            ctx.ui.sort_descending = false;
        }
    }
    ImGui::PopID();
    ctx.tags.tag_item(std::string("offer_sort:") + k_column_ids[column]);
}

void offers_table(PanelContext& ctx, const Recommendation& rec) {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 18));
    ImGui::InputTextWithHint("##offer_filter", tr("filter: provider, instance, GPU, region", "筛选:云厂商、实例、GPU、地区"),
                             ctx.ui.offer_filter, sizeof ctx.ui.offer_filter);
    ctx.tags.tag_item("offer_filter");
    const std::vector<int> order = display_order(rec.offers, ctx.ui);
    ImGui::SameLine();
    ImGui::TextDisabled(tr("%d of %d offers", "%d / %d 个方案"), static_cast<int>(order.size()), static_cast<int>(rec.offers.size()));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    const float height = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(std::min<std::size_t>(order.size(), 12) + 2);
    if (!ImGui::BeginTable("##offers", c_count, flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(2, 1);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    header_cell(ctx, c_rank, "#");
    header_cell(ctx, c_provider, tr("Provider", "云厂商"));
    header_cell(ctx, c_instance, tr("Instance", "实例"));
    header_cell(ctx, c_gpus, "GPUs");
    header_cell(ctx, c_link, tr("Link", "互联"));
    header_cell(ctx, c_host, tr("vCPU / RAM", "vCPU / 内存"));
    header_cell(ctx, c_price, tr("Price / h", "每小时价格"));
    header_cell(ctx, c_hours, tr("Time", "时间"));
    header_cell(ctx, c_total, rec.offers.empty() || rec.offers.front().total_cost ? tr("Total", "总价")
                                                                                  : tr("Per 1M tokens", "每百万 token"));
    header_cell(ctx, c_checks, tr("Checks", "检查"));
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(order.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const int i = order[static_cast<std::size_t>(row)];
            const Offer& o = rec.offers[static_cast<std::size_t>(i)];
            ImGui::TableNextRow();
            ImGui::PushID(i);
            ImGui::TableSetColumnIndex(c_rank);
            ImGui::Text("%d%s", i + 1, o.pareto ? " *" : "");
            ctx.tags.tag_item("offer_row:" + std::to_string(row), o.provider + "/" + o.instance + (o.spot ? "/spot" : ""));
            ImGui::TableSetColumnIndex(c_provider);
            ImGui::TextUnformatted(o.provider_name.c_str());
            ImGui::TableSetColumnIndex(c_instance);
            ImGui::TextUnformatted(o.instance.c_str());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s\n%s", (language() == Language::zh && !o.why_zh.empty() ? o.why_zh : o.why).c_str(),
                                  o.region.c_str());
            ImGui::TableSetColumnIndex(c_gpus);
            ImGui::Text("%lld\u00d7 %s", static_cast<long long>(o.gpu_count), o.gpu_name.c_str());
            ImGui::TableSetColumnIndex(c_link);
            ImGui::TextUnformatted(o.interconnect.c_str());
            ImGui::TableSetColumnIndex(c_host);
            if (o.vcpus > 0 || o.ram_gib > 0)
                ImGui::Text("%s / %s GiB", format_value(o.vcpus).c_str(), format_value(o.ram_gib).c_str());
            else
                ImGui::TextDisabled("?");
            ImGui::TableSetColumnIndex(c_price);
            if (!o.price_known) {
                ImGui::TextDisabled("%s", tr("not listed", "未公布"));
            } else {
                const std::string p = format_money(o.price_per_hour, o.currency);
                ImGui::Text("%s%s%s", o.price_is_estimate ? "\u2248" : "", p.c_str(), o.spot ? tr(" spot", " 抢占") : "");
                if (o.price_is_estimate && ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", tr("An estimate: the catalog marks this price as uncertain (see Checks).",
                                               "估计值:目录将此价格标记为不确定(见检查)。"));
            }
            ctx.tags.tag_item("offer_price:" + std::to_string(row), o.price_known ? format_value(o.price_per_hour) : "");
            ImGui::TableSetColumnIndex(c_hours);
            if (o.hours) ImGui::TextUnformatted(format_hours(*o.hours).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableSetColumnIndex(c_total);
            // Totals keep 3 significant digits (core's format_money_sig): a ¥0.35 job never shows as ¥0.00.
            const Currency cur = o.currency == "CNY" ? Currency::CNY : Currency::USD;
            if (o.total_cost) ImGui::TextUnformatted(format_money_sig(*o.total_cost, cur).c_str());
            else if (o.cost_per_million_tokens) ImGui::TextUnformatted(format_money_sig(*o.cost_per_million_tokens, cur).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableSetColumnIndex(c_checks);
            const long failed = std::count_if(o.checks.begin(), o.checks.end(), [](const Check& c) { return !c.ok; });
            if (failed == 0) ImGui::TextColored(ImVec4(0.3f, 0.75f, 0.4f, 1), "\u2713");
            else ImGui::TextColored(k_warn, "! %ld", failed);
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                for (const Check& c : o.checks) ImGui::Text("%s %s: %s", c.ok ? "\u2713" : "!", c.id.c_str(), c.message.c_str());
                ImGui::EndTooltip();
            }
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    ImGui::TextDisabled("%s", tr("* on the cost-time Pareto front (nothing is both cheaper and faster).  \u2248 estimated price.",
                                 "* 位于费用-时间帕累托前沿(没有更便宜且更快的方案)。 \u2248 估计价格。"));
}

// [SECTION] Chart: total cost (or cost per million tokens) against time (or throughput)
void pareto_chart(PanelContext& ctx, const Recommendation& rec) {
    struct P {
        double x, y;
        const Offer* o;
    };
    std::vector<P> pts;
    const bool timed = std::any_of(rec.offers.begin(), rec.offers.end(), [](const Offer& o) { return o.hours && o.total_cost; });
    for (const Offer& o : rec.offers) {
        if (!o.price_known) continue;
        if (timed && o.hours && o.total_cost && *o.hours > 0 && *o.total_cost > 0) pts.push_back({*o.hours, *o.total_cost, &o});
        if (!timed && o.cost_per_million_tokens && o.tokens_per_s > 0 && *o.cost_per_million_tokens > 0)
            pts.push_back({o.tokens_per_s, *o.cost_per_million_tokens, &o});
    }
    if (pts.size() < 2) return;
    ImGui::TextDisabled("%s", timed ? tr("Total cost against time (log scales); the line joins the Pareto front.",
                                         "总费用与时间(对数坐标);连线为帕累托前沿。")
                                    : tr("Cost per million tokens against throughput (log scales); the line joins the Pareto front.",
                                         "每百万 token 费用与吞吐量(对数坐标);连线为帕累托前沿。"));
    double x0 = HUGE_VAL, x1 = -HUGE_VAL, y0 = HUGE_VAL, y1 = -HUGE_VAL;
    for (const P& p : pts) {
        x0 = std::min(x0, std::log10(p.x)), x1 = std::max(x1, std::log10(p.x));
        y0 = std::min(y0, std::log10(p.y)), y1 = std::max(y1, std::log10(p.y));
    }
    if (x1 - x0 < 1e-9) x0 -= 0.5, x1 += 0.5;
    if (y1 - y0 < 1e-9) y0 -= 0.5, y1 += 0.5;
    const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetFontSize() * 12;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float left = ImGui::CalcTextSize("$000,000").x + 6, bottom = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 a(p0.x + left, p0.y + 6), b(p0.x + width - 10, p0.y + height - bottom);
    auto X = [&](double v) { return a.x + static_cast<float>((std::log10(v) - x0) / (x1 - x0)) * (b.x - a.x); };
    auto Y = [&](double v) { return b.y - static_cast<float>((std::log10(v) - y0) / (y1 - y0)) * (b.y - a.y); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border), text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddRect(a, b, grid);
    const std::string cur = pts.front().o->currency;
    for (int i = 0; i <= 2; ++i) {
        const double yv = std::pow(10.0, y0 + (y1 - y0) * i / 2), xv = std::pow(10.0, x0 + (x1 - x0) * i / 2);
        const std::string yl = format_money(yv, cur), xl = timed ? format_hours(xv) : format_count(xv) + " t/s";
        dl->AddText(ImVec2(p0.x, Y(yv) - ImGui::GetFontSize() / 2), text, yl.c_str());
        dl->AddText(ImVec2(std::min(X(xv), b.x - ImGui::CalcTextSize(xl.c_str()).x), b.y + 2), text, xl.c_str());
    }
    std::vector<P> front;
    for (const P& p : pts) {
        const ImU32 c = p.o->pareto ? IM_COL32(66, 180, 100, 255) : IM_COL32(140, 140, 150, 200);
        dl->AddCircleFilled(ImVec2(X(p.x), Y(p.y)), p.o->pareto ? 4.5f : 3.0f, c);
        if (p.o->pareto) front.push_back(p);
    }
    std::sort(front.begin(), front.end(), [](const P& l, const P& r) { return l.x < r.x; });
    for (std::size_t i = 0; i + 1 < front.size(); ++i)
        dl->AddLine(ImVec2(X(front[i].x), Y(front[i].y)), ImVec2(X(front[i + 1].x), Y(front[i + 1].y)), IM_COL32(66, 180, 100, 255), 1.5f);
    ImGui::Dummy(ImVec2(width, height));
    ctx.tags.tag_item("pareto_chart", std::to_string(front.size()));
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const P* best = nullptr;
        float bd = 1e30f;
        for (const P& p : pts) {
            const float dx = X(p.x) - m.x, dy = Y(p.y) - m.y, d = dx * dx + dy * dy;
            if (d < bd) bd = d, best = &p;
        }
        if (best)
            ImGui::SetTooltip("%s %s\n%lld\u00d7 %s\n%s / %s", best->o->provider_name.c_str(), best->o->instance.c_str(),
                              static_cast<long long>(best->o->gpu_count), best->o->gpu_name.c_str(),
                              timed ? format_hours(best->x).c_str() : (format_count(best->x) + " tokens/s").c_str(),
                              format_money(best->y, best->o->currency).c_str());
    }
}

}  // namespace

void panel_answer(PanelContext& ctx) {
    const Result<Recommendation>& r = ctx.results.recommendation;
    if (!r.ok()) {
        ImGui::TextColored(k_warn, "%s", tr("No offer fits this job; see \"What to rent\" below.", "没有方案满足此任务;见下方\"租用方案\"。"));
        return;
    }
    const std::string& summary = language() == Language::zh ? r->summary_zh : r->summary;
    // Amber that reads on either background (dark: light amber; light: dark brown-orange).
    ImGui::PushStyleColor(ImGuiCol_Text, theme() == Theme::light ? ImVec4(0.55f, 0.28f, 0.0f, 1) : ImVec4(0.98f, 0.75f, 0.3f, 1));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(summary.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ctx.tags.tag_item("recommendation", summary);
}

void panel_offers(PanelContext& ctx) {
    const bool open = ImGui::CollapsingHeader(tr("What to rent", "租用方案"), ImGuiTreeNodeFlags_DefaultOpen);
    ctx.tags.tag_item("section_offers");
    if (!open) return;
    filters(ctx);
    const Result<Recommendation>& r = ctx.results.recommendation;
    if (!r.ok()) {
        const std::string msg = format_error(r.error);
        ImGui::TextColored(k_warn, "%s", tr("No offer:", "没有方案:"));
        ImGui::SameLine();
        ImGui::TextWrapped("%s", msg.c_str());
        ctx.tags.tag_item("offers_error", msg);
        return;
    }
    const Recommendation& rec = *r;
    for (const std::string& w : rec.warnings) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s", w.c_str());
    }
    if (!rec.rejected_reasons.empty() && ImGui::TreeNode(tr("Why some instances are not listed", "为何部分实例未列出"))) {
        for (const std::string& w : rec.rejected_reasons) ImGui::BulletText("%s", w.c_str());
        ImGui::TreePop();
    }
    offers_table(ctx, rec);
    pareto_chart(ctx, rec);
}

}  // namespace gpusizer::shell
