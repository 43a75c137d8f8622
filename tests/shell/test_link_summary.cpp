// The shell tells its host the share link and a text summary when — and only when — the
// scenario changes, and opens links leniently.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "format.hpp"
#include "gpusizer/link.hpp"
#include "headless.hpp"

using gpusizer::shell::App;

namespace {

struct RecordingHost final : gpusizer::shell::Host {
    std::vector<std::string> links, summaries;
    void set_link(std::string_view f) override { links.emplace_back(f); }
    void set_summary(std::string_view t) override { summaries.emplace_back(t); }
};

void run_frames(App& app, RecordingHost& host, int n) {
    for (int i = 0; i < n; ++i) {
        ImGui::NewFrame();
        app.frame(host);
        ImGui::Render();
    }
}

}  // namespace

TEST_CASE("the host gets the link and summary once per scenario change") {
    gpusizer_test::Headless ui;
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    RecordingHost host;
    run_frames(app, host, 5);
    REQUIRE(host.links.size() == 1);
    CHECK(host.links[0] == gpusizer::encode_link(app.scenario()));
    REQUIRE(host.summaries.size() == 1);
    const std::uint64_t total = app.estimate_result()->memory_per_gpu_bytes.total;
    CHECK(host.summaries[0].find(gpusizer::format_gib(total) + " per GPU") != std::string::npos);
    REQUIRE(app.results().recommendation.ok());
    CHECK(host.summaries[0].find(app.results().recommendation->summary) != std::string::npos);

    gpusizer::Scenario s = app.scenario();
    s.weight_dtype = gpusizer::WeightDtype::nf4;
    app.set_scenario(s);
    run_frames(app, host, 5);
    REQUIRE(host.links.size() == 2);
    CHECK(host.links[1] == gpusizer::encode_link(s));
    CHECK(host.links[1].find("nf4") != std::string::npos);
}

TEST_CASE("open_link: a good link sets the scenario; a bad value warns and keeps the default") {
    App app;
    CHECK(app.open_link("https://example.org/gpusizer/#v=1&m=qwen3-8b&w=int8"));
    CHECK(app.scenario().model == "qwen3-8b");
    CHECK(app.scenario().weight_dtype == gpusizer::WeightDtype::int8);
    CHECK(app.link_warnings().empty());

    CHECK(app.open_link("#v=1&m=qwen3-8b&w=int7"));
    CHECK(app.scenario().weight_dtype == gpusizer::WeightDtype::bf16);
    CHECK_FALSE(app.link_warnings().empty());
}

TEST_CASE("open_link: what the link could not use is listed in the top bar, in Chinese once the language is") {
    gpusizer_test::Headless ui;
    App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    CHECK(app.open_link("#v=1&m=qwen3-8b&zz=1"));
    ui.frames(app, 2);
    REQUIRE(app.tags().find("link_warning") != nullptr);
    CHECK(app.tags().find("link_warning")->text == "link: unknown key 'zz' ignored");
    REQUIRE(ui.click(app, "language_toggle"));
    REQUIRE(app.tags().find("link_warning") != nullptr);
    CHECK(app.tags().find("link_warning")->text == "链接:未知的键 'zz',已忽略");
}
