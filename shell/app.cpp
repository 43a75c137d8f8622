#include "app.hpp"

#include <algorithm>

#include "gpusizer/link.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // ImGuiContext::DimBgRatio: a modal's fade (after_frame)
#include "panels.hpp"
#include "strings.hpp"
#include "style.hpp"

namespace gpusizer::shell {

App::App() {
    Result<Scenario> defaults = parse_scenario_json("{}");
    IM_ASSERT(defaults.ok() && "core rejects an empty scenario: check parse_scenario_json");
    if (defaults.ok()) scenario_ = settled_ = *defaults;
}

void App::set_catalog(Result<Catalog> catalog) {
    catalog_warnings_ = catalog.warnings.en();
    if (catalog.ok()) {
        catalog_ = std::move(*catalog.value);
        catalog_error_.clear();
        presets_.reset();
    } else {
        catalog_.reset();
        presets_.reset();
        catalog_error_ = format_error(catalog.error);
    }
    estimated_for_.reset();  // same scenario, new catalog: compute again
    pinned_stale_ = true;
    redraw_requested_ = true;
}

void App::set_catalog_error(std::string message) {
    catalog_.reset();
    presets_.reset();
    catalog_error_ = std::move(message);
    estimated_for_.reset();
    pinned_stale_ = true;
    redraw_requested_ = true;
}

void App::set_scenario(const Scenario& s) {
    scenario_ = s;
    scenario_.given |= keys_off_default(s);  // a scenario built in code: what differs from its defaults
    settled_ = scenario_;
    redraw_requested_ = true;
}

void App::settle_edit() {
    if (scenario_ == settled_ && scenario_.given == settled_.given) return;
    apply_edit(settled_, scenario_);
    settled_ = scenario_;
}

bool App::open_link(std::string_view link) {
    Result<LinkedScenarios> r = decode_link_pair(link);
    link_warnings_ = r.warnings;
    ui_.link_warnings_dismissed = false;
    if (!r.ok()) {
        link_warnings_.add_en(format_error(r.error));  // core's errors are English
        redraw_requested_ = true;
        return false;
    }
    set_scenario(r->current);
    pinned_ = r->pinned;
    if (pinned_) pinned_->given |= keys_off_default(*pinned_);
    pinned_stale_ = true;
    return true;
}

void App::pin() {
    pinned_ = scenario_;
    pinned_stale_ = true;
    redraw_requested_ = true;
}

void App::unpin() {
    pinned_.reset();
    pinned_results_ = Results{};
    pinned_stale_ = false;
    link_dirty_ = true;
    redraw_requested_ = true;
}

void App::update_link(Host& host) {
    if (!link_dirty_) return;
    link_dirty_ = false;
    std::string link = encode_link(scenario_, pinned_);
    if (link != link_) {
        link_ = std::move(link);
        host.set_link(link_);
    }
}

std::string App::scenario_json() const { return scenario_to_json(scenario_); }

std::string App::results_json() const {
    return results_.estimate.ok() ? estimate_to_json(*results_.estimate) : std::string();
}

std::string App::recommendation_json() const {
    const Result<Recommendation> r = worded_recommendation(results_);
    return r.ok() ? recommendation_to_json(*r) : std::string();
}

void App::recompute_if_needed(Host& host) {
    settle_edit();
    if (catalog_ && pinned_ && pinned_stale_) {
        pinned_results_ = compute_results(*catalog_, *pinned_, ui_.axis);
        pinned_stale_ = false;
        link_dirty_ = true;
        redraw_requested_ = true;
    }
    if (!catalog_ || (estimated_for_ && *estimated_for_ == scenario_ && estimated_axis_ == ui_.axis)) {
        update_link(host);
        return;
    }
    results_ = compute_results(*catalog_, scenario_, ui_.axis);
    estimated_for_ = scenario_;
    estimated_axis_ = ui_.axis;
    ++estimates_;
    redraw_requested_ = true;
    // The scenario settled on a new value: tell the host (share link, text summary).
    link_dirty_ = true;
    update_link(host);
    std::string summary = summary_text(*catalog_, scenario_, results_);
    if (summary != summary_) {
        summary_ = std::move(summary);
        host.set_summary(summary_);
    }
}

void App::apply_host_preferences(Host& host) {
    if (!language_chosen_) {
        language_chosen_ = true;
        const std::string lang = host.preferred_language();
        if (lang.size() >= 2 && (lang[0] == 'z' || lang[0] == 'Z') && (lang[1] == 'h' || lang[1] == 'H'))
            set_language(Language::zh);
    }
    const bool dark = ui_.theme == ThemeChoice::system ? host.prefers_dark() : ui_.theme == ThemeChoice::dark;
    if (!theme_applied_ || dark != applied_dark_) {
        theme_applied_ = true;
        applied_dark_ = dark;
        set_theme(dark ? Theme::dark : Theme::light);
        redraw_requested_ = true;
    }
}

App::~App() {
    if (bound_ui_state() == &ui_) bind_ui_state(nullptr);
}

void App::frame(Host& host) {
    bind_ui_state(&ui_);  // tr(), palette() … read this App's language and theme
    ++frames_;
    tags_.begin_frame();
    apply_host_preferences(host);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("gpusizer##main", nullptr, flags);
    const Language language_before = language();
    if (catalog_) {
        // Phone-sized windows get one column (logical width under 760 px).
        ui_.narrow = vp->WorkSize.x / host.pixel_ratio() < 760.0f;
        draw_panels(host);
    } else {
        draw_catalog_status();
    }
    ImGui::End();
    tags_.end_frame();
    if (catalog_) after_frame(host, language_before);
}

void App::draw_catalog_status() {
    ImGui::TextUnformatted("gpusizer");
    ImGui::Separator();
    if (catalog_error_.empty()) {
        ImGui::TextUnformatted(tr("Loading the catalog...", "正在加载目录……"));
    } else {
        ImGui::TextUnformatted(tr("The catalog could not be loaded:", "无法加载目录:"));
        ImGui::TextWrapped("%s", catalog_error_.c_str());
        tags_.tag_item("catalog_error", catalog_error_);
    }
}

void App::draw_panels(Host& host) {
    PanelContext ctx{*catalog_, presets_, scenario_, results_, tags_, host, link_, ui_, pinned_,
                     pinned_ && !pinned_stale_ ? &pinned_results_ : nullptr};
    panel_topbar(ctx);
    if (!link_warnings_.empty() && !ui_.link_warnings_dismissed) {
        for (const std::string& w : link_warnings_.lines(language() == Language::zh)) {
            ImGui::TextColored(palette().warn, "%s %s", tr("Link:", "链接:"), w.c_str());
            tags_.tag_item("link_warning", w);
        }
        if (ImGui::SmallButton(tr("Dismiss", "关闭提示"))) ui_.link_warnings_dismissed = true;
        tags_.tag_item("link_warnings_dismiss");
    }
    panel_guided(ctx);
    ImGui::Separator();
    // The answer is drawn before the inputs: results for the scenario as it stands (edits made
    // below this frame are recomputed after the inputs and redrawn next frame).
    recompute_if_needed(host);
    if (ui_.narrow) {
        // One scrolling column: the job, then what it needs, then what to rent.
        ImGui::BeginChild("##column", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false);
        panel_answer(ctx);  // the answer on top: a phone shows it first
        panel_compare(ctx);
        panel_workload(ctx);
        recompute_if_needed(host);  // after the inputs, before the results: never a stale frame
        panel_memory(ctx);
        panel_offers(ctx);
        ImGui::EndChild();
    } else {
        panel_answer(ctx);  // above both panes: the answer stays in view while either scrolls
        const float left = std::max(ImGui::GetFontSize() * 24, ImGui::GetContentRegionAvail().x * 0.3f);
        ImGui::BeginChild("##workload", ImVec2(left, -ImGui::GetFrameHeightWithSpacing()), true);
        panel_workload(ctx);
        ImGui::EndChild();
        recompute_if_needed(host);
        ImGui::SameLine();
        ImGui::BeginChild("##results", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), true);
        panel_compare(ctx);  // beside the inputs being changed
        panel_memory(ctx);
        panel_offers(ctx);
        ImGui::EndChild();
    }
    panel_footer(ctx);
}

// What the panels asked for during the frame, done between frames: pin/unpin, a redraw after a
// box changed height, a pasted link, the summary in a new language.
void App::after_frame(Host& host, Language language_before) {
    if (ui_.pin_requested) pin();
    if (ui_.unpin_requested) unpin();
    ui_.pin_requested = ui_.unpin_requested = false;
    if (ui_.relayout) redraw_requested_ = true;  // a box changed height: draw once more at its size
    ui_.relayout = false;
    // ImGui dims the page behind a modal in ~0.17 s and undims it in 0.1 s, by time; the hosts
    // draw a few frames per input, which at a high refresh rate pass before the fade is done (it
    // stopped at a quarter in an unthrottled browser). Draw until it is.
    const ImGuiContext& imgui = *ImGui::GetCurrentContext();
    if (imgui.DimBgRatio > 0.0f && imgui.DimBgRatio < 1.0f) redraw_requested_ = true;
    if (!ui_.pending_link.empty()) {  // "Open link…": opened between frames, like a hashchange
        const std::string link = std::move(ui_.pending_link);
        ui_.pending_link.clear();
        open_link(link);
    }
    if (language_before != language()) {  // the summary follows the language
        redraw_requested_ = true;
        const std::string summary = summary_text(*catalog_, scenario_, results_);
        if (summary != summary_) host.set_summary(summary_ = summary);
    }
}

void enter_also_activates(ImGuiIO& io) {
    if (io.WantTextInput) return;
    for (const ImGuiKey key : {ImGuiKey_Enter, ImGuiKey_KeyPadEnter}) {
        const int index = io.KeyMap[key];
        // Pressed this frame only (KeysDownDuration is still last frame's: < 0 = was up): the
        // Enter that confirmed a text field, still held a frame later, must not reopen it.
        if (index >= 0 && index < IM_ARRAYSIZE(io.KeysDown) && io.KeysDown[index] && io.KeysDownDuration[index] < 0.0f)
            io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
    }
}

}  // namespace gpusizer::shell
