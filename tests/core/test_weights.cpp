// Weight bytes per dtype: block/group metadata of each format, the tensors kept in 16 bit, and
// llama.cpp's per-tensor type mix, checked against published bits and published file sizes.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusizer/memory.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {
ModelArch fixture(const std::string& id) {
    Result<ModelArch> r = parse_hf_config(gpusizer_test::read_text("tests/fixtures/hf_configs/" + id + ".json"));
    REQUIRE_MESSAGE(r.ok(), id << ": " << r.error.message);
    return *r;
}
double gb(const ModelArch& a, WeightDtype w) { return static_cast<double>(weights_bytes(a, w)) / 1e9; }
}  // namespace

TEST_CASE("test_weights: bits per weight of each format") {
    CHECK(weight_bits(WeightDtype::nf4) == doctest::Approx(4 + 8.0 / 64 + 32.0 / (64 * 256)));  // 4.127 (QLoRA §3)
    CHECK(weight_bits(WeightDtype::int4_gptq) == doctest::Approx(4.15625));                     // 4 + 20/128
    CHECK(weight_bits(WeightDtype::int4_awq) == doctest::Approx(4.15625));
    CHECK(weight_bits(WeightDtype::gguf_q4_0) == 4.5);     // block_q4_0: 18 B / 32
    CHECK(weight_bits(WeightDtype::gguf_q8_0) == 8.5);     // block_q8_0: 34 B / 32
    CHECK(weight_bits(WeightDtype::gguf_q6_k) == 6.5625);  // block_q6_K: 210 B / 256
    CHECK(weight_bits(WeightDtype::gguf_q2_k) == 2.625);   // block_q2_K: 84 B / 256
    CHECK(weight_bits(WeightDtype::gguf_q4_k_m) == 4.5);   // nominal Q4_K: 144 B / 256 (the mix is higher)
}

TEST_CASE("test_weights: dense dtypes are exact") {
    const ModelArch a = fixture("llama-3.1-8b");
    CHECK(weights_bytes(a, WeightDtype::bf16) == 2ULL * 8030261248ULL);
    CHECK(weights_bytes(a, WeightDtype::fp32) == 4ULL * 8030261248ULL);
}

TEST_CASE("test_weights: NF4 keeps embeddings and LM head in bf16 (research §2.2 example)") {
    // Llama-2-7B: 6.476e9 linear weights × 4.127/8 + 2.62e8 embedding/head × 2 + norms ≈ 3.87 GB.
    const ModelArch a = fixture("llama-2-7b");
    const double linears = 32.0 * (4 * 4096.0 * 4096 + 3 * 4096.0 * 11008);
    const double kept = 2 * 32000.0 * 4096 + 65.0 * 4096;
    CHECK(static_cast<double>(weights_bytes(a, WeightDtype::nf4)) ==
          doctest::Approx(linears * weight_bits(WeightDtype::nf4) / 8 + 2 * kept).epsilon(1e-9));
    CHECK(gb(a, WeightDtype::nf4) == doctest::Approx(3.87).epsilon(0.005));
}

TEST_CASE("test_weights: GGUF file sizes of Meta-Llama-3-8B (published quant listings, within 1%)") {
    // File sizes as listed for bartowski / QuantFactory Meta-Llama-3-8B(-Instruct)-GGUF (recalled,
    // GB = 1e9 B); same shape as Llama-3.1-8B. The mix matters: Q4_K_M is 4.92 GB, not 8.03e9 × 4.5/8 = 4.52.
    const ModelArch a = fixture("llama-3.1-8b");
    CHECK(gb(a, WeightDtype::gguf_q8_0) == doctest::Approx(8.54).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q6_k) == doctest::Approx(6.60).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q5_k_m) == doctest::Approx(5.73).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q4_k_m) == doctest::Approx(4.92).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q4_0) == doctest::Approx(4.66).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q3_k_m) == doctest::Approx(4.02).epsilon(0.01));
    CHECK(gb(a, WeightDtype::gguf_q2_k) == doctest::Approx(3.18).epsilon(0.01));
}

TEST_CASE("test_weights: GGUF file sizes of Llama-2-7B and Mixtral-8x7B (TheBloke listings)") {
    const ModelArch l2 = fixture("llama-2-7b");
    CHECK(gb(l2, WeightDtype::gguf_q4_k_m) == doctest::Approx(4.08).epsilon(0.01));
    CHECK(gb(l2, WeightDtype::gguf_q5_k_m) == doctest::Approx(4.78).epsilon(0.01));
    CHECK(gb(l2, WeightDtype::gguf_q6_k) == doctest::Approx(5.53).epsilon(0.01));
    CHECK(gb(l2, WeightDtype::gguf_q8_0) == doctest::Approx(7.16).epsilon(0.01));
    CHECK(gb(l2, WeightDtype::gguf_q3_k_m) == doctest::Approx(3.30).epsilon(0.01));
    const ModelArch mx = fixture("mixtral-8x7b");
    CHECK(gb(mx, WeightDtype::gguf_q8_0) == doctest::Approx(49.62).epsilon(0.01));
    CHECK(gb(mx, WeightDtype::gguf_q6_k) == doctest::Approx(38.38).epsilon(0.01));
    CHECK(gb(mx, WeightDtype::gguf_q4_0) == doctest::Approx(26.44).epsilon(0.01));
}

TEST_CASE("test_weights: quantized sizes order and the _M mix sits above its nominal bits") {
    const ModelArch a = fixture("qwen3-8b");
    const WeightDtype order[] = {WeightDtype::gguf_q2_k, WeightDtype::gguf_q3_k_m, WeightDtype::gguf_q4_k_m,
                                 WeightDtype::gguf_q5_k_m, WeightDtype::gguf_q6_k, WeightDtype::gguf_q8_0,
                                 WeightDtype::bf16, WeightDtype::fp32};
    for (std::size_t i = 1; i < sizeof order / sizeof order[0]; ++i) CHECK(weights_bytes(a, order[i - 1]) < weights_bytes(a, order[i]));
    const double total = static_cast<double>(param_detail(a).total);
    CHECK(static_cast<double>(weights_bytes(a, WeightDtype::gguf_q4_k_m)) > total * 4.5 / 8);
    CHECK(weights_bytes(a, WeightDtype::nf4) < weights_bytes(a, WeightDtype::int8));
    CHECK(weights_bytes(a, WeightDtype::int8) < weights_bytes(a, WeightDtype::bf16));
}
