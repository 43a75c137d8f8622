// The shell's App in a headless ImGui context: what it shows comes from core's estimate, it
// estimates once per scenario change, and its widgets are clickable where it says they are.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "format.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "headless.hpp"

using gpusizer::shell::App;
using gpusizer_test::Headless;

namespace {

App app_with_catalog() {
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    return app;
}

gpusizer::Estimate core_estimate(const gpusizer::Scenario& s) {
    auto c = gpusizer::parse_catalog(embedded_catalog_json());
    REQUIRE(c.ok());
    auto e = gpusizer::estimate(*c, s);
    REQUIRE(e.ok());
    return *e;
}

}  // namespace

TEST_CASE("format: grouped digits and GiB as the CLI prints them") {
    CHECK(gpusizer::shell::format_grouped(0) == "0");
    CHECK(gpusizer::shell::format_grouped(999) == "999");
    CHECK(gpusizer::shell::format_grouped(1000) == "1,000");
    CHECK(gpusizer::shell::format_grouped(16060522496ull) == "16,060,522,496");
    CHECK(gpusizer::shell::format_grouped(18446744073709551615ull) == "18,446,744,073,709,551,615");
    CHECK(gpusizer::format_gib(17179869184ull) == "16.00 GiB");
    CHECK(gpusizer::format_gib(16060522496ull) == "14.96 GiB");
}

TEST_CASE("the first frame shows core's numbers for the default scenario") {
    Headless ui;
    App app = app_with_catalog();
    REQUIRE(app.catalog() != nullptr);
    ui.frames(app, 2);
    const gpusizer::Estimate e = core_estimate(app.scenario());
    CHECK(app.results_json() == gpusizer::estimate_to_json(e));
    const auto* w = app.tags().find("memory_value:weights");
    REQUIRE(w != nullptr);
    CHECK(w->text == std::to_string(e.memory_per_gpu_bytes.weights));
    const auto* p = app.tags().find("params_value");
    REQUIRE(p != nullptr);
    CHECK(p->text == std::to_string(e.params.total));
    CHECK(app.tags().find("footer")->text == app.catalog()->version);
}

TEST_CASE("language and theme belong to each App: switching one leaves another as it was") {
    Headless ui;
    App first = app_with_catalog();
    App second = app_with_catalog();
    ui.frames(first, 2);
    ui.frames(second, 2);
    REQUIRE(ui.click(first, "language_toggle"));
    CHECK(first.tags().find("language_toggle")->text == "zh");
    ui.frames(second, 2);
    CHECK(second.tags().find("language_toggle")->text == "en");
    CHECK(gpusizer::shell::language() == gpusizer::shell::Language::en);  // second is bound now
    ui.frames(first, 1);
    CHECK(gpusizer::shell::language() == gpusizer::shell::Language::zh);
    CHECK(first.tags().find("language_toggle")->text == "zh");
}

TEST_CASE("estimate runs once per scenario change, not per frame") {
    Headless ui;
    App app = app_with_catalog();
    ui.frames(app, 10);
    CHECK(app.estimate_count() == 1);
    gpusizer::Scenario s = app.scenario();
    s.weight_dtype = gpusizer::WeightDtype::int8;
    app.set_scenario(s);
    ui.frames(app, 10);
    CHECK(app.estimate_count() == 2);
    app.set_scenario(s);  // the same scenario again: nothing to do
    ui.frames(app, 3);
    CHECK(app.estimate_count() == 2);
}

TEST_CASE("clicking the dtype combo and an item selects it and shows its weights") {
    Headless ui;
    App app = app_with_catalog();
    ui.frames(app, 2);
    CHECK(app.tags().find("dtype_item:int8") == nullptr);  // closed combo: items are not clickable
    REQUIRE(ui.click(app, "dtype_combo"));
    REQUIRE(app.tags().find("dtype_item:int8") != nullptr);
    REQUIRE(ui.click(app, "dtype_item:int8"));
    CHECK(app.scenario().weight_dtype == gpusizer::WeightDtype::int8);
    CHECK(app.tags().find("dtype_item:int8") == nullptr);  // the popup closed
    const gpusizer::Estimate e = core_estimate(app.scenario());
    CHECK(app.tags().find("memory_value:weights")->text == std::to_string(e.memory_per_gpu_bytes.weights));
    CHECK(app.tags().find("dtype_combo")->text == "int8");
}

TEST_CASE("every weight dtype is offered, every catalog model is in the (scrolling) model combo") {
    Headless ui;
    App app = app_with_catalog();
    ui.frames(app, 2);
    REQUIRE(ui.click(app, "dtype_combo"));
    for (std::size_t i = 0; i < gpusizer::EnumNames<gpusizer::WeightDtype>::count; ++i)
        CHECK_MESSAGE(app.tags().find(std::string("dtype_item:") + gpusizer::EnumNames<gpusizer::WeightDtype>::names[i]),
                      gpusizer::EnumNames<gpusizer::WeightDtype>::names[i]);
    REQUIRE(ui.click(app, "dtype_combo"));  // close
    REQUIRE(ui.click(app, "model_combo"));
    // The list is taller than the popup: wheel through it and collect what was on screen.
    std::set<std::string> seen;
    std::size_t visible_at_once = 0;
    ImGuiIO& io = ImGui::GetIO();
    for (int i = 0; i < 200; ++i) {
        std::size_t now = 0;
        const gpusizer::shell::TaggedRect* first = nullptr;
        for (const auto& r : app.tags().last_frame())
            if (r.name.rfind("model_item:", 0) == 0) {
                seen.insert(r.name.substr(11));
                if (!first) first = &r;
                ++now;
            }
        visible_at_once = std::max(visible_at_once, now);
        REQUIRE(first != nullptr);
        io.MousePos = ImVec2((first->x0 + first->x1) / 2, (first->y0 + first->y1) / 2);
        io.MouseWheel = -1.0f;
        ui.frame(app);
    }
    CHECK(visible_at_once < app.catalog()->models.size());  // it did scroll: not all at once
    for (const gpusizer::ModelPreset& m : app.catalog()->models) CHECK_MESSAGE(seen.count(m.id) == 1, m.id);
}

TEST_CASE("pixel ratio 2: same widgets, twice the size") {
    float h1 = 0, h2 = 0;
    for (float ratio : {1.0f, 2.0f}) {
        Headless ui(ratio, ImVec2(1000 * ratio, 700 * ratio));
        App app = app_with_catalog();
        ui.frames(app, 2);
        const auto* r = app.tags().find("dtype_combo");
        REQUIRE(r != nullptr);
        (ratio == 1.0f ? h1 : h2) = r->y1 - r->y0;
    }
    CHECK(h2 == doctest::Approx(2 * h1).epsilon(0.1));
}

TEST_CASE("a catalog that does not parse is shown as an error, with no estimate") {
    Headless ui;
    App app;
    app.set_catalog(gpusizer::parse_catalog("{not json"));
    ui.frames(app, 2);
    CHECK(app.catalog() == nullptr);
    CHECK(app.results_json().empty());
    CHECK(app.estimate_count() == 0);
    CHECK(app.tags().find("dtype_combo") == nullptr);
}

TEST_CASE("assumptions and warnings: core's English lines, and its Chinese lines once the language is Chinese") {
    Headless ui(1.0f, ImVec2(1000, 3000));  // tall: the list under the memory panel is on screen
    App app = app_with_catalog();
    gpusizer::Scenario s = app.scenario();
    s.source = gpusizer::ModelSource::params_b;
    s.params_b = 8;
    app.set_scenario(s);
    ui.frames(app, 3);
    const gpusizer::Estimate e = core_estimate(app.scenario());
    REQUIRE_FALSE(e.warnings.empty());
    const gpusizer::shell::TaggedRect* w = app.tags().find("memory_warning");
    REQUIRE(w != nullptr);
    CHECK(w->text == e.warnings.en()[0]);
    REQUIRE(ui.click(app, "language_toggle"));
    ui.frames(app, 2);
    w = app.tags().find("memory_warning");
    REQUIRE(w != nullptr);
    CHECK(w->text == e.warnings.zh()[0]);
    CHECK(w->text.rfind("params_b:结构按类 Llama-3 的稠密解码器推断(h=", 0) == 0);
}
