// Every warning a person reads has its Chinese line (the Notes of Estimate, Result and
// Recommendation, printed as warnings_zh): scenarios and config.json files that trigger most of core's
// warnings, each line checked. A new warning added without its Chinese text fails here.
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>
#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/export.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

bool has_cjk(const std::string& s) {
    for (unsigned char c : s)
        if (c >= 0xE4 && c <= 0xE9) return true;  // lead byte of U+4E00…U+9FFF in UTF-8
    return false;
}

// Warnings seen so far (English), to check the cases below reach many different ones.
std::set<std::string> g_seen;

void check_twins(const Notes& notes, const std::string& where) {
    INFO(where);
    const std::vector<std::string>& en = notes.en();
    const std::vector<std::string>& zh = notes.zh();
    for (std::size_t i = 0; i < en.size(); ++i) {
        INFO(en[i]);
        CHECK(has_cjk(zh[i]));
        CHECK(zh[i] != en[i]);
        g_seen.insert(en[i].substr(0, en[i].find_first_of("0123456789'")));  // one entry per site, not per number
    }
}

void check_scenario(const std::string& text) {
    Result<Scenario> s = parse_scenario_json(text);
    check_twins(s.warnings, "parse " + text);
    REQUIRE_MESSAGE(s.ok(), text << ": " << s.error.message);
    Result<Estimate> e = estimate(gpusizer_test::built_in_catalog(), *s);
    check_twins(e.warnings, "estimate " + text);
    REQUIRE_MESSAGE(e.ok(), text << ": " << e.error.message);
    check_twins(e->warnings, "estimate " + text);
}

void check_config(const std::string& text, const std::string& where) {
    Result<ModelArch> a = parse_hf_config(text);
    check_twins(a.warnings, where);
}

}  // namespace

TEST_CASE("warnings_zh: every estimate and scenario warning has a Chinese line") {
    g_seen.clear();
    const char* scenarios[] = {
        // params_b, replicas, zero_stage, sdpa, seq_len past the positions, no fit, no bf16 on a T4
        R"({"params_b": 7, "num_gpus": 2, "zero_stage": 1, "attention": "sdpa", "seq_len": 200000, "gpu": "t4"})",
        // int8 full training, offload without ZeRO-2, optimizer_in_backward, prompt/output in training, no train_tokens
        R"({"model": "llama-3.1-8b", "task": "full_ft", "weight_dtype": "int8", "offload": "optimizer",
            "optimizer_in_backward": true, "prompt_tokens": 100, "output_tokens": 100, "gpu": "v100_32_sxm2"})",
        R"({"model": "llama-3.1-8b", "num_gpus": 2, "expert_parallel": 2})",
        R"({"model": "llama-2-7b", "task": "lora", "lora_targets": ["q_proj", "nonsense"]})",
        R"({"model": "gpt-oss-20b", "task": "lora", "lora_targets": "all_linear"})",
        R"({"model": "llama-3.1-8b", "task": "qlora", "weight_dtype": "bf16"})",
        R"({"model": "llama-3.1-8b", "engine": "llama_cpp", "weight_dtype": "gguf_q4_k_m", "gpu_layers": 100})",
        R"({"model": "deepseek-v3", "weight_dtype": "gguf_q4_k_m"})",
        R"({"model": "llama-3.2-1b", "gpu": "h200_sxm", "batch_size": 1})",
        R"({"model": "qwen2.5-7b", "unknown_thing": 1, "model": "llama-3.1-8b", "params_b": 3})",
        // vision, diffusion, speech
        R"({"model": "resnet-50", "task": "full_ft", "seq_len": 512, "num_gpus": 2, "tensor_parallel": 2, "steps": 20,
            "audio_seconds": 100, "gpu": "t4"})",
        R"({"model": "resnet-50", "task": "lora"})",
        R"({"model": "whisper-small", "task": "full_ft", "image_size": 224, "train_images": 100, "gpu": "h100_sxm"})",
        R"({"model": "vit-base-patch16-224", "image_size": 384, "task": "full_ft"})",
        R"({"model": "sdxl", "task": "full_ft", "gpu": "rtx4090"})",
        // configs in the scenario: unknown family, missing top-k, layer_types, MTP layers; no model_type
        R"({"hf_config": {"model_type": "foo_lm", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
            "intermediate_size": 4096, "vocab_size": 1000, "num_local_experts": 4, "num_nextn_predict_layers": 1,
            "layer_types": ["full_attention"]}})",
        R"({"hf_config": {"hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8, "intermediate_size": 4096,
            "vocab_size": 1000}})",
        R"({"hf_config": {"gpusizer_arch": 1, "hidden_size": 1024, "num_layers": 4, "num_heads": 8, "num_kv_heads": 8,
            "head_dim": 128, "intermediate_size": 4096, "vocab_size": 1000, "not_a_field": 3}})",
    };
    for (const char* s : scenarios) check_scenario(s);

    // The planner's copy of the model's warnings (params_b).
    Result<Scenario> s = parse_scenario_json(R"({"params_b": 7})");
    REQUIRE(s.ok());
    Result<Recommendation> r = recommend(gpusizer_test::built_in_catalog(), *s, 3);
    REQUIRE(r.ok());
    REQUIRE(r->warnings.size() == 1);
    check_twins(r->warnings, "recommend params_b");

    // Every preset, trained on a small GPU, and inferred on a large one.
    for (const ModelPreset& m : gpusizer_test::built_in_catalog().models) {
        check_scenario(R"({"model": ")" + m.id + R"(", "task": "full_ft", "gpu": "t4"})");
        check_scenario(R"({"model": ")" + m.id + R"(", "gpu": "h100_sxm", "engine": "vllm"})");
    }
    // Far more sites than any one scenario reaches (a site counts once, whatever its numbers).
    MESSAGE("distinct warnings seen: " << g_seen.size());
    CHECK(g_seen.size() >= 40);
}

TEST_CASE("warnings_zh: every config.json warning has a Chinese line (presets, quantized checkpoints, bad quantization_config)") {
    g_seen.clear();
    const nlohmann::json cat = nlohmann::json::parse(embedded_catalog_json());
    for (const auto& m : cat["models"]) check_config(m["config"].dump(), m["id"].get<std::string>());
    for (const char* f : {"deepseek-r1-fp8.json", "kimi-k2-int4-experts-tiny.json", "llama-3.1-405b-fbgemm-fp8.constructed.json",
                          "meta-llama-3-8b-instruct-bnb-nf4.json", "mistral-7b-awq-gemm.constructed.json",
                          "qwen2.5-32b-instruct-gptq-int4.json"})
        check_config(gpusizer_test::read_text(std::string("tests/fixtures/quant_configs/") + f), f);
    const std::string llama = R"("model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
        "intermediate_size": 4096, "vocab_size": 1000)";
    for (const char* qc : {
             R"("quantization_config": 3)",
             R"("quantization_config": {"bits": 4})",
             R"("quantization_config": {"quant_method": "exl2"})",
             R"("quantization_config": {"quant_method": "gptq", "bits": 99})",
             R"("quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": "x"})",
             R"("quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128, "dynamic": {"+:.*": {"bits": 8}}})",
             R"("quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128, "modules_to_not_convert": ["re:(("]})",
             R"("quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "x"})",
             R"("quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"a": {"targets": ["Linear"],
                 "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128}}, "b": {"targets": ["re:.*down_proj"],
                 "weights": {"num_bits": 8, "type": "int", "strategy": "channel"}}}})",
             R"("quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"a": {"targets": ["Linear"],
                 "format": "dense", "weights": {"num_bits": 16, "type": "float", "strategy": "tensor"}}}})",
             R"("quantization_config": {"quant_method": "fp8", "weight_block_size": [1]})",
         })
        check_config("{" + llama + ", " + qc + "}", qc);
    MESSAGE("distinct warnings seen: " << g_seen.size());
    CHECK(g_seen.size() >= 15);
}

TEST_CASE("warnings_zh: every share-link warning has a Chinese line") {
    g_seen.clear();
    for (const char* link : {
             "#v=2&v=1&m=llama-3.1-8b&m=qwen3-8b&zz=1&cfg.zz=1&b=-3&%ZZ=1&w=%FF&pin=1&pin.b=-3&pin.zz=2",
             "#m=llama-3.1-8b&cfg.h=4096",
             "#v=1&cfg.h=-5&cfg.L=2&cfg.H=8&cfg.h=1024&t=inference&n=3&tp=2",
             "#v=1&m=llama-3.1-8b&t=lora&lt=q_proj&p=5&o=5&zz=1",
         }) {
        Result<LinkedScenarios> r = decode_link_pair(link);
        check_twins(r.warnings, link);
    }
    MESSAGE("distinct warnings seen: " << g_seen.size());
    CHECK(g_seen.size() >= 8);
}

TEST_CASE("warnings_zh: hand-written lines, in the same order as the English ones") {
    // Llama 3.1 8B's config.json: max_position_embeddings 131072. No gpu: no throughput.
    Result<Scenario> s = parse_scenario_json(R"({"model": "llama-3.1-8b", "zero_stage": 2, "seq_len": 200000})");
    REQUIRE(s.ok());
    Result<Estimate> e = estimate(gpusizer_test::built_in_catalog(), *s);
    REQUIRE(e.ok());
    CHECK(e->warnings.en() == std::vector<std::string>{
                             "zero_stage: ignored for inference",
                             "seq_len 200000 exceeds the model's max_position_embeddings 131072",
                             "throughput is null: give a catalog `gpu` (speed needs its peak FLOP/s and memory bandwidth)"});
    CHECK(e->warnings.zh() == std::vector<std::string>{
                                "zero_stage:推理时忽略",
                                "seq_len 200000 超过模型的 max_position_embeddings 131072",
                                "吞吐量为空:请选择目录中的 `gpu`(速度需要其峰值 FLOP/s 和显存带宽)"});
    // The Markdown export lists them in its language.
    MarkdownOptions zh;
    zh.chinese = true;
    const std::string md_zh = results_to_markdown(*s, gpusizer_test::built_in_catalog(), e, Result<Recommendation>{}, zh);
    CHECK(md_zh.find("## 警告\n\n- zero_stage:推理时忽略\n") != std::string::npos);
    CHECK(md_zh.find("ignored for inference") == std::string::npos);
    const std::string md_en = results_to_markdown(*s, gpusizer_test::built_in_catalog(), e, Result<Recommendation>{});
    CHECK(md_en.find("## Warnings\n\n- zero_stage: ignored for inference\n") != std::string::npos);
}

TEST_CASE("warnings_zh: a Chinese Markdown export of a recommendation lists the model's warnings once, in Chinese") {
    // params_b: the planner's copy of the model's warning ("architecture inferred …"). recommend()'s
    // Result carries it too; it used to be English only, so the Chinese export ended with it again
    // in English.
    Result<Scenario> s = parse_scenario_json(R"({"params_b": 13, "task": "inference", "gpu": "l4"})");
    REQUIRE(s.ok());
    const Catalog& catalog = gpusizer_test::built_in_catalog();
    Result<Estimate> e = estimate(catalog, *s);
    Result<Recommendation> r = recommend(catalog, *s, 3);
    REQUIRE(e.ok());
    REQUIRE(r.ok());
    MarkdownOptions zh;
    zh.chinese = true;
    const std::string md = results_to_markdown(*s, catalog, e, r, zh);
    const std::string line = "- params_b:结构按类 Llama-3 的稠密解码器推断(";
    REQUIRE(md.find(line) != std::string::npos);
    CHECK(md.find(line) == md.rfind(line));
    CHECK(md.find("architecture inferred") == std::string::npos);
}

TEST_CASE("warnings_zh: Notes keeps the lines paired (prepend keeps its own order; English-only lines say it in English)") {
    Notes estimate_lines;
    estimate_lines.add("c", "丙");
    Notes parser_lines;
    parser_lines.add("a", "甲");
    parser_lines.add_en("b (catalog)");
    estimate_lines.prepend(parser_lines);
    CHECK(estimate_lines.en() == std::vector<std::string>{"a", "b (catalog)", "c"});
    CHECK(estimate_lines.zh() == std::vector<std::string>{"甲", "b (catalog)", "丙"});
    CHECK(estimate_lines.lines(true) == estimate_lines.zh());
    estimate_lines.append(parser_lines);
    CHECK(estimate_lines.size() == 5);
    CHECK(estimate_lines.zh().back() == "b (catalog)");
}
