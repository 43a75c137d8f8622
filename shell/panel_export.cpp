// Exports of the current results. JSON: the scenario, core's estimate and recommendation.
#include <string>

#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {

void panel_export(PanelContext& ctx) {
    ImGui::SameLine();
    if (ImGui::Button(tr("Export JSON", "导出 JSON"))) {
        std::string json = "{\"estimate\":";
        json += ctx.results.estimate.ok() ? estimate_to_json(*ctx.results.estimate) : "null";
        json += ",\"recommendation\":";
        json += ctx.results.recommendation.ok() ? recommendation_to_json(*ctx.results.recommendation) : "null";
        json += "}\n";
        const std::string where = ctx.host.save_file("gpusizer.json", "application/json", json);
        ctx.ui.export_message = where.empty() ? tr("This window cannot save files.", "此窗口无法保存文件。") : where;
    }
    ctx.tags.tag_item("export_json");
    if (!ctx.ui.export_message.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", ctx.ui.export_message.c_str());
        ctx.tags.tag_item("export_message", ctx.ui.export_message);
    }
}

}  // namespace gpusizer::shell
