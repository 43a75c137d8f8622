#include "app.hpp"

#include "gpusizer/link.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {

App::App() {
    Result<Scenario> defaults = parse_scenario_json("{}");
    IM_ASSERT(defaults.ok() && "core rejects an empty scenario: check parse_scenario_json");
    if (defaults.ok()) scenario_ = *defaults;
}

void App::set_catalog(Result<Catalog> catalog) {
    catalog_warnings_ = std::move(catalog.warnings);
    if (catalog.ok()) {
        catalog_ = std::move(*catalog.value);
        catalog_error_.clear();
    } else {
        catalog_.reset();
        catalog_error_ = format_error(catalog.error);
    }
    estimated_for_.reset();  // same scenario, new catalog: estimate again
    redraw_requested_ = true;
}

void App::set_catalog_error(std::string message) {
    catalog_.reset();
    catalog_error_ = std::move(message);
    estimated_for_.reset();
    redraw_requested_ = true;
}

void App::set_scenario(const Scenario& s) {
    scenario_ = s;
    redraw_requested_ = true;
}

bool App::open_link(std::string_view link) {
    Result<Scenario> r = decode_link(link);
    link_warnings_ = r.warnings;
    if (!r.ok()) {
        link_warnings_.push_back(format_error(r.error));
        redraw_requested_ = true;
        return false;
    }
    set_scenario(*r);
    return true;
}

std::string App::scenario_json() const { return scenario_to_json(scenario_); }

void App::recompute_if_needed(Host& host) {
    if (!catalog_ || (estimated_for_ && *estimated_for_ == scenario_)) return;
    estimate_ = estimate(*catalog_, scenario_);
    results_json_ = estimate_.ok() ? estimate_to_json(*estimate_) : std::string();
    estimated_for_ = scenario_;
    ++estimates_;
    redraw_requested_ = true;
    // The scenario settled on a new value: tell the host (share link, text summary).
    std::string link = encode_link(scenario_);
    if (link != link_) {
        link_ = std::move(link);
        host.set_link(link_);
    }
    std::string summary = summary_text(*catalog_, scenario_, estimate_);
    if (summary != summary_) {
        summary_ = std::move(summary);
        host.set_summary(summary_);
    }
}

void App::frame(Host& host) {
    ++frames_;
    tags_.begin_frame();

    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("gpusizer##main", nullptr, flags);
    ImGui::TextUnformatted(tr().app_title);
    ImGui::Separator();
    if (!catalog_) {
        if (catalog_error_.empty()) {
            ImGui::TextUnformatted(tr().loading_catalog);
        } else {
            ImGui::TextUnformatted(tr().catalog_failed);
            ImGui::TextWrapped("%s", catalog_error_.c_str());
        }
    } else {
        for (const std::string& w : link_warnings_) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.4f, 1.0f), "%s %s", tr().link_warning, w.c_str());
        PanelContext ctx{*catalog_, scenario_, estimate_, tags_, host, link_, ui_};
        panel_model(ctx);
        recompute_if_needed(host);  // after the inputs, before the results: never a stale frame
        ImGui::Spacing();
        panel_results(ctx);
        ImGui::Spacing();
        panel_share(ctx);
        panel_footer(ctx);
    }
    ImGui::End();
    tags_.end_frame();
}

}  // namespace gpusizer::shell
