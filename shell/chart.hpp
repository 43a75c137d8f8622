#pragma once
// What every chart of the page has: a frame, gridlines with tick labels, a title on each axis
// (with its unit) and a legend. Ticks are drawing positions only; every value plotted or labelled
// is a number core computed. Tags (tests): "<id>_axis:x" / "<id>_axis:y" carry the axis titles,
// "<id>_legend" the legend's labels joined by " | ".

#include <functional>
#include <string>
#include <vector>

#include "imgui.h"
#include "panels.hpp"

namespace gpusizer::shell {

struct AxisSpec {
    double lo = 0, hi = 1;  // data range (positive when log)
    bool log = false;
    std::string title;      // "Time for the whole job (log scale)"
    std::function<std::string(double)> label;  // tick text
};

// The plotting rectangle and the data → screen mapping.
struct Plot {
    ImVec2 min, max;
    AxisSpec x, y;
    float px(double v) const;
    float py(double v) const;
};

// Reserves the full width × `height` at the cursor, draws the frame, grid, tick labels and both
// axis titles, tags them, and returns the plotting area. The caller draws its series into
// ImGui::GetWindowDrawList() and then calls end_plot (which submits the item for hovering).
Plot begin_plot(PanelContext& ctx, const char* id, float height, AxisSpec x, AxisSpec y);
// True when the plot is hovered (tooltips).
bool end_plot(PanelContext& ctx, const char* id, const Plot& plot, const std::string& tag_text);

enum class Mark { dot, square, line, ring };
struct LegendItem {
    ImU32 colour;
    Mark mark;
    std::string label;
};
void legend(PanelContext& ctx, const char* id, const std::vector<LegendItem>& items);
void draw_mark(ImDrawList* dl, ImVec2 centre, float size, ImU32 colour, Mark mark);

// Tick values for a range: 1-2-5 steps per decade on a log axis, "nice" steps on a linear one.
std::vector<double> ticks(double lo, double hi, bool log, int target);

}  // namespace gpusizer::shell
