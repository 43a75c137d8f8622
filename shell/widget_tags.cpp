#include "widget_tags.hpp"

#include <algorithm>

#include "imgui.h"
#include "imgui_internal.h"

namespace gpusizer::shell {

void WidgetTags::tag_item(std::string_view name, std::string_view text) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    // Clip to the window's visible inner area: a combo item scrolled out of its popup must not
    // look clickable to a test.
    if (const ImGuiWindow* w = ImGui::GetCurrentWindowRead()) {
        const ImRect clip = w->InnerClipRect;
        a.x = std::max(a.x, clip.Min.x);
        a.y = std::max(a.y, clip.Min.y);
        b.x = std::min(b.x, clip.Max.x);
        b.y = std::min(b.y, clip.Max.y);
    }
    if (b.x <= a.x || b.y <= a.y) return;  // fully hidden: not reported
    current_.push_back(TaggedRect{std::string(name), a.x, a.y, b.x, b.y, std::string(text)});
}

const TaggedRect* WidgetTags::find(std::string_view name) const {
    for (const TaggedRect& r : last_)
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace gpusizer::shell
