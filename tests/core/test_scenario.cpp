// Scenario JSON: defaults, validation messages that name the key and the range, printing.
#include <doctest/doctest.h>

#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_limits.hpp"

using namespace gpusizer;

TEST_CASE("scenario: an empty object gives the documented defaults") {
    auto r = parse_scenario_json("{}");
    REQUIRE(r.ok());
    CHECK(r->source == ModelSource::preset);
    CHECK(r->model == "llama-3.1-8b");
    CHECK(r->task == Task::inference);
    CHECK(r->weight_dtype == WeightDtype::bf16);
    CHECK(r->seq_len == 2048);
    CHECK(r->batch_size == 1);
    CHECK_FALSE(r->master_weights);
    CHECK(r->gpu_memory_utilization == doctest::Approx(0.9));
    CHECK(r.warnings.empty());
}

TEST_CASE("scenario: task-dependent defaults") {
    CHECK(parse_scenario_json(R"({"task":"qlora"})")->weight_dtype == WeightDtype::nf4);
    CHECK(parse_scenario_json(R"({"task":"full_ft"})")->master_weights);
    CHECK(parse_scenario_json(R"({"task":"pretrain","weight_dtype":"fp16"})")->master_weights);
    CHECK_FALSE(parse_scenario_json(R"({"task":"full_ft","weight_dtype":"fp32"})")->master_weights);
    CHECK_FALSE(parse_scenario_json(R"({"task":"full_ft","master_weights":false})")->master_weights);
    CHECK_FALSE(parse_scenario_json(R"({"task":"lora"})")->master_weights);
}

TEST_CASE("scenario: prompt_tokens + output_tokens set seq_len") {
    auto r = parse_scenario_json(R"({"prompt_tokens":1000,"output_tokens":24,"seq_len":99})");
    REQUIRE(r.ok());
    CHECK(r->seq_len == 1024);
}

TEST_CASE("scenario: errors name the key, the value and the allowed range") {
    auto bad = [](const char* text) { return parse_scenario_json(text); };
    auto r = bad(R"({"batch_size":0})");
    CHECK_FALSE(r.ok());
    CHECK(r.error.path == "batch_size");
    CHECK(r.error.message == "batch_size: 0 is not a whole number in [1, 1000000]");

    r = bad(R"({"task":"finetune"})");
    CHECK(r.error.message ==
          "task: unknown value \"finetune\"; allowed: inference, pretrain, full_ft, lora, qlora");

    r = bad(R"({"seq_len":"long"})");
    CHECK(r.error.message == "seq_len: expected a whole number, got \"long\"");

    r = bad(R"({"mfu":1.5})");
    CHECK(r.error.message == "mfu: 1.5 is outside (0, 1]");

    r = bad(R"({"params_b":1e6})");
    CHECK(r.error.path == "params_b");

    r = bad(R"({"providers":["aws","<script>"]})");
    CHECK(r.error.path == "providers[1]");

    r = bad(R"({"num_gpus":6,"tensor_parallel":4})");
    CHECK(r.error.path == "num_gpus");

    r = bad(R"({"seq_len":2048.5})");
    CHECK(r.error.code == "out_of_range");

    CHECK(bad("{\"batch_size\": 1").error.code == "bad_json");
    CHECK(bad("[1,2]").error.code == "bad_type");
}

TEST_CASE("scenario: unknown keys and several model sources are warnings") {
    auto r = parse_scenario_json(R"({"model":"qwen3-8b","params_b":7,"colour":"red"})");
    REQUIRE(r.ok());
    CHECK(r->model == "qwen3-8b");
    CHECK(r->source == ModelSource::preset);
    REQUIRE(r.warnings.size() == 2);
    CHECK(r.warnings.en()[0] == "unknown key 'colour' ignored");
}

TEST_CASE("scenario: nesting and size limits apply before parsing") {
    std::string deep(200, '[');
    deep += std::string(200, ']');
    CHECK(parse_scenario_json(deep).error.code == "too_deep");
    std::string big = "{\"x\":\"" + std::string(k_max_scenario_bytes, 'a') + "\"}";
    CHECK(parse_scenario_json(big).error.code == "too_large");
}

TEST_CASE("scenario: printing then parsing gives the same scenario") {
    auto r = parse_scenario_json(
        R"({"model":"qwen3-32b","task":"lora","lora_rank":64,"lora_targets":["q_proj","v_proj"],
            "num_gpus":8,"tensor_parallel":2,"zero_stage":3,"offload":"optimizer","gpu":"h100_sxm",
            "gpu_memory_gib":79.5,"train_tokens":1e9,"region":"cn_mainland","providers":["aliyun"],
            "spot":"only","currency":"CNY","budget":5000,"deadline_hours":48})");
    REQUIRE(r.ok());
    CHECK(r->lora_targets == LoraTargets::custom);
    auto again = parse_scenario_json(scenario_to_json(*r));
    REQUIRE(again.ok());
    CHECK(*again == *r);
    CHECK(again.warnings.empty());
}

TEST_CASE("scenario: text overrides are typed by key (the CLI flags)") {
    auto r = parse_scenario_overrides(R"({"model":"qwen3-8b","batch_size":4})",
                                      {{"batch_size", "8"}, {"providers", "aws,gcp"}, {"dropout", "true"},
                                       {"lora_targets", "q_proj,v_proj"}, {"mfu", "0.4"}});
    REQUIRE(r.ok());
    CHECK(r->batch_size == 8);
    CHECK(r->model == "qwen3-8b");
    CHECK(r->providers == std::vector<std::string>{"aws", "gcp"});
    CHECK(r->dropout);
    CHECK(r->lora_modules == std::vector<std::string>{"q_proj", "v_proj"});
    CHECK(*r->mfu == doctest::Approx(0.4));

    auto bad = parse_scenario_overrides("{}", {{"batch_size", "eight"}});
    CHECK(bad.error.message == "batch_size: expected a whole number, got \"eight\"");
    CHECK(parse_scenario_overrides("{}", {{"colour", "red"}}).error.code == "unknown_key");
    CHECK(parse_scenario_overrides("{}", {{"seq_len", "inf"}}).error.path == "seq_len");
    // A new model source replaces the base one.
    auto p = parse_scenario_overrides(R"({"model":"qwen3-8b"})", {{"params_b", "13"}});
    REQUIRE(p.ok());
    CHECK(p->source == ModelSource::params_b);
    CHECK(p->params_b == 13);
}

TEST_CASE("scenario: an editor's changes resolve like the CLI's keys (apply_edit, keys_off_default)") {
    Scenario s = *parse_scenario_json("{}");
    Scenario before = s;
    s.task = Task::qlora;  // a new task re-derives what follows from it
    apply_edit(before, s);
    CHECK(is_given(s.given, Key::task));
    CHECK(s.weight_dtype == WeightDtype::nf4);
    CHECK(s.spot == SpotPolicy::allow);
    CHECK(s == *parse_scenario_json(R"({"task":"qlora"})"));

    before = s;
    s.optimizer = Optimizer::adamw;  // set by hand (equal to the default): kept from now on
    apply_edit(before, s);
    CHECK_FALSE(is_given(s.given, Key::optimizer));  // nothing changed, so nothing was set
    before = s;
    s.optimizer = Optimizer::sgd;
    apply_edit(before, s);
    before = s;
    s.task = Task::full_ft;
    s.framework = Framework::torchtune;
    apply_edit(before, s);
    // The user's optimizer stays; torchtune's other defaults follow.
    CHECK(s.optimizer == Optimizer::sgd);
    CHECK(s.optimizer_in_backward);
    CHECK(s.activation_checkpointing == Checkpointing::full);
    CHECK(s.loss_impl == LossImpl::chunked);
    CHECK_FALSE(s.master_weights);
    CHECK(s.weight_dtype == WeightDtype::bf16);  // qlora's nf4 was a default, not a choice
    CHECK(s == *parse_scenario_json(R"({"task":"full_ft","framework":"torchtune","optimizer":"sgd"})"));

    // A scenario opened from a file or link: what differs from its own defaults was set.
    const Scenario opened = *parse_scenario_json(R"({"task":"qlora","optimizer":"sgd","weight_dtype":"nf4"})");
    const GivenKeys g = keys_off_default(opened);
    CHECK(is_given(g, Key::task));
    CHECK(is_given(g, Key::optimizer));
    CHECK_FALSE(is_given(g, Key::weight_dtype));  // nf4 is qlora's default
    CHECK(g.count() == 2);
}
