#include "ui_parts.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace gpusizer::shell {

bool box_begin(const char* id, float height) {
    const float h = height > 0 ? height : ImGui::GetFrameHeightWithSpacing() * 6;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().surface);
    const bool open = ImGui::BeginChild(id, ImVec2(0, h), true,
                                        ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                            ImGuiWindowFlags_AlwaysUseWindowPadding);
    ImGui::PopStyleColor();
    return open;
}

void box_end(float& height, UiState& ui) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float content = ImGui::GetCursorPosY() - st.ItemSpacing.y + st.WindowPadding.y;
    ImGui::EndChild();
    if (content > st.WindowPadding.y * 2 && std::fabs(content - height) > 0.5f) {
        height = content;
        ui.relayout = true;
    }
}

void label_line(const char* text, const ImVec4& colour, const char* note) {
    ImGui::PushFont(font_for(FontRole::heading, text));
    ImGui::TextColored(colour, "%s", text);
    ImGui::PopFont();
    if (note && *note) {
        ImGui::SameLine();
        ImGui::TextColored(palette().muted, "%s", note);
    }
}

void Flow::next(float width) {
    if (!first_) {
        ImGui::SameLine(0, gap_);
        if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
    }
    first_ = false;
}

namespace {

void pill(Flow& flow, const char* text, const ImVec4& colour, bool filled) {
    const ImVec2 pad(ImGui::GetFontSize() * 0.5f, ImGui::GetFontSize() * 0.15f);
    // A pill never wider than the line: long text wraps inside it.
    const float most = std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionMax().x - ImGui::GetStyle().WindowPadding.x - pad.x * 2);
    const ImVec2 ts = ImGui::CalcTextSize(text, nullptr, false, most);
    const ImVec2 size(ts.x + pad.x * 2, ts.y + pad.y * 2);
    flow.next(size.x);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const float r = std::min(size.y, ImGui::GetTextLineHeight() + pad.y * 2) / 2;
    if (filled) dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), ImGui::GetColorU32(pal.raised), r);
    else dl->AddRect(p, ImVec2(p.x + size.x, p.y + size.y), ImGui::GetColorU32(colour), r, 0, 1.0f);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + pad.x, p.y + pad.y), ImGui::GetColorU32(filled ? pal.text : colour),
                text, nullptr, most);
    ImGui::Dummy(size);
}

// The length of the text before its first CJK character (U+3000 and up), in bytes.
std::size_t latin_prefix(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0xE3 && c <= 0xEF) return i;  // a 3-byte sequence at U+3000 or above
    }
    return s.size();
}

}  // namespace

void chip(Flow& flow, const char* text, const ImVec4& colour) { pill(flow, text, colour, true); }
void badge(Flow& flow, const char* text, const ImVec4& colour) { pill(flow, text, colour, false); }

// `rest` after the last item, in the body font and `colour`, on the last item's baseline; the
// line keeps the last item's height.
void trailing_text(const std::string& rest, const ImVec4& colour) {
    if (rest.empty()) return;
    const float big = ImGui::GetItemRectSize().y;
    const ImVec2 end = ImGui::GetItemRectMax();
    ImGui::SameLine(0, 0);
    ImFont* body = font(FontRole::body);
    const float small = body->FontSize;
    // Baselines: each font's ascent below the line top.
    const float ascent_big = ImGui::GetFont()->Ascent, ascent_small = body->Ascent;
    const ImVec2 at(ImGui::GetCursorScreenPos().x, end.y - big + (ascent_big - ascent_small));
    ImGui::GetWindowDrawList()->AddText(body, small, at, ImGui::GetColorU32(colour), rest.c_str());
    ImGui::Dummy(ImVec2(body->CalcTextSizeA(small, FLT_MAX, 0.0f, rest.c_str()).x, 1));
}

void figure(const Figure& f, FontRole role) {
    ImGui::BeginGroup();
    const std::size_t n = latin_prefix(f.value);
    ImGui::PushFont(font(role));
    ImGui::TextUnformatted(f.value.c_str(), f.value.c_str() + n);
    trailing_text(f.value.substr(n), palette().text);
    ImGui::PopFont();
    ImGui::TextColored(palette().muted, "%s", f.caption.c_str());
    ImGui::EndGroup();
}

void title_text(const std::string& text, FontRole role) {
    const std::size_t cut = text.find(" (");
    const std::string main = text.substr(0, cut), note = cut == std::string::npos ? "" : text.substr(cut);
    ImGui::PushFont(font_for(role, main.c_str()));
    const bool fits = ImGui::CalcTextSize(main.c_str()).x <= ImGui::GetContentRegionAvail().x;
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(main.c_str());
    ImGui::PopTextWrapPos();
    ImFont* body = font(FontRole::body);
    const float note_w = body->CalcTextSizeA(body->FontSize, FLT_MAX, 0.0f, note.c_str()).x;
    const float room = ImGui::GetContentRegionMax().x - (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x);
    if (fits && note_w <= room) trailing_text(note, palette().muted);
    ImGui::PopFont();
    if (!note.empty() && !(fits && note_w <= room)) ImGui::TextColored(palette().muted, "%s", note.substr(1).c_str());  // its own line
}

}  // namespace gpusizer::shell
