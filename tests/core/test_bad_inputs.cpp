// The bad-input table: what every untrusted input path (scenario JSON, share link, pasted
// config.json, catalog file, CLI flags) answers to broken, hostile and absurd input.
// Each row gives the input and the exact error (code, JSON path, message) or the exact
// warning; a link row also checks that the rest of the link still opens. docs/limits.md lists
// the limits these rows probe.
//
// Rows whose answer was wrong when the table was written are the cases at the end: "fixed
// after this table" (now plain tests) and "wanted" (still marked doctest::may_fail(): they
// state the message we want, report as failures in the output and do not fail the run; when
// the owning code is fixed they pass, and the may_fail comes off).
//
// Index
// [SECTION] Helpers
// [SECTION] Scenario JSON
// [SECTION] Share links
// [SECTION] Pasted config.json
// [SECTION] Catalog files
// [SECTION] CLI flags and files
// [SECTION] Absurd but legal: computes, finite, non-negative
// [SECTION] Fixed after this table, and wanted (known wrong today; may_fail)
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_limits.hpp"

using namespace gpusizer;

namespace {

// [SECTION] Helpers

std::string repeat(const std::string& s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}
std::string nested(std::size_t depth) { return repeat("[", depth) + repeat("]", depth); }
// A 10 MiB paste: one JSON object whose only string is huge.
std::string ten_mib_object() { return "{\"notes\":\"" + std::string(10u << 20, 'x') + "\"}"; }

bool valid_utf8(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
        if (n == 9 || i + n >= s.size() + (n == 0 ? 1 : 0)) return false;
        for (std::size_t k = 1; k <= n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += n + 1;
    }
    return true;
}

const Catalog& builtin_catalog() {
    static const Catalog c = [] {
        Result<Catalog> r = parse_catalog(embedded_catalog_json());
        REQUIRE_MESSAGE(r.ok(), format_error(r.error));
        return *r;
    }();
    return c;
}

// Every number in a printed result is finite and >= 0 (nlohmann prints NaN and inf as null,
// so the structs are checked too, below).
void check_numbers(const nlohmann::json& j, const std::string& path) {
    if (j.is_number_float()) {
        CAPTURE(path);
        CHECK(std::isfinite(j.get<double>()));
        CHECK(j.get<double>() >= 0);
    } else if (j.is_number_integer() && !j.is_number_unsigned()) {
        CAPTURE(path);
        CHECK(j.get<std::int64_t>() >= 0);
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) check_numbers(*it, path + "." + it.key());
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) check_numbers(j[i], path + "[" + std::to_string(i) + "]");
    }
}

struct ErrorRow {
    const char* what;  // the issue's category
    std::string input;
    const char* code;
    const char* path;
    std::string message;  // exact; "" = only code and path are checked (see the wanted cases)
};

template <class T>
void check_error_row(const ErrorRow& row, const Result<T>& r) {
    CAPTURE(row.what);
    CAPTURE(row.input.substr(0, 120));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.code == row.code);
    CHECK(r.error.path == row.path);
    if (!row.message.empty()) CHECK(r.error.message == row.message);
}

}  // namespace

// [SECTION] Scenario JSON

TEST_CASE("bad inputs: scenario JSON errors name the key, the value and the allowed range") {
    const std::vector<ErrorRow> rows = {
        // truncated and not JSON at all
        {"truncated", R"({"batch_size":)", "bad_json", "", ""},
        {"truncated string", R"({"model":"qwen3)", "bad_json", "", ""},
        {"empty", "", "bad_json", "", ""},
        {"not an object", "[1]", "bad_type", "", "a scenario is a JSON object, got [1]"},
        {"not an object", R"("x")", "bad_type", "", R"(a scenario is a JSON object, got "x")"},
        // wrong types
        {"wrong type", R"({"batch_size":"8"})", "bad_type", "batch_size", R"(batch_size: expected a whole number, got "8")"},
        {"wrong type", R"({"dropout":1})", "bad_type", "dropout", "dropout: expected true or false, got 1"},
        {"wrong type", R"({"providers":"aws"})", "bad_type", "providers", R"(providers: expected a list of names, got "aws")"},
        {"wrong type", R"({"task":["lora"]})", "bad_type", "task", R"(task: expected a string, got ["lora"])"},
        {"wrong type", R"({"hf_config":"x"})", "bad_type", "hf_config", R"(hf_config: expected a config.json object, got "x")"},
        {"wrong type in list", R"({"providers":["aws",7]})", "bad_value", "providers[1]",
         "providers[1]: expected a name of letters, digits, '-', '_' or '.', got 7"},
        // NaN / Infinity are not JSON; a number too large for a double is refused by the JSON reader
        {"NaN", R"({"params_b":NaN})", "bad_json", "", ""},
        {"Infinity", R"({"params_b":Infinity})", "bad_json", "", ""},
        {"-Infinity", R"({"budget":-Infinity})", "bad_json", "", ""},
        {"1e400", R"({"seq_len":1e400})", "bad_json", "", ""},
        // negative and zero sizes
        {"zero", R"({"batch_size":0})", "out_of_range", "batch_size", "batch_size: 0 is not a whole number in [1, 1000000]"},
        {"negative", R"({"batch_size":-5})", "out_of_range", "batch_size", "batch_size: -5 is not a whole number in [1, 1000000]"},
        {"zero", R"({"params_b":0})", "out_of_range", "params_b", "params_b: 0 is outside (0, 10000]"},
        {"negative", R"({"params_b":-7})", "out_of_range", "params_b", "params_b: -7 is outside (0, 10000]"},
        {"zero", R"({"gpu_memory_gib":0})", "out_of_range", "gpu_memory_gib", "gpu_memory_gib: 0 is outside (0, 1000000]"},
        {"zero", R"({"lora_rank":0})", "out_of_range", "lora_rank", "lora_rank: 0 is not a whole number in [1, 65536]"},
        {"zero", R"({"num_gpus":0})", "out_of_range", "num_gpus", "num_gpus: 0 is not a whole number in [1, 1000000]"},
        {"negative", R"({"train_tokens":-1})", "out_of_range", "train_tokens", "train_tokens: -1 is outside (0, 1e+17]"},
        {"zero", R"({"budget":0})", "out_of_range", "budget", "budget: 0 is outside (0, 1e+12]"},
        {"zero", R"({"mfu":0})", "out_of_range", "mfu", "mfu: 0 is outside (0, 1]"},
        {"above 1", R"({"gpu_memory_utilization":1.5})", "out_of_range", "gpu_memory_utilization",
         "gpu_memory_utilization: 1.5 is outside (0, 1]"},
        {"fraction", R"({"batch_size":2048.5})", "out_of_range", "batch_size",
         "batch_size: 2048.5 is not a whole number in [1, 1000000]"},
        {"-0 tokens is 0, fine; -1 is not", R"({"output_tokens":-1})", "out_of_range", "output_tokens",
         "output_tokens: -1 is not a whole number in [0, 100000000]"},
        // 10^15 parameters, 10^9-token contexts
        {"1e15 parameters", R"({"params_b":1000000})", "out_of_range", "params_b", "params_b: 1000000 is outside (0, 10000]"},
        {"1e9-token context", R"({"seq_len":1000000000})", "out_of_range", "seq_len",
         "seq_len: 1000000000 is not a whole number in [1, 100000000]"},
        {"1e300-token context", R"({"seq_len":1e300})", "out_of_range", "seq_len",
         "seq_len: 1e+300 is not a whole number in [1, 100000000]"},
        {"prompt + output above the seq_len limit", R"({"prompt_tokens":60000000,"output_tokens":60000000})",
         "out_of_range", "prompt_tokens", "prompt_tokens + output_tokens = 120000000 is above the largest seq_len 100000000"},
        {"above int64", R"({"batch_size":18446744073709551616})", "out_of_range", "batch_size",
         "batch_size: 1.8446744073709552e+19 is not a whole number in [1, 1000000]"},
        // unknown enum values
        {"unknown enum", R"({"task":"finetune"})", "bad_value", "task",
         R"(task: unknown value "finetune"; allowed: inference, pretrain, full_ft, lora, qlora)"},
        {"unknown enum", R"({"kv_cache_dtype":"fp4"})", "bad_value", "kv_cache_dtype",
         R"(kv_cache_dtype: unknown value "fp4"; allowed: auto, fp16, bf16, fp8, q8_0, q4_0)"},
        {"unknown enum", R"({"currency":"EUR"})", "bad_value", "currency", R"(currency: unknown value "EUR"; allowed: USD, CNY)"},
        {"enum spelled in another case", R"({"engine":"vLLM"})", "bad_value", "engine",
         R"(engine: unknown value "vLLM"; allowed: hf, vllm, llama_cpp)"},
        // the revised contract's keys (2026-12-03)
        {"unknown framework", R"({"framework":"axolotl"})", "bad_value", "framework",
         R"(framework: unknown value "axolotl"; allowed: hf, torchtune, unsloth, deepspeed, megatron)"},
        {"unknown loss", R"({"loss_impl":"liger"})", "bad_value", "loss_impl",
         R"(loss_impl: unknown value "liger"; allowed: full, chunked, fused)"},
        {"unknown vLLM version", R"({"engine_version":"0.8.5"})", "bad_value", "engine_version",
         R"(engine_version: unknown value "0.8.5"; allowed: v1, v0)"},
        {"zero", R"({"max_num_seqs":0})", "out_of_range", "max_num_seqs", "max_num_seqs: 0 is not a whole number in [1, 1000000]"},
        {"fraction", R"({"max_num_batched_tokens":8192.5})", "out_of_range", "max_num_batched_tokens",
         "max_num_batched_tokens: 8192.5 is not a whole number in [1, 100000000]"},
        {"negative", R"({"gpu_layers":-1})", "out_of_range", "gpu_layers", "gpu_layers: -1 is not a whole number in [0, 1000000]"},
        {"wrong type", R"({"enforce_eager":"yes"})", "bad_type", "enforce_eager", R"(enforce_eager: expected true or false, got "yes")"},
        {"zero", R"({"target_tokens_per_s":0})", "out_of_range", "target_tokens_per_s",
         "target_tokens_per_s: 0 is outside (0, 1e+12]"},
        {"negative", R"({"max_tpot_ms":-5})", "out_of_range", "max_tpot_ms", "max_tpot_ms: -5 is outside (0, 1000000000]"},
        {"unknown rank", R"({"rank_by":"price"})", "bad_value", "rank_by", R"(rank_by: unknown value "price"; allowed: cost, hourly, time)"},
        {"unknown interconnect", R"({"interconnect":"pcie"})", "bad_value", "interconnect",
         R"(interconnect: unknown value "pcie"; allowed: any, nvlink)"},
        {"custom is a list", R"({"lora_targets":"custom"})", "bad_value", "lora_targets",
         R"(lora_targets: "custom" is written as a list of module names, e.g. ["q_proj","v_proj"])"},
        {"empty module list", R"({"lora_targets":[]})", "bad_value", "lora_targets",
         "lora_targets: an empty module list trains nothing; give at least one name"},
        // inconsistent keys
        {"num_gpus vs tp", R"({"num_gpus":6,"tensor_parallel":4})", "inconsistent", "num_gpus",
         "num_gpus: 6 is not a multiple of tensor_parallel × pipeline_parallel = 4"},
        // deeply nested, 10 MB pastes (both refused before nlohmann sees the text)
        {"65 levels", nested(65), "too_deep", "", "scenario JSON nests deeper than 64 levels"},
        {"100000 levels", nested(100000), "too_deep", "", "scenario JSON nests deeper than 64 levels"},
        {"10 MiB", ten_mib_object(), "too_large", "", "scenario is 10485772 bytes; the limit is 1048576"},
        {"1 MiB + 1", std::string(k_max_scenario_bytes + 1, ' '), "too_large", "", "scenario is 1048577 bytes; the limit is 1048576"},
        // invalid UTF-8 (the JSON reader refuses it) and control characters (valid JSON, bad id)
        {"invalid UTF-8", "{\"model\":\"\xff\xfe\"}", "bad_json", "", ""},
        {"overlong UTF-8", "{\"model\":\"\xc0\xaf\"}", "bad_json", "", ""},
        {"NUL in an id", R"({"gpu":"h100\u0000"})", "bad_value", "gpu",
         R"(gpu: expected an accelerator id such as "h100_sxm", got "h100\u0000")"},
        // markup and script URLs are just bad ids (quoted back as text, never interpreted)
        {"<script>", R"x({"model":"<script>alert(1)</script>"})x", "bad_value", "model",
         R"x(model: expected a model preset id such as "llama-3.1-8b", got "<script>alert(1)</script>")x"},
        {"javascript:", R"x({"gpu":"javascript:alert(1)"})x", "bad_value", "gpu",
         R"x(gpu: expected an accelerator id such as "h100_sxm", got "javascript:alert(1)")x"},
        {"long id", "{\"model\":\"" + std::string(129, 'a') + "\"}", "bad_value", "model",
         "model: expected a model preset id such as \"llama-3.1-8b\", got \"" + std::string(56, 'a') + "..."},
        // an hf_config inside a scenario: errors keep the key path
        {"hf_config field", R"({"hf_config":{"model_type":"llama","hidden_size":-1}})", "bad_type", "hf_config.hidden_size",
         "hf_config: hidden_size: expected an integer between 0 and 4294967295, got -1"},
        {"hf_config normalised field", R"({"hf_config":{"gpusizer_arch":1,"hidden_size":"big"}})", "bad_type",
         "hf_config.hidden_size", ""},
        {"hf_config nested too deep: prefixed once", "{\"hf_config\":{\"a\":" + nested(40) + "}}", "too_deep", "hf_config",
         "hf_config: nested deeper than 32 levels"},
    };
    for (const ErrorRow& row : rows) check_error_row(row, parse_scenario_json(row.input));
}

TEST_CASE("bad inputs: the long-id row quotes at most 60 characters of the value") {
    // (the table row above: the quoted value is cut to 57 characters + "...")
    Result<Scenario> r = parse_scenario_json("{\"model\":\"" + std::string(5000, 'a') + "\"}");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.message.size() < 140);
}

TEST_CASE("bad inputs: scenario JSON that is odd but acceptable") {
    SUBCASE("64 levels deep passes the depth check and fails as a non-object") {
        Result<Scenario> r = parse_scenario_json(nested(64));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.code == "bad_type");
    }
    SUBCASE("deep nesting inside an unknown key is only a warning") {
        Result<Scenario> r = parse_scenario_json("{\"x\":" + nested(60) + ",\"batch_size\":4}");
        REQUIRE(r.ok());
        CHECK(r->batch_size == 4);
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings.en()[0] == "unknown key 'x' ignored");
    }
    SUBCASE("brackets inside strings do not count as nesting") {
        Result<Scenario> r = parse_scenario_json("{\"x\":\"" + repeat("[{", 1000) + "\",\"batch_size\":4}");
        REQUIRE(r.ok());
        CHECK(r->batch_size == 4);
    }
    SUBCASE("duplicate keys: the last one counts (see the wanted case for the missing warning)") {
        Result<Scenario> r = parse_scenario_json(R"({"batch_size":1,"batch_size":2})");
        REQUIRE(r.ok());
        CHECK(r->batch_size == 2);
    }
    SUBCASE("2048.0 is a whole number") {
        Result<Scenario> r = parse_scenario_json(R"({"seq_len":2048.0})");
        REQUIRE(r.ok());
        CHECK(r->seq_len == 2048);
    }
    SUBCASE("valid non-ASCII text in an unknown key is kept out of the scenario") {
        Result<Scenario> r = parse_scenario_json(R"({"备注":"显存","task":"lora"})");
        REQUIRE(r.ok());
        CHECK(r->task == Task::lora);
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings.en()[0] == "unknown key '备注' ignored");
    }
}

// [SECTION] Share links

namespace {

struct LinkRow {
    const char* what;
    std::string bad;      // appended to the base link
    const char* warning;  // the exact warning it must give; nullptr = no warning
};

}  // namespace

TEST_CASE("bad inputs: a bad link value is dropped with a warning naming key and range; the rest opens") {
    // The base sets lora_rank and zero_stage: after every bad part they must still be there.
    const std::string base = "#v=1&r=8&z=2";
    const std::vector<LinkRow> rows = {
        {"zero", "&b=0", "link: batch_size: 0 is not a whole number in [1, 1000000]; ignored"},
        {"negative", "&b=-5", "link: batch_size: -5 is not a whole number in [1, 1000000]; ignored"},
        {"wrong type", "&b=abc", "link: batch_size: expected a whole number, got \"abc\"; ignored"},
        {"empty value", "&s=", "link: seq_len: expected a whole number, got \"\"; ignored"},
        {"fraction", "&n=1.5", "link: num_gpus: 1.5 is not a whole number in [1, 1000000]; ignored"},
        {"wrong type", "&do=maybe", "link: dropout: expected true or false, got \"maybe\"; ignored"},
        {"NaN", "&p=nan", "link: params_b: expected a number, got \"nan\"; ignored"},
        {"NaN upper case", "&p=NaN", "link: params_b: expected a number, got \"NaN\"; ignored"},
        {"Infinity", "&u=inf", "link: gpu_memory_utilization: expected a number, got \"inf\"; ignored"},
        {"Infinity spelled out", "&bud=Infinity", "link: budget: expected a number, got \"Infinity\"; ignored"},
        {"1e400", "&b=1e400", "link: batch_size: expected a whole number, got \"1e400\"; ignored"},
        {"hex float", "&p=0x10", "link: params_b: expected a number, got \"0x10\"; ignored"},
        {"1e15 parameters", "&p=1000000", "link: params_b: 1000000 is outside (0, 10000]; ignored"},
        {"zero parameters", "&p=0", "link: params_b: 0 is outside (0, 10000]; ignored"},
        {"1e9-token context", "&s=1000000000", "link: seq_len: 1000000000 is not a whole number in [1, 100000000]; ignored"},
        {"prompt + output too long", "&pt=99999999&ot=99999999",
         "link: prompt_tokens + output_tokens = 199999998 is above the largest seq_len 100000000; ignored"},
        {"unknown enum", "&t=finetune",
         "link: task: unknown value \"finetune\"; allowed: inference, pretrain, full_ft, lora, qlora; ignored"},
        {"unknown enum", "&w=int3",
         "link: weight_dtype: unknown value \"int3\"; allowed: fp32, bf16, fp16, fp8, int8, int4_gptq, int4_awq, nf4, "
         "gguf_q2_k, gguf_q3_k_m, gguf_q4_0, gguf_q4_k_m, gguf_q5_k_m, gguf_q6_k, gguf_q8_0; ignored"},
        {"empty module list", "&lt=", "link: lora_targets: an empty module list trains nothing; give at least one name; ignored"},
        {"inconsistent layout", "&n=6&tp=4",
         "link: num_gpus: 6 is not a multiple of tensor_parallel × pipeline_parallel = 4; ignored"},
        {"<script>", "&m=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
         "link: model: expected a model preset id such as \"llama-3.1-8b\", got \"<script>alert(1)</script>\"; ignored"},
        {"javascript:", "&g=javascript:alert(1)",
         "link: gpu: expected an accelerator id such as \"h100_sxm\", got \"javascript:alert(1)\"; ignored"},
        {"quote and markup in a list", "&pr=aws,%22%3E%3Cimg",
         "link: providers[1]: expected a name of letters, digits, '-', '_' or '.', got \"\\\"><img\"; ignored"},
        {"NUL byte", "&m=llama%00x", "link: model: expected a model preset id such as \"llama-3.1-8b\", got \"llama\\u0000x\"; ignored"},
        {"broken escape", "&b=4%", "link: 'b' has a broken %-escape; ignored"},
        {"broken escape", "&b=%G1", "link: 'b' has a broken %-escape; ignored"},
        {"unknown key", "&zz=1", "link: unknown key 'zz' ignored"},
        {"unknown model field", "&cfg.zz=1", "link: unknown model field 'zz' ignored"},
        {"empty pairs", "&&&", nullptr},
    };
    for (const LinkRow& row : rows) {
        CAPTURE(row.what);
        CAPTURE(row.bad);
        Result<Scenario> d = decode_link(base + row.bad);
        REQUIRE(d.ok());
        CHECK(d->lora_rank == 8);
        CHECK(d->zero_stage == 2);
        if (row.warning) {
            REQUIRE(d.warnings.size() == 1);
            CHECK(d.warnings.en()[0] == row.warning);
        } else {
            CHECK(d.warnings.empty());
        }
        // What the page writes back is always a plain, URL-safe link.
        for (char c : encode_link(*d)) CHECK(std::string("<>\"' :()").find(c) == std::string::npos);
    }
}

TEST_CASE("bad inputs: links that are not links, too long, or from another version") {
    const std::vector<ErrorRow> rows = {
        {"javascript: URL", "javascript:alert(1)", "not_a_link", "", "not a gpusizer link (expected '#v=1&…')"},
        {"markup", "<script>alert(1)</script>", "not_a_link", "", "not a gpusizer link (expected '#v=1&…')"},
        {"empty", "", "not_a_link", "", "not a gpusizer link (expected '#v=1&…')"},
        {"16 KiB + 1", "#v=1&m=" + std::string(k_max_link_bytes - 6, 'a'), "too_large", "",
         "link is 16385 bytes; the limit is 16384"},
        {"10 MiB", "#v=1&" + std::string(10u << 20, 'a'), "too_large", "", "link is 10485765 bytes; the limit is 16384"},
    };
    for (const ErrorRow& row : rows) check_error_row(row, decode_link(row.input));

    SUBCASE("a javascript: URL with a real fragment opens only the fragment") {
        Result<Scenario> d = decode_link("javascript:alert(1)#v=1&b=4");
        REQUIRE(d.ok());
        CHECK(d->batch_size == 4);
        CHECK(d.warnings.empty());
    }
    SUBCASE("an unknown version is read as version 1, with a warning") {
        Result<Scenario> d = decode_link("#v=9&b=4");
        REQUIRE(d.ok());
        CHECK(d->batch_size == 4);
        REQUIRE(d.warnings.size() == 1);
        CHECK(d.warnings.en()[0] == "link: version 9 is newer or unknown; reading it as version 1");
    }
    SUBCASE("duplicate keys: the last one counts (see the wanted case for the missing warning)") {
        Result<Scenario> d = decode_link("#v=1&b=2&b=3");
        REQUIRE(d.ok());
        CHECK(d->batch_size == 3);
    }
    SUBCASE("a bad model field is dropped, the other fields stay") {
        Result<Scenario> d = decode_link("#v=1&cfg.mt=llama&cfg.h=abc&cfg.L=2");
        REQUIRE(d.ok());
        CHECK(d->source == ModelSource::hf_config);
        CHECK(d->hf_config.model_type == "llama");
        CHECK(d->hf_config.num_layers == 2);
        CHECK(d->hf_config.hidden_size == 0);
        REQUIRE(d.warnings.size() == 1);
        CHECK(d.warnings.en()[0].find("hidden_size") != std::string::npos);
    }
    SUBCASE("a link of exactly 16 KiB is still decoded") {
        const std::string l = "#v=1&b=4&zz=" + std::string(k_max_link_bytes - 12, 'a');
        REQUIRE(l.size() == k_max_link_bytes);
        Result<Scenario> d = decode_link(l);
        REQUIRE(d.ok());
        CHECK(d->batch_size == 4);
    }
}

// [SECTION] Pasted config.json

TEST_CASE("bad inputs: a pasted config.json names the key and the allowed range") {
    const std::string ok_keys = R"("num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008)";
    const std::vector<ErrorRow> rows = {
        {"not an object", "[]", "bad_json", "", "hf_config: not a JSON object"},
        {"truncated", R"({"model_type":"llama","hidden_size":)", "bad_json", "", ""},
        {"NaN", R"({"model_type":"llama","hidden_size":NaN})", "bad_json", "", ""},
        {"invalid UTF-8", "{\"model_type\":\"\xff\"}", "bad_json", "", ""},
        {"wrong type", R"({"model_type":5})", "bad_type", "model_type", "model_type: expected a string, got 5"},
        {"wrong type", R"({"model_type":"llama","hidden_size":"4096",)" + ok_keys + "}", "bad_type", "hidden_size",
         R"(hidden_size: expected an integer between 0 and 4294967295, got "4096")"},
        {"wrong type", R"({"model_type":"llama","hidden_size":4096,"tie_word_embeddings":"yes",)" + ok_keys + "}",
         "bad_type", "tie_word_embeddings", R"(tie_word_embeddings: expected true or false, got "yes")"},
        {"negative", R"({"model_type":"llama","hidden_size":-1,)" + ok_keys + "}", "bad_type", "hidden_size",
         "hidden_size: expected an integer between 0 and 4294967295, got -1"},
        {"zero", R"({"model_type":"llama","hidden_size":0,)" + ok_keys + "}", "missing_key", "hidden_size",
         "hidden_size: required, must be > 0"},
        {"missing", R"({"model_type":"llama"})", "missing_key", "hidden_size", "hidden_size: required, must be > 0"},
        {"1e15 wide", R"({"model_type":"llama","hidden_size":1e15,)" + ok_keys + "}", "bad_type", "hidden_size",
         "hidden_size: expected an integer between 0 and 4294967295, got 1e+15"},
        {"fractional", R"({"model_type":"llama","hidden_size":4096.5,)" + ok_keys + "}", "bad_type", "hidden_size",
         "hidden_size: expected an integer between 0 and 4294967295, got 4096.5"},
        {"heads do not divide", R"({"model_type":"llama","hidden_size":4096,"num_key_value_heads":64,)" + ok_keys + "}",
         "out_of_range", "num_key_value_heads", "num_key_value_heads: 64 must divide num_attention_heads (32)"},
        {"more experts per token than experts",
         R"({"model_type":"mixtral","hidden_size":4096,"num_local_experts":8,"num_experts_per_tok":9,)" + ok_keys + "}",
         "out_of_range", "num_experts_per_tok", ""},
        {"10 MiB", ten_mib_object(), "too_large", "", ""},
        {"text_config field", R"({"model_type":"gemma3","text_config":{"hidden_size":"x"}})", "bad_type",
         "text_config.hidden_size", R"(text_config.hidden_size: expected an integer between 0 and 4294967295, got "x")"},
    };
    for (const ErrorRow& row : rows) check_error_row(row, parse_hf_config(row.input));

    SUBCASE("deep nesting is refused before parsing") {
        Result<ModelArch> a = parse_hf_config("{\"a\":" + nested(100000) + "}");
        REQUIRE_FALSE(a.ok());
        CHECK(a.error.message.find("nested deeper than 32 levels") != std::string::npos);
    }
    SUBCASE("an unknown family is read as a generic decoder, with a warning") {
        Result<ModelArch> a = parse_hf_config(R"({"model_type":"<script>","hidden_size":4096,)" + ok_keys + "}");
        REQUIRE(a.ok());
        CHECK(a->model_type == "<script>");
        CHECK_FALSE(a.warnings.empty());
    }
}

// [SECTION] Catalog files

TEST_CASE("bad inputs: a catalog file that is too big, too deep or not JSON is refused before parsing") {
    const std::vector<ErrorRow> rows = {
        {"deep", "{\"accelerators\":" + nested(100000) + "}", "too_deep", "", "catalog nests deeper than 32 levels"},
        {"9 MiB", "{\"notes\":\"" + std::string(9u << 20, 'x') + "\"}", "too_large", "",
         "catalog is 9437196 bytes; the limit is 8388608 (8 MiB)"},
    };
    for (const ErrorRow& row : rows) {
        check_error_row(row, parse_catalog(row.input));
        check_error_row(row, merge_catalog(builtin_catalog(), row.input));
    }
    SUBCASE("not JSON, NaN, truncated, invalid UTF-8: an error, never a crash") {
        for (const std::string& t : {std::string("{\"accelerators\":["), std::string("{\"x\":NaN}"), std::string(""),
                                     std::string("{\"version\":\"\xff\"}")}) {
            CAPTURE(t);
            CHECK_FALSE(parse_catalog(t).ok());
            CHECK_FALSE(merge_catalog(builtin_catalog(), t).ok());
        }
    }
}

// [SECTION] CLI flags and files

namespace {

struct CliRow {
    const char* what;
    std::vector<std::string> args;
    int exit_code;
    std::string err;  // exact stderr
};

}  // namespace

TEST_CASE("bad inputs: CLI flags exit 2 with one line naming the key and the range") {
    const std::vector<CliRow> rows = {
        {"missing value", {"estimate", "--batch_size"}, 2, "gpusizer: --batch_size needs a value\n"},
        {"zero", {"estimate", "--batch-size", "0"}, 2, "gpusizer: batch_size: 0 is not a whole number in [1, 1000000]\n"},
        {"wrong type", {"estimate", "--seq_len", "long"}, 2, "gpusizer: seq_len: expected a whole number, got \"long\"\n"},
        {"unknown key", {"estimate", "--bogus", "1"}, 2, "gpusizer: unknown scenario key 'bogus'\n"},
        {"unknown enum", {"estimate", "--task", "finetune"}, 2,
         "gpusizer: task: unknown value \"finetune\"; allowed: inference, pretrain, full_ft, lora, qlora\n"},
        {"1e15 parameters", {"estimate", "--params_b", "1e6"}, 2, "gpusizer: params_b: 1000000 is outside (0, 10000]\n"},
        {"NaN", {"estimate", "--params_b", "nan"}, 2, "gpusizer: params_b: expected a number, got \"nan\"\n"},
        {"1e9-token context", {"estimate", "--seq_len", "1000000000"}, 2,
         "gpusizer: seq_len: 1000000000 is not a whole number in [1, 100000000]\n"},
        {"javascript: link", {"estimate", "--link", "javascript:alert(1)"}, 2,
         "gpusizer: --link: not a gpusizer link (expected '#v=1&…')\n"},
        {"unreadable file", {"estimate", "--scenario", "/nonexistent/gpusizer.json"}, 2,
         "gpusizer: --scenario: cannot read '/nonexistent/gpusizer.json'\n"},
        {"truncated inline config", {"estimate", "--hf_config", "{\"model_type\":"}, 2,
         "gpusizer: hf_config: not valid JSON: syntax error at byte 15 (the text ends too early)\n"},
        {"stray argument", {"estimate", "qwen3-8b"}, 2, ""},  // usage follows; checked by prefix below
    };
    for (const CliRow& row : rows) {
        CAPTURE(row.what);
        gpusizer::cli::Io io;
        CHECK(gpusizer::cli::run(row.args, io) == row.exit_code);
        if (!row.err.empty())
            CHECK(io.err == row.err);
        else
            CHECK(io.err.rfind("gpusizer: unexpected argument 'qwen3-8b'\nusage:", 0) == 0);
        CHECK(io.out.empty());
    }
    SUBCASE("a 10 MiB scenario on stdin is refused with the limit") {
        const std::string big = ten_mib_object();
        gpusizer::cli::Io io;
        io.stdin_text = big;
        CHECK(gpusizer::cli::run({"estimate", "--scenario", "-"}, io) == 2);
        CHECK(io.err == "gpusizer: scenario is 10485772 bytes; the limit is 1048576\n");
    }
    SUBCASE("a deeply nested scenario on stdin is refused with the limit") {
        const std::string deep = nested(100000);
        gpusizer::cli::Io io;
        io.stdin_text = deep;
        CHECK(gpusizer::cli::run({"estimate", "--scenario", "-"}, io) == 2);
        CHECK(io.err == "gpusizer: scenario JSON nests deeper than 64 levels\n");
    }
}

// [SECTION] Absurd but legal: computes, finite, non-negative

TEST_CASE("bad inputs: absurd but legal scenarios compute, and every number stays finite and non-negative") {
    const std::vector<std::string> scenarios = {
        R"({"params_b":9999})",
        R"({"params_b":9999,"task":"pretrain","batch_size":1000000,"seq_len":100000000,"gpu":"h100_sxm","train_tokens":1e17})",
        R"({"model":"llama-3.1-8b","seq_len":10000000,"batch_size":1000000,"gpu":"h100_sxm"})",
        R"({"model":"deepseek-v3","task":"full_ft","seq_len":100000000,"batch_size":1000000,"num_gpus":1000000,"zero_stage":3})",
        R"({"params_b":0.000001,"gpu_memory_gib":0.000001})",
        R"({"model":"qwen3-8b","engine":"vllm","prompt_tokens":50000000,"output_tokens":50000000,"batch_size":1000000,"gpu_memory_gib":1000000})",
        R"({"hf_config":{"model_type":"llama","hidden_size":4294967295,"num_hidden_layers":4294967295,"num_attention_heads":1,"vocab_size":4294967295,"intermediate_size":4294967295},"task":"pretrain","batch_size":1000000,"seq_len":100000000})",
    };
    for (const std::string& text : scenarios) {
        CAPTURE(text);
        Result<Scenario> s = parse_scenario_json(text);
        REQUIRE_MESSAGE(s.ok(), format_error(s.error));
        Result<Estimate> e = estimate(builtin_catalog(), *s);
        REQUIRE_MESSAGE(e.ok(), format_error(e.error));
        const MemoryBreakdown& m = e->memory_per_gpu_bytes;
        for (std::uint64_t part : {m.weights, m.gradients, m.optimizer, m.activations, m.kv_cache, m.overhead})
            CHECK(m.total >= part);  // a wrapped 64-bit sum would be smaller than a part
        if (e->throughput) {
            CHECK(std::isfinite(e->throughput->tokens_per_s));
            CHECK(std::isfinite(e->throughput->prefill_tokens_per_s));
            CHECK(std::isfinite(e->throughput->decode_tokens_per_s_per_seq));
        }
        if (e->time) {
            CHECK(std::isfinite(e->time->hours));
            CHECK(std::isfinite(e->time->gpu_hours));
        }
        // A number saturated at 2^63 - 1 (memory.hpp k_u64_cap) is a visible warning.
        constexpr std::uint64_t cap = 9223372036854775807ULL;
        bool saturated = e->params.total == cap || e->params.active == cap || e->params.trainable == cap ||
                         e->params.embedding == cap || e->host_memory_bytes == cap;
        for (std::uint64_t part : {m.weights, m.gradients, m.optimizer, m.activations, m.kv_cache, m.overhead, m.total})
            saturated = saturated || part == cap;
        bool warned = false;
        for (const auto& w : e->warnings.en()) warned = warned || w.find("clamped") != std::string::npos;
        CHECK(saturated == warned);
        const nlohmann::json j = nlohmann::json::parse(estimate_to_json(*e), nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        check_numbers(j, "estimate");
    }
}

// [SECTION] Fixed after this table, and wanted (known wrong today; may_fail). Each names the owner's file and the fix.

TEST_CASE("bad inputs (fixed after this table): duplicate scenario keys give a warning naming the key") {
    // scenario.cpp (parse_scenario_json): nlohmann keeps the last value silently.
    Result<Scenario> r = parse_scenario_json(R"({"batch_size":1,"batch_size":2})");
    CHECK(r.ok());
    CHECK(r.warnings.size() == 1);
    if (!r.warnings.empty()) CHECK(r.warnings.en()[0] == "duplicate key 'batch_size': the last value (2) is used");
}

TEST_CASE("bad inputs (fixed after this table): duplicate link keys give a warning naming the key") {
    // link.cpp (decode_link): obj[lk] = … overwrites silently.
    Result<Scenario> d = decode_link("#v=1&b=2&b=3");
    CHECK(d.ok());
    CHECK(d.warnings.size() == 1);
    if (!d.warnings.empty()) CHECK(d.warnings.en()[0] == "link: b is given twice; the last value (3) is used");
}

TEST_CASE("bad inputs (fixed after this table): invalid JSON says where (byte offset)") {
    // scenario.cpp: "scenario is not valid JSON" names no place; nlohmann's sax_parse reports
    // the byte position without exceptions.
    Result<Scenario> r = parse_scenario_json(R"({"params_b":NaN})");
    CHECK_FALSE(r.ok());
    CHECK(r.error.message == "scenario is not valid JSON: syntax error at byte 13 (NaN and Infinity are not JSON numbers)");
}

TEST_CASE("bad inputs (fixed after this table): link warnings are valid UTF-8 (K2: estimate --json aborts on them)") {
    // link.cpp: unknown keys, versions and model fields are echoed raw; estimate_to_json's
    // dump() then aborts (-fno-exceptions): `gpusizer estimate --link '#v=1&%FF=1' --json` exits 134.
    Result<Scenario> d = decode_link("#v=1&%FF=1&v=%FE&cfg.%FD=1");
    CHECK(d.ok());
    for (const auto& w : d.warnings.en()) {
        CAPTURE(w);
        CHECK(valid_utf8(w));
    }
    if (!d.warnings.empty()) CHECK(d.warnings.en()[0] == "link: unknown key '%FF' ignored");
    // The CLI path that used to abort: prints valid JSON carrying the warning, exit 0.
    gpusizer::cli::Io io;
    CHECK(gpusizer::cli::run({"estimate", "--link", "#v=1&%FF=1", "--json"}, io) == 0);
    const nlohmann::json j = nlohmann::json::parse(io.out, nullptr, false);
    CHECK_FALSE(j.is_discarded());
    CHECK(io.out.find("unknown key '%FF' ignored") != std::string::npos);
}

TEST_CASE("bad inputs (fixed after this table): a link's model_type must be valid UTF-8 (K1: scenario_to_json aborts)") {
    // scenario_arch.cpp (read_field for text): cfg.mt=%FF is accepted, and every later dump()
    // of the scenario aborts. Wanted: the field is dropped with a warning.
    Result<Scenario> d = decode_link("#v=1&cfg.mt=%FF&cfg.h=64");
    CHECK(d.ok());
    if (d.ok()) CHECK(valid_utf8(d->hf_config.model_type));
    CHECK(d.warnings.size() == 1);
}

TEST_CASE("bad inputs (fixed after this table): a long non-ASCII model_type is cut at a character boundary (K3)") {
    // hf_config.cpp (Reader::text) cut at byte 64, splitting 'é'; scenario_to_json then aborted. Fixed by cut_utf8.
    const std::string cfg = "{\"model_type\":\"" + std::string(63, 'a') +
                            "\xc3\xa9\",\"hidden_size\":64,\"num_hidden_layers\":1,\"num_attention_heads\":1,"
                            "\"vocab_size\":10,\"intermediate_size\":64}";
    Result<ModelArch> a = parse_hf_config(cfg);
    CHECK(a.ok());
    if (a.ok()) CHECK(valid_utf8(a->model_type));
}

TEST_CASE("bad inputs (fixed after this table): link model fields obey the config.json limits (dims <= 4294967295)") {
    // scenario_arch.cpp (read_field for u64) accepts [0, 2^63-1] while parse_hf_config caps
    // dimensions at 2^32-1 so that products stay exact; a link bypasses that cap.
    Result<Scenario> d = decode_link("#v=1&cfg.mt=llama&cfg.h=1000000000000000&cfg.L=2");
    CHECK(d.ok());
    if (d.ok()) CHECK(d->hf_config.hidden_size == 0);
    CHECK(d.warnings.size() == 1);
    if (!d.warnings.empty()) CHECK(d.warnings.en()[0] ==
          "link: model field hidden_size: expected an integer between 0 and 4294967295, got 1000000000000000; ignored");
}

TEST_CASE("bad inputs (fixed after this table): an hf_config error inside a scenario is prefixed once") {
    // scenario.cpp prefixed "hf_config: " to messages that hf_config.cpp already prefixed.
    Result<Scenario> r = parse_scenario_json("{\"hf_config\":{\"a\":" + nested(40) + "}}");
    CHECK_FALSE(r.ok());
    CHECK(r.error.message == "hf_config: nested deeper than 32 levels");
    CHECK(r.error.code == "too_deep");
}

TEST_CASE("bad inputs (fixed after this table): config.json errors say which limit and give the values") {
    // hf_config.cpp had one message for two limits, reported not-JSON as not-an-object and gave no counts (fixed in 561d3a2).
    CHECK(parse_hf_config(ten_mib_object()).error.message == "hf_config: 10485772 bytes; the limit is 4194304 (4 MiB)");
    CHECK(parse_hf_config(R"({"model_type":"llama","hidden_size":)").error.message == "hf_config: not valid JSON");
    const std::string moe = R"({"model_type":"mixtral","hidden_size":4096,"num_local_experts":8,"num_experts_per_tok":9,)"
                            R"("num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008})";
    CHECK(parse_hf_config(moe).error.message == "num_experts_per_tok: 9 is more than num_local_experts (8)");
}

TEST_CASE("bad inputs (fixed after this table): CLI errors from estimate() name the key once; unknown gpu is an error") {
    // cmd_estimate.cpp prints format_error (path + message) for messages that already start
    // with the key: "gpusizer: model: model: unknown preset 'nope' …".
    gpusizer::cli::Io io;
    CHECK(gpusizer::cli::run({"estimate", "--model", "nope"}, io) == 2);
    CHECK(io.err == "gpusizer: model: unknown preset 'nope' (see `gpusizer catalog list models`)\n");
    // estimate.cpp: an unknown gpu id is silently ignored (exit 0, no fit check).
    gpusizer::cli::Io io2;
    CHECK(gpusizer::cli::run({"estimate", "--gpu", "nope"}, io2) == 2);
    CHECK(io2.err.find("gpu: unknown accelerator 'nope'") != std::string::npos);
}

TEST_CASE("bad inputs (fixed after this table): a too-large --hf_config says so") {
    // scenario_text.cpp (text_to_json, config): a config.json over 1 MiB becomes the string
    // "<config too large or too deep>", reported as "hf_config: not a valid JSON object".
    const std::string big = "{\"model_type\":\"llama\",\"pad\":\"" + std::string(2u << 20, 'x') + "\"}";
    gpusizer::cli::Io io;
    CHECK(gpusizer::cli::run({"estimate", "--hf_config", big}, io) == 2);
    CHECK(io.err == "gpusizer: hf_config: config.json is 2097183 bytes; the limit is 1048576\n");
}

TEST_CASE("bad inputs (fixed after this table): user catalogs have a row limit, and warnings are capped") {
    // catalog.cpp: 8 MiB of "[1,1,…]" gives 4 194 284 warnings (1.4 GB, ~145 s under ASan).
    // Wanted: at most k_max_catalog_rows rows per section, refused before reading rows, and the
    // warnings list capped ("… and N more rows dropped").
    const std::string many = "{\"accelerators\":[" + repeat("1,", 200000) + "1]}";
    Result<Catalog> r = merge_catalog(builtin_catalog(), many);
    CHECK_FALSE(r.ok());
    CHECK(r.error.code == "too_many_rows");
    CHECK(r.error.path == "accelerators");
    CHECK(r.warnings.size() <= 101);
    // Under the row limit, every bad row is dropped but only 100 warnings are kept, plus one line.
    const std::string bad_rows = "{\"accelerators\":[" + repeat("1,", 19999) + "1]}";
    Result<Catalog> m = merge_catalog(builtin_catalog(), bad_rows);
    CHECK(m.ok());
    CHECK(m.warnings.size() == 101);
    if (!m.warnings.empty())
        CHECK(m.warnings.en().back() == "... and 19900 more problems not shown (their rows were dropped)");
}
