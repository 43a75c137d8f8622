// Weight bytes per dtype: block/group metadata of each format, the tensors kept in 16 bit, and
// llama.cpp's per-tensor type mix, checked against published bits and published file sizes.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/memory.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {
ModelArch fixture(const std::string& id) { return gpusizer_test::config_fixture(id); }
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

// [SECTION] Checkpoints as stored (quantization_config) and model_bytes

namespace {
using gpusizer_test::quant_fixture;
// The same architecture with its quantization_config dropped (stored as weight_dtype says).
ModelArch unquantized(ModelArch a) {
    const ModelArch none;
#define GPUSIZER_X(type, member, hf, link, def) \
    if (std::string_view(#member).substr(0, 6) == "quant_") a.member = none.member;
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    return a;
}
double fp(std::uint64_t v) { return static_cast<double>(v); }
}  // namespace

TEST_CASE("test_weights: DeepSeek-R1 FP8 as stored = its published tensor listing") {
    // A tensor listing of the DeepSeek-R1 FP8 checkpoint (stored-index read_file id 62464985633:
    // "权重文件: 163 个 safetensors 文件, 文件总大小: 641.30 GB, 张量累计大小: 641.29 GB", sizes in
    // GiB, with every tensor's shape and dtype). Summing those shapes: float8_e4m3fn linears, float32
    // weight_scale_inv [ceil(out/128), ceil(in/128)], bf16 embeddings/norms/gate, the MTP layer 61
    // (its own embed_tokens and shared_head.head copies, bf16 eh_proj [7168, 14336]) and float32
    // e_score_correction_bias [256] = 688 574 839 360 B = 641.285 GiB. gpusizer stores the
    // correction bias as 16-bit like every router parameter: 59 × 256 × 2 B = 30 208 B less.
    const ModelArch a = quant_fixture("deepseek-r1-fp8.json");
    CHECK(model_bytes(a, WeightDtype::bf16) == 688574839360ULL - 30208ULL);
    CHECK(fp(model_bytes(a, WeightDtype::bf16)) / 1073741824.0 == doctest::Approx(641.29).epsilon(0.0001));
    // The preset is the same checkpoint; its weights (what is loaded) leave the MTP module out.
    const ModelArch preset = fixture("deepseek-r1");
    CHECK(model_bytes(preset, WeightDtype::bf16) == model_bytes(a, WeightDtype::bf16));
    const double h = 7168, V = 129280;
    const double mtp_extras = 2 * (3 * h + 2 * h * h + 2 * V * h);  // enorm, hnorm, shared_head.norm, eh_proj, 2 × [V, h]
    const WeightBytesByPart wb = weight_bytes_by_part(a, WeightDtype::bf16);
    const double mtp_layer = wb.attention + wb.layer_norms + wb.expert + wb.shared + wb.router;
    CHECK(fp(model_bytes(a, WeightDtype::bf16)) == doctest::Approx(fp(weights_bytes(a, WeightDtype::bf16)) + mtp_layer + mtp_extras).epsilon(1e-12));
    // Before quantization_config was read, DeepSeek-V3/R1 weighed 2 B per parameter: 1.34 TB, twice the download.
    CHECK(fp(weights_bytes(unquantized(a), WeightDtype::bf16)) / fp(weights_bytes(a, WeightDtype::bf16)) ==
          doctest::Approx(1.99).epsilon(0.01));
}

TEST_CASE("test_weights: gpt-oss mxfp4 as stored = the tensor shapes of the published checkpoints") {
    // gpt-oss-120b tensor listing (stored-index read_file id 52969244817, "openai/gpt-oss-120b 权重元数据"):
    // per layer experts.gate_up_proj_blocks 128×5760×90×16 U8 + _scales 128×5760×90 U8,
    // down_proj_blocks 128×2880×90×16 + _scales 128×2880×90, expert biases 128×(5760 + 2880) BF16,
    // router 128×2880 + 128 BF16, attention q/k/v/o (+ biases, 64 sinks) BF16, 2 norms; embed_tokens
    // and lm_head 201088×2880 BF16. Summed by hand over 36 layers: 65 248 815 744 B.
    CHECK(model_bytes(fixture("gpt-oss-120b"), WeightDtype::bf16) == 65248815744ULL);
    // gpt-oss-20b: the same shapes with 32 experts over 24 layers: 13 761 264 768 B. llama.cpp's
    // conversion of that checkpoint (MXFP4 experts kept) logs "gpt-oss-20b.gguf: n_tensors = 459,
    // total_size = 13.8G" (a llama.cpp model-conversion note in the stored code index).
    CHECK(model_bytes(fixture("gpt-oss-20b"), WeightDtype::bf16) == 13761264768ULL);
    CHECK(fp(model_bytes(fixture("gpt-oss-20b"), WeightDtype::bf16)) / 1e9 == doctest::Approx(13.8).epsilon(0.005));
    // 4 + 8/32 = 4.25 bits per expert weight, everything else bf16.
    ModelArch one = fixture("gpt-oss-20b");
    CHECK(stored_linear_bytes(one, 5760, 2880) == 5760.0 * 2880 * 4.25 / 8);
}

TEST_CASE("test_weights: Llama-3.1-405B fbgemm_fp8 (Meta's layout: MLP of layers 1-124 in fp8) by hand") {
    const ModelArch a = quant_fixture("llama-3.1-405b-fbgemm-fp8.constructed.json");
    const double h = 16384, V = 128256, i = 53248, L = 126;
    const double attn = h * h * 2 + 2 * h * 1024;  // q, o; k, v (8 KV heads × 128)
    const double mlp = 3 * h * i;
    const double mlp_fp8 = mlp + 4 * (2 * i + h);  // e4m3 + a float32 scale per output row
    const double expect = 2 * 2 * V * h + 2 * h       // embed_tokens, lm_head, final norm (bf16)
                          + L * (2 * attn + 2 * 2 * h)  // attention and norms of every layer, bf16
                          + 124 * mlp_fp8 + 2 * 2 * mlp;
    CHECK(fp(model_bytes(a, WeightDtype::bf16)) == doctest::Approx(expect).epsilon(1e-12));
    // 487 GB: fp8 covers 80% of the weights. Sized as if every linear were fp8 (the old reading of
    // weight_dtype fp8) it was 410 GB: attention of 126 layers and the FFN of 2 kept bf16 add ~1 B each.
    CHECK(fp(model_bytes(a, WeightDtype::bf16)) / 1e9 == doctest::Approx(487.23).epsilon(0.0005));
    CHECK(fp(model_bytes(a, WeightDtype::bf16)) - fp(weights_bytes(unquantized(a), WeightDtype::fp8)) ==
          doctest::Approx(L * attn + 2 * mlp).epsilon(0.001));
}

TEST_CASE("test_weights: GPTQ, AWQ, bitsandbytes and compressed-tensors bits per weight by hand") {
    // GPTQ 4-bit g128: 4 + (16 + 4)/128 bits + 32 bits of g_idx per input column.
    const ModelArch g = quant_fixture("qwen2.5-32b-instruct-gptq-int4.json");
    CHECK(stored_linear_bytes(g, 27648, 5120) == doctest::Approx(27648.0 * 5120 * (4 + 20.0 / 128) / 8 + 5120 * 4));
    const double h = 5120, V = 152064, i = 27648, L = 64;
    const double lin_gptq = [&] {
        auto one = [&](double out, double in) { return out * in * (4 + 20.0 / 128) / 8 + in * 4; };
        return one(h, h) + 2 * one(1024, h) + one(h, h) + 2 * one(i, h) + one(h, i);
    }();
    const double small = (h + 2 * 1024) + 2 * h;  // q/k/v biases, two norms (fp16)
    CHECK(fp(model_bytes(g, WeightDtype::bf16)) == doctest::Approx(L * (lin_gptq + 2 * small) + 2 * 2 * V * h + 2 * h).epsilon(1e-12));
    // AWQ GEMM g128 with zero points: 4 + 20/128 bits, no g_idx.
    const ModelArch w = quant_fixture("mistral-7b-awq-gemm.constructed.json");
    CHECK(stored_linear_bytes(w, 14336, 4096) == doctest::Approx(14336.0 * 4096 * (4 + 20.0 / 128) / 8));
    // bitsandbytes NF4 + double quant: 4 + 8/64 + 32/(64·256) bits = the nf4 weight_dtype of the same model.
    const ModelArch b = quant_fixture("meta-llama-3-8b-instruct-bnb-nf4.json");
    CHECK(stored_linear_bytes(b, 4096, 4096) == doctest::Approx(4096.0 * 4096 * weight_bits(WeightDtype::nf4) / 8));
    CHECK(fp(model_bytes(b, WeightDtype::bf16)) == doctest::Approx(fp(weights_bytes(unquantized(b), WeightDtype::nf4))).epsilon(1e-6));
    // compressed-tensors W4A16 experts only (Kimi-K2 style): 4 + 16/32 bits on the routed experts.
    const ModelArch k = quant_fixture("kimi-k2-int4-experts-tiny.json");
    CHECK(stored_linear_bytes(k, 32, 64) == doctest::Approx(32.0 * 64 * 4.5 / 8));
    const WeightBytesByPart kb = weight_bytes_by_part(k, WeightDtype::bf16);
    CHECK(kb.expert == doctest::Approx(2 * 3 * 32 * 64 * 4.5 / 8));  // 2 experts × gate, up, down
    CHECK(kb.attention == doctest::Approx(2 * fp(param_detail(k).attention)));
    CHECK(kb.shared == doctest::Approx(2 * fp(param_detail(k).shared)));
}

TEST_CASE("test_weights: GGUF wins over the config's quantization_config; model_bytes is the file") {
    const ModelArch d = fixture("deepseek-v3");
    for (WeightDtype w : {WeightDtype::gguf_q4_k_m, WeightDtype::gguf_q8_0, WeightDtype::gguf_q2_k}) {
        CHECK(weights_bytes(d, w) == weights_bytes(unquantized(d), w));
        CHECK(model_bytes(d, w) == weights_bytes(d, w));  // llama.cpp's convert skips the MTP layer
        Notes notes;
        model_bytes(d, w, &notes);
        REQUIRE(notes.en().size() == 1);
        CHECK(notes.en()[0].find("sized as the GGUF file") != std::string::npos);
    }
    // Without a quantization_config model_bytes is the weights in weight_dtype (+ MTP modules).
    const ModelArch l = fixture("llama-3.1-8b");
    CHECK(model_bytes(l, WeightDtype::bf16) == 2ULL * 8030261248ULL);
    CHECK(model_bytes(l, WeightDtype::gguf_q4_k_m) == weights_bytes(l, WeightDtype::gguf_q4_k_m));
    Notes none;
    model_bytes(l, WeightDtype::bf16, &none);
    CHECK(none.en().empty());
    CHECK(none.zh().empty());
    // The note for a checkpoint sized as stored names the format and the compute dtype.
    Notes notes;
    model_bytes(d, WeightDtype::bf16, &notes);
    REQUIRE(notes.en().size() == 1);
    CHECK(notes.en()[0].find("weights as stored: fp8, 8-bit + one 32-bit scale per 128×128 block") != std::string::npos);
    CHECK(notes.en()[0].find("(from quantization_config); weight_dtype bf16 describes the compute") != std::string::npos);
    REQUIRE(notes.zh().size() == 1);  // the same sentence in Chinese: format, scheme and dtype as in English
    CHECK(notes.zh()[0].find("权重按存储格式计算:fp8,8 位,每 128×128 块一个 32 位缩放因子") != std::string::npos);
    CHECK(notes.zh()[0].find("(来自 quantization_config);weight_dtype bf16 描述的是计算精度") != std::string::npos);
}

TEST_CASE("test_weights: out-of-range quant fields (a hand-edited link) fall back to weight_dtype") {
    ModelArch a = fixture("llama-3.1-8b");
    a.quant_method = "gptq";
    a.quant_bits = 4000000000ULL;
    a.quant_attn_layers = a.quant_mlp_layers = 32;
    CHECK_FALSE(stored_quantization_applies(a, WeightDtype::bf16));
    CHECK(weights_bytes(a, WeightDtype::bf16) == 2ULL * 8030261248ULL);
    Notes notes;
    model_bytes(a, WeightDtype::bf16, &notes);
    REQUIRE(notes.en().size() == 1);
    CHECK(notes.en()[0].find("not one gpusizer can size") != std::string::npos);
    a.quant_bits = 4;
    a.quant_group = 4000000000ULL;  // one scale per row in effect: still finite and positive
    a.quant_attn_layers = 4000000000ULL;  // more layers than the model has: capped
    CHECK(weights_bytes(a, WeightDtype::bf16) > 0);
    CHECK(weights_bytes(a, WeightDtype::bf16) < 2ULL * 8030261248ULL);
}
