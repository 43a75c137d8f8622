// The model panel: which model (catalog preset, grouped by family) and its weight dtype.
#include <string>
#include <vector>

#include "gpusizer/enums.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {
namespace {

// Families in order of first appearance in the catalog, so the list follows its curation.
std::vector<std::string> families_in_order(const Catalog& catalog) {
    std::vector<std::string> out;
    for (const ModelPreset& m : catalog.models) {
        bool seen = false;
        for (const std::string& f : out) seen = seen || f == m.family;
        if (!seen) out.push_back(m.family);
    }
    return out;
}

void model_combo(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    const ModelPreset* current = s.source == ModelSource::preset ? ctx.catalog.find_model(s.model) : nullptr;
    const std::string preview = current ? current->name : s.model;
    ImGui::TextUnformatted(tr().model);
    const float combo_width = ImGui::GetFontSize() * 18;
    ImGui::SetNextItemWidth(combo_width);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const WidgetTags::Clip clip = WidgetTags::current_clip();
    const bool open = ImGui::BeginCombo("##model", preview.c_str(), ImGuiComboFlags_HeightLarge);
    // Open or not, tag the header from its known geometry: once open, the current window and
    // the "last item" are the popup's.
    ctx.tags.tag_rect("model_combo", at, ImVec2(at.x + combo_width, at.y + ImGui::GetFrameHeight()), preview, clip);
    if (!open) return;
    for (const std::string& family : families_in_order(ctx.catalog)) {
        ImGui::TextDisabled("%s", family.empty() ? tr().family_other : family.c_str());
        for (const ModelPreset& m : ctx.catalog.models) {
            if (m.family != family) continue;
            const bool selected = current == &m;
            ImGui::PushID(m.id.c_str());
            ImGui::Indent();
            if (ImGui::Selectable(m.name.c_str(), selected)) {
                s.source = ModelSource::preset;
                s.model = m.id;
            }
            ImGui::Unindent();
            ImGui::PopID();
            ctx.tags.tag_item("model_item:" + m.id, m.name);
            if (selected) ImGui::SetItemDefaultFocus();
        }
    }
    ImGui::EndCombo();
}

void dtype_combo(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    const char* preview = to_string(s.weight_dtype);
    ImGui::TextUnformatted(tr().weight_dtype);
    const float combo_width = ImGui::GetFontSize() * 18;
    ImGui::SetNextItemWidth(combo_width);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const WidgetTags::Clip clip = WidgetTags::current_clip();
    const bool open = ImGui::BeginCombo("##weight_dtype", preview, ImGuiComboFlags_HeightLarge);
    ctx.tags.tag_rect("dtype_combo", at, ImVec2(at.x + combo_width, at.y + ImGui::GetFrameHeight()), preview, clip);
    if (!open) return;
    for (std::size_t i = 0; i < EnumNames<WeightDtype>::count; ++i) {
        const auto d = static_cast<WeightDtype>(i);
        const char* name = EnumNames<WeightDtype>::names[i];
        const bool selected = d == s.weight_dtype;
        if (ImGui::Selectable(name, selected) && !selected) {
            s.weight_dtype = d;
            // Keys that default from the weight dtype follow it, as in the CLI and link decoder.
            apply_dependent_defaults(s, /*weight_dtype_given=*/true, /*master_given=*/false);
        }
        ctx.tags.tag_item(std::string("dtype_item:") + name, name);
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

}  // namespace

void panel_model(PanelContext& ctx) {
    model_combo(ctx);
    dtype_combo(ctx);
}

}  // namespace gpusizer::shell
