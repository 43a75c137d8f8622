#include "style.hpp"

#include <cmath>
#include <cstdio>

#include "imgui.h"

namespace gpusizer::shell {
namespace {

// What web/fonts.txt subsets to (keep the two in step): Latin-1 and the punctuation and
// symbols the UI strings use.
const ImWchar k_ui_glyph_ranges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 Supplement
    0x2013, 0x2026,  // – — ‘ ’ “ ” • …
    0x2190, 0x2193,  // arrows
    0x2212, 0x2212,  // minus
    0x2248, 0x2248,  // ≈
    0x2264, 0x2265,  // ≤ ≥
    0x2713, 0x2713,  // ✓
    0x2717, 0x2717,  // ✗
    0,
};

// stb_truetype asserts (1.86: "Could not load font file!") on bytes that are not a font:
// check the sfnt tag first so a broken download falls back instead.
bool looks_like_ttf(const FontData& f) {
    if (!f.ttf || f.size < 12) return false;
    const unsigned char* p = static_cast<const unsigned char*>(f.ttf);
    return (p[0] == 0 && p[1] == 1 && p[2] == 0 && p[3] == 0) || (p[0] == 't' && p[1] == 'r' && p[2] == 'u' && p[3] == 'e');
}

Theme g_theme = Theme::dark;
float g_pixel_ratio = 1.0f;

}  // namespace

void set_theme(Theme t) {
    g_theme = t;
    apply_style(g_pixel_ratio);
}

Theme theme() { return g_theme; }

void apply_style(float pixel_ratio) {
    g_pixel_ratio = pixel_ratio;
    ImGuiStyle style;  // start from defaults: ScaleAllSizes is not idempotent
    if (g_theme == Theme::light)
        ImGui::StyleColorsLight(&style);
    else
        ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.ScaleAllSizes(pixel_ratio);
    ImGui::GetStyle() = style;
}

bool build_fonts(float pixel_ratio, const FontData* font, const FontData* cjk) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    bool ok = true;
    if (font && !looks_like_ttf(*font)) ok = false;
    const bool cjk_ok = !cjk || looks_like_ttf(*cjk);
    if (ok && font) {
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;  // the host keeps the bytes
        std::snprintf(cfg.Name, sizeof cfg.Name, "%s", cjk && cjk_ok ? "UI font + CJK" : "UI font");
        cfg.OversampleH = 2;               // whole-pixel size + light oversampling: crisp, small atlas
        cfg.OversampleV = 1;
        // Rasterised at the real pixel size (crisp on HiDPI, docs/research/toolchain.md §3.6).
        const float px = std::round(k_ui_font_px * pixel_ratio);
        ok = io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(font->ttf), static_cast<int>(font->size), px, &cfg,
                                            k_ui_glyph_ranges) != nullptr;
        // Chinese merged into the same font. The file is a subset to the characters the UI and
        // catalog use; the atlas bakes only code points the font has, so the full ranges cost
        // nothing for the characters it lacks.
        if (ok && cjk && cjk_ok) {
            ImFontConfig c;
            c.FontDataOwnedByAtlas = false;
            c.MergeMode = true;
            c.OversampleH = 1;  // CJK glyphs are dense: no oversampling keeps the atlas small
            c.OversampleV = 1;
            ok = io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(cjk->ttf), static_cast<int>(cjk->size), px, &c,
                                                io.Fonts->GetGlyphRangesChineseFull()) != nullptr;
        }
        if (ok) ok = io.Fonts->Build();
        if (!ok) io.Fonts->Clear();
    }
    if (!font || !ok || io.Fonts->Fonts.empty()) {
        ImFontConfig cfg;
        cfg.SizePixels = std::round(k_proggy_font_px * pixel_ratio);
        io.Fonts->AddFontDefault(&cfg);
        io.Fonts->Build();
    }
    return ok && cjk_ok;
}

}  // namespace gpusizer::shell
