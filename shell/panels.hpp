#pragma once
// The panels of the main window. Each gets what it may read and the scenario it may edit,
// and tags its clickable widgets and shown values for the tests.
//
//   panel_topbar     title, guided start, language, theme, copy link, exports
//   panel_answer     the answer card: the pick, the cheapest and the fastest (panel_answer.cpp)
//   panel_compare    the pinned scenario beside the current one (panel_compare.cpp)
//   panel_workload   the job: model, task, precision, shapes, training, serving, GPUs, parallelism
//   panel_memory     stacked bar, breakdown table with formulas, fit badges, chart, solvers
//   panel_offers     rent filters, ranked offers (details on click), cost-time chart
//   panel_guided     the four questions of a first visit (a modal)
//   panel_footer     catalog version, price dates, sources

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/guided.hpp"
#include "gpusizer/scenario.hpp"
#include "host.hpp"
#include "results.hpp"
#include "strings.hpp"
#include "style.hpp"
#include "widget_tags.hpp"

namespace gpusizer::shell {

enum class ThemeChoice { system, dark, light };

// The guided start's radio buttons (indices; core's apply_guided turns them into keys).
struct GuidedRadios {
    int task = GuidedAnswers::serve, size = 1, gpus = GuidedAnswers::one, interrupt = 0, where = GuidedAnswers::abroad,
        priority = GuidedAnswers::total_cost;
    GuidedAnswers answers() const;
};

// UI-only state that lives across frames. Nothing here is a computed number.
struct UiState {
    // The language and the theme in use; tr(), language(), palette() and theme() read them from
    // the UiState of the current ImGui context (App binds its own: bind_ui_state).
    Language language = Language::en;
    Theme theme_in_use = Theme::dark;
    std::string copied_url;       // the share URL last copied, confirmed until the scenario changes
    ThemeChoice theme = ThemeChoice::system;
    SweepAxis axis = SweepAxis::seq_len;  // the memory chart's x axis
    bool guided_open = false;     // the guided start is showing
    bool link_warnings_dismissed = false;
    std::string export_message;   // where the last export went, or why it failed
    // Offers table: display order (sort) and a text filter; region, providers, spot, budget,
    // deadline and currency are scenario keys, edited in place.
    int sort_column = -1;         // -1: core's ranking
    bool sort_descending = false;
    char offer_filter[64] = "";
    // config.json paste box (bounded: k_max_paste_bytes).
    std::string paste_error;
    bool paste_open = false;
    std::vector<char> paste_buffer;  // the paste box's text while it is open
    char model_filter[64] = "";      // the model picker's search text, kept while it is open
    GuidedRadios guided;
    bool narrow = false;          // the window is phone-sized: one column
    // Training tokens as dataset × epochs: the scenario keeps the product (train_tokens), the
    // dataset shown is train_tokens / epochs.
    std::int64_t epochs = 1;
    // "Open a link": a pasted share link (or URL) for the App to open after this frame.
    bool link_dialog_open = false;
    std::string pending_link;
    // Compare: pin the current scenario / drop the pin, done by the App after this frame.
    bool pin_requested = false, unpin_requested = false;
    // The offer whose details row is open in the table ("provider/instance[/spot]"; "" = none),
    // and whether every offer is listed (else the first rows).
    std::string expanded_offer;
    bool all_offers = false;
    // Heights of auto-sized boxes measured last frame (ImGui 1.86 children do not size to their
    // content); a change asks for one more frame.
    float card_height = 0, compare_height = 0;
    bool relayout = false;
};

// Makes `ui` the UI state of the current ImGui context (stored in io.UserData), the one
// tr()/language()/palette()/theme() read; null unbinds. App binds its own before each frame, so
// two Apps (tests) never share a language or a theme.
void bind_ui_state(UiState* ui);
UiState* bound_ui_state();

struct PanelContext {
    const Catalog& catalog;
    // The model picker's list: made when the picker first opens (it parses every preset's config).
    std::optional<std::vector<PresetInfo>>& presets;
    Scenario& scenario;  // edited in place; App notices the change
    const Results& results;
    WidgetTags& tags;
    Host& host;
    const std::string& link;  // encode_link of the estimated scenario ("v=1&…")
    UiState& ui;
    const std::optional<Scenario>& pinned;  // compare: the pinned scenario and its results
    const Results* pinned_results;          // null when nothing is pinned
};

void panel_topbar(PanelContext& ctx);
void panel_workload(PanelContext& ctx);
void panel_memory(PanelContext& ctx);
void panel_offers(PanelContext& ctx);
// The answer card above the panes (the first thing on a phone): the recommended offer in large
// type with its fit and assumptions, and the cheapest and fastest offers with their trade-offs.
void panel_answer(PanelContext& ctx);
// The pinned scenario and the current one side by side (only while something is pinned).
void panel_compare(PanelContext& ctx);
void panel_guided(PanelContext& ctx);
void panel_footer(PanelContext& ctx);
// Export buttons (CSV, JSON, Markdown) and the message of the last export (panel_export.cpp).
void panel_export(PanelContext& ctx);

// One sentence of plain text with the main numbers (aria-live summary, desktop --print-results).
std::string summary_text(const Catalog& catalog, const Scenario& s, const Results& r);

}  // namespace gpusizer::shell
