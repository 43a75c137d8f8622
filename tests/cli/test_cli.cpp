// The CLI in-process: exit codes, messages naming the key, JSON keys, link round trip.
#include <doctest/doctest.h>

#include "cli.hpp"
#include "gpusizer/export.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "support.hpp"

using gpusizer::cli::Io;

namespace {

int cli_run(std::vector<std::string> args, Io& io) { return gpusizer::cli::run(args, io); }

}  // namespace

TEST_CASE("cli: no arguments prints usage and exits 2; help exits 0") {
    Io io;
    CHECK(cli_run({}, io) == 2);
    CHECK(io.err.find("usage:") != std::string::npos);
    Io h;
    CHECK(cli_run({"help"}, h) == 0);
    CHECK(h.out.find("gpusizer estimate") != std::string::npos);
}

TEST_CASE("cli: bad input exits 2 with a message naming the key") {
    Io io;
    CHECK(cli_run({"estimate", "--batch_size", "0"}, io) == 2);
    CHECK(io.err == "gpusizer: batch_size: 0 is not a whole number in [1, 1000000]\n");
    Io u;
    CHECK(cli_run({"estimate", "--colour", "red"}, u) == 2);
    CHECK(u.err.find("unknown scenario key 'colour'") != std::string::npos);
    Io m;
    CHECK(cli_run({"estimate", "--model", "no-such-model", "--json"}, m) == 2);
    CHECK(m.err.find("model") != std::string::npos);
    Io f;
    CHECK(cli_run({"estimate", "--scenario", "/nonexistent/x.json"}, f) == 2);
    CHECK(f.err.find("cannot read '/nonexistent/x.json'") != std::string::npos);
    Io c;
    CHECK(cli_run({"frobnicate"}, c) == 2);
}

TEST_CASE("cli: estimate --json prints the spec's keys") {
    Io io;
    REQUIRE(cli_run({"estimate", "--model", "llama-3.1-8b", "--weight-dtype", "int8", "--json"}, io) == 0);
    for (const char* key : {"\"scenario\":", "\"warnings\":", "\"params\":", "\"memory_per_gpu_bytes\":",
                            "\"host_memory_bytes\":", "\"kv_bytes_per_token\":", "\"gpu\":",
                            "\"kv_capacity_tokens\":", "\"max_batch_size\":", "\"max_seq_len\":"})
        CHECK(io.out.find(key) != std::string::npos);
    CHECK(io.out.find("\"weight_dtype\":\"int8\"") != std::string::npos);
    CHECK(io.out.find("\"total\":8030261248") != std::string::npos);  // Llama-3.1-8B, exact
}

TEST_CASE("cli: --scenario - reads stdin; flags override it") {
    Io io;
    io.stdin_text = R"({"model":"qwen3-8b","batch_size":4})";
    REQUIRE(cli_run({"link", "--scenario", "-", "--seq_len", "4096"}, io) == 0);
    CHECK(io.out == "#v=1&m=qwen3-8b&b=4&s=4096\n");
}

TEST_CASE("cli: --link gives the same scenario as the flags") {
    Io a, b;
    REQUIRE(cli_run({"estimate", "--link", "https://x.example/#v=1&m=qwen3-8b&t=qlora&s=4096", "--json"}, a) == 0);
    REQUIRE(cli_run({"estimate", "--model", "qwen3-8b", "--task", "qlora", "--seq_len", "4096", "--json"}, b) == 0);
    CHECK(a.out == b.out);
    Io bad;
    CHECK(cli_run({"estimate", "--link", "not a link"}, bad) == 2);
}

TEST_CASE("cli: --hf_config reads a config.json file") {
    Io io;
    const std::string path = gpusizer_test::source_path("tests/fixtures/hf_configs/llama-2-7b.json");
    REQUIRE(cli_run({"estimate", "--hf_config", path, "--json"}, io) == 0);
    CHECK(io.out.find("\"total\":6738415616") != std::string::npos);  // Llama-2-7B, exact
}

TEST_CASE("cli: a GPU that is too small exits 1") {
    Io io;
    CHECK(cli_run({"estimate", "--model", "llama-3.1-70b", "--gpu_memory_gib", "24"}, io) == 1);
    CHECK(io.out.find("does NOT fit") != std::string::npos);
}

TEST_CASE("cli: recommend ranks offers, and a budget that is too small exits 1 with the reason") {
    Io ok;
    REQUIRE(cli_run({"recommend", "--model", "qwen3-8b", "--task", "lora", "--train_tokens", "1e8", "--top", "3", "--json"},
                    ok) == 0);
    CHECK(ok.out.find("\"offers\":[{\"provider\":") != std::string::npos);
    CHECK(ok.out.find("\"summary\":\"For LoRA on ") != std::string::npos);
    Io poor;
    CHECK(cli_run({"recommend", "--model", "llama-3.1-70b", "--task", "full_ft", "--train_tokens", "1e10", "--budget", "1"},
                  poor) == 1);
    CHECK(poor.err.find("the scenario cannot be met") != std::string::npos);
    CHECK(poor.err.find("the cheapest plan costs $") != std::string::npos);  // the best figure and the miss
    CHECK(poor.err.find("over your $1.00 budget") != std::string::npos);
    Io bad;
    CHECK(cli_run({"recommend", "--top", "0"}, bad) == 2);
    CHECK(bad.err == "gpusizer: --top: expected a whole number in [1, 100000], got '0'\n");
}

TEST_CASE("cli: --format csv|markdown|json prints core's exports; --json is --format json") {
    using namespace gpusizer;
    const std::vector<std::string> scenario = {"--model", "qwen3-8b", "--task", "qlora", "--gpu", "rtx4090"};
    auto with = [&](std::string command, std::vector<std::string> extra) {
        std::vector<std::string> a = {std::move(command)};
        a.insert(a.end(), scenario.begin(), scenario.end());
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    Io io;
    std::vector<std::string> none;
    auto catalog = cli::load_catalog(none, io);
    REQUIRE(catalog);
    Scenario s;
    s.model = "qwen3-8b";
    s.task = Task::qlora;
    apply_dependent_defaults(s, GivenKeys{});  // nf4, spot allowed: what `--task qlora` resolves to
    s.gpu = "rtx4090";
    Result<Estimate> e = estimate(*catalog, s);
    REQUIRE(e.ok());

    Io csv;
    REQUIRE(cli_run(with("estimate", {"--format", "csv"}), csv) == 0);
    CHECK(csv.out == estimate_to_csv(*e));
    CHECK(csv.out.rfind("term,bytes,gib\r\nweights,", 0) == 0);

    Io md;
    REQUIRE(cli_run(with("estimate", {"--format", "markdown"}), md) == 0);
    CHECK(md.out.find("## Memory per GPU") != std::string::npos);
    CHECK(md.out.find("`#" + encode_link(s) + "`") != std::string::npos);
    CHECK(md.out.find("## Recommendation") == std::string::npos);  // estimate computes no offers

    Io j1, j2;
    REQUIRE(cli_run(with("estimate", {"--format", "json"}), j1) == 0);
    REQUIRE(cli_run(with("estimate", {"--json"}), j2) == 0);
    CHECK(j1.out == estimate_to_json(*e) + "\n");
    CHECK(j1.out == j2.out);

    s.train_tokens = 1e8;
    Result<Recommendation> r = recommend(*catalog, s, 3);
    REQUIRE(r.ok());
    Io rc;
    REQUIRE(cli_run(with("recommend", {"--train_tokens", "1e8", "--top", "3", "--format", "csv"}), rc) == 0);
    CHECK(rc.out == recommendation_to_csv(*r));
    Io rm;
    REQUIRE(cli_run(with("recommend", {"--train_tokens", "1e8", "--top", "3", "--format", "markdown"}), rm) == 0);
    CHECK(rm.out.find(r->summary) != std::string::npos);
    CHECK(rm.out.find("## Memory per GPU") != std::string::npos);  // recommend's summary carries the memory table
}

TEST_CASE("cli: a bad --format exits 2 naming the value and the choices") {
    Io io;
    CHECK(cli_run({"estimate", "--model", "qwen3-8b", "--format", "xml"}, io) == 2);
    CHECK(io.err == "gpusizer: --format: unknown format 'xml' (choices: text, json, csv, markdown)\n");
    CHECK(io.out.empty());
    Io r;
    CHECK(cli_run({"recommend", "--format", "CSV"}, r) == 2);
    CHECK(r.err.find("'CSV'") != std::string::npos);
    Io missing;
    CHECK(cli_run({"estimate", "--format"}, missing) == 2);
    CHECK(missing.err.find("--format needs a value") != std::string::npos);
    Io both;
    CHECK(cli_run({"estimate", "--json", "--format", "csv"}, both) == 2);
    Io same;
    CHECK(cli_run({"estimate", "--json", "--format", "json"}, same) == 0);
}

TEST_CASE("cli: exit codes hold in every format") {
    for (const char* f : {"text", "json", "csv", "markdown"}) {
        Io io;
        CHECK(cli_run({"estimate", "--model", "llama-3.1-70b", "--gpu_memory_gib", "24", "--format", f}, io) == 1);
    }
}
