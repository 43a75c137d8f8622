#pragma once
// Look and size of the UI. Hosts call apply_style(ratio) and build_fonts(ratio, font) before
// the first frame and again when the pixel ratio changes (browser zoom, another monitor), then
// re-create their font texture (ImGui_ImplOpenGL3_DestroyFontsTexture + CreateFontsTexture).
// ImGui works in framebuffer pixels, so sizes scale by the ratio.

#include <cstddef>

namespace gpusizer::shell {

inline constexpr float k_proggy_font_px = 13.0f;  // ProggyClean's native size (the fallback)
inline constexpr float k_ui_font_px = 15.0f;      // the UI TTF (DejaVu Sans subset) in logical pixels

// TTF bytes owned by the host, alive as long as the font atlas (the atlas does not copy them).
struct FontData {
    const void* ttf = nullptr;
    std::size_t size = 0;
};

enum class Theme { dark, light };

// Sets the style for `pixel_ratio` in the current theme.
void apply_style(float pixel_ratio);
// Switches the theme and re-applies the style at the last pixel ratio (the UI calls this;
// hosts keep calling apply_style when the ratio changes).
void set_theme(Theme theme);
Theme theme();
// Clears the atlas and adds the UI font: `font` when given and valid, else ProggyClean; `cjk`
// (Chinese glyphs) is merged into `font` when both are given. Returns false when a given font
// could not be used (then ProggyClean, or `font` without Chinese, was taken).
bool build_fonts(float pixel_ratio, const FontData* font = nullptr, const FontData* cjk = nullptr);

}  // namespace gpusizer::shell
