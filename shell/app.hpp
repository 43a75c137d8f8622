#pragma once
// The gpusizer UI, shared by every window (web page, desktop, headless tests).
//
// Index
//   App            owns the catalog, the scenario being edited, the last estimate and the pinned
//                  scenario of a compare (with its results)
//   App::frame     draws one frame; call between ImGui::NewFrame() and ImGui::Render()
//   test hooks     scenario_json(), results_json(), tags(), counters
//
// Data flows one way: the panels edit scenario_; when it differs from the scenario of the
// last results, compute_results() (core's estimate, recommend and the chart/badge estimates)
// runs once; the panels only display core's numbers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "host.hpp"
#include "panels.hpp"
#include "widget_tags.hpp"

namespace gpusizer::shell {

class App {
public:
    App();  // scenario = core's defaults (parse_scenario_json("{}"))
    ~App();  // unbinds its UiState from the ImGui context (bound by address in frame())
    App(App&&) = default;
    App& operator=(App&&) = default;

    // [SECTION] Inputs from the host
    void set_catalog(Result<Catalog> catalog);   // an error result is shown in the window
    void set_catalog_error(std::string message); // e.g. the download failed
    void set_scenario(const Scenario& s);
    // A share link ("https://…#v=1&…", "#v=1&…" or "v=1&…"): sets the scenario it describes.
    // Never fails hard: what was not understood stays default and is listed in link_warnings(),
    // which the window shows. False only when the text is not a link at all. A link with a pinned
    // scenario (pin=1&pin.…) opens the compare; one without closes it.
    bool open_link(std::string_view link);
    // Compare: the current scenario is kept as it is (with its results) beside the one edited.
    void pin();
    void unpin();
    const std::optional<Scenario>& pinned() const { return pinned_; }

    // [SECTION] One frame
    void frame(Host& host);

    // [SECTION] State and test hooks
    const Catalog* catalog() const { return catalog_ ? &*catalog_ : nullptr; }
    const std::vector<std::string>& catalog_warnings() const { return catalog_warnings_; }
    const Scenario& scenario() const { return scenario_; }
    const Result<Estimate>& estimate_result() const { return results_.estimate; }
    const Results& results() const { return results_; }
    std::string scenario_json() const;                       // scenario_to_json
    // Made when asked (test hooks, --print-results), not per recompute: the offers' JSON alone
    // costs more than the recompute in wasm.
    std::string results_json() const;         // estimate_to_json, "" when none
    std::string recommendation_json() const;  // recommendation_to_json, "" when none
    const WidgetTags& tags() const { return tags_; }
    std::uint64_t frame_count() const { return frames_; }
    std::uint64_t estimate_count() const { return estimates_; }  // how often the results were computed
    const std::vector<std::string>& link_warnings() const { return link_warnings_.en(); }
    const std::string& link() const { return link_; }  // encode_link of the last estimated scenario (and the pin)
    const std::string& summary() const { return summary_; }

    // True once after anything changed that the host must draw even without input
    // (catalog arrived, scenario set from outside, a new estimate).
    bool take_redraw_request() {
        const bool r = redraw_requested_;
        redraw_requested_ = false;
        return r;
    }

private:
    void recompute_if_needed(Host& host);
    void draw_catalog_status();  // "Loading…" or why the catalog could not be loaded
    void draw_panels(Host& host);  // the top bar, the answer card and the panes
    void after_frame(Host& host, Language language_before);
    void settle_edit();  // the panels' edits since the last call: mark them given, re-derive defaults
    void apply_host_preferences(Host& host);  // theme from the system (when "system" is chosen)
    void update_link(Host& host);             // the share link of the scenario and the pin, when it changed

    std::optional<Catalog> catalog_;
    std::vector<std::string> catalog_warnings_;
    std::string catalog_error_;
    Scenario scenario_;
    Scenario settled_;   // scenario_ after the last settle_edit(); scenario_.given: the keys the user set
    std::optional<std::vector<PresetInfo>> presets_;  // per catalog, once the model picker opens
    std::optional<Scenario> estimated_for_;  // scenario of results_
    SweepAxis estimated_axis_ = SweepAxis::seq_len;
    Results results_;
    std::optional<Scenario> pinned_;
    Results pinned_results_;
    bool pinned_stale_ = false;  // pinned_results_ must be computed (new pin or catalog)
    bool link_dirty_ = true;     // the scenario or the pin changed since the link was last encoded
    Notes link_warnings_;
    std::string link_, summary_;  // last given to the host
    WidgetTags tags_;
    UiState ui_;
    std::uint64_t frames_ = 0, estimates_ = 0;
    bool redraw_requested_ = true;
    bool language_chosen_ = false;  // the host's preferred language was applied once
    bool applied_dark_ = true;      // the theme last applied
    bool theme_applied_ = false;
};

// Keyboard: Dear ImGui 1.86 presses a focused button, checkbox or combo item with Space only
// (Enter edits text). People expect Enter to work too: call this after the platform backend's
// NewFrame and before ImGui::NewFrame, in every host. While a text field is being edited Enter
// stays the field's (it confirms the value). Only a fresh press activates.
void enter_also_activates(ImGuiIO& io);

}  // namespace gpusizer::shell
