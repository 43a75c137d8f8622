#include "widget_tags.hpp"

#include <algorithm>
#include <cfloat>

#include "imgui.h"
#include "imgui_internal.h"

namespace gpusizer::shell {

WidgetTags::Clip WidgetTags::current_clip() {
    const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
    if (!w) return {ImVec2(-FLT_MAX, -FLT_MAX), ImVec2(FLT_MAX, FLT_MAX)};
    return {w->InnerClipRect.Min, w->InnerClipRect.Max};
}

void WidgetTags::tag_item(std::string_view name, std::string_view text) {
    // Clipped to the current window: a combo item scrolled out of its popup must not look
    // clickable to a test.
    tag_rect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text, current_clip());
    if (ImGui::IsItemFocused()) mark_focused(name);
}

void WidgetTags::mark_focused(std::string_view name) {
    if (!current_.empty() && current_.back().name == name) current_.back().focused = true;
}

void WidgetTags::tag_rect(std::string_view name, ImVec2 a, ImVec2 b, std::string_view text, const Clip& clip) {
    a.x = std::max(a.x, clip.min.x);
    a.y = std::max(a.y, clip.min.y);
    b.x = std::min(b.x, clip.max.x);
    b.y = std::min(b.y, clip.max.y);
    if (b.x <= a.x || b.y <= a.y) return;  // fully hidden: not reported
    current_.push_back(TaggedRect{std::string(name), a.x, a.y, b.x, b.y, std::string(text)});
}

const TaggedRect* WidgetTags::find(std::string_view name) const {
    for (const TaggedRect& r : last_)
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace gpusizer::shell
