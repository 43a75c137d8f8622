#pragma once
// Small drawing parts of the answer card and the compare strip: a rounded box sized to its
// content, a coloured label line, chips and badges that wrap, and a figure (a large value over
// its caption).

#include <string>

#include "imgui.h"
#include "offer_text.hpp"
#include "panels.hpp"
#include "style.hpp"

namespace gpusizer::shell {

// A rounded surface box the full width of the region, as tall as its content was last frame
// (ImGui 1.86 children do not size to content; a change sets ui.relayout for one more frame).
// Always pair with box_end; false: the box is clipped away, skip its content.
bool box_begin(const char* id, float height);
void box_end(float& height, UiState& ui);

// "RECOMMENDED" in the heading font and `colour`, then `note` in muted text on the same line.
void label_line(const char* text, const ImVec4& colour, const char* note);

// Left-to-right items that wrap to the next line when the next one does not fit.
class Flow {
public:
    explicit Flow(float gap = -1) : gap_(gap) {}  // gap between items; -1: ImGui's item spacing
    void next(float width);                       // call before submitting an item `width` wide

private:
    float gap_;
    bool first_ = true;
};
void chip(Flow& flow, const char* text, const ImVec4& colour);   // muted label on a raised pill
void badge(Flow& flow, const char* text, const ImVec4& colour);  // coloured label in an outlined pill

// A figure: the value in `role`'s font (any Chinese in it, such as 小时, in the body font) over
// its caption in muted text, as one group.
void figure(const Figure& f, FontRole role);
// A headline ("1× GeForce RTX 4090D 24GB") in `role`'s font; a note in parentheses after it
// ("(China)", "(中国特供版)") follows smaller, muted, in the body font.
void title_text(const std::string& text, FontRole role);

}  // namespace gpusizer::shell
