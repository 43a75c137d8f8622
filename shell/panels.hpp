#pragma once
// The panels of the main window. Each gets what it may read and the scenario it may edit,
// and tags its clickable widgets and shown values for the tests.

#include <string>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"
#include "host.hpp"
#include "widget_tags.hpp"

namespace gpusizer::shell {

// UI-only state that lives across frames (what was copied, later: open sections, filters).
struct UiState {
    std::string copied_url;  // the share URL last copied, confirmed until the scenario changes
};

struct PanelContext {
    const Catalog& catalog;
    Scenario& scenario;              // edited in place; App notices the change
    const Result<Estimate>& estimate;
    WidgetTags& tags;
    Host& host;
    const std::string& link;  // encode_link of the estimated scenario ("v=1&…")
    UiState& ui;
};

void panel_model(PanelContext& ctx);    // model preset + weight dtype
void panel_results(PanelContext& ctx);  // parameter count, weights memory
void panel_share(PanelContext& ctx);    // copy the share link
void panel_footer(PanelContext& ctx);   // catalog version, prices as of

// One sentence of plain text with the numbers of the results panel (aria-live summary).
std::string summary_text(const Catalog& catalog, const Scenario& s, const Result<Estimate>& e);

}  // namespace gpusizer::shell
