#pragma once
// Test hooks: the screen rectangles of named widgets, recorded every frame so browser and
// desktop tests can click real widgets (not mutate state). Coordinates are ImGui's, i.e.
// framebuffer pixels; hosts convert them (CSS pixels in the browser).
//
//   ImGui::BeginCombo("##dtype", …);  tags.tag_item("dtype_combo");
//
// Names are ASCII ids: "model_combo", "dtype_item:int8", "weights_value".

#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"

namespace gpusizer::shell {

struct TaggedRect {
    std::string name;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // framebuffer pixels, min and max corners
    std::string text;                       // what the item shows, when it is a value ("" otherwise)
    bool focused = false;                   // it has the keyboard/gamepad navigation focus
};

class WidgetTags {
public:
    void begin_frame() { current_.clear(); }
    void end_frame() { last_.swap(current_); }
    // The last submitted ImGui item (GetItemRectMin/Max), clipped to the current window so a
    // scrolled-away item is not reported as clickable.
    void tag_item(std::string_view name, std::string_view text = {});
    // The visible inner area of the current window.
    struct Clip {
        ImVec2 min, max;
    };
    static Clip current_clip();
    // A rectangle given explicitly, clipped to `clip`. For widgets that change the current
    // window when they open (BeginCombo: afterwards GetItemRect* and the window are the popup's).
    void tag_rect(std::string_view name, ImVec2 min, ImVec2 max, std::string_view text, const Clip& clip);
    // Marks `name`, tagged last, as having the navigation focus (for tag_rect callers; tag_item
    // finds it itself).
    void mark_focused(std::string_view name);
    const std::vector<TaggedRect>& last_frame() const { return last_; }
    const TaggedRect* find(std::string_view name) const;

private:
    std::vector<TaggedRect> current_, last_;
};

}  // namespace gpusizer::shell
