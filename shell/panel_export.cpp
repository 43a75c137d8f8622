// Exports of the current results, all made by core (gpusizer/export.hpp, the same text as the
// CLI's --format): JSON (estimate + offers), CSV (memory per GPU; offers), a Markdown summary
// saved or copied to the clipboard.
#include <string>

#include "gpusizer/export.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {
namespace {

std::string markdown(PanelContext& ctx) {
    MarkdownOptions o;
    o.chinese = language() == Language::zh;
    const std::string url = ctx.host.share_url(ctx.link);
    const std::size_t hash = url.find('#');
    o.page_url = hash == std::string::npos ? std::string() : url.substr(0, hash);  // "" when the host has no page
    return results_to_markdown(ctx.scenario, ctx.catalog, ctx.results.estimate, worded_recommendation(ctx.results), o);
}

void save(PanelContext& ctx, const char* filename, const char* mime, const std::string& content) {
    const std::string where = ctx.host.save_file(filename, mime, content);
    ctx.ui.export_message = where.empty() ? std::string(tr("This window cannot save files.", "此窗口无法保存文件。"))
                                          : std::string(filename) + tr(" saved to ", " 已保存到 ") + where;
}

bool item(PanelContext& ctx, const char* id, const char* text, bool enabled = true) {
    const bool clicked = ImGui::MenuItem(text, nullptr, false, enabled);
    ctx.tags.tag_item(std::string("export_item:") + id);
    return clicked;
}

}  // namespace

void panel_export(PanelContext& ctx) {
    ImGui::SameLine();
    if (ImGui::Button(tr("Export...", "导出……"))) ImGui::OpenPopup("##export");
    ctx.tags.tag_item("export_open");
    if (ImGui::BeginPopup("##export")) {
        const bool est = ctx.results.estimate.ok();
        const bool rec = ctx.results.recommendation.ok();
        if (item(ctx, "json", tr("JSON: estimate and offers", "JSON:估算与方案")))
            save(ctx, "gpusizer.json", "application/json", results_to_json(ctx.results.estimate, worded_recommendation(ctx.results)) + "\n");
        if (item(ctx, "csv_memory", tr("CSV: memory per GPU", "CSV:每 GPU 显存"), est))
            save(ctx, "gpusizer-memory.csv", "text/csv", estimate_to_csv(*ctx.results.estimate));
        if (item(ctx, "csv_offers", tr("CSV: offers", "CSV:租用方案"), rec))
            save(ctx, "gpusizer-offers.csv", "text/csv", recommendation_to_csv(*worded_recommendation(ctx.results)));
        if (item(ctx, "markdown", tr("Markdown summary", "Markdown 摘要")))
            save(ctx, "gpusizer.md", "text/markdown", markdown(ctx));
        if (item(ctx, "markdown_copy", tr("Copy the Markdown summary", "复制 Markdown 摘要"))) {
            ctx.host.set_clipboard(markdown(ctx));
            ctx.ui.export_message = tr("Markdown summary copied", "已复制 Markdown 摘要");
        }
        ImGui::EndPopup();
    }
    if (!ctx.ui.export_message.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", ctx.ui.export_message.c_str());
        ctx.tags.tag_item("export_message", ctx.ui.export_message);
    }
}

}  // namespace gpusizer::shell
