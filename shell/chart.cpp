#include "chart.hpp"

#include <algorithm>
#include <cmath>

#include "style.hpp"

namespace gpusizer::shell {
namespace {

double to_axis(const AxisSpec& a, double v) { return a.log ? std::log10(std::max(v, 1e-300)) : v; }

}  // namespace

std::vector<double> ticks(double lo, double hi, bool log, int target) {
    std::vector<double> out;
    if (!(hi > lo) || target < 2) return out;
    if (log) {
        // Decades, then 1-2-5 within each when few decades show.
        const double d0 = std::floor(std::log10(lo)), d1 = std::ceil(std::log10(hi));
        const int decades = static_cast<int>(d1 - d0);
        static const double k_all[] = {1, 2, 5};
        static const double k_one[] = {1};
        const double* steps = decades <= 3 ? k_all : k_one;
        const int n = decades <= 3 ? 3 : 1;
        const int every = std::max(1, decades / target + 1);
        for (int d = 0; d <= decades; d += decades <= 3 ? 1 : every)
            for (int i = 0; i < n; ++i) {
                const double v = steps[i] * std::pow(10.0, d0 + d);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
            }
        return out;
    }
    const double raw = (hi - lo) / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double r = raw / mag;
    const double step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
    return out;
}

float Plot::px(double v) const {
    const double a = to_axis(x, x.lo), b = to_axis(x, x.hi);
    return min.x + static_cast<float>((to_axis(x, v) - a) / (b - a)) * (max.x - min.x);
}

float Plot::py(double v) const {
    const double a = to_axis(y, y.lo), b = to_axis(y, y.hi);
    return max.y - static_cast<float>((to_axis(y, v) - a) / (b - a)) * (max.y - min.y);
}

Plot begin_plot(PanelContext& ctx, const char* id, float height, AxisSpec x, AxisSpec y) {
    const Palette& pal = palette();
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeight();
    // y tick labels: as wide as the widest one.
    const std::vector<double> yt = ticks(y.lo, y.hi, y.log, 5), xt = ticks(x.lo, x.hi, x.log, 6);
    float label_w = 0;
    for (double v : yt) label_w = std::max(label_w, ImGui::CalcTextSize(y.label(v).c_str()).x);
    const float pad = ImGui::GetStyle().ItemInnerSpacing.x;
    Plot p;
    p.x = std::move(x);
    p.y = std::move(y);
    // Left: the rotated-free y title sits above the axis (no vertical text in ImGui 1.86), then labels.
    p.min = ImVec2(p0.x + label_w + pad * 2, p0.y + line + pad * 1.5f);
    p.max = ImVec2(p0.x + width - pad, p0.y + height - line * 2 - pad * 2);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 grid = ImGui::GetColorU32(pal.border), text = ImGui::GetColorU32(pal.muted);
    dl->AddRectFilled(p.min, p.max, ImGui::GetColorU32(pal.background), ImGui::GetStyle().FrameRounding * 0.5f);
    for (double v : yt) {
        const float yy = p.py(v);
        dl->AddLine(ImVec2(p.min.x, yy), ImVec2(p.max.x, yy), grid);
        const std::string t = p.y.label(v);
        dl->AddText(ImVec2(p.min.x - pad - ImGui::CalcTextSize(t.c_str()).x, yy - line / 2), text, t.c_str());
    }
    float last_right = -1e9f;
    for (double v : xt) {
        const float xx = p.px(v);
        dl->AddLine(ImVec2(xx, p.min.y), ImVec2(xx, p.max.y), grid);
        const std::string t = p.x.label(v);
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        const float left = std::clamp(xx - w / 2, p.min.x, p.max.x - w);
        if (left < last_right + pad * 2) continue;  // no overlapping tick labels
        dl->AddText(ImVec2(left, p.max.y + pad * 0.5f), text, t.c_str());
        last_right = left + w;
    }
    dl->AddRect(p.min, p.max, grid, ImGui::GetStyle().FrameRounding * 0.5f);
    // Axis titles: y above the plot's top-left corner, x centred under the tick labels.
    const ImU32 title = ImGui::GetColorU32(pal.text);
    const ImVec2 yt_at(p0.x, p0.y);
    dl->AddText(yt_at, title, p.y.title.c_str());
    const ImVec2 ys = ImGui::CalcTextSize(p.y.title.c_str());
    ctx.tags.tag_rect(std::string(id) + "_axis:y", yt_at, ImVec2(yt_at.x + ys.x, yt_at.y + ys.y), p.y.title, WidgetTags::current_clip());
    const ImVec2 xs = ImGui::CalcTextSize(p.x.title.c_str());
    const ImVec2 xt_at(std::max(p.min.x, (p.min.x + p.max.x - xs.x) / 2), p.max.y + line + pad);
    dl->AddText(xt_at, title, p.x.title.c_str());
    ctx.tags.tag_rect(std::string(id) + "_axis:x", xt_at, ImVec2(xt_at.x + xs.x, xt_at.y + xs.y), p.x.title, WidgetTags::current_clip());
    return p;
}

bool end_plot(PanelContext& ctx, const char* id, const Plot& plot, const std::string& tag_text) {
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, plot.max.y - p0.y + ImGui::GetTextLineHeight() * 2 +
                                                               ImGui::GetStyle().ItemInnerSpacing.x * 2));
    ctx.tags.tag_item(id, tag_text);
    return ImGui::IsItemHovered();
}

void draw_mark(ImDrawList* dl, ImVec2 c, float s, ImU32 colour, Mark mark) {
    switch (mark) {
        case Mark::dot: dl->AddCircleFilled(c, s * 0.5f, colour, 16); break;
        case Mark::ring: dl->AddCircle(c, s * 0.5f, colour, 16, std::max(1.5f, s * 0.18f)); break;
        case Mark::square: dl->AddRectFilled(ImVec2(c.x - s / 2, c.y - s / 2), ImVec2(c.x + s / 2, c.y + s / 2), colour, s * 0.2f); break;
        case Mark::line: dl->AddLine(ImVec2(c.x - s * 0.7f, c.y), ImVec2(c.x + s * 0.7f, c.y), colour, std::max(2.0f, s * 0.22f)); break;
    }
}

void legend(PanelContext& ctx, const char* id, const std::vector<LegendItem>& items) {
    const float s = ImGui::GetTextLineHeight() * 0.65f;
    std::string text;
    bool first = true;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImVec2 end = start;
    for (const LegendItem& it : items) {
        const float w = s * 1.6f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(it.label.c_str()).x;
        if (!first) {
            ImGui::SameLine(0, ImGui::GetFontSize());
            if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
        }
        first = false;
        const ImVec2 q = ImGui::GetCursorScreenPos();
        draw_mark(ImGui::GetWindowDrawList(), ImVec2(q.x + s * 0.8f, q.y + ImGui::GetTextLineHeight() / 2), s, it.colour, it.mark);
        ImGui::Dummy(ImVec2(s * 1.6f, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::TextUnformatted(it.label.c_str());
        end = ImVec2(std::max(end.x, ImGui::GetItemRectMax().x), ImGui::GetItemRectMax().y);
        text += (text.empty() ? "" : " | ") + it.label;
    }
    ctx.tags.tag_rect(std::string(id) + "_legend", start, end, text, WidgetTags::current_clip());
}

}  // namespace gpusizer::shell
