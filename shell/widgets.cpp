#include "widgets.hpp"

#include <algorithm>
#include <cfloat>

#include "format.hpp"
#include "strings.hpp"
#include "style.hpp"

namespace gpusizer::shell {

bool section_header(PanelContext& ctx, const char* title, const char* tag) {
    ImGui::PushFont(font_for(FontRole::heading, title));
    const bool open = ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
    ImGui::PopFont();
    ctx.tags.tag_item(tag);
    return open;
}

bool form_begin(const char* id) {
    if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp)) return false;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.47f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.53f);
    return true;
}

void form_end() { ImGui::EndTable(); }

void help_marker(const char* text) {
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

std::string ellipsized(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    std::string shown;
    for (std::size_t n = text.size(); n > 0;) {
        do --n;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);  // a UTF-8 continuation byte
        shown = text.substr(0, n) + "\u2026";
        if (ImGui::CalcTextSize(shown.c_str()).x <= width) break;
    }
    return shown;
}

void form_row(const char* label, const char* help) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    if (help) {
        ImGui::SameLine();
        help_marker(help);
    }
    ImGui::TableNextColumn();
}

bool combo_begin(PanelContext& ctx, const char* tag, const char* preview, const char* value) {
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::SetNextItemWidth(width);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const WidgetTags::Clip clip = WidgetTags::current_clip();
    const ImGuiStyle& style = ImGui::GetStyle();
    const std::string shown = ellipsized(preview, width - ImGui::GetFrameHeight() - 2 * style.FramePadding.x);
    // No PushID around it: an open combo makes its popup the current window.
    const bool open = ImGui::BeginCombo((std::string("##") + tag).c_str(), shown.c_str(), ImGuiComboFlags_HeightLarge);
    if (!open && shown != preview && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preview);
    // Open or not, tag the header from its known geometry: once open, the current window and
    // the "last item" are the popup's.
    ctx.tags.tag_rect(std::string(tag) + "_combo", at, ImVec2(at.x + width, at.y + ImGui::GetFrameHeight()),
                      value ? value : preview, clip);
    if (!open && ImGui::IsItemFocused()) ctx.tags.mark_focused(std::string(tag) + "_combo");
    return open;
}

bool combo_item(PanelContext& ctx, const char* tag, const std::string& value, const char* text, bool selected) {
    ImGui::PushID(value.c_str());
    const bool clicked = ImGui::Selectable(text, selected);
    ImGui::PopID();
    ctx.tags.tag_item(std::string(tag) + "_item:" + value, text);
    if (selected) ImGui::SetItemDefaultFocus();
    return clicked;
}

bool int_stepper(PanelContext& ctx, const char* tag, std::int64_t& value, IntLimit limit, std::int64_t step,
                 bool geometric) {
    const std::int64_t before = value;
    const float button = ImGui::GetFrameHeight() * 1.4f;
    const float spacing = ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::PushID(tag);
    ImGui::SetNextItemWidth(std::max(button, ImGui::GetContentRegionAvail().x - 2 * (button + spacing)));
    long long v = value;
    if (ImGui::InputScalar("##v", ImGuiDataType_S64, &v, nullptr, nullptr, "%lld")) value = std::clamp<std::int64_t>(v, limit.lo, limit.hi);
    ctx.tags.tag_item(std::string(tag) + "_input", std::to_string(value));
    ImGui::SameLine(0, spacing);
    if (ImGui::Button("-", ImVec2(button, 0)))
        value = std::max(limit.lo, geometric ? value / std::max<std::int64_t>(step, 2) : value - step);
    ctx.tags.tag_item(std::string(tag) + "_minus");
    ImGui::SameLine(0, spacing);
    if (ImGui::Button("+", ImVec2(button, 0)))
        value = std::min(limit.hi, geometric ? (value > limit.hi / std::max<std::int64_t>(step, 2) ? limit.hi : value * step)
                                             : (value > limit.hi - step ? limit.hi : value + step));
    ctx.tags.tag_item(std::string(tag) + "_plus");
    ImGui::PopID();
    return value != before;
}

bool real_input(PanelContext& ctx, const char* tag, double& value, RealLimit limit, double scale, const char* format) {
    ImGui::PushID(tag);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    double shown = value * scale;
    bool changed = false;
    if (ImGui::InputDouble("##v", &shown, 0.0, 0.0, format)) {
        const double v = shown / scale;
        if (limit.contains(v) && v != value) {
            value = v;
            changed = true;
        }
    }
    ctx.tags.tag_item(std::string(tag) + "_input", format_value(value));
    ImGui::PopID();
    return changed;
}

bool optional_real(PanelContext& ctx, const char* tag, std::optional<double>& value, RealLimit limit, double initial,
                   double scale, const char* format) {
    ImGui::PushID(tag);
    bool on = value.has_value();
    bool changed = false;
    if (ImGui::Checkbox("##on", &on)) {
        if (on)
            value = initial;
        else
            value.reset();
        changed = true;
    }
    ctx.tags.tag_item(std::string(tag) + "_check");
    ImGui::PopID();
    if (value) {
        ImGui::SameLine();
        changed = real_input(ctx, tag, *value, limit, scale, format) || changed;
    } else {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("not set", "未设置"));
    }
    return changed;
}

bool optional_int(PanelContext& ctx, const char* tag, std::optional<std::int64_t>& value, IntLimit limit,
                  std::int64_t initial, const char* unset) {
    ImGui::PushID(tag);
    bool on = value.has_value();
    bool changed = false;
    if (ImGui::Checkbox("##on", &on)) {
        if (on)
            value = std::clamp(initial, limit.lo, limit.hi);
        else
            value.reset();
        changed = true;
    }
    ctx.tags.tag_item(std::string(tag) + "_check");
    ImGui::PopID();
    ImGui::SameLine();
    if (value) changed = int_stepper(ctx, tag, *value, limit, 2, true) || changed;
    else ImGui::TextDisabled("%s", unset);
    return changed;
}

bool checkbox(PanelContext& ctx, const char* tag, bool& value) {
    ImGui::PushID(tag);
    const bool changed = ImGui::Checkbox("##c", &value);
    ImGui::PopID();
    ctx.tags.tag_item(std::string(tag) + "_check", value ? "1" : "0");
    return changed;
}

}  // namespace gpusizer::shell
