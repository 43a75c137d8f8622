// The top bar (title, guided start, language, theme, share link, open a link, exports), the footer (catalog
// version, price dates, sources) and the one-sentence text summary.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "format.hpp"
#include "imgui.h"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "style.hpp"

namespace gpusizer::shell {
namespace {

void same_line_if_room(float next_width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < next_width) ImGui::NewLine();
}

float button_width(const char* text) { return ImGui::CalcTextSize(text).x + ImGui::GetStyle().FramePadding.x * 2; }

// Paste a share link (from a colleague, another browser, the CLI's `gpusizer link`) to open
// its scenario here; what it cannot understand is listed by the App's link warnings.
void link_dialog(PanelContext& ctx) {
    static char buffer[4096];  // a link, even one carrying a pasted config.json, is under 2 KiB
    if (ctx.ui.link_dialog_open) {
        ImGui::OpenPopup("##open_link");
        ctx.ui.link_dialog_open = false;
        buffer[0] = '\0';
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x * 0.95f, ImGui::GetFontSize() * 36), 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("##open_link", nullptr, ImGuiWindowFlags_NoTitleBar)) return;
    ImGui::TextWrapped("%s", tr("Paste a gpusizer share link (Ctrl+V): the page URL with #v=1&... or the fragment alone.",
                                "粘贴 gpusizer 分享链接(Ctrl+V):带 #v=1&... 的网址,或只粘贴 # 之后的部分。"));
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool enter = ImGui::InputText("##link_text", buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue);
    ctx.tags.tag_item("link_text", std::to_string(std::strlen(buffer)));
    if ((ImGui::Button(tr("Open", "打开")) || enter) && buffer[0]) {
        ctx.ui.pending_link = buffer;
        ImGui::CloseCurrentPopup();
    }
    ctx.tags.tag_item("link_open");
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel", "取消"))) ImGui::CloseCurrentPopup();
    ctx.tags.tag_item("link_cancel");
    ImGui::EndPopup();
}

}  // namespace

void panel_topbar(PanelContext& ctx) {
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(font(FontRole::heading));
    ImGui::TextColored(palette().accent, "gpusizer");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("which GPU server to rent", "该租哪种 GPU 服务器"));

    const char* guided = tr("Guided start", "快速开始");
    same_line_if_room(button_width(guided));
    if (ImGui::Button(guided)) ctx.ui.guided_open = true;
    ctx.tags.tag_item("guided_open");

    // The other language is named in its own language, so either reader finds it.
    const char* other = language() == Language::zh ? "English" : "\u4e2d\u6587";
    same_line_if_room(button_width(other));
    if (ImGui::Button(other)) set_language(language() == Language::zh ? Language::en : Language::zh);
    ctx.tags.tag_item("language_toggle", language() == Language::zh ? "zh" : "en");

    const char* theme_names[] = {tr("System theme", "跟随系统"), tr("Dark", "深色"), tr("Light", "浅色")};
    const char* theme_ids[] = {"system", "dark", "light"};
    const int current = static_cast<int>(ctx.ui.theme);
    const float theme_width = ImGui::CalcTextSize(theme_names[0]).x + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
    same_line_if_room(theme_width);
    ImGui::SetNextItemWidth(theme_width);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const WidgetTags::Clip clip = WidgetTags::current_clip();
    const bool open = ImGui::BeginCombo("##theme", theme_names[current]);
    ctx.tags.tag_rect("theme_combo", at, ImVec2(at.x + theme_width, at.y + ImGui::GetFrameHeight()), theme_ids[current], clip);
    if (open) {
        for (int i = 0; i < 3; ++i) {
            if (ImGui::Selectable(theme_names[i], i == current)) ctx.ui.theme = static_cast<ThemeChoice>(i);
            ctx.tags.tag_item(std::string("theme_item:") + theme_ids[i]);
        }
        ImGui::EndCombo();
    }

    const char* copy = tr("Copy share link", "复制分享链接");
    same_line_if_room(button_width(copy));
    if (ImGui::Button(copy)) {
        ctx.ui.copied_url = ctx.host.share_url(ctx.link);
        ctx.host.set_clipboard(ctx.ui.copied_url);
    }
    ctx.tags.tag_item("copy_link");
    if (!ctx.ui.copied_url.empty() && ctx.ui.copied_url == ctx.host.share_url(ctx.link)) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("Copied.", "已复制。"));
    }
    const char* open_text = tr("Open link...", "打开链接……");
    same_line_if_room(button_width(open_text));
    if (ImGui::Button(open_text)) ctx.ui.link_dialog_open = true;
    ctx.tags.tag_item("open_link");
    link_dialog(ctx);
    panel_export(ctx);
}

void panel_footer(PanelContext& ctx) {
    const Catalog& c = ctx.catalog;
    if (ctx.ui.narrow)  // one line on a phone
        ImGui::TextDisabled(tr("Catalog %s \u00b7 prices as of %s", "目录 %s \u00b7 价格截至 %s"), c.version.c_str(), c.prices_as_of.c_str());
    else
        ImGui::TextDisabled(tr("Catalog %s \u00b7 prices as of %s (oldest %s) \u00b7 %zu GPUs, %zu instances",
                               "目录 %s \u00b7 价格截至 %s(最早 %s) \u00b7 %zu 种 GPU,%zu 种实例"),
                            c.version.c_str(), c.prices_as_of.c_str(), c.prices_oldest.c_str(), c.accelerators.size(),
                            c.instances.size());
    ctx.tags.tag_item("footer", c.version);
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
        ImGui::TextUnformatted(tr("Every GPU spec and price carries its source and date in the catalog (assets/catalog.json); "
                                  "uncertain prices are shown with \u2248. Prices change: check the provider before renting.",
                                  "目录(assets/catalog.json)中每个 GPU 规格和价格都注明来源和日期;不确定的价格以 \u2248 标出。"
                                  "价格会变动:租用前请向云厂商核实。"));
        ImGui::Text("USD/CNY %s (%s)", format_value(c.usd_cny.cny_per_usd).c_str(),
                    c.usd_cny.date.empty() ? tr("undated", "未注明日期") : c.usd_cny.date.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

std::string summary_text(const Catalog& catalog, const Scenario& s, const Results& r) {
    if (!r.estimate.ok()) return std::string(tr("No estimate:", "无法估算:")) + " " + format_error(r.estimate.error);
    const ModelPreset* m = s.source == ModelSource::preset ? catalog.find_model(s.model) : nullptr;
    const std::string model = m ? m->name : s.source == ModelSource::params_b ? format_value(s.params_b) + " B" : s.hf_config.model_type;
    const Estimate& e = *r.estimate;
    char buf[512];
    std::snprintf(buf, sizeof buf, tr("%s, %s in %s: %s parameters; %s per GPU (weights %s).",
                                      "%s,%s,%s:参数 %s;每 GPU %s(权重 %s)。"),
                  model.c_str(), label(s.task), to_string(s.weight_dtype), format_billions(e.params.total).c_str(),
                  format_gib(e.memory_per_gpu_bytes.total).c_str(), format_gib(e.memory_per_gpu_bytes.weights).c_str());
    std::string out = buf;
    if (r.recommendation.ok()) out += " " + (language() == Language::zh ? r.recommendation->summary_zh : r.recommendation->summary);
    return out;
}

}  // namespace gpusizer::shell
