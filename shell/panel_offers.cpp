// The offers panel: the rent filters (scenario keys: region, providers, spot, currency, budget,
// deadline), the ranked offers as a sortable, filterable table with a details row per offer, and
// cost against time with the Pareto front and the card's three offers labelled.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "format.hpp"
#include "imgui.h"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "style.hpp"
#include "widgets.hpp"
#include "chart.hpp"
#include "imgui_internal.h"  // GetCurrentTable: the details row spans the table
#include "offer_text.hpp"

namespace gpusizer::shell {
namespace {

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
        const std::string text = (language() == Language::zh && !p.name_zh.empty() ? p.name_zh : p.name) + (p.cn_mainland ? tr("  (mainland China)", "(中国大陆)") : "");
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
constexpr std::size_t k_offers_shown = 15;  // rows before "Show all"
// The key columns fit a laptop's results pane without sideways scrolling; the rest of an offer
// (interconnect, host, region, plan, why, checks) opens in a details row on click.
enum Column { c_rank, c_gpus, c_provider, c_price, c_hours, c_total, c_checks, c_count };  // c_provider: provider · instance
const char* const k_column_ids[c_count] = {"rank", "gpus", "provider", "price", "hours", "total", "checks"};

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
        if (!*f || has(o.provider) || has(o.provider_name) || has(o.provider_name_zh) || has(o.instance) || has(o.gpu_name) ||
            has(o.gpu) || has(o.region))
            order.push_back(i);
    }
    if (ui.sort_column < 0 || ui.sort_column == c_rank) {
        if (ui.sort_descending) std::reverse(order.begin(), order.end());
        return order;
    }
    auto key = [&](const Offer& o) -> double {
        switch (ui.sort_column) {
            case c_gpus: return static_cast<double>(o.gpu_count);
            case c_price: return o.price_known ? o.price_per_hour : HUGE_VAL;
            case c_hours: return o.hours.value_or(HUGE_VAL);
            case c_total: return o.price_known ? total_or_rate(o) : HUGE_VAL;
            case c_checks: return static_cast<double>(std::count_if(o.checks.begin(), o.checks.end(), [](const Check& c) { return !c.ok; }));
            default: return 0;
        }
    };
    auto text = [&](const Offer& o) -> std::string { return offer_provider(o) + " " + o.instance; };
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        const Offer& a = offers[static_cast<std::size_t>(x)];
        const Offer& b = offers[static_cast<std::size_t>(y)];
        const bool textual = ui.sort_column == c_provider;
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
    ImGui::PushFont(font_for(FontRole::heading, text.c_str()));
    if (ImGui::Selectable((text + "##h").c_str(), ctx.ui.sort_column == column)) {
        if (ctx.ui.sort_column == column)
            ctx.ui.sort_descending = !ctx.ui.sort_descending;
        else {
            ctx.ui.sort_column = column;
            ctx.ui.sort_descending = false;
        }
    }
    ImGui::PopFont();
    ImGui::PopID();
    ctx.tags.tag_item(std::string("offer_sort:") + k_column_ids[column]);
}

// Right-aligned text in the current cell (figures line up: DejaVu's digits are tabular).
void right_text(const std::string& t, const ImVec4* colour = nullptr) {
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
    if (colour) ImGui::TextColored(*colour, "%s", t.c_str());
    else ImGui::TextUnformatted(t.c_str());
}

// `text` cut to the cell's width with "…" (whole UTF-8 characters); true when it was cut.
bool fitted_text(const std::string& text, const ImVec4* colour = nullptr) {
    const std::string shown = ellipsized(text, ImGui::GetContentRegionAvail().x);
    const bool cut = shown != text;
    if (colour) ImGui::TextColored(*colour, "%s", shown.c_str());
    else ImGui::TextUnformatted(shown.c_str());
    return cut;
}

// A GPU as the table lists it: the count and the name without its notes ("8× B200"); the
// details row and the tooltip have the rest.
std::string short_gpus(const Offer& o) {
    const std::string& name = language() == Language::zh ? o.gpu_name_zh : o.gpu_name;
    return std::to_string(o.gpu_count) + "\u00d7 " + name.substr(0, name.find(" ("));
}

const char* check_name(std::string_view id) {
    struct Name {
        const char* id;
        const char* en;
        const char* zh;
    };
    static const Name k_names[] = {
        {"memory_fit", "memory", "显存"},        {"headroom", "headroom", "余量"},       {"levers", "levers", "省显存手段"},
        {"pcie_model_parallel", "PCIe model parallel", "PCIe 模型并行"}, {"communication", "communication", "通信"},
        {"fabric", "network", "节点间网络"},     {"host_ram", "host RAM", "主机内存"},   {"vcpus", "vCPUs", "vCPU"},
        {"per_gpu_listing", "priced per GPU", "按 GPU 计价"}, {"tpu_slice", "TPU slice", "TPU 切片"},
        {"export", "export controls", "出口管制"}, {"software", "software", "软件栈"},  {"bf16", "bf16", "bf16"},
        {"price", "price", "价格"},              {"spot", "spot", "抢占式"},             {"price_estimate", "price estimate", "估计价格"},
        {"latency", "latency", "延迟"},          {"long_run", "long run", "运行时间长"}, {"budget", "budget", "预算"},
        {"deadline", "deadline", "期限"},        {"mainland_account", "mainland account", "大陆实名账户"},
    };
    for (const Name& n : k_names)
        if (id == n.id) return tr(n.en, n.zh);
    return id.data();  // the planner's ids are string literals (NUL-terminated)
}

// The details row of an opened offer: drawn across the whole table width.
void offer_details(PanelContext& ctx, const Offer& o) {
    ImGuiTable* table = ImGui::GetCurrentTable();
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(palette().raised));
    ImGui::PushClipRect(table->InnerClipRect.Min, table->InnerClipRect.Max, false);
    const float right = table->InnerClipRect.Max.x - ImGui::GetWindowPos().x - ImGui::GetStyle().CellPadding.x * 2;
    ImGui::PushTextWrapPos(right);
    ImGui::BeginGroup();
    const Palette& pal = palette();
    const std::string& why = language() == Language::zh && !o.why_zh.empty() ? o.why_zh : o.why;
    ImGui::TextUnformatted(why.c_str());
    ctx.tags.tag_item("offer_why", why);  // worded when opened (worded_offer): the CLI's why
    std::string facts = std::string(tr("Interconnect ", "互联 ")) + o.interconnect;
    if (o.vcpus > 0 || o.ram_gib > 0)
        facts += std::string(tr("  \u00b7  host ", "  \u00b7  主机 ")) + format_value(o.vcpus) + " vCPU / " + format_value(o.ram_gib) +
                 tr(" GiB RAM", " GiB 内存");
    if (o.network_gbps > 0) facts += std::string(tr("  \u00b7  network ", "  \u00b7  网络 ")) + format_value(o.network_gbps) + " Gbps";
    facts += std::string(tr("  \u00b7  region ", "  \u00b7  地区 ")) + o.region;
    if (!o.price_basis.empty()) facts += std::string(tr("  \u00b7  price: ", "  \u00b7  价格来源:")) + o.price_basis;
    ImGui::TextColored(pal.muted, "%s", facts.c_str());
    // Where the price comes from and when it was read: the catalog row's own words (sources are
    // citations, in English), so a person can check a price before renting.
    if (const Instance* inst = ctx.catalog.find_instance(o.provider, o.instance)) {
        const auto stated = [](std::string_view s) { return s.empty() ? std::string(tr("(not stated)", "(未注明)")) : std::string(s); };
        std::string price = std::string(tr("Price as of ", "价格日期 ")) + stated(inst->price_date);
        if (o.spot && !inst->spot_price_date.empty()) price += std::string(tr("; spot price: ", ";抢占式价格:")) + inst->spot_price_date;
        price += std::string(tr("  \u00b7  source: ", "  \u00b7  出处:")) + stated(inst->source);
        ImGui::TextColored(pal.muted, "%s", price.c_str());
        ctx.tags.tag_item("offer_source", inst->source);
    }
    for (const Check& c : o.checks) {
        ImGui::TextColored(c.ok ? pal.good : pal.warn, "%s", c.ok ? "\u2713" : "!");
        ImGui::SameLine();
        ImGui::TextColored(pal.muted, "%s:", check_name(c.id));
        ImGui::SameLine();
        ImGui::TextUnformatted((language() == Language::zh && !c.message_zh.empty() ? c.message_zh : c.message).c_str());
    }
    ImGui::EndGroup();
    ImGui::PopTextWrapPos();
    ImGui::PopClipRect();
    ctx.tags.tag_item("offer_detail", offer_id(o));
}

// One offer's row (rank, GPUs, where, price, time, total, checks); its details below when open.
void offer_row(PanelContext& ctx, const Recommendation& rec, int i, std::size_t row) {
    const Palette& pal = palette();
    const Offer& o = rec.offers[static_cast<std::size_t>(i)];
    const std::string id = offer_id(o);
    const bool open = ctx.ui.expanded_offer == id;
    ImGui::TableNextRow();
    ImGui::PushID(i);
    ImGui::TableSetColumnIndex(c_rank);
    char rank[32];
    std::snprintf(rank, sizeof rank, "%s %zu%s", open ? "\u2212" : "+", o.rank, o.pareto ? " *" : "");
    if (ImGui::Selectable(rank, open, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        ctx.ui.expanded_offer = open ? std::string() : id;
    ctx.tags.tag_item("offer_row:" + std::to_string(row), id);
    ImGui::TableSetColumnIndex(c_gpus);
    if (fitted_text(short_gpus(o)) && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", offer_gpus(o).c_str());
    ImGui::TableSetColumnIndex(c_provider);
    const std::string where = offer_provider(o) + " \u00b7 " + offer_instance(o) + (o.spot ? tr(" (spot)", "(抢占式)") : "");
    if (fitted_text(where) && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", where.c_str());
    ImGui::TableSetColumnIndex(c_price);
    if (!o.price_known) {
        right_text(tr("not listed", "未公布"), &pal.muted);
    } else {
        const std::string p = format_money(o.price_per_hour, o.currency);
        right_text(std::string(o.price_is_estimate ? "\u2248" : "") + p);
        if (o.price_is_estimate && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", tr("An estimate: the catalog marks this price as uncertain (see the details).",
                                       "估计值:目录将此价格标记为不确定(见详情)。"));
    }
    ctx.tags.tag_item("offer_price:" + std::to_string(row), o.price_known ? format_value(o.price_per_hour) : "");
    ImGui::TableSetColumnIndex(c_hours);
    if (o.hours) right_text(format_hours(*o.hours));
    else right_text("-", &pal.muted);
    ImGui::TableSetColumnIndex(c_total);
    // Totals keep 3 significant digits (core's format_money_sig): a ¥0.35 job never shows as ¥0.00.
    const Currency cur = o.currency == "CNY" ? Currency::CNY : Currency::USD;
    if (o.total_cost) right_text(format_money_sig(*o.total_cost, cur));
    else if (o.cost_per_million_tokens) right_text(format_money_sig(*o.cost_per_million_tokens, cur));
    else right_text("-", &pal.muted);
    ImGui::TableSetColumnIndex(c_checks);
    const long failed = std::count_if(o.checks.begin(), o.checks.end(), [](const Check& c) { return !c.ok; });
    if (failed == 0) right_text("\u2713", &pal.good);
    else right_text("! " + std::to_string(failed), &pal.warn);
    ImGui::PopID();
    if (open) offer_details(ctx, worded_offer(ctx.results, static_cast<std::size_t>(i)));
}

// The button for the rest of the rows and the footnote on * and ≈.
void offers_footer(PanelContext& ctx, std::size_t offers) {
    if (offers > k_offers_shown) {
        char more[96];
        std::snprintf(more, sizeof more, ctx.ui.all_offers ? tr("Show the first %d", "只显示前 %d 个") : tr("Show all %d offers", "显示全部 %d 个方案"),
                      static_cast<int>(ctx.ui.all_offers ? k_offers_shown : offers));
        if (ImGui::SmallButton(more)) ctx.ui.all_offers = !ctx.ui.all_offers;
        ctx.tags.tag_item("offers_more", ctx.ui.all_offers ? "all" : std::to_string(k_offers_shown));
        ImGui::SameLine();
    }
    ImGui::TextColored(palette().muted, "%s", tr("* on the cost-time Pareto front (nothing is both cheaper and faster).  \u2248 estimated price.",
                                                 "* 位于费用-时间帕累托前沿(没有更便宜且更快的方案)。 \u2248 估计价格。"));
}

void offers_table(PanelContext& ctx, const Recommendation& rec) {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 18));
    ImGui::InputTextWithHint("##offer_filter", tr("filter: provider, instance, GPU, region", "筛选:云厂商、实例、GPU、地区"),
                             ctx.ui.offer_filter, sizeof ctx.ui.offer_filter);
    ctx.tags.tag_item("offer_filter");
    const std::vector<int> order = display_order(rec.offers, ctx.ui);
    ImGui::SameLine();
    ImGui::TextColored(palette().muted, tr("%d of %d offers \u00b7 click a row for details", "%d / %d 个方案 \u00b7 点击一行查看详情"),
                       static_cast<int>(order.size()), static_cast<int>(rec.offers.size()));
    // No scrolling box (it would catch the wheel that scrolls the pane): the first rows, and a
    // button for the rest.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingStretchProp;
    const std::size_t shown = ctx.ui.all_offers ? order.size() : std::min<std::size_t>(order.size(), k_offers_shown);
    // One table (and so one set of column widths) per language and kind of total: ImGui keeps a
    // fixed column's first width.
    const std::string table_id = std::string("##offers_") + (language() == Language::zh ? "zh" : "en") +
                                 (!rec.offers.empty() && !rec.offers.front().total_cost ? "_rate" : "_total");
    if (!ImGui::BeginTable(table_id.c_str(), c_count, flags)) return;
    const bool per_million = !rec.offers.empty() && !rec.offers.front().total_cost && rec.offers.front().cost_per_million_tokens;
    const char* headers[c_count] = {"#", "GPU", tr("Provider \u00b7 instance", "云厂商 \u00b7 实例"), tr("Price/h", "每小时"),
                                    tr("Time", "时间"), per_million ? per_million_text(rec) : tr("Total", "总价"),
                                    tr("Checks", "检查")};
    // Fixed columns as wide as their widest value or their heading (in the heading font, with the sort arrow).
    auto fixed = [&](int c, const char* widest) {
        ImGui::PushFont(font_for(FontRole::heading, headers[c]));
        const float head = ImGui::CalcTextSize(headers[c]).x;
        ImGui::PopFont();
        return std::max(head, ImGui::CalcTextSize(widest).x) + ImGui::GetStyle().CellPadding.x * 2;
    };
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, fixed(c_rank, "\u2212 000 *"));
    ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 1.15f);
    ImGui::TableSetupColumn("where", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("price", ImGuiTableColumnFlags_WidthFixed, fixed(c_price, "\u2248$00.00"));
    ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthFixed, fixed(c_hours, "00.0 days"));
    ImGui::TableSetupColumn("total", ImGuiTableColumnFlags_WidthFixed, fixed(c_total, "$00,000"));
    ImGui::TableSetupColumn("checks", ImGuiTableColumnFlags_WidthFixed, fixed(c_checks, "! 00"));
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < c_count; ++c) header_cell(ctx, c, headers[c]);
    // No clipper: an opened row changes the row heights (at most a few hundred rows, each cheap).
    for (std::size_t row = 0; row < shown; ++row) offer_row(ctx, rec, order[row], row);
    ImGui::EndTable();
    offers_footer(ctx, order.size());
}

// [SECTION] Chart: total cost (or cost per million tokens) against time (or throughput)
// Tick labels of the log axes (1-2-5 values): "10 min", "2 h", "100 h"; "$0.5", "$20", "$1,000".
std::string hours_tick(double h) {
    char buf[32];
    if (h < 1) std::snprintf(buf, sizeof buf, tr("%.0f min", "%.0f 分钟"), h * 60);
    else std::snprintf(buf, sizeof buf, tr("%g h", "%g 小时"), h);
    return buf;
}
std::string money_tick(double v, const std::string& currency) {
    if (v < 1) return format_money_sig(v, currency == "CNY" ? Currency::CNY : Currency::USD);
    return (currency == "CNY" ? "\u00a5" : "$") + format_grouped(static_cast<std::uint64_t>(std::llround(v)));
}

// [SECTION] The cost-time chart: its points, the front, the labelled roles, the hover

struct ChartPoint {
    double x, y;  // hours and total cost, or tokens/s and cost per million tokens (serving)
    std::size_t index;  // into rec.offers
};

// The priced offers as points; `timed` when offers have a whole-job time and cost.
std::vector<ChartPoint> chart_points(const Recommendation& rec, bool& timed) {
    std::vector<ChartPoint> pts;
    timed = std::any_of(rec.offers.begin(), rec.offers.end(), [](const Offer& o) { return o.hours && o.total_cost; });
    for (std::size_t i = 0; i < rec.offers.size(); ++i) {
        const Offer& o = rec.offers[i];
        if (!o.price_known) continue;
        if (timed && o.hours && o.total_cost && *o.hours > 0 && *o.total_cost > 0) pts.push_back({*o.hours, *o.total_cost, i});
        if (!timed && o.cost_per_million_tokens && o.tokens_per_s > 0 && *o.cost_per_million_tokens > 0)
            pts.push_back({o.tokens_per_s, *o.cost_per_million_tokens, i});
    }
    return pts;
}

// Log axes over the points with a tenth of the span as margin on each side (edge points and
// labels show).
// `samples`: a vision, diffusion or speech job (Recommendation::model_kind) counts samples, not tokens.
Plot begin_pareto_plot(PanelContext& ctx, const std::vector<ChartPoint>& pts, bool timed, const std::string& cur, bool samples) {
    double x0 = HUGE_VAL, x1 = -HUGE_VAL, y0 = HUGE_VAL, y1 = -HUGE_VAL;
    for (const ChartPoint& p : pts) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    const double mx = std::pow(std::max(x1 / x0, 1.5), 0.1), my = std::pow(std::max(y1 / y0, 1.5), 0.1);
    AxisSpec x{x0 / mx, x1 * mx, true,
               timed ? tr("Time for the whole job (log scale)", "整个作业用时(对数坐标)")
                     : !samples ? tr("Throughput (output tokens/s, log scale)", "吞吐量(输出 token/秒,对数坐标)")
                                              : tr("Throughput (samples/s, log scale)", "吞吐量(样本/秒,对数坐标)"),
               [timed](double v) { return timed ? hours_tick(v) : format_count(v); }};
    char ytitle[96];
    std::snprintf(ytitle, sizeof ytitle, timed ? tr("Total cost (%s, log scale)", "总费用(%s,对数坐标)")
                             : !samples ? tr("Cost per million tokens (%s, log scale)", "每百万 token 费用(%s,对数坐标)")
                                                      : tr("Cost per million samples (%s, log scale)", "每百万样本费用(%s,对数坐标)"),
                  cur.c_str());
    AxisSpec y{y0 / my, y1 * my, true, ytitle, [cur](double v) { return money_tick(v, cur); }};
    return begin_plot(ctx, "pareto_chart", ImGui::GetFontSize() * 17, x, y);
}

struct ChartColours {
    ImU32 other, front, pick, cheap, fast;
};

// Every point, the Pareto front's points larger and joined by a line; returns the front's size.
std::size_t draw_points_and_front(const Recommendation& rec, const std::vector<ChartPoint>& pts, const Plot& plot,
                                  const ChartColours& c, float dot) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    std::vector<ChartPoint> front;
    for (const ChartPoint& p : pts) {
        const bool on_front = rec.offers[p.index].pareto;
        draw_mark(dl, ImVec2(plot.px(p.x), plot.py(p.y)), on_front ? dot * 1.3f : dot, on_front ? c.front : c.other, Mark::dot);
        if (on_front) front.push_back(p);
    }
    std::sort(front.begin(), front.end(), [](const ChartPoint& l, const ChartPoint& r) { return l.x < r.x; });
    for (std::size_t i = 0; i + 1 < front.size(); ++i)
        dl->AddLine(ImVec2(plot.px(front[i].x), plot.py(front[i].y)), ImVec2(plot.px(front[i + 1].x), plot.py(front[i + 1].y)),
                    c.front, 1.5f);
    return front.size();
}

// The three offers the card names: a ring each and a label (several roles on one offer share it),
// labels moved off each other.
void label_roles(PanelContext& ctx, const Recommendation& rec, const std::vector<ChartPoint>& pts, const Plot& plot,
                 const ChartColours& c, float dot) {
    struct Role {
        const char* tag;
        const char* name;
        ImU32 colour;
        std::optional<std::size_t> index;
    };
    const Role roles[] = {{"recommended", tr("Recommended", "推荐"), c.pick, std::size_t(0)},
                          {"cheapest", tr("Cheapest", "最便宜"), c.cheap, rec.cheapest ? std::optional<std::size_t>(rec.cheapest->index) : std::nullopt},
                          {"fastest", tr("Fastest", "最快"), c.fast, rec.fastest ? std::optional<std::size_t>(rec.fastest->index) : std::nullopt}};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    std::vector<ImVec4> placed;  // label rectangles (min x, min y, max x, max y)
    const float line = ImGui::GetTextLineHeight();
    for (const Role& r : roles) {
        if (!r.index) continue;
        const auto it = std::find_if(pts.begin(), pts.end(), [&](const ChartPoint& p) { return p.index == *r.index; });
        if (it == pts.end()) continue;
        const ImVec2 at(plot.px(it->x), plot.py(it->y));
        draw_mark(dl, at, dot * 3.2f, r.colour, Mark::ring);
        draw_mark(dl, at, dot * 1.5f, r.colour, Mark::dot);
        ctx.tags.tag_rect(std::string("pareto_point:") + r.tag, ImVec2(at.x - dot * 2, at.y - dot * 2), ImVec2(at.x + dot * 2, at.y + dot * 2),
                          offer_id(rec.offers[*r.index]), WidgetTags::current_clip());
        // Label: the role, joined with the roles before it on the same offer.
        std::string label = r.name;
        for (const Role& q : roles) {
            if (&q == &r) break;
            if (q.index && *q.index == *r.index) label.clear();
        }
        if (label.empty()) continue;
        for (const Role& q : roles)
            if (&q != &r && q.index && *q.index == *r.index && &q > &r) label += std::string(" \u00b7 ") + q.name;
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        float lx = at.x + dot * 2.2f, ly = at.y - line / 2;
        if (lx + w > plot.max.x) lx = at.x - dot * 2.2f - w;
        for (int tries = 0; tries < 6; ++tries) {
            const bool hit = std::any_of(placed.begin(), placed.end(), [&](const ImVec4& b) {
                return lx < b.z && lx + w > b.x && ly < b.w && ly + line > b.y;
            });
            if (!hit) break;
            ly += (tries % 2 ? -1.0f : 1.0f) * line * static_cast<float>(tries / 2 + 1);
        }
        ly = std::clamp(ly, plot.min.y, plot.max.y - line);
        dl->AddRectFilled(ImVec2(lx - 2, ly), ImVec2(lx + w + 2, ly + line), ImGui::GetColorU32(palette().background), 3);
        dl->AddText(ImVec2(lx, ly), r.colour, label.c_str());
        placed.push_back(ImVec4(lx, ly, lx + w, ly + line));
    }
}

// The offer nearest the mouse, named in a tooltip.
void hover_tooltip(PanelContext& ctx, const Recommendation& rec, const std::vector<ChartPoint>& pts, const Plot& plot, bool timed) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const ChartPoint* best = nullptr;
    float bd = 1e30f;
    for (const ChartPoint& p : pts) {
        const float dx = plot.px(p.x) - m.x, dy = plot.py(p.y) - m.y, d = dx * dx + dy * dy;
        if (d < bd) bd = d, best = &p;
    }
    if (!best) return;
    const Offer& o = rec.offers[best->index];
    ctx.tags.tag_rect("pareto_hover", plot.min, plot.max, offer_id(o), WidgetTags::current_clip());
    ImGui::SetTooltip("%s \u00b7 %s\n%s\n%s  \u00b7  %s", offer_provider(o).c_str(), offer_instance(o).c_str(), offer_gpus(o).c_str(),
                      timed ? format_hours(best->x).c_str()
                            : (format_count(best->x) + (rec.model_kind.empty() ? tr(" tokens/s", " token/秒") : tr(" samples/s", " 样本/秒"))).c_str(),
                      format_money_sig(best->y, o.currency == "CNY" ? Currency::CNY : Currency::USD).c_str());
}

void pareto_chart(PanelContext& ctx, const Recommendation& rec) {
    bool timed = false;
    const std::vector<ChartPoint> pts = chart_points(rec, timed);
    if (pts.size() < 2) return;
    const Palette& pal = palette();
    const ChartColours colours{ImGui::GetColorU32(ImVec4(pal.muted.x, pal.muted.y, pal.muted.z, 0.55f)), ImGui::GetColorU32(pal.accent),
                               ImGui::GetColorU32(pal.accent), ImGui::GetColorU32(pal.good), ImGui::GetColorU32(pal.fast)};
    const float dot = ImGui::GetFontSize() * 0.38f;
    const Plot plot = begin_pareto_plot(ctx, pts, timed, rec.offers[pts.front().index].currency, !rec.model_kind.empty());
    const std::size_t front = draw_points_and_front(rec, pts, plot, colours, dot);
    label_roles(ctx, rec, pts, plot, colours, dot);
    if (end_plot(ctx, "pareto_chart", plot, std::to_string(front))) hover_tooltip(ctx, rec, pts, plot, timed);
    legend(ctx, "pareto_chart", {{colours.pick, Mark::ring, tr("Recommended", "推荐")},
                                 {colours.cheap, Mark::ring, tr("Cheapest", "最便宜")},
                                 {colours.fast, Mark::ring, tr("Fastest", "最快")},
                                 {colours.front, Mark::line, tr("Pareto front (nothing cheaper and faster)", "帕累托前沿(没有更便宜且更快的)")},
                                 {colours.other, Mark::dot, tr("Other offers (hover for names)", "其他方案(悬停查看名称)")}});
}

}  // namespace

void panel_offers(PanelContext& ctx) {
    const bool open = section_header(ctx, tr("What to rent", "租用方案"), "section_offers");
    if (!open) return;
    filters(ctx);
    const Result<Recommendation>& r = ctx.results.recommendation;
    if (!r.ok()) {
        const std::string msg = format_error(r.error);
        ImGui::TextColored(palette().warn, "%s", tr("No offer:", "没有方案:"));
        ImGui::SameLine();
        ImGui::TextWrapped("%s", msg.c_str());
        ctx.tags.tag_item("offers_error", msg);
        return;
    }
    const Recommendation& rec = *r;
    for (const std::string& w : rec.warnings.lines(language() == Language::zh)) {
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
