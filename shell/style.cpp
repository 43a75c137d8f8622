#include "style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "panels.hpp"

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
// The figure and title fonts draw numbers, units and GPU names only: ASCII, ¥, ·, ×, ≈ (a
// smaller atlas, a faster first frame). The heading font has the UI's Latin ranges.
const ImWchar k_figure_glyph_ranges[] = {0x0020, 0x007E, 0x00A5, 0x00A5, 0x00B7, 0x00B7, 0x00D7, 0x00D7, 0x2248, 0x2248, 0};

ImVec4 hex(unsigned rgb) {
    return ImVec4(static_cast<float>((rgb >> 16) & 0xFF) / 255.0f, static_cast<float>((rgb >> 8) & 0xFF) / 255.0f,
                  static_cast<float>(rgb & 0xFF) / 255.0f, 1.0f);
}

// Contrast of every text colour on background, surface and raised is checked by
// tests/shell/test_style.cpp (WCAG AA, 4.5:1); white on the fills likewise.
const Palette k_dark = {
    hex(0x0E1116), hex(0x161B22), hex(0x222A35), hex(0x2F3946),  // background, surface, raised, border
    hex(0xE6EDF3), hex(0x9EA9B6),                                // text, muted
    hex(0x6CB6FF),                                               // accent
    hex(0x4FD18B), hex(0xF2B950), hex(0xFF7B72),                 // good, warn, bad
    hex(0xC297FF),                                               // fast
    hex(0x1F6FEB), hex(0x1B7F45), hex(0xB3261E),                 // fills
};
const Palette k_light = {
    hex(0xF3F5F8), hex(0xFFFFFF), hex(0xEAEEF3), hex(0xD0D7DE),
    hex(0x1F2328), hex(0x57606A),
    hex(0x0A5FC2),
    hex(0x116329), hex(0x8A5300), hex(0xC4221B),
    hex(0x7340C8),
    hex(0x0A5FC2), hex(0x1A7F37), hex(0xC4221B),
};

ImVec4 mix(const ImVec4& a, const ImVec4& b, float t) {
    return ImVec4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
}
ImVec4 alpha(ImVec4 c, float a) {
    c.w = a;
    return c;
}

// stb_truetype asserts (1.86: "Could not load font file!") on bytes that are not a font:
// check the sfnt tag first so a broken download falls back instead.
bool looks_like_ttf(const FontData& f) {
    if (!f.ttf || f.size < 12) return false;
    const unsigned char* p = static_cast<const unsigned char*>(f.ttf);
    return (p[0] == 0 && p[1] == 1 && p[2] == 0 && p[3] == 0) || (p[0] == 't' && p[1] == 'r' && p[2] == 'u' && p[3] == 'e');
}

// The atlas's fonts are named by role (build_fonts); font(role) finds them there, so the fonts
// belong to the ImGui context that holds the atlas, not to this file.
constexpr const char* k_role_names[4] = {"UI font", "heading", "figure", "title"};

void colours_and_edges(ImGuiStyle& style, Theme theme);

void colours(ImGuiStyle& style, const Palette& p, bool light) {
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = p.text;
    c[ImGuiCol_TextDisabled] = p.muted;
    c[ImGuiCol_WindowBg] = p.background;
    c[ImGuiCol_ChildBg] = p.surface;
    c[ImGuiCol_PopupBg] = p.surface;
    c[ImGuiCol_Border] = p.border;
    c[ImGuiCol_BorderShadow] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_FrameBg] = p.raised;
    c[ImGuiCol_FrameBgHovered] = mix(p.raised, p.accent, 0.15f);
    c[ImGuiCol_FrameBgActive] = mix(p.raised, p.accent, 0.25f);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_TitleBgCollapsed] = p.surface;
    c[ImGuiCol_MenuBarBg] = p.surface;
    c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_ScrollbarGrab] = mix(p.border, p.muted, 0.3f);
    c[ImGuiCol_ScrollbarGrabHovered] = mix(p.border, p.muted, 0.6f);
    c[ImGuiCol_ScrollbarGrabActive] = p.muted;
    c[ImGuiCol_CheckMark] = p.accent;
    c[ImGuiCol_SliderGrab] = p.accent;
    c[ImGuiCol_SliderGrabActive] = p.accent_fill;
    c[ImGuiCol_Button] = p.raised;
    c[ImGuiCol_ButtonHovered] = mix(p.raised, p.accent, 0.18f);
    c[ImGuiCol_ButtonActive] = mix(p.raised, p.accent, 0.3f);
    c[ImGuiCol_Header] = alpha(p.accent, light ? 0.10f : 0.16f);
    c[ImGuiCol_HeaderHovered] = alpha(p.accent, light ? 0.16f : 0.24f);
    c[ImGuiCol_HeaderActive] = alpha(p.accent, light ? 0.22f : 0.32f);
    c[ImGuiCol_Separator] = p.border;
    c[ImGuiCol_SeparatorHovered] = p.accent;
    c[ImGuiCol_SeparatorActive] = p.accent;
    c[ImGuiCol_ResizeGrip] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_ResizeGripHovered] = alpha(p.accent, 0.5f);
    c[ImGuiCol_ResizeGripActive] = p.accent;
    c[ImGuiCol_Tab] = p.raised;
    c[ImGuiCol_TabHovered] = mix(p.raised, p.accent, 0.3f);
    c[ImGuiCol_TabActive] = mix(p.raised, p.accent, 0.2f);
    c[ImGuiCol_TabUnfocused] = p.raised;
    c[ImGuiCol_TabUnfocusedActive] = p.raised;
    c[ImGuiCol_PlotLines] = p.accent;
    c[ImGuiCol_PlotHistogram] = p.accent;
    c[ImGuiCol_TableHeaderBg] = p.raised;
    c[ImGuiCol_TableBorderStrong] = p.border;
    c[ImGuiCol_TableBorderLight] = mix(p.surface, p.border, 0.6f);
    c[ImGuiCol_TableRowBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_TableRowBgAlt] = alpha(p.raised, light ? 0.55f : 0.35f);
    c[ImGuiCol_TextSelectedBg] = alpha(p.accent, 0.35f);
    c[ImGuiCol_NavHighlight] = p.accent;
    c[ImGuiCol_ModalWindowDimBg] = ImVec4(0, 0, 0, light ? 0.25f : 0.55f);
}

}  // namespace

const Palette& palette(Theme t) { return t == Theme::light ? k_light : k_dark; }
const Palette& palette() { return palette(theme()); }

float contrast_ratio(const ImVec4& a, const ImVec4& b) {
    // WCAG 2.x relative luminance (sRGB channels linearised) and (L1 + 0.05) / (L2 + 0.05).
    auto lin = [](float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); };
    auto lum = [&](const ImVec4& c) { return 0.2126f * lin(c.x) + 0.7152f * lin(c.y) + 0.0722f * lin(c.z); };
    const float la = lum(a), lb = lum(b);
    return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

ImFont* font_for(FontRole role, const char* text) {
    for (const char* p = text; p && *p; ++p)
        if (static_cast<unsigned char>(*p) >= 0xE3 && static_cast<unsigned char>(*p) <= 0xEF) return font(FontRole::body);
    return font(role);
}

ImFont* font(FontRole role) {
    const ImVector<ImFont*>& fonts = ImGui::GetIO().Fonts->Fonts;
    const char* name = k_role_names[static_cast<int>(role)];
    for (ImFont* f : fonts)
        if (f->ConfigData && std::strncmp(f->ConfigData->Name, name, std::strlen(name)) == 0) return f;
    return fonts.empty() ? nullptr : fonts[0];
}

void set_theme(Theme t) {
    if (UiState* ui = bound_ui_state()) ui->theme_in_use = t;
    colours_and_edges(ImGui::GetStyle(), t);  // sizes stay as apply_style scaled them
}

Theme theme() {
    const UiState* ui = bound_ui_state();
    return ui ? ui->theme_in_use : Theme::dark;
}

namespace {
// What differs between the themes: colours, and an edge on light inputs (border sizes are not
// scaled by ScaleAllSizes, so this holds at any pixel ratio).
void colours_and_edges(ImGuiStyle& style, Theme t) {
    const bool light = t == Theme::light;
    colours(style, palette(t), light);
    style.FrameBorderSize = light ? 1.0f : 0.0f;  // light inputs need an edge on white
}
}  // namespace

void apply_style(float pixel_ratio) {
    ImGuiStyle style;  // start from defaults: ScaleAllSizes is not idempotent
    colours_and_edges(style, theme());
    // Roomy, rounded, flat: 8 px rhythm, borders only where they separate.
    style.WindowPadding = ImVec2(14, 12);
    style.FramePadding = ImVec2(9, 5);
    style.CellPadding = ImVec2(7, 4);
    style.ItemSpacing = ImVec2(9, 7);
    style.ItemInnerSpacing = ImVec2(6, 5);
    style.IndentSpacing = 18;
    style.ScrollbarSize = 12;
    style.GrabMinSize = 12;
    style.WindowRounding = 0.0f;
    style.ChildRounding = 10.0f;
    style.FrameRounding = 6.0f;
    style.PopupRounding = 8.0f;
    style.ScrollbarRounding = 6.0f;
    style.GrabRounding = 6.0f;
    style.TabRounding = 6.0f;
    style.WindowBorderSize = 0.0f;
    style.ChildBorderSize = 1.0f;
    style.PopupBorderSize = 1.0f;
    style.SelectableTextAlign = ImVec2(0.0f, 0.5f);
    style.ScaleAllSizes(pixel_ratio);
    ImGui::GetStyle() = style;
}

bool build_fonts(float pixel_ratio, const FontData* font, const FontData* cjk, const FontData* bold) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    bool ok = true;
    if (font && !looks_like_ttf(*font)) ok = false;
    const bool cjk_ok = !cjk || looks_like_ttf(*cjk);
    const bool bold_ok = !bold || looks_like_ttf(*bold);
    // Rasterised at the real pixel size (crisp on HiDPI, docs/research/toolchain.md §3.6).
    // Chinese is merged into the body font only: a second copy in the bold face would double the
    // atlas's costliest part (text with Chinese in it is drawn in the body font: font_for).
    auto add = [&](const FontData& f, float logical_px, bool with_cjk, const char* name) -> ImFont* {
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;  // the host keeps the bytes
        std::snprintf(cfg.Name, sizeof cfg.Name, "%s", name);
        const float px = std::round(logical_px * pixel_ratio);
        // Whole-pixel size + light oversampling for body text: crisp, small atlas; large type needs none.
        cfg.OversampleH = px >= 20 ? 1 : 2;
        cfg.OversampleV = 1;
        ImFont* out = io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(f.ttf), static_cast<int>(f.size), px, &cfg,
                                                     logical_px >= k_figure_font_px ? k_figure_glyph_ranges : k_ui_glyph_ranges);
        // Chinese merged into the same font. The file is a subset to the characters the UI and
        // catalog use; the atlas bakes only code points the font has, so the full ranges cost
        // nothing for the characters it lacks.
        if (out && with_cjk && cjk && cjk_ok) {
            ImFontConfig c;
            c.FontDataOwnedByAtlas = false;
            c.MergeMode = true;
            c.OversampleH = 1;  // CJK glyphs are dense: no oversampling keeps the atlas small
            c.OversampleV = 1;
            // Droid Sans Fallback's ideographs look a size smaller than DejaVu's Latin at the same
            // pixel size (DejaVu's tall x-height): a tenth larger evens them out; same baseline.
            if (!io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(cjk->ttf), static_cast<int>(cjk->size), std::round(px * 1.1f), &c,
                                                io.Fonts->GetGlyphRangesChineseFull()))
                out = nullptr;
        }
        return out;
    };
    if (ok && font) {
        const bool with_cjk = cjk && cjk_ok;
        const FontData& heavy = bold && bold_ok ? *bold : *font;
        // Fonts[0] is ImGui's default: the body font, named as the tests check it.
        ImFont* const added[4] = {add(*font, k_ui_font_px, true, with_cjk ? "UI font + CJK" : "UI font"),
                                  add(heavy, k_ui_font_px, false, k_role_names[1]),
                                  add(heavy, k_figure_font_px, false, k_role_names[2]),
                                  add(heavy, k_title_font_px, false, k_role_names[3])};
        ok = added[0] && added[1] && added[2] && added[3] && io.Fonts->Build();
        if (!ok) io.Fonts->Clear();
    }
    if (!font || !ok || io.Fonts->Fonts.empty()) {
        ImFontConfig cfg;
        cfg.SizePixels = std::round(k_proggy_font_px * pixel_ratio);
        io.Fonts->AddFontDefault(&cfg);
        io.Fonts->Build();
    }
    return ok && cjk_ok && bold_ok;
}

}  // namespace gpusizer::shell
