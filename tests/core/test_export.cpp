// Exports (export.hpp): CSV that reads back to the same numbers, RFC 4180 quoting, empty
// fields for missing values, the Markdown summary's contents and the combined JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gpusizer/export.hpp"
#include "gpusizer/link.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

using Rows = std::vector<std::vector<std::string>>;

// A small RFC 4180 reader: quoted fields with "" inside, CRLF or LF line ends.
Rows read_csv(const std::string& text) {
    Rows rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, in_field = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
            in_field = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            in_field = true;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            in_field = false;
        } else {
            field += c;
            in_field = true;
        }
    }
    if (in_field || !row.empty()) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

Estimate qlora_estimate() {
    Scenario s;
    s.model = "qwen3-8b";
    s.task = Task::qlora;
    s.weight_dtype = default_weight_dtype(Task::qlora);
    s.gpu = "rtx4090";
    Result<Estimate> e = estimate(gpusizer_test::built_in_catalog(), s);
    REQUIRE(e.ok());
    return *e;
}

Offer offer(const char* instance, std::optional<double> price) {
    Offer o;
    o.provider = "acme";
    o.instance = instance;
    o.region = "eu-west";
    o.gpu = "h100_sxm";
    o.gpu_count = 8;
    o.interconnect = "nvswitch";
    o.plan.tensor_parallel = 2;
    o.plan.data_parallel = 4;
    o.vcpus = 0;  // not listed
    o.ram_gib = 1024;
    o.currency = "USD";
    o.price_known = price.has_value();
    o.price_per_hour = price.value_or(0);
    o.usd_per_hour = o.price_per_hour;
    o.tokens_per_s = 1234.5;
    o.hours = 2.5;
    if (price) o.total_cost = *price * 2.5;
    o.memory_per_gpu_bytes = 40ull << 30;
    o.gpu_memory_bytes = 80ull << 30;
    o.checks = {{"memory_fit", true, true, "ok"}, {"host_ram", false, false, "not listed"},
                {"price_estimate", false, false, "estimate"}};
    return o;
}

std::size_t column(const Rows& rows, const char* name) {
    for (std::size_t i = 0; i < rows[0].size(); ++i)
        if (rows[0][i] == name) return i;
    FAIL("no column " << name);
    return 0;
}

}  // namespace

TEST_CASE("export: csv_field quotes only what RFC 4180 needs") {
    CHECK(csv_field("p5.48xlarge") == "p5.48xlarge");
    CHECK(csv_field("a,b") == "\"a,b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("two\nlines") == "\"two\nlines\"");
    CHECK(csv_field("cr\r") == "\"cr\r\"");
    CHECK(csv_field("") == "");
}

TEST_CASE("export: estimate CSV reads back to the Estimate's bytes, and gib = bytes / 2^30") {
    const Estimate e = qlora_estimate();
    const std::string csv = estimate_to_csv(e);
    CHECK(csv.find("\r\n") != std::string::npos);
    const Rows rows = read_csv(csv);
    REQUIRE(rows.size() == 8);
    CHECK(rows[0] == std::vector<std::string>{"term", "bytes", "gib"});
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const std::pair<const char*, std::uint64_t> want[] = {
        {"weights", m.weights},         {"gradients", m.gradients}, {"optimizer", m.optimizer},
        {"activations", m.activations}, {"kv_cache", m.kv_cache},   {"overhead", m.overhead},
        {"total", m.total}};
    for (std::size_t i = 0; i < 7; ++i) {
        REQUIRE(rows[i + 1].size() == 3);
        CHECK(rows[i + 1][0] == want[i].first);
        CHECK(std::strtoull(rows[i + 1][1].c_str(), nullptr, 10) == want[i].second);
        const double gib = std::strtod(rows[i + 1][2].c_str(), nullptr);
        CHECK(std::fabs(gib - static_cast<double>(want[i].second) / 1073741824.0) <= 0.00005);  // 4 decimals
    }
    CHECK(m.total > 0);
    CHECK(m.weights + m.gradients + m.optimizer + m.activations + m.kv_cache + m.overhead == m.total);
}

TEST_CASE("export: recommendation CSV quotes a comma and a quote; a missing price is an empty field") {
    Recommendation r;
    r.offers = {offer("big, \"fast\" box", 98.32), offer("unpriced", std::nullopt)};
    for (std::size_t i = 0; i < r.offers.size(); ++i) r.offers[i].rank = i + 1;  // as recommend() numbers them
    r.offers[0].pareto = true;
    r.offers[0].cost_per_million_tokens = 0.5;
    const std::string csv = recommendation_to_csv(r);
    CHECK(csv.find("\"big, \"\"fast\"\" box\"") != std::string::npos);
    CHECK(csv.find("nan") == std::string::npos);
    const Rows rows = read_csv(csv);
    REQUIRE(rows.size() == 3);
    for (const auto& row : rows) CHECK(row.size() == rows[0].size());
    const auto inst = column(rows, "instance"), price = column(rows, "price_per_hour"),
               total = column(rows, "total_cost"), cpm = column(rows, "cost_per_million_tokens"),
               vcpus = column(rows, "vcpus"), ram = column(rows, "ram_gib"), failed = column(rows, "failed_checks");
    CHECK(rows[1][column(rows, "rank")] == "1");
    CHECK(rows[1][inst] == "big, \"fast\" box");
    CHECK(std::strtod(rows[1][price].c_str(), nullptr) == 98.32);  // reads back to the same double
    CHECK(std::strtod(rows[1][total].c_str(), nullptr) == 98.32 * 2.5);
    CHECK(rows[1][cpm] == "0.5");
    CHECK(rows[1][vcpus] == "");  // 0 = not listed
    CHECK(std::strtod(rows[1][ram].c_str(), nullptr) == 1024);
    CHECK(rows[1][failed] == "host_ram;price_estimate");
    CHECK(rows[1][column(rows, "pareto")] == "true");
    CHECK(rows[1][column(rows, "tensor_parallel")] == "2");
    CHECK(rows[1][column(rows, "memory_per_gpu_bytes")] == std::to_string(40ull << 30));
    CHECK(rows[2][inst] == "unpriced");
    CHECK(rows[2][price] == "");
    CHECK(rows[2][total] == "");
    CHECK(rows[2][cpm] == "");
    CHECK(rows[2][column(rows, "rank")] == "2");
}

TEST_CASE("export: recommendation CSV of no offers is the header alone") {
    const Rows rows = read_csv(recommendation_to_csv(Recommendation{}));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0] == "rank");
    CHECK(rows[0].back() == "failed_checks");
}

TEST_CASE("export: Markdown has the total as formatted, the link, the sentence, escaped pipes") {
    const Estimate e = qlora_estimate();
    Recommendation r;
    r.scenario = e.scenario;
    r.summary = "Rent one box.";
    r.summary_zh = "租一台。";
    r.offers = {offer("gpu|box", 2.0), offer("b", 1), offer("c", 1), offer("d", 1), offer("e", 1),
                offer("sixth-offer", 1)};
    for (std::size_t i = 0; i < r.offers.size(); ++i) r.offers[i].rank = i + 1;
    r.warnings.add_en("a warning");
    r.warnings.add_en("shared");
    Notes shared;
    shared.add_en("shared");
    Result<Estimate> re = Result<Estimate>::success(e, shared);
    const std::string md = results_to_markdown(e.scenario, gpusizer_test::built_in_catalog(), re, Result<Recommendation>::success(r));

    char total[32];
    std::snprintf(total, sizeof total, "%.2f", static_cast<double>(e.memory_per_gpu_bytes.total) / 1073741824.0);
    CHECK(md.find("| **total** | **" + std::string(total) + "** |") != std::string::npos);
    CHECK(md.find("`#" + encode_link(e.scenario) + "`") != std::string::npos);
    CHECK(md.find("Rent one box.") != std::string::npos);
    CHECK(md.find("gpu\\|box") != std::string::npos);
    CHECK(md.find("gpu|box") == std::string::npos);
    CHECK(md.find("| 1 | acme | gpu\\|box | 8× h100_sxm | 2.000 USD | 2.5 | 5.00 USD | host_ram, price_estimate |") !=
          std::string::npos);
    CHECK(md.find("| 5 | acme | e |") != std::string::npos);
    CHECK(md.find("sixth-offer") == std::string::npos);  // top 5 only
    CHECK(md.find("6 offers in all") != std::string::npos);
    CHECK(md.find("- a warning\n") != std::string::npos);
    CHECK(md.find("- shared\n") == md.rfind("- shared\n"));  // each warning once
    CHECK(md.find("Catalog " + gpusizer_test::built_in_catalog().version + ", prices as of " + gpusizer_test::built_in_catalog().prices_as_of) !=
          std::string::npos);
    CHECK(md.rfind("# gpusizer — Qwen3 8B (qwen3-8b), qlora, nf4", 0) == 0);

    MarkdownOptions zh;
    zh.chinese = true;
    zh.page_url = "https://example.org/gpusizer/";
    const std::string mdz = results_to_markdown(e.scenario, gpusizer_test::built_in_catalog(), re, Result<Recommendation>::success(r), zh);
    CHECK(mdz.find("租一台。") != std::string::npos);
    CHECK(mdz.find("Rent one box.") == std::string::npos);
    CHECK(mdz.find("| 项 | GiB | 计算方式 |") != std::string::npos);
    CHECK(mdz.find("<https://example.org/gpusizer/#" + encode_link(e.scenario) + ">") != std::string::npos);
}

TEST_CASE("export: Markdown leaves out what was not computed and names what failed") {
    const Estimate e = qlora_estimate();
    const std::string only_memory =
        results_to_markdown(e.scenario, gpusizer_test::built_in_catalog(), Result<Estimate>::success(e), Result<Recommendation>{});
    CHECK(only_memory.find("## Memory per GPU") != std::string::npos);
    CHECK(only_memory.find("## Recommendation") == std::string::npos);
    const std::string failed = results_to_markdown(
        e.scenario, gpusizer_test::built_in_catalog(), Result<Estimate>{},
        Result<Recommendation>::failure({"unknown_id", "model 'x' is not in the catalog", "model"}));
    CHECK(failed.find("## Memory per GPU") == std::string::npos);
    CHECK(failed.find("Recommendation failed: model: model 'x' is not in the catalog") != std::string::npos);
}

TEST_CASE("export: results_to_json embeds both exports, an error object, or null") {
    using nlohmann::json;
    const Estimate e = qlora_estimate();
    Recommendation r;
    r.summary = "s";
    const json both = json::parse(results_to_json(Result<Estimate>::success(e), Result<Recommendation>::success(r)),
                                  nullptr, false);
    REQUIRE(both.is_object());
    CHECK(both["estimate"] == json::parse(estimate_to_json(e), nullptr, false));
    CHECK(both["recommendation"] == json::parse(recommendation_to_json(r), nullptr, false));
    Notes w;
    w.add_en("w");
    const json some = json::parse(
        results_to_json(Result<Estimate>::failure({"bad_type", "m", "p"}, w), Result<Recommendation>{}), nullptr, false);
    REQUIRE(some.is_object());
    CHECK(some["estimate"] == json::parse(R"({"error":{"code":"bad_type","message":"m","path":"p"},"warnings":["w"]})"));
    CHECK(some["recommendation"].is_null());
}
