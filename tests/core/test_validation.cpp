// Golden values of tests/fixtures/validation_public.json (published formulas and tools, kind F,
// and published measurements, kind M), each reproduced within its stated tolerance.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "gpusizer/memory.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {

const std::string& golden_text() {
    static const std::string text = gpusizer_test::read_text("tests/fixtures/validation_public.json");
    return text;
}

// The number after `"key":` inside the case object with this id (a tiny reader: the fixture is
// plain JSON with one case per object, and tests keep nlohmann out of their own code).
double field(const std::string& id, const char* key) {
    const std::string& t = golden_text();
    const std::size_t at = t.find("\"id\": \"" + id + "\"");
    REQUIRE_MESSAGE(at != std::string::npos, "case " << id << " missing from validation_public.json");
    const std::size_t end = t.find('}', at);
    const std::size_t k = t.find(std::string("\"") + key + "\":", at);
    REQUIRE_MESSAGE((k != std::string::npos && k < end), id << ": no " << key);
    return std::strtod(t.c_str() + k + std::string(key).size() + 3, nullptr);
}

void check_case(const std::string& id, double ours) {
    const double expected = field(id, "expected"), tol = field(id, "tolerance_pct");
    const double err = expected != 0 ? 100.0 * std::fabs(ours - expected) / std::fabs(expected) : std::fabs(ours);
    CAPTURE(id);
    CAPTURE(ours);
    CAPTURE(expected);
    CHECK(err <= tol + 1e-9);
    MESSAGE(id << ": ours " << ours << " vs " << expected << " (" << err << "% , tolerance " << tol << "%)");
}

ModelArch fixture(const std::string& id) { return gpusizer_test::config_fixture(id); }

double model_state_total(double params, double largest, std::int64_t gpus, int stage, Offload off, StateBytes b) {
    const ModelStates m = model_states(params, largest, b, gpus, stage, off);
    return m.weights + m.gradients + m.optimizer;
}

}  // namespace

TEST_CASE("test_validation: parameter and LoRA counts") {
    check_case("params-llama-2-7b", static_cast<double>(param_detail(fixture("llama-2-7b")).total));
    check_case("params-llama-3.1-8b", static_cast<double>(param_detail(fixture("llama-3.1-8b")).total));
    Scenario s;
    s.task = Task::lora;
    s.lora_rank = 8;
    s.lora_targets = LoraTargets::qv;
    check_case("lora-llama-2-7b-r8-qv", static_cast<double>(lora_params(fixture("llama-2-7b"), s)));
    s.lora_rank = 16;
    s.lora_targets = LoraTargets::all_linear;
    check_case("lora-llama-3.1-8b-r16-all", static_cast<double>(lora_params(fixture("llama-3.1-8b"), s)));
}

TEST_CASE("test_validation: KV cache bytes") {
    Scenario s;  // bf16 (auto), one GPU
    check_case("kv-per-token-llama-2-7b", static_cast<double>(kv_bytes_per_token(fixture("llama-2-7b"), s, 1)));
    check_case("kv-per-token-llama-3.1-8b", static_cast<double>(kv_bytes_per_token(fixture("llama-3.1-8b"), s, 1)));
    check_case("kv-per-token-llama-3.1-70b", static_cast<double>(kv_bytes_per_token(fixture("llama-3.1-70b"), s, 1)));
    check_case("kv-per-token-deepseek-v3", static_cast<double>(kv_bytes_per_token(fixture("deepseek-v3"), s, 1)));
    s.kv_cache_dtype = KvDtype::fp16;
    const KvRate r = kv_rate(fixture("llama-3.1-8b"), s, 1, 1);
    check_case("kv-llama-3.1-8b-128k", kv_cache_bytes(r, s, 1, 128000));
}

TEST_CASE("test_validation: ZeRO paper model states (K = 12)") {
    const StateBytes mixed{2, 2, 4, 8};  // bf16 weights and grads, fp32 master + Adam m, v
    for (int stage = 0; stage <= 3; ++stage) {
        const char* ids[] = {"zero-paper-baseline", "zero-paper-stage1", "zero-paper-stage2", "zero-paper-stage3"};
        check_case(ids[stage], model_state_total(7.5e9, 0, 64, stage, Offload::none, mixed));
    }
}

TEST_CASE("test_validation: DeepSpeed ZeRO-3 estimator (T0_3B)") {
    // The same scenario through the scenario path: bf16 full fine-tune with master weights, AdamW.
    Scenario s;
    s.task = Task::full_ft;
    s.framework = Framework::deepspeed;  // DeepSpeed's own 16-bit parameters + fp32 master partitions
    s.weight_dtype = WeightDtype::bf16;
    s.master_weights = true;
    const StateBytes b = state_bytes_per_param(s);
    CHECK(b.weight + b.gradient + b.master + b.optimizer == 16);
    CHECK(b.master == 4);
    const double P = 2783e6, LL = 65e6;
    check_case("deepspeed-est-t0-3b-z3-none", model_state_total(P, LL, 1, 3, Offload::none, b));
    check_case("deepspeed-est-t0-3b-z3-none-2gpu", model_state_total(P, LL, 2, 3, Offload::none, b));
    check_case("deepspeed-est-t0-3b-z3-optoffload", model_state_total(P, LL, 1, 3, Offload::optimizer, b));
    // DeepSpeed prints 62.23 GiB of host memory for the offload case: 16 B/param × 1.5.
    const ModelStates off = model_states(P, LL, b, 1, 3, Offload::optimizer);
    CHECK(off.host * 1.5 / 1073741824.0 == doctest::Approx(62.2).epsilon(0.01));
}

TEST_CASE("test_validation: quantization bits") {
    check_case("nf4-dq-bits", weight_bits(WeightDtype::nf4));
    check_case("gptq-g128-bits", weight_bits(WeightDtype::int4_gptq));
    check_case("gguf-q4_0-bits", weight_bits(WeightDtype::gguf_q4_0));
    check_case("gguf-q4_k-bits", weight_bits(WeightDtype::gguf_q4_k_m));  // the Q4_K block inside Q4_K_M
    check_case("gguf-q6_k-bits", weight_bits(WeightDtype::gguf_q6_k));
}

// [SECTION] Measured peaks (kind M): the PEFT README memory table, 1× A100-80GB, fp32 weights
// (the examples load the model in fp32), batch 8, max_length 64 (twitter_complaints example).
namespace {
Scenario peft_scenario(Task task) {
    Scenario s;
    s.task = task;
    s.weight_dtype = WeightDtype::fp32;
    s.master_weights = false;
    s.batch_size = 8;
    s.seq_len = 64;
    s.lora_rank = 8;
    s.lora_targets = LoraTargets::qv;  // PEFT's default targets for T5 (q, v) and BLOOM (query_key_value)
    s.gpu = "a100_80_sxm";
    return s;
}
double total_bytes(const ModelArch& a, const Scenario& s) {
    return static_cast<double>(memory_per_gpu(a, s, layout_of(s), 0).gpu.total);
}
}  // namespace

TEST_CASE("test_validation: PEFT measured peaks (T0_3B, bloomz-7b1)") {
    // T0_3B is T5-XL (encoder-decoder, not a config family we read): the user path is params_b.
    const ModelArch t0 = infer_dense_arch(2.783);
    check_case("peft-t0-3b-full", total_bytes(t0, peft_scenario(Task::full_ft)));
    check_case("peft-t0-3b-lora", total_bytes(t0, peft_scenario(Task::lora)));
    // bigscience/bloomz-7b1 (BLOOM: n_embed 4096, 30 layers, 32 heads, V 250880, tied, ALiBi).
    Result<ModelArch> bloom = parse_hf_config(R"({"model_type":"bloom","n_embed":4096,"n_layer":30,"num_attention_heads":32,
        "vocab_size":250880})");
    REQUIRE(bloom.ok());
    CHECK(param_detail(*bloom).total == 7069016064ULL);  // BLOOM-7b1 model card: 7,069,016,064
    check_case("peft-bloomz-7b1-lora", total_bytes(*bloom, peft_scenario(Task::lora)));
    // PEFT docs: bloomz-560m with r=8 → "trainable params: 786,432 || all params: 560,001,024".
    Result<ModelArch> b560 = parse_hf_config(R"({"model_type":"bloom","n_embed":1024,"n_layer":24,"num_attention_heads":16,
        "vocab_size":250880})");
    REQUIRE(b560.ok());
    const std::uint64_t lora = lora_params(*b560, peft_scenario(Task::lora));
    CHECK(lora == 786432ULL);
    CHECK(param_detail(*b560).total + lora == 560001024ULL);
}
