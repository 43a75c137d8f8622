#pragma once
// Look and size of the UI. Hosts call apply_style(ratio) and build_fonts(ratio) before the
// first frame and again when the pixel ratio changes (browser zoom, moving to another
// monitor), then re-create their font texture (ImGui_ImplOpenGL3_DestroyFontsTexture +
// CreateFontsTexture). ImGui works in framebuffer pixels, so sizes scale by the ratio.

namespace gpusizer::shell {

inline constexpr float k_base_font_px = 13.0f;  // ProggyClean's native size

void apply_style(float pixel_ratio);
void build_fonts(float pixel_ratio);  // clears the atlas; the host uploads the texture

}  // namespace gpusizer::shell
