// The memory panel: core's per-GPU breakdown as a stacked bar against the GPU's capacity, a
// table with each term's formula, fit badges for common cards, memory against sequence length
// or batch size, and the solvers (largest batch / sequence, KV capacity).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gpusizer/units.hpp"
#include "format.hpp"
#include "imgui.h"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "widgets.hpp"

namespace gpusizer::shell {
namespace {

struct Term {
    const char* key;
    std::uint64_t MemoryBreakdown::*bytes;
    ImU32 colour;
};
const Term k_terms[] = {
    {"weights", &MemoryBreakdown::weights, IM_COL32(66, 133, 244, 255)},
    {"gradients", &MemoryBreakdown::gradients, IM_COL32(234, 67, 53, 255)},
    {"optimizer", &MemoryBreakdown::optimizer, IM_COL32(251, 188, 5, 255)},
    {"activations", &MemoryBreakdown::activations, IM_COL32(52, 168, 83, 255)},
    {"kv_cache", &MemoryBreakdown::kv_cache, IM_COL32(171, 71, 188, 255)},
    {"overhead", &MemoryBreakdown::overhead, IM_COL32(120, 144, 156, 255)},
};

const ImVec4 k_ok(0.30f, 0.75f, 0.40f, 1.0f);
const ImVec4 k_bad(0.95f, 0.35f, 0.30f, 1.0f);

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
    const double scale_bytes = static_cast<double>(std::max<std::uint64_t>({m.total, capacity, 1}));
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetFrameHeight() * 1.3f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg));
    float x = p0.x;
    for (const Term& t : k_terms) {
        const double bytes = static_cast<double>(m.*t.bytes);
        const float w = static_cast<float>(bytes / scale_bytes * width);
        if (w <= 0) continue;
        dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + w, p0.y + height), t.colour);
        x += w;
    }
    if (capacity) {
        const float cx = p0.x + static_cast<float>(static_cast<double>(capacity) / scale_bytes * width);
        dl->AddLine(ImVec2(cx, p0.y - 3), ImVec2(cx, p0.y + height + 3), ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    }
    ImGui::Dummy(ImVec2(width, height));
    ctx.tags.tag_item("memory_bar", std::to_string(m.total));
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        for (const Term& t : k_terms)
            if (m.*t.bytes) ImGui::Text("%s: %s", memory_term_label(t.key), format_gib(m.*t.bytes).c_str());
        if (capacity) ImGui::Text("%s: %s", tr("GPU memory", "GPU 显存"), format_gib(capacity).c_str());
        ImGui::EndTooltip();
    }
    // Legend
    for (const Term& t : k_terms) {
        if (!(m.*t.bytes)) continue;
        const ImVec2 q = ImGui::GetCursorScreenPos();
        const float s = ImGui::GetTextLineHeight() * 0.7f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(q.x, q.y + s * 0.25f), ImVec2(q.x + s, q.y + s * 1.25f), t.colour);
        ImGui::Dummy(ImVec2(s, s));
        ImGui::SameLine();
        ImGui::TextUnformatted(memory_term_label(t.key));
        ImGui::SameLine(0, ImGui::GetFontSize());
        if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 8) ImGui::NewLine();
    }
    ImGui::NewLine();
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
        ImGui::TextColored(k_ok, tr("Fits %s (%s) with %s to spare.", "%s(%s)可以装下,剩余 %s。"), name.c_str(),
                           format_gib(e.gpu->memory_bytes).c_str(), format_gib(e.gpu->headroom_bytes).c_str());
    else
        ImGui::TextColored(k_bad, tr("Does not fit %s (%s): %s short.", "%s(%s)装不下:还差 %s。"), name.c_str(),
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
        ImGui::PushStyleColor(ImGuiCol_Button, c.fits ? ImVec4(0.18f, 0.45f, 0.25f, 1) : ImVec4(0.5f, 0.2f, 0.18f, 1));
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
    if (e.params.active != e.params.total)
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
    if (e.throughput) {
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
    for (const Term& t : k_terms) row(t.key, m.*t.bytes, t.colour);
    row("total", m.total, 0);
    ImGui::EndTable();
    ImGui::TextDisabled("%s", tr("Hover a term for its formula and source.", "悬停查看各项的公式和来源。"));
}

// [SECTION] Chart: memory per GPU against sequence length or batch size
void sweep_chart(PanelContext& ctx, const Estimate& e) {
    const std::vector<SweepPoint>& pts = ctx.results.sweep;
    if (ImGui::RadioButton(tr("vs sequence length", "随序列长度"), ctx.ui.axis == SweepAxis::seq_len)) ctx.ui.axis = SweepAxis::seq_len;
    ctx.tags.tag_item("axis_seq");
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("vs batch size", "随批大小"), ctx.ui.axis == SweepAxis::batch_size)) ctx.ui.axis = SweepAxis::batch_size;
    ctx.tags.tag_item("axis_batch");
    if (pts.size() < 2) return;
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetFontSize() * 11;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float left = ImGui::CalcTextSize("000.0 GiB").x + 6, bottom = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 a(p0.x + left, p0.y + 4), b(p0.x + width - 8, p0.y + height - bottom);
    double ymax = 1;
    for (const SweepPoint& p : pts) ymax = std::max(ymax, static_cast<double>(p.memory.total));
    const std::uint64_t capacity = e.gpu ? e.gpu->memory_bytes : 0;
    ymax = std::max(ymax, static_cast<double>(capacity)) * 1.08;
    const double lx0 = std::log2(static_cast<double>(pts.front().x)), lx1 = std::log2(static_cast<double>(pts.back().x));
    auto X = [&](std::int64_t x) { return a.x + static_cast<float>((std::log2(static_cast<double>(x)) - lx0) / (lx1 - lx0)) * (b.x - a.x); };
    auto Y = [&](double y) { return b.y - static_cast<float>(y / ymax) * (b.y - a.y); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border), text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddRect(a, b, grid);
    for (int i = 0; i <= 4; ++i) {  // y grid with GiB labels
        const double y = ymax * i / 4;
        dl->AddLine(ImVec2(a.x, Y(y)), ImVec2(b.x, Y(y)), grid);
        char lbl[32];
        std::snprintf(lbl, sizeof lbl, "%.1f GiB", y / k_bytes_per_gib);
        dl->AddText(ImVec2(p0.x, Y(y) - ImGui::GetFontSize() / 2), text, lbl);
    }
    for (std::size_t i = 0; i < pts.size(); i += std::max<std::size_t>(1, pts.size() / 6)) {  // x labels
        const std::string lbl = format_count(static_cast<double>(pts[i].x));
        dl->AddText(ImVec2(X(pts[i].x) - ImGui::CalcTextSize(lbl.c_str()).x / 2, b.y + 2), text, lbl.c_str());
    }
    // Stacked areas per term, then the total line.
    std::vector<double> base(pts.size(), 0.0);
    for (const Term& t : k_terms) {
        for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
            const double y0a = base[i], y1a = base[i + 1];
            const double y0b = y0a + static_cast<double>(pts[i].memory.*t.bytes);
            const double y1b = y1a + static_cast<double>(pts[i + 1].memory.*t.bytes);
            if (y0b == y0a && y1b == y1a) continue;
            const ImU32 fill = (t.colour & 0x00FFFFFF) | (150u << 24);
            dl->AddQuadFilled(ImVec2(X(pts[i].x), Y(y0a)), ImVec2(X(pts[i].x), Y(y0b)), ImVec2(X(pts[i + 1].x), Y(y1b)),
                              ImVec2(X(pts[i + 1].x), Y(y1a)), fill);
        }
        for (std::size_t i = 0; i < pts.size(); ++i) base[i] += static_cast<double>(pts[i].memory.*t.bytes);
    }
    for (std::size_t i = 0; i + 1 < pts.size(); ++i)
        dl->AddLine(ImVec2(X(pts[i].x), Y(static_cast<double>(pts[i].memory.total))),
                    ImVec2(X(pts[i + 1].x), Y(static_cast<double>(pts[i + 1].memory.total))), ImGui::GetColorU32(ImGuiCol_Text), 2);
    if (capacity) {
        dl->AddLine(ImVec2(a.x, Y(static_cast<double>(capacity))), ImVec2(b.x, Y(static_cast<double>(capacity))), IM_COL32(230, 80, 70, 255), 2);
        dl->AddText(ImVec2(a.x + 4, Y(static_cast<double>(capacity)) - ImGui::GetFontSize() - 1), IM_COL32(230, 80, 70, 255),
                    tr("GPU memory", "GPU 显存"));
    }
    const std::int64_t current = ctx.results.axis == SweepAxis::seq_len ? ctx.scenario.seq_len : ctx.scenario.batch_size;
    for (const SweepPoint& p : pts)
        if (p.x == current) dl->AddCircleFilled(ImVec2(X(p.x), Y(static_cast<double>(p.memory.total))), 5, ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::Dummy(ImVec2(width, height));
    ctx.tags.tag_item("memory_chart", std::to_string(pts.size()));
    if (ImGui::IsItemHovered()) {  // the nearest point's numbers
        const float mx = ImGui::GetIO().MousePos.x;
        const SweepPoint* best = &pts.front();
        for (const SweepPoint& p : pts)
            if (std::fabs(X(p.x) - mx) < std::fabs(X(best->x) - mx)) best = &p;
        ImGui::SetTooltip("%s %s: %s", ctx.results.axis == SweepAxis::seq_len ? tr("sequence", "序列") : tr("batch", "批"),
                          format_grouped(static_cast<std::uint64_t>(best->x)).c_str(), format_gib(best->memory.total).c_str());
    }
}

}  // namespace

void panel_memory(PanelContext& ctx) {
    const bool open = ImGui::CollapsingHeader(tr("Memory per GPU", "每 GPU 显存"), ImGuiTreeNodeFlags_DefaultOpen);
    ctx.tags.tag_item("section_memory");
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
    ImGui::Text("%s %s", tr("Total per GPU:", "每 GPU 合计:"), format_gib(e.memory_per_gpu_bytes.total).c_str());
    ctx.tags.tag_item("total_value", std::to_string(e.memory_per_gpu_bytes.total));
    stacked_bar(ctx, e);
    fit_line(ctx, e);
    badges(ctx);
    // Side by side only when each half holds a 14-digit byte count comfortably.
    if (ctx.ui.narrow || ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 48) {
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
        for (const std::string& w : e.warnings) {
            ImGui::Bullet();
            ImGui::TextWrapped("%s", w.c_str());
        }
    }
}

}  // namespace gpusizer::shell
