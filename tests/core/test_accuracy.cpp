// Accuracy against real runs, on two sets of published measurements (file listings, engine logs,
// profiler peaks, each with its source), each case through the same path as `gpusizer estimate`
// (parse_scenario_json, then estimate() with the shipped catalog):
//   tests/fixtures/measured_runs.json — the *tuning* set: the formulas were checked and adjusted
//       against it, so it shows how well they reproduce what they were fitted to (bound: median
//       |error| < 10%, none ≥ 25%).
//   tests/fixtures/holdout_runs.json — hold-out I, frozen on 2026-12-03 before the Memory model II
//       formula changes; its misses were then read and some mechanisms changed after (marked ‡ in
//       docs/memory-model.md §12), so it is no longer unseen.
//   tests/fixtures/holdout2_runs.json — hold-out II, collected and frozen (2026-12-03) by someone
//       who never ran the estimate, before the last formula changes were evaluated: runs the model
//       has not seen.
//   Hold-out II's bound is issue 12's "done when": median |error| < 10% and at least 80% of the
//   bounded cases within 35%. Hold-out I, already seen, is held to what it showed when hold-out II
//   was first evaluated (median 11.2%, 37 of 45 within 35%): a guard against regressions, not a
//   claim that it meets 10% (docs/memory-model.md §12 says why its misses miss).
//   A case is never dropped after its estimate is seen; in_bound was decided when it was
//   collected (false: the run depends on something no scenario key states; printed).
//
// Not duplicated here: the kind F/M cases of validation_public.json (test_validation.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/memory.hpp"
#include "gpusizer/scenario.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

// [SECTION] A tiny reader for the fixture (plain JSON, one case per object; tests keep
// nlohmann out of their own code, as test_validation.cpp does).

// Index just past the value that starts at `at` (object, array, string or scalar).
std::size_t skip_value(const std::string& t, std::size_t at) {
    if (t[at] == '"') {
        for (std::size_t i = at + 1; i < t.size(); ++i) {
            if (t[i] == '\\') ++i;
            else if (t[i] == '"') return i + 1;
        }
        return t.size();
    }
    if (t[at] == '{' || t[at] == '[') {
        int depth = 0;
        for (std::size_t i = at; i < t.size(); ++i) {
            if (t[i] == '"') {
                i = skip_value(t, i) - 1;
            } else if (t[i] == '{' || t[i] == '[') {
                ++depth;
            } else if (t[i] == '}' || t[i] == ']') {
                if (--depth == 0) return i + 1;
            }
        }
        return t.size();
    }
    std::size_t i = at;
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != '\n') ++i;
    return i;
}

// The raw text of `"key": value` among the top-level members of the object `obj`.
std::string member(const std::string& obj, const std::string& key) {
    std::size_t i = 1;
    while (i < obj.size()) {
        const std::size_t q = obj.find('"', i);
        if (q == std::string::npos) break;
        const std::size_t q_end = skip_value(obj, q);
        const std::string name = obj.substr(q + 1, q_end - q - 2);
        std::size_t v = obj.find(':', q_end) + 1;
        while (v < obj.size() && (obj[v] == ' ' || obj[v] == '\n')) ++v;
        const std::size_t v_end = skip_value(obj, v);
        if (name == key) return obj.substr(v, v_end - v);
        i = obj.find_first_of(",}", v_end);
        if (i == std::string::npos || obj[i] == '}') break;
        ++i;
    }
    return "";
}

std::string unquote(const std::string& s) { return s.size() >= 2 && s[0] == '"' ? s.substr(1, s.size() - 2) : s; }

struct Case {
    std::string id, kind, quantity, scenario_json;
    double measured = 0;
    bool in_bound = true;
};

std::vector<Case> load_cases(const char* path) {
    const std::string t = gpusizer_test::read_text(path);
    REQUIRE_MESSAGE(!t.empty(), path << " missing");
    const std::size_t arr = t.find('[', t.find("\"cases\""));
    REQUIRE(arr != std::string::npos);
    std::vector<Case> out;
    for (std::size_t i = t.find('{', arr); i != std::string::npos && i < t.size(); i = t.find('{', i)) {
        const std::size_t end = skip_value(t, i);
        const std::string obj = t.substr(i, end - i);
        Case c;
        c.id = unquote(member(obj, "id"));
        c.kind = unquote(member(obj, "kind"));
        c.quantity = unquote(member(obj, "quantity"));
        c.scenario_json = member(obj, "scenario");
        c.measured = std::strtod(member(obj, "measured").c_str(), nullptr);
        c.in_bound = member(obj, "in_bound") != "false";
        out.push_back(c);
        i = end;
    }
    return out;
}

const Catalog& shipped_catalog() {
    static const Catalog c = [] {
        Result<Catalog> r = parse_catalog(gpusizer_test::read_text("assets/catalog.json"));
        REQUIRE_MESSAGE(r.ok(), "assets/catalog.json: " << r.error.message);
        return *r;
    }();
    return c;
}

// The estimate of one case, as `gpusizer estimate --scenario <case.scenario>` computes it.
double estimated(const Case& c) {
    Result<Scenario> s = parse_scenario_json(c.scenario_json);
    REQUIRE_MESSAGE(s.ok(), c.id << ": scenario: " << s.error.message);
    Result<Estimate> e = estimate(shipped_catalog(), *s);
    REQUIRE_MESSAGE(e.ok(), c.id << ": estimate: " << e.error.message);
    const MemoryBreakdown& m = e->memory_per_gpu_bytes;
    if (c.quantity == "file" || c.quantity == "model_bytes")  // the checkpoint as stored (what a file listing shows)
        return static_cast<double>(e->model_bytes);
    if (c.quantity == "weights") return static_cast<double>(m.weights);
    if (c.quantity == "activations") return static_cast<double>(m.activations);
    if (c.quantity == "total") return static_cast<double>(m.total);
    if (c.quantity == "torch_peak_allocated") return static_cast<double>(m.torch_peak_allocated);
    if (c.quantity == "kv_cache") {
        // vLLM allocates its whole KV pool at start ("Available KV cache memory"). (Until 2026-12-03
        // this was capacity × bytes per token, which counts sliding-window layers twice for hybrid models.)
        if (s->engine == Engine::vllm) {
            REQUIRE_MESSAGE(e->kv_pool_bytes.has_value(), c.id << ": no kv_pool_bytes (no gpu?)");
            return static_cast<double>(*e->kv_pool_bytes);
        }
        return static_cast<double>(m.kv_cache);
    }
    if (c.quantity == "kv_capacity_tokens") {
        REQUIRE_MESSAGE(e->kv_capacity_tokens.has_value(), c.id << ": no kv_capacity_tokens (no gpu?)");
        return static_cast<double>(*e->kv_capacity_tokens);
    }
    if (c.quantity == "max_seq_len") {
        REQUIRE_MESSAGE(e->max_seq_len.has_value(), c.id << ": no max_seq_len (no gpu?)");
        return static_cast<double>(*e->max_seq_len);
    }
    // Vision and speech (issue 16): speed in the kind's units.
    if (c.quantity == "images_per_s" || c.quantity == "realtime_factor") {
        REQUIRE_MESSAGE(e->throughput.has_value(), c.id << ": no throughput (no gpu?)");
        const std::optional<double>& v = c.quantity == "images_per_s" ? e->throughput->images_per_s : e->throughput->realtime_factor;
        REQUIRE_MESSAGE(v.has_value(), c.id << ": no " << c.quantity);
        return *v;
    }
    FAIL(c.id << ": unknown quantity '" << c.quantity << "'");
    return 0;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct SetResult {
    double median = 0, worst = 0;
    std::size_t bounded = 0, within_tolerance = 0;
};

// Every case of one fixture: a Markdown table (printed) and the statistics of the bounded cases,
// over all of them and per kind.
SetResult evaluate(const char* path, double tolerance_pct) {
    const std::vector<Case> cases = load_cases(path);
    REQUIRE(cases.size() >= 15);
    std::vector<double> bounded;
    std::vector<std::pair<std::string, double>> by_kind;
    std::vector<std::string> kinds;
    std::string table = std::string("\n") + path +
                        "\n| case | kind | measured | estimated | error | bounded |\n|---|---|---|---|---|---|\n";
    for (const Case& c : cases) {
        CAPTURE(c.id);
        REQUIRE(c.measured > 0);
        const double est = estimated(c);
        const double err = 100.0 * (est - c.measured) / c.measured;
        char row[320];
        std::snprintf(row, sizeof row, "| %s | %s | %.6g | %.6g | %+.1f%% | %s |\n", c.id.c_str(), c.kind.c_str(),
                      c.measured, est, err, c.in_bound ? "yes" : "no (see notes)");
        table += row;
        if (!c.in_bound) continue;
        bounded.push_back(std::fabs(err));
        by_kind.emplace_back(c.kind, std::fabs(err));
        if (std::find(kinds.begin(), kinds.end(), c.kind) == kinds.end()) kinds.push_back(c.kind);
    }
    REQUIRE(!bounded.empty());
    SetResult r;
    r.median = median(bounded);
    r.worst = *std::max_element(bounded.begin(), bounded.end());
    r.bounded = bounded.size();
    for (double e : bounded) r.within_tolerance += e < tolerance_pct;
    char summary[200];
    std::snprintf(summary, sizeof summary,
                  "bounded cases: %zu of %zu; median |error| %.2f%%, max %.2f%%, %zu within %.0f%%\n", r.bounded,
                  cases.size(), r.median, r.worst, r.within_tolerance, tolerance_pct);
    table += summary;
    for (const std::string& kind : kinds) {
        std::vector<double> k;
        for (const auto& p : by_kind)
            if (p.first == kind) k.push_back(p.second);
        std::snprintf(summary, sizeof summary, "  %s: %zu cases, median %.2f%%, max %.2f%%\n", kind.c_str(), k.size(),
                      median(k), *std::max_element(k.begin(), k.end()));
        table += summary;
    }
    MESSAGE(table);
    return r;
}

}  // namespace

TEST_CASE("test_accuracy: the tuning set (measured_runs.json)") {
    const SetResult r = evaluate("tests/fixtures/measured_runs.json", 25.0);
    CHECK(r.median < 10.0);
    CHECK(r.worst < 25.0);
}

TEST_CASE("test_accuracy: hold-out I (holdout_runs.json), seen: no regression") {
    const SetResult r = evaluate("tests/fixtures/holdout_runs.json", 35.0);
    CHECK(r.median < 11.5);
    CHECK(r.within_tolerance >= 37);
}

TEST_CASE("test_accuracy: hold-out II (holdout2_runs.json), runs the formulas have not seen") {
    const SetResult r = evaluate("tests/fixtures/holdout2_runs.json", 35.0);
    CHECK(r.median < 10.0);
    CHECK(double(r.within_tolerance) >= 0.8 * double(r.bounded));
}
