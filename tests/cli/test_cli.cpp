// The CLI in-process: exit codes, messages naming the key, JSON keys, link round trip.
#include <doctest/doctest.h>

#include "cli.hpp"
#include "gpusizer/link.hpp"
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
    CHECK(poor.err.find("over the budget") != std::string::npos);
    Io bad;
    CHECK(cli_run({"recommend", "--top", "0"}, bad) == 2);
    CHECK(bad.err == "gpusizer: --top: expected a whole number in [1, 100000], got '0'\n");
}
