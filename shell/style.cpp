#include "style.hpp"

#include <cmath>

#include "imgui.h"

namespace gpusizer::shell {

void apply_style(float pixel_ratio) {
    ImGuiStyle style;  // start from defaults: ScaleAllSizes is not idempotent
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.ScaleAllSizes(pixel_ratio);
    ImGui::GetStyle() = style;
}

void build_fonts(float pixel_ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig cfg;
    // Rasterised at the real pixel size (crisp on HiDPI); whole pixels keep ProggyClean sharp.
    cfg.SizePixels = std::round(k_base_font_px * pixel_ratio);
    io.Fonts->AddFontDefault(&cfg);
    io.Fonts->Build();
}

}  // namespace gpusizer::shell
