#pragma once
// Labelled, tagged input widgets shared by the panels. Each edits one scenario value within
// the limits core enforces (scenario_limits.hpp) and tags itself for the tests:
//   combos      "<tag>_combo" (the header) and "<tag>_item:<value>" (each item while open)
//   steppers    "<tag>_input", "<tag>_minus", "<tag>_plus" (tap-friendly, no typing needed)
//   checkboxes  "<tag>_check"
// Rows sit in a two-column table opened by form_begin(): label on the left, widget on the right.

#include <cstdint>
#include <optional>
#include <string>

#include "gpusizer/enums.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "imgui.h"
#include "panels.hpp"

namespace gpusizer::shell {

// A collapsible section heading (bold), open at first, tagged `tag`; true while open.
bool section_header(PanelContext& ctx, const char* title, const char* tag);

bool form_begin(const char* id);  // false: the table is clipped away, skip its rows
void form_end();
void form_row(const char* label, const char* help = nullptr);  // label cell (+ "(?)" tooltip), then the widget cell

// A small "(?)" that shows `text` on hover (or tap).
void help_marker(const char* text);

// `text` as it fits `width` pixels in the current font: cut at a UTF-8 character with "…" when
// it does not fit (ImGui would clip it mid-letter).
std::string ellipsized(const std::string& text, float width);

// A combo in the widget cell: the header is tagged "<tag>_combo" with `value` (the current
// value's id, e.g. "int8"; the preview text when null); true while open (then call combo_item
// for each entry and ImGui::EndCombo()). A preview too long for the widget ends in "…" and shows
// in full on hover.
bool combo_begin(PanelContext& ctx, const char* tag, const char* preview, const char* value = nullptr);
bool combo_item(PanelContext& ctx, const char* tag, const std::string& value, const char* text, bool selected);

// Combo over every value of an enum; `name(v)` gives its display text. True when it changed.
template <class E, class NameFn>
bool enum_combo(PanelContext& ctx, const char* tag, E& value, NameFn name) {
    bool changed = false;
    if (!combo_begin(ctx, tag, name(value), to_string(value))) return false;
    for (std::size_t i = 0; i < EnumNames<E>::count; ++i) {
        const E v = static_cast<E>(i);
        if (combo_item(ctx, tag, EnumNames<E>::names[i], name(v), v == value) && v != value) {
            value = v;
            changed = true;
        }
    }
    ImGui::EndCombo();
    return changed;
}

// Whole number with − / + buttons that step by `step` (multiply when `geometric`), clamped to `limit`.
bool int_stepper(PanelContext& ctx, const char* tag, std::int64_t& value, IntLimit limit, std::int64_t step,
                 bool geometric);
// Real number typed in `unit`s shown = stored × scale (e.g. tokens in billions: scale 1e-9).
bool real_input(PanelContext& ctx, const char* tag, double& value, RealLimit limit, double scale, const char* format);
// An optional real: a checkbox turns it on (with `initial`) or off.
bool optional_real(PanelContext& ctx, const char* tag, std::optional<double>& value, RealLimit limit, double initial,
                   double scale, const char* format);
// An optional whole number: a checkbox turns it on (with `initial`) or off; off shows `unset`
// (e.g. "default: 2048").
bool optional_int(PanelContext& ctx, const char* tag, std::optional<std::int64_t>& value, IntLimit limit,
                  std::int64_t initial, const char* unset);
bool checkbox(PanelContext& ctx, const char* tag, bool& value);

}  // namespace gpusizer::shell
