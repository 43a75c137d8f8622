// The answer card and the compare strip, in a headless window: what they show is core's
// recommendation (the pick, the cheapest, the fastest and their trade-offs), the pin keeps a
// scenario beside the one edited, and the share link carries both.
#include <doctest/doctest.h>

#include <string>

#include "format.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/recommend.hpp"
#include "headless.hpp"

using gpusizer::shell::App;
using gpusizer_test::Headless;

namespace {

std::string offer_id(const gpusizer::Offer& o) { return o.provider + "/" + o.instance + (o.spot ? "/spot" : ""); }

std::string tag(const App& app, const char* name) {
    const gpusizer::shell::TaggedRect* r = app.tags().find(name);
    const std::string what = std::string("not on screen: ") + name;
    CHECK_MESSAGE(r != nullptr, what);
    return r ? r->text : std::string("(not on screen)");
}

gpusizer::Scenario lora_7b() {
    auto s = gpusizer::parse_scenario_json(R"({"model": "qwen2.5-7b", "task": "lora", "train_tokens": 1e8})");
    REQUIRE(s.ok());
    return *s;
}

}  // namespace

TEST_CASE("the answer card shows core's pick, the cheapest and the fastest with core's trade-offs") {
    Headless ui(1.0f, ImVec2(1280, 800));
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    app.set_scenario(lora_7b());
    ui.frames(app, 3);
    REQUIRE(app.results().recommendation.ok());
    const gpusizer::Recommendation& rec = *app.results().recommendation;
    const gpusizer::Offer& pick = rec.offers.at(0);
    CHECK(tag(app, "card_pick") == offer_id(pick));
    CHECK(tag(app, "card_gpus") == std::to_string(pick.gpu_count));
    CHECK(tag(app, "card_price") == gpusizer::shell::format_value(pick.price_per_hour));
    CHECK(tag(app, "card_time") == gpusizer::shell::format_value(*pick.hours));
    CHECK(tag(app, "card_cost") == gpusizer::shell::format_value(*pick.total_cost));
    CHECK(tag(app, "card_memory") == std::to_string(pick.memory_per_gpu_bytes));
    REQUIRE(rec.cheapest);
    REQUIRE(rec.fastest);
    CHECK(tag(app, "card_cheapest") == offer_id(rec.offers.at(rec.cheapest->index)));
    CHECK(tag(app, "card_fastest") == offer_id(rec.offers.at(rec.fastest->index)));
    CHECK(tag(app, "card_fastest_trade_off") == rec.fastest->trade_off);
    CHECK(tag(app, "recommendation") == rec.summary);
}

TEST_CASE("pin, change an input, compare both, unpin: the link carries the pin while it is there") {
    Headless ui(1.0f, ImVec2(1280, 900));
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    app.set_scenario(lora_7b());
    ui.frames(app, 3);
    const gpusizer::Scenario first = app.scenario();
    REQUIRE(ui.click(app, "card_pin"));
    REQUIRE(app.pinned());
    CHECK(*app.pinned() == first);
    gpusizer::Scenario second = first;
    second.task = gpusizer::Task::qlora;
    app.set_scenario(second);
    ui.frames(app, 4);
    CHECK(app.link() == gpusizer::encode_link(app.scenario(), *app.pinned()));
    auto both = gpusizer::decode_link_pair(app.link());
    REQUIRE(both.ok());
    REQUIRE(both->pinned);
    CHECK(both->pinned->task == gpusizer::Task::lora);
    CHECK(both->current.task == gpusizer::Task::qlora);
    // Each side shows its own scenario's numbers.
    auto catalog = gpusizer::parse_catalog(embedded_catalog_json());
    auto a = gpusizer::estimate(*catalog, first), b = gpusizer::estimate(*catalog, app.scenario());
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(tag(app, "compare_pinned_memory") == std::to_string(a->memory_per_gpu_bytes.total));
    CHECK(tag(app, "compare_now_memory") == std::to_string(b->memory_per_gpu_bytes.total));
    CHECK(a->memory_per_gpu_bytes.total != b->memory_per_gpu_bytes.total);
    auto ra = gpusizer::recommend(*catalog, first), rb = gpusizer::recommend(*catalog, app.scenario());
    REQUIRE(ra.ok());
    REQUIRE(rb.ok());
    CHECK(tag(app, "compare_pinned_pick") == offer_id(ra->offers.at(0)));
    CHECK(tag(app, "compare_now_pick") == offer_id(rb->offers.at(0)));
    CHECK(tag(app, "compare_pinned_cost") == gpusizer::shell::format_value(*ra->offers.at(0).total_cost));
    CHECK(tag(app, "compare_changes").find("task:lora>qlora;") != std::string::npos);
    REQUIRE(ui.click(app, "compare_unpin"));
    CHECK_FALSE(app.pinned());
    ui.frames(app, 2);
    CHECK(app.link() == gpusizer::encode_link(app.scenario()));
    CHECK(app.tags().find("compare_now_memory") == nullptr);
}

TEST_CASE("a link with a pin opens the compare; one without closes it") {
    Headless ui(1.0f, ImVec2(1280, 900));
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    REQUIRE(app.open_link("#v=1&m=qwen2.5-7b&t=qlora&pin=1&pin.m=qwen2.5-7b&pin.t=lora"));
    ui.frames(app, 3);
    REQUIRE(app.pinned());
    CHECK(app.pinned()->task == gpusizer::Task::lora);
    CHECK(app.scenario().task == gpusizer::Task::qlora);
    CHECK(app.tags().find("compare_pinned_memory") != nullptr);
    REQUIRE(app.open_link("#v=1&m=qwen2.5-7b"));
    CHECK_FALSE(app.pinned());
}
