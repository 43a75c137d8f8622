#pragma once
// Look and size of the UI: the type scale (fonts by role), the palette of each theme and the
// widget style. Hosts call apply_style(ratio) and build_fonts(ratio, …) before the first frame
// and again when the pixel ratio changes (browser zoom, another monitor), then re-create their
// font texture (ImGui_ImplOpenGL3_DestroyFontsTexture + CreateFontsTexture).
// ImGui works in framebuffer pixels, so sizes scale by the ratio.

#include <cstddef>

#include "imgui.h"

namespace gpusizer::shell {

inline constexpr float k_proggy_font_px = 13.0f;  // ProggyClean's native size (the fallback)
// The type scale in logical pixels: body text and section headings, the card's figures and its
// headline. Headings and figures use DejaVu Sans Bold when the host gives it.
inline constexpr float k_ui_font_px = 16.0f;
inline constexpr float k_figure_font_px = 21.0f;
inline constexpr float k_title_font_px = 28.0f;

// TTF bytes owned by the host, alive as long as the font atlas (the atlas does not copy them).
struct FontData {
    const void* ttf = nullptr;
    std::size_t size = 0;
};

enum class Theme { dark, light };

// Fonts by role. Only body has the Chinese glyphs merged in (one copy keeps the atlas and the
// first frame small); heading (bold, body size), figure and title (bold, large) are Latin: text
// with Chinese in it is drawn in the body font (font_for).
enum class FontRole { body, heading, figure, title };
ImFont* font(FontRole role);  // the body font when a role could not be built (e.g. ProggyClean only)
ImFont* font_for(FontRole role, const char* text);  // role's font, or body when `text` has Chinese

// The colours of one theme. Text colours are WCAG AA (>= 4.5:1) on background, surface and
// raised (tests/shell/test_style.cpp checks every pair).
struct Palette {
    ImVec4 background;  // the window
    ImVec4 surface;     // panes and the answer card
    ImVec4 raised;      // input fields, table headers
    ImVec4 border;
    ImVec4 text, muted;             // body text; captions, units, hints
    ImVec4 accent;                  // the recommendation, links, the primary button's text
    ImVec4 good, warn, bad;         // fits / cheapest; estimates and warnings; does not fit
    ImVec4 fast;                    // the fastest alternative
    ImVec4 accent_fill, good_fill, bad_fill;  // button and badge fills (white text on them is AA)
};
const Palette& palette();             // the current theme's
const Palette& palette(Theme theme);
// WCAG 2.x contrast ratio of two opaque colours (1 … 21).
float contrast_ratio(const ImVec4& a, const ImVec4& b);

// Sets the style for `pixel_ratio` in the current theme.
void apply_style(float pixel_ratio);
// Switches the theme and re-applies the style at the last pixel ratio (the UI calls this;
// hosts keep calling apply_style when the ratio changes).
void set_theme(Theme theme);
Theme theme();
// Clears the atlas and adds the UI fonts: `font` (DejaVu Sans) when given and valid, else
// ProggyClean for every role; `cjk` (Chinese glyphs) merged into body and heading; `bold`
// (DejaVu Sans Bold) for heading, figure and title (else `font` at those sizes). Returns false
// when a given font could not be used (then ProggyClean, or the fonts without it, were taken).
bool build_fonts(float pixel_ratio, const FontData* font = nullptr, const FontData* cjk = nullptr,
                 const FontData* bold = nullptr);

}  // namespace gpusizer::shell
