// The results panel and the footer: numbers from core's Estimate, formatted, never computed.
#include <cstdio>
#include <string>

#include "format.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {

void panel_results(PanelContext& ctx) {
    ImGui::TextDisabled("%s", tr().results);
    ImGui::Separator();
    if (!ctx.estimate.ok()) {
        ImGui::TextUnformatted(tr().estimate_failed);
        const std::string msg = format_error(ctx.estimate.error);
        ImGui::TextWrapped("%s", msg.c_str());
        ctx.tags.tag_item("estimate_error", msg);
        return;
    }
    const Estimate& e = *ctx.estimate;
    if (ImGui::BeginTable("##results", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr().parameters);
        ImGui::TableNextColumn();
        const std::string params = format_grouped(e.params.total);
        ImGui::Text("%s (%s)", params.c_str(), format_billions(e.params.total).c_str());
        ctx.tags.tag_item("params_value", std::to_string(e.params.total));

        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr().weights_memory);
        ImGui::TableNextColumn();
        const std::uint64_t w = e.memory_per_gpu_bytes.weights;
        ImGui::Text("%s  (%s %s)", format_gib(w).c_str(), format_grouped(w).c_str(), tr().bytes_suffix);
        ctx.tags.tag_item("weights_value", std::to_string(w));
        ImGui::EndTable();
    }
    if (!e.warnings.empty()) {
        ImGui::Spacing();
        ImGui::TextDisabled("%s", tr().warnings);
        for (const std::string& w : e.warnings) ImGui::BulletText("%s", w.c_str());
    }
}

std::string summary_text(const Catalog& catalog, const Scenario& s, const Result<Estimate>& e) {
    if (!e.ok()) return std::string(tr().estimate_failed) + " " + format_error(e.error);
    const ModelPreset* m = s.source == ModelSource::preset ? catalog.find_model(s.model) : nullptr;
    const std::string model = m ? m->name : s.model;
    const std::uint64_t w = e->memory_per_gpu_bytes.weights;
    char buf[512];
    std::snprintf(buf, sizeof buf, tr().summary_format, model.c_str(), to_string(s.weight_dtype),
                  format_billions(e->params.total).c_str(), format_gib(w).c_str(), format_grouped(w).c_str());
    return buf;
}

void panel_share(PanelContext& ctx) {
    if (ImGui::Button(tr().copy_link)) {
        ctx.ui.copied_url = ctx.host.share_url(ctx.link);
        ctx.host.set_clipboard(ctx.ui.copied_url);
    }
    ctx.tags.tag_item("copy_link");
    if (!ctx.ui.copied_url.empty() && ctx.ui.copied_url == ctx.host.share_url(ctx.link)) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr().link_copied);
    }
}

void panel_footer(PanelContext& ctx) {
    // Pinned to the bottom of the window when there is room, else right after the content.
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float bottom = ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y - line;
    if (ImGui::GetCursorPosY() < bottom) ImGui::SetCursorPosY(bottom);
    ImGui::Separator();
    ImGui::TextDisabled("%s %s · %s %s", tr().catalog_version, ctx.catalog.version.c_str(), tr().prices_as_of,
                        ctx.catalog.prices_as_of.c_str());
    ctx.tags.tag_item("footer", ctx.catalog.version);
}

}  // namespace gpusizer::shell
