// The memory panel: core's per-GPU breakdown as a stacked bar against the GPU's capacity, a
// table with each term's formula, fit badges for common cards, memory against sequence length
// or batch size, and the solvers (largest batch / sequence, KV capacity).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpusizer/units.hpp"
#include "format.hpp"
#include "imgui.h"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "widgets.hpp"
#include "chart.hpp"
#include "memory_bar.hpp"
#include "style.hpp"

namespace gpusizer::shell {
namespace {

void explanation_tooltip(const Estimate& e, const char* term) {
    for (const Explanation& x : e.explanations) {
        if (x.term != term) continue;
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
        ImGui::TextUnformatted(x.formula.c_str());
        if (!x.source.empty()) ImGui::TextDisabled("%s %s", tr("Source:", "来源:"), x.source.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        return;
    }
}

// [SECTION] Stacked bar
void stacked_bar(PanelContext& ctx, const Estimate& e) {
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const std::uint64_t capacity = e.gpu ? e.gpu->memory_bytes : 0;
    memory_bar(m, capacity, static_cast<double>(std::max<std::uint64_t>({m.total, capacity, 1})), ImGui::GetFrameHeight() * 1.1f);
    ctx.tags.tag_item("memory_bar", std::to_string(m.total));
    std::vector<LegendItem> items;
    for (const MemoryTerm& t : k_memory_terms)
        if (m.*t.bytes) items.push_back({t.colour, Mark::square, memory_term_label(t.key)});
    if (capacity) items.push_back({ImGui::GetColorU32(ImGuiCol_Text), Mark::line, tr("GPU memory", "GPU 显存")});
    legend(ctx, "memory_bar", items);
}

// [SECTION] Fit line, badges, solvers
void fit_line(PanelContext& ctx, const Estimate& e) {
    if (!e.gpu) {
        ImGui::TextDisabled("%s", tr("Choose a GPU (left) to check the fit; the badges below show common cards.",
                                     "选择 GPU(左侧)以检查能否装下;下方徽章显示常见显卡。"));
        return;
    }
    const Accelerator* a = ctx.catalog.find_accelerator(e.gpu->id);
    const std::string name = a ? a->name : tr("custom GPU", "自定义 GPU");
    if (e.gpu->fits)
        ImGui::TextColored(palette().good, tr("Fits %s (%s) with %s to spare.", "%s(%s)可以装下,剩余 %s。"), name.c_str(),
                           format_gib(e.gpu->memory_bytes).c_str(), format_gib(e.gpu->headroom_bytes).c_str());
    else
        ImGui::TextColored(palette().bad, tr("Does not fit %s (%s): %s short.", "%s(%s)装不下:还差 %s。"), name.c_str(),
                           format_gib(e.gpu->memory_bytes).c_str(), format_gib(e.gpu->shortfall_bytes).c_str());
    ctx.tags.tag_item("fit_value", e.gpu->fits ? "fits" : "no");
}

void badges(PanelContext& ctx) {
    if (ctx.results.cards.empty()) return;
    ImGui::TextDisabled("%s", tr("On common cards (one GPU of each, this scenario's parallelism):",
                                 "常见显卡(每种一块,按当前并行设置):"));
    for (const CardFit& c : ctx.results.cards) {
        // The card's name up to its first parenthesis ("Ascend 910B (generic; …)"): names carry
        // their memory size already; the tooltip has the numbers.
        const std::string name = c.name.substr(0, c.name.find(" ("));
        char text[160];
        std::snprintf(text, sizeof text, "%s %s", c.fits ? "\u2713" : "\u00d7", name.c_str());
        const ImVec2 size = ImGui::CalcTextSize(text);
        const float w = size.x + ImGui::GetStyle().FramePadding.x * 2;
        if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
        ImGui::PushStyleColor(ImGuiCol_Button, c.fits ? palette().good_fill : palette().bad_fill);
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        ImGui::PushID(c.gpu.c_str());
        if (ImGui::SmallButton(text)) ctx.scenario.gpu = c.gpu;  // pick it to see its fit, capacity and speed
        ImGui::PopID();
        ImGui::PopStyleColor(2);
        ctx.tags.tag_item("badge:" + c.gpu, c.fits ? "fits" : "no");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s %s / %s", c.name.c_str(), tr("Needs per GPU:", "每 GPU 需要:"),
                              format_gib(c.total_bytes).c_str(), format_gib(c.memory_bytes).c_str());
        ImGui::SameLine();
    }
    ImGui::NewLine();
}

void solvers(PanelContext& ctx, const Estimate& e) {
    if (!form_begin("##solvers")) return;
    auto row = [&](const char* lbl, const char* term, const std::string& value, const char* tag, const std::string& raw) {
        form_row(lbl);
        ImGui::TextUnformatted(value.c_str());
        ctx.tags.tag_item(tag, raw);
        if (term && ImGui::IsItemHovered()) explanation_tooltip(e, term);
    };
    row(tr("Parameters", "参数量"), "params", format_billions(e.params.total) + " (" + format_grouped(e.params.total) + ")",
        "params_value", std::to_string(e.params.total));
    if (e.params.active != e.params.total && e.model_kind.empty())
        row(tr("Active per token", "每 token 激活"), nullptr, format_billions(e.params.active), "active_value",
            std::to_string(e.params.active));
    if (e.params.trainable && e.params.trainable != e.params.total)
        row(tr("Trainable", "可训练参数"), nullptr, format_billions(e.params.trainable) + " (" + format_grouped(e.params.trainable) + ")",
            "trainable_value", std::to_string(e.params.trainable));
    if (e.kv_bytes_per_token)
        row(tr("KV cache per token", "每 token KV 缓存"), "kv_cache",
            format_grouped(e.kv_bytes_per_token) + tr(" bytes", " 字节"), "kv_per_token_value", std::to_string(e.kv_bytes_per_token));
    if (e.kv_capacity_tokens)
        row(tr("KV capacity", "KV 容量"), "kv_cache", format_grouped(*e.kv_capacity_tokens) + tr(" tokens", " token"),
            "kv_capacity_value", std::to_string(*e.kv_capacity_tokens));
    if (e.max_batch_size)
        row(tr("Largest batch that fits", "可容纳的最大批"), "max_batch_size", format_grouped(static_cast<std::uint64_t>(*e.max_batch_size)),
            "max_batch_value", std::to_string(*e.max_batch_size));
    if (e.max_seq_len)
        row(tr("Longest sequence that fits", "可容纳的最长序列"), "max_seq_len",
            format_grouped(static_cast<std::uint64_t>(*e.max_seq_len)) + tr(" tokens", " token"), "max_seq_value",
            std::to_string(*e.max_seq_len));
    if (e.kv_pool_bytes)
        row(tr("KV pool vLLM allocates", "vLLM 预分配的 KV 缓存"), "kv_capacity_tokens", format_gib(*e.kv_pool_bytes), "kv_pool_value",
            std::to_string(*e.kv_pool_bytes));
    row(tr("Host RAM needed", "所需主机内存"), "host_memory_bytes", format_gib(e.host_memory_bytes), "host_memory_value",
        std::to_string(e.host_memory_bytes));
    row(tr("Checkpoint size (download)", "检查点大小(下载)"), "weights", format_gib(static_cast<double>(e.model_bytes)) + "  (" +
        format_count(static_cast<double>(e.model_bytes) / 1e9) + " GB)", "model_bytes_value", std::to_string(e.model_bytes));
    if (is_training(e.scenario.task))
        row(tr("torch max_memory_allocated", "torch max_memory_allocated"), "peak",
            format_gib(static_cast<double>(e.memory_per_gpu_bytes.torch_peak_allocated)), "torch_peak_value",
            std::to_string(e.memory_per_gpu_bytes.torch_peak_allocated));
    if (e.throughput && !e.model_kind.empty()) {  // vision, diffusion, speech: their own units
        const Throughput& t = *e.throughput;
        if (t.images_per_s)
            row(tr("Throughput", "吞吐量"), "throughput", format_count(*t.images_per_s) + tr(" images/s", " 张图像/秒"), "images_per_s_value",
                format_value(*t.images_per_s));
        if (t.seconds_per_image)
            row(tr("Seconds per image", "每张图像秒数"), "throughput", format_count(*t.seconds_per_image) + " s", "seconds_per_image_value",
                format_value(*t.seconds_per_image));
        if (t.realtime_factor)
            row(tr("Real-time factor", "实时倍数"), "throughput",
                format_count(*t.realtime_factor) + tr("\u00d7 (audio seconds per second)", "\u00d7(每秒处理的音频秒数)"), "realtime_factor_value",
                format_value(*t.realtime_factor));
    } else if (e.throughput) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s %s", format_count(e.throughput->tokens_per_s).c_str(), tr("tokens/s", "token/秒"));
        row(tr("Throughput", "吞吐量"), nullptr, buf, "throughput_value", format_value(e.throughput->tokens_per_s));
    }
    if (e.time)
        row(tr("Time", "时间"), nullptr, format_hours(e.time->hours) + "  (" + format_count(e.time->gpu_hours) + tr(" GPU-hours", " GPU 小时") + ")",
            "time_value", format_value(e.time->hours));
    form_end();
}

// [SECTION] Breakdown table
void breakdown_table(PanelContext& ctx, const Estimate& e) {
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    if (!ImGui::BeginTable("##breakdown", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn(tr("Per GPU", "每 GPU"), ImGuiTableColumnFlags_WidthStretch, 0.45f);
    ImGui::TableSetupColumn("GiB", ImGuiTableColumnFlags_WidthStretch, 0.2f);
    ImGui::TableSetupColumn(tr("bytes", "字节"), ImGuiTableColumnFlags_WidthStretch, 0.35f);
    ImGui::TableHeadersRow();
    auto row = [&](const char* key, std::uint64_t bytes, ImU32 colour) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (colour) {
            const ImVec2 q = ImGui::GetCursorScreenPos();
            const float s = ImGui::GetTextLineHeight() * 0.7f;
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(q.x, q.y + s * 0.25f), ImVec2(q.x + s, q.y + s * 1.25f), colour);
            ImGui::Dummy(ImVec2(s, s));
            ImGui::SameLine();
        }
        ImGui::TextUnformatted(memory_term_label(key));
        const bool hovered = ImGui::IsItemHovered();
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", static_cast<double>(bytes) / k_bytes_per_gib);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_grouped(bytes).c_str());
        ctx.tags.tag_item(std::string("memory_value:") + key, std::to_string(bytes));
        if (hovered || ImGui::IsItemHovered()) explanation_tooltip(e, key);
    };
    for (const MemoryTerm& t : k_memory_terms) row(t.key, m.*t.bytes, t.colour);
    row("total", m.total, 0);
    ImGui::EndTable();
    ImGui::TextDisabled("%s", tr("Hover a term for its formula and source.", "悬停查看各项的公式和来源。"));
}

// [SECTION] Chart: memory per GPU against sequence length or batch size
void sweep_chart(PanelContext& ctx, const Estimate& e) {
    const std::vector<SweepPoint>& pts = ctx.results.sweep;
    if (!e.model_kind.empty()) {
        ctx.ui.axis = SweepAxis::batch_size;  // images and audio windows have no sequence length
    } else {
        if (ImGui::RadioButton(tr("vs sequence length", "随序列长度"), ctx.ui.axis == SweepAxis::seq_len)) ctx.ui.axis = SweepAxis::seq_len;
        ctx.tags.tag_item("axis_seq");
        ImGui::SameLine();
    }
    if (ImGui::RadioButton(tr("vs batch size", "随批大小"), ctx.ui.axis == SweepAxis::batch_size)) ctx.ui.axis = SweepAxis::batch_size;
    ctx.tags.tag_item("axis_batch");
    if (pts.size() < 2) return;
    const bool by_seq = ctx.results.axis == SweepAxis::seq_len;
    double ymax = 1;
    for (const SweepPoint& p : pts) ymax = std::max(ymax, static_cast<double>(p.memory.total));
    const std::uint64_t capacity = e.gpu ? e.gpu->memory_bytes : 0;
    ymax = std::max(ymax, static_cast<double>(capacity)) * 1.08 / k_bytes_per_gib;
    AxisSpec x{static_cast<double>(pts.front().x), static_cast<double>(pts.back().x), true,
               by_seq ? tr("Sequence length (tokens, log scale)", "序列长度(token,对数坐标)")
                      : tr("Batch size (sequences, log scale)", "批大小(序列数,对数坐标)"),
               [](double v) { return format_count(v); }};
    AxisSpec y{0, ymax, false, tr("Memory per GPU (GiB)", "每 GPU 显存(GiB)"), [](double v) { return format_value(v); }};
    const Plot plot = begin_plot(ctx, "memory_chart", ImGui::GetFontSize() * 14, x, y);
    auto X = [&](std::int64_t v) { return plot.px(static_cast<double>(v)); };
    auto Y = [&](double bytes) { return plot.py(bytes / k_bytes_per_gib); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Stacked areas per term, then the total line.
    std::vector<double> base(pts.size(), 0.0);
    for (const MemoryTerm& t : k_memory_terms) {
        for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
            const double y0a = base[i], y1a = base[i + 1];
            const double y0b = y0a + static_cast<double>(pts[i].memory.*t.bytes);
            const double y1b = y1a + static_cast<double>(pts[i + 1].memory.*t.bytes);
            if (y0b == y0a && y1b == y1a) continue;
            const ImU32 fill = (t.colour & 0x00FFFFFF) | (160u << 24);
            dl->AddQuadFilled(ImVec2(X(pts[i].x), Y(y0a)), ImVec2(X(pts[i].x), Y(y0b)), ImVec2(X(pts[i + 1].x), Y(y1b)),
                              ImVec2(X(pts[i + 1].x), Y(y1a)), fill);
        }
        for (std::size_t i = 0; i < pts.size(); ++i) base[i] += static_cast<double>(pts[i].memory.*t.bytes);
    }
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    for (std::size_t i = 0; i + 1 < pts.size(); ++i)
        dl->AddLine(ImVec2(X(pts[i].x), Y(static_cast<double>(pts[i].memory.total))),
                    ImVec2(X(pts[i + 1].x), Y(static_cast<double>(pts[i + 1].memory.total))), ink, 2);
    const ImU32 limit = ImGui::GetColorU32(palette().bad);
    if (capacity) {
        const float cy = Y(static_cast<double>(capacity));
        dl->AddLine(ImVec2(plot.min.x, cy), ImVec2(plot.max.x, cy), limit, 2);
        const std::string t = std::string(tr("GPU memory ", "GPU 显存 ")) + format_gib(capacity);
        dl->AddText(ImVec2(plot.min.x + 4, cy - ImGui::GetFontSize() - 1), limit, t.c_str());
    }
    // The current value: a dot, labelled with its total.
    const std::int64_t current = by_seq ? ctx.scenario.seq_len : ctx.scenario.batch_size;
    for (const SweepPoint& p : pts) {
        if (p.x != current) continue;
        const ImVec2 c(X(p.x), Y(static_cast<double>(p.memory.total)));
        draw_mark(dl, c, ImGui::GetFontSize() * 0.7f, ink, Mark::dot);
        const std::string t = std::string(tr("now: ", "当前:")) + format_gib(p.memory.total);
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        dl->AddText(ImVec2(std::min(c.x + 6, plot.max.x - w - 2), std::max(plot.min.y, c.y - ImGui::GetFontSize() - 4)), ink, t.c_str());
    }
    if (end_plot(ctx, "memory_chart", plot, std::to_string(pts.size()))) {  // the nearest point's numbers
        const float mx = ImGui::GetIO().MousePos.x;
        const SweepPoint* best = &pts.front();
        for (const SweepPoint& p : pts)
            if (std::fabs(X(p.x) - mx) < std::fabs(X(best->x) - mx)) best = &p;
        ImGui::SetTooltip("%s %s: %s", by_seq ? tr("sequence", "序列") : tr("batch", "批"),
                          format_grouped(static_cast<std::uint64_t>(best->x)).c_str(), format_gib(best->memory.total).c_str());
    }
    std::vector<LegendItem> items;
    for (const MemoryTerm& t : k_memory_terms)
        if (std::any_of(pts.begin(), pts.end(), [&](const SweepPoint& p) { return p.memory.*t.bytes > 0; }))
            items.push_back({t.colour, Mark::square, memory_term_label(t.key)});
    items.push_back({ink, Mark::line, memory_term_label("total")});
    if (capacity) items.push_back({limit, Mark::line, tr("GPU memory", "GPU 显存")});
    legend(ctx, "memory_chart", items);
}

}  // namespace

void panel_memory(PanelContext& ctx) {
    const bool open = section_header(ctx, tr("Memory per GPU", "每 GPU 显存"), "section_memory");
    if (!open) return;
    const Result<Estimate>& r = ctx.results.estimate;
    if (!r.ok()) {
        ImGui::TextUnformatted(tr("No estimate:", "无法估算:"));
        const std::string msg = format_error(r.error);
        ImGui::TextWrapped("%s", msg.c_str());
        ctx.tags.tag_item("estimate_error", msg);
        return;
    }
    const Estimate& e = *r;
    ImGui::PushFont(font(FontRole::figure));
    ImGui::TextUnformatted(format_gib(e.memory_per_gpu_bytes.total).c_str());
    ImGui::PopFont();
    ctx.tags.tag_item("total_value", std::to_string(e.memory_per_gpu_bytes.total));
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(palette().muted, "%s", tr("per GPU, all terms", "每 GPU,各项合计"));
    stacked_bar(ctx, e);
    fit_line(ctx, e);
    badges(ctx);
    // Side by side only when each half holds a 14-digit byte count comfortably.
    if (ctx.ui.narrow || ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 56) {
        breakdown_table(ctx, e);
        solvers(ctx, e);
    } else if (ImGui::BeginTable("##memory_cols", 2, ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        breakdown_table(ctx, e);
        ImGui::TableNextColumn();
        solvers(ctx, e);
        ImGui::EndTable();
    }
    sweep_chart(ctx, e);
    if (!e.warnings.empty()) {
        ImGui::TextDisabled("%s", tr("Assumptions and warnings", "假设与提示"));
        for (const std::string& w : e.warnings.lines(language() == Language::zh)) {
            ImGui::Bullet();
            ImGui::TextWrapped("%s", w.c_str());
            ctx.tags.tag_item("memory_warning", w);
        }
    }
}

}  // namespace gpusizer::shell
