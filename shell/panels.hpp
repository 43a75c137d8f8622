#pragma once
// The panels of the main window. Each gets what it may read and the scenario it may edit,
// and tags its clickable widgets and shown values for the tests.

#include <string>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"
#include "widget_tags.hpp"

namespace gpusizer::shell {

struct PanelContext {
    const Catalog& catalog;
    Scenario& scenario;              // edited in place; App notices the change
    const Result<Estimate>& estimate;
    WidgetTags& tags;
};

void panel_model(PanelContext& ctx);    // model preset + weight dtype
void panel_results(PanelContext& ctx);  // parameter count, weights memory
void panel_footer(PanelContext& ctx);   // catalog version, prices as of

// One sentence of plain text with the numbers of the results panel (aria-live summary).
std::string summary_text(const Catalog& catalog, const Scenario& s, const Result<Estimate>& e);

}  // namespace gpusizer::shell
