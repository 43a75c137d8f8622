// Properties of the per-GPU breakdown: monotone in batch and sequence, ZeRO stages never
// worse than the one before, tp=2 halves exactly what it divides, QLoRA < LoRA < full
// fine-tune, and finite non-negative numbers for every input the spec allows.
#include <doctest/doctest.h>

#include <string>

#include "gpusizer/memory.hpp"
#include "support.hpp"

using namespace gpusizer;

namespace {
ModelArch fixture(const std::string& id) { return gpusizer_test::config_fixture(id); }
MemoryBreakdown mem(const ModelArch& a, const Scenario& s) { return memory_per_gpu(a, s, layout_of(s), 0).gpu; }
Scenario training(Task t) {
    Scenario s;
    s.task = t;
    s.weight_dtype = t == Task::qlora ? WeightDtype::nf4 : WeightDtype::bf16;
    s.master_weights = default_master_weights(t, s.weight_dtype);
    return s;
}
const Task k_tasks[] = {Task::inference, Task::pretrain, Task::full_ft, Task::lora, Task::qlora};
const char* const k_models[] = {"llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "gpt-oss-20b", "qwen3-30b-a3b", "llama-3.2-1b"};
}  // namespace

TEST_CASE("test_memory: memory never decreases with batch or sequence") {
    for (const char* id : k_models) {
        const ModelArch a = fixture(id);
        for (Task t : k_tasks) {
            for (Engine eng : {Engine::hf, Engine::vllm, Engine::llama_cpp}) {
                if (t != Task::inference && eng != Engine::hf) continue;
                Scenario s = training(t);
                s.engine = eng;
                const std::string name = id;
                CAPTURE(name);
                CAPTURE(static_cast<int>(t));
                CAPTURE(static_cast<int>(eng));
                std::uint64_t prev = 0;
                for (std::int64_t b : {1, 2, 3, 8, 64}) {
                    s.batch_size = b;
                    const std::uint64_t m = mem(a, s).total;
                    CHECK(m >= prev);
                    prev = m;
                }
                s.batch_size = 2;
                prev = 0;
                for (std::int64_t q : {1, 100, 129, 4096, 100000}) {
                    s.seq_len = q;
                    const std::uint64_t m = mem(a, s).total;
                    CHECK(m >= prev);
                    prev = m;
                }
            }
        }
    }
}

TEST_CASE("test_memory: each ZeRO stage never uses more than the one before") {
    for (const char* id : {"llama-3.1-8b", "mixtral-8x7b", "qwen3-30b-a3b"}) {
        const ModelArch a = fixture(id);
        for (Task t : {Task::pretrain, Task::full_ft, Task::lora, Task::qlora}) {
            for (std::int64_t gpus : {1, 2, 8, 64}) {
                for (Offload off : {Offload::none, Offload::optimizer}) {
                    Scenario s = training(t);
                    s.num_gpus = gpus;
                    s.offload = off;
                    std::uint64_t prev = ~0ULL;
                    for (int z = 0; z <= 3; ++z) {
                        s.zero_stage = z;
                        const std::uint64_t m = mem(a, s).total;
                        const std::string name = id;
                        CAPTURE(name);
                        CAPTURE(gpus);
                        CAPTURE(z);
                        CHECK(m <= prev);
                        prev = m;
                    }
                }
            }
        }
    }
}

TEST_CASE("test_memory: tp=2 halves what it divides and nothing else") {
    const ModelArch a = fixture("llama-3.1-8b");
    Scenario s;  // inference, bf16
    s.num_gpus = 2;
    s.tensor_parallel = 1;
    const MemoryDetail one = memory_per_gpu(a, s, layout_of(s), 0);
    s.tensor_parallel = 2;
    const MemoryDetail two = memory_per_gpu(a, s, layout_of(s), 0);
    // Weights: every linear and the vocab-parallel embedding/head halve; the 65 norms (h each) stay whole.
    const double norms = 2.0 * (65 * 4096);
    CHECK(static_cast<double>(two.gpu.weights) == doctest::Approx((static_cast<double>(one.gpu.weights) - norms) / 2 + norms).epsilon(1e-6));
    // KV: 8 KV heads → 4 per GPU: exactly half per token.
    CHECK(two.kv.full_per_token * 2 == one.kv.full_per_token);
    CHECK(two.gpu.kv_cache * 2 == one.gpu.kv_cache);
    // Overhead (CUDA context, NCCL) is per GPU and does not halve.
    CHECK(two.gpu.overhead >= one.gpu.overhead * 95 / 100);
    // KV heads are replicated once tp exceeds them: tp=16 on 8 KV heads keeps one head per GPU.
    s.num_gpus = 16;
    s.tensor_parallel = 16;
    CHECK(kv_bytes_per_token(a, s, 16) == 2ULL * 32 * 1 * 128 * 2);
    // MLA caches one latent per token on every TP rank.
    CHECK(kv_bytes_per_token(fixture("deepseek-v3"), s, 8) == 70272ULL);
}

TEST_CASE("test_memory: QLoRA < LoRA < full fine-tune for the same model") {
    for (const char* id : k_models) {
        const ModelArch a = fixture(id);
        const std::string name = id;
        CAPTURE(name);
        const MemoryBreakdown qm = mem(a, training(Task::qlora));
        const std::uint64_t q = qm.total;
        const std::uint64_t l = mem(a, training(Task::lora)).total;
        const std::uint64_t f = mem(a, training(Task::full_ft)).total;
        if (a.quant_method.empty()) {
            CHECK(q < l);
        } else {
            // A pre-quantized checkpoint (DeepSeek-V3 fp8, gpt-oss mxfp4) is loaded as stored for
            // QLoRA and LoRA alike (transformers keeps the checkpoint's quantization_config), so
            // the frozen base weighs the same in both.
            CHECK(qm.weights == mem(a, training(Task::lora)).weights);
        }
        CHECK(l < f);
    }
}

TEST_CASE("test_memory: training states by hand (Llama-3.1-8B, one GPU)") {
    const ModelArch a = fixture("llama-3.1-8b");
    const double P = 8030261248.0;
    Scenario s = training(Task::full_ft);
    // Hugging Face Trainer --bf16 on an fp32 model is torch.autocast: fp32 parameters (the master
    // copy), fp32 gradients, fp32 AdamW m, v: 4 + 4 + 8 B/param.
    MemoryBreakdown m = mem(a, s);
    CHECK(static_cast<double>(m.weights) == doctest::Approx(4 * P));
    CHECK(static_cast<double>(m.gradients) == doctest::Approx(4 * P));
    CHECK(static_cast<double>(m.optimizer) == doctest::Approx(8 * P));
    // DeepSpeed (and the ZeRO paper): bf16 parameters and gradients, fp32 master + AdamW: 2 + 2 + 4 + 8.
    s.framework = Framework::deepspeed;
    m = mem(a, s);
    CHECK(static_cast<double>(m.weights) == doctest::Approx(2 * P));
    CHECK(static_cast<double>(m.gradients) == doctest::Approx(2 * P));
    CHECK(static_cast<double>(m.optimizer) == doctest::Approx(12 * P));
    s.optimizer = Optimizer::adamw_8bit;  // int8 m, v + fp32 absmax per 2048, + master 4
    CHECK(static_cast<double>(mem(a, s).optimizer) == doctest::Approx((4 + 2 + 8.0 / 2048) * P));
    s.master_weights = false;  // pure bf16: Adam states in bf16
    s.optimizer = Optimizer::adamw;
    CHECK(static_cast<double>(mem(a, s).optimizer) == doctest::Approx(4 * P));
    s.optimizer = Optimizer::sgd;
    CHECK(mem(a, s).optimizer == 0);
    s.optimizer = Optimizer::adafactor;  // factored: far below Adam
    CHECK(static_cast<double>(mem(a, s).optimizer) < 0.01 * P);
    // ZeRO-3 over 8 GPUs: states ÷ 8 + two gathered copies of the largest layer (the 525M embedding).
    s = training(Task::full_ft);
    s.framework = Framework::deepspeed;
    s.num_gpus = 8;
    s.zero_stage = 3;
    m = mem(a, s);
    CHECK(static_cast<double>(m.optimizer) == doctest::Approx(12 * P / 8));
    CHECK(static_cast<double>(m.weights) == doctest::Approx(2 * P / 8 + 2 * 2 * 128256.0 * 4096 * 7 / 8));
    // Offload: optimizer and gradients leave the GPU, the host gets 16 B/param × 1.5.
    s.offload = Offload::optimizer;
    const MemoryDetail d = memory_per_gpu(a, s, layout_of(s), 0);
    CHECK(d.gpu.optimizer == 0);
    CHECK(d.gpu.gradients == 0);
    CHECK(static_cast<double>(d.host_bytes) >= 16 * P * 1.5);
}

TEST_CASE("test_memory: activations by hand (Llama-3.1-8B, flash, b=1, s=8192)") {
    const ModelArch a = fixture("llama-3.1-8b");
    Scenario s = training(Task::full_ft);
    s.batch_size = 1;
    s.seq_len = 8192;
    const double T = 8192, h = 4096, i = 14336, V = 128256;
    // Per layer: 4·2Th (norm/QKV/MLP inputs) + 2T·4096 (Q) + 2·2T·1024 (K, V) + 2T·4096 (attn out)
    // + 4T·32 (fp32 logsumexp) + 4·2T·i (gate, SiLU, up, product); tail 2·2Th + (2+12)·T·V (16-bit
    // logits, fp32 log-softmax, and the two fp32 gradients of the loss backward).
    const double layer = 8 * T * h + 2 * T * 4096 + 4 * T * 1024 + 2 * T * 4096 + 4 * T * 32 + 8 * T * i;
    // torch.autocast (HF Trainer --bf16 over fp32 parameters) keeps the bf16 copy of every weight a
    // saved matmul used: per layer q, o 4096², k, v 4096·1024, gate/up/down 3·4096·i, two norms; LM head V·h.
    const double layer_params = 2 * h * h + 2 * h * 1024 + 3 * h * i + 2 * h;
    const double expected = 32 * layer + 4 * T * h + 14 * T * V + 2 * (32 * layer_params + V * h);
    // At 8192 tokens the activations (≈ 82 GB) outweigh all gradients (32 GB): the peak is at the
    // start of the backward pass, where the only gradient made is the LM head's (4 B × V × h).
    CHECK(static_cast<double>(mem(a, s).activations) == doctest::Approx(expected).epsilon(1e-9));
    CHECK(static_cast<double>(mem(a, s).gradients) == doctest::Approx(4 * V * h).epsilon(1e-9));  // fp32 under autocast
    // Full recompute keeps 32 layer inputs + one layer (and that layer's weight copies); then the
    // 32 GB of fp32 gradients at the optimizer step outweigh the 18 GB at the backward start...
    s.activation_checkpointing = Checkpointing::full;
    CHECK(mem(a, s).activations == 0);
    // ... where DeepSpeed's bf16 gradients (16 GB) do not: no autocast copies there.
    s.framework = Framework::deepspeed;
    CHECK(static_cast<double>(mem(a, s).activations) == doctest::Approx(32 * 2 * T * h + layer + 4 * T * h + 14 * T * V).epsilon(1e-9));
    s.framework = Framework::hf;
    // Eager attention adds the fp32 + 16-bit score matrices per layer: 6·b·a·s².
    s.activation_checkpointing = Checkpointing::none;
    s.attention = Attention::eager;
    CHECK(static_cast<double>(mem(a, s).activations) ==
          doctest::Approx(expected + 32 * 6 * 32 * T * T).epsilon(1e-9));
}

TEST_CASE("test_memory: full fine-tuning peaks at the larger of the backward start and the optimizer step") {
    const ModelArch a = fixture("llama-3.1-8b");
    Scenario s = training(Task::full_ft);
    s.seq_len = 512;  // activations ≈ 19 GB, below the 32 GB of fp32 gradients autocast training keeps
    const MemoryBreakdown m = mem(a, s);
    const double P = 8030261248.0;
    CHECK(m.activations == 0);  // freed by the optimizer step
    CHECK(static_cast<double>(m.gradients) == doctest::Approx(4 * P).epsilon(1e-9));
    // The total is still the sum of the terms.
    CHECK(m.total == m.weights + m.gradients + m.optimizer + m.activations + m.kv_cache + m.overhead);
    // optimizer_in_backward: no step with every gradient, so the backward start is the peak.
    s.optimizer_in_backward = true;
    CHECK(mem(a, s).activations > 0);
}

TEST_CASE("test_memory: sliding windows bound the cache (gpt-oss-20b)") {
    const ModelArch a = fixture("gpt-oss-20b");
    Scenario s;
    const KvRate r = kv_rate(a, s, 1, 1);
    // 12 full + 12 windowed layers × 2 × 8 heads × 64 × 2 B.
    CHECK(r.full_per_token == 12 * 2 * 8 * 64 * 2);
    CHECK(r.sliding_per_token == 12 * 2 * 8 * 64 * 2);
    CHECK(r.window == 128);
    CHECK(kv_cache_bytes(r, s, 1, 100000) == doctest::Approx(100000 * r.full_per_token + 128 * r.sliding_per_token));
    s.engine = Engine::vllm;  // blocks of 16: 100 tokens occupy 112
    CHECK(kv_cache_bytes(r, s, 1, 100) == doctest::Approx(112 * (r.full_per_token + r.sliding_per_token)));
}

TEST_CASE("test_memory: no NaN, no negative, no overflow for extreme inputs") {
    ModelArch huge = infer_dense_arch(1e4);  // 10T parameters
    for (Task t : k_tasks) {
        for (Attention att : {Attention::flash, Attention::eager}) {
            Scenario s = training(t);
            s.attention = att;
            s.seq_len = 10000000;  // 10M tokens of context
            s.batch_size = 1000000;
            const MemoryDetail d = memory_per_gpu(huge, s, layout_of(s), 80ULL << 30);
            CHECK(d.gpu.total >= d.gpu.weights);
            CHECK(d.gpu.total <= k_u64_cap);
            CHECK(d.kv_budget_bytes == d.kv_budget_bytes);  // not NaN
        }
    }
    // Every fixture, every dtype and kv dtype: finite, positive weights.
    for (const char* id : k_models) {
        const ModelArch a = fixture(id);
        for (int w = 0; w < static_cast<int>(EnumNames<WeightDtype>::count); ++w) {
            for (int k = 0; k < static_cast<int>(EnumNames<KvDtype>::count); ++k) {
                Scenario s;
                s.weight_dtype = static_cast<WeightDtype>(w);
                s.kv_cache_dtype = static_cast<KvDtype>(k);
                const MemoryBreakdown m = mem(a, s);
                CHECK(m.weights > 0);
                CHECK(m.total >= m.weights + m.kv_cache);
            }
        }
    }
}

TEST_CASE("test_memory: the loss as each framework computes it (worked example, docs/memory-model.md §6)") {
    // Llama-3.1-8B LoRA, b=2, s=4096, full recompute, AdamW: only the loss differs between stacks
    // (checkpointing, optimizer and loss given explicitly, adapters and dtypes aside).
    const ModelArch a = fixture("llama-3.1-8b");
    const double T = 2 * 4096, h = 4096, V = 128256, e = 2;
    auto activations = [&](Framework f, LossImpl loss) {
        Scenario s = training(Task::lora);
        s.framework = f;
        s.loss_impl = loss;
        s.batch_size = 2;
        s.seq_len = 4096;
        s.activation_checkpointing = Checkpointing::full;
        s.lora_targets = LoraTargets::qv;
        return static_cast<double>(mem(a, s).activations);
    };
    const double hf = activations(Framework::hf, LossImpl::full);
    // HF keeps the 16-bit logits and the fp32 loss (e + 12 bytes per logit); chunked: the fp32
    // log-softmax (4) + one of 8 chunks' transient (max(e + 4, 8) / 8 = 1) + a copy of the LM-head
    // input; fused: no logits, the LM-head input gradient and one chunk (2·T·h·e) + fp32 lse (4T).
    CHECK(hf - activations(Framework::hf, LossImpl::chunked) == doctest::Approx((e + 12 - 5) * T * V - e * T * h).epsilon(1e-9));
    CHECK(hf - activations(Framework::hf, LossImpl::fused) == doctest::Approx((e + 12) * T * V - 2 * e * T * h - 4 * T).epsilon(1e-9));
    // torchtune's recipes drop the 16-bit logits before backward; Megatron works in one fp32 buffer.
    // (torchtune's bf16 adapters halve the x·A products of q and v: 2 per layer kept, T·r·(4 − 2) each.)
    const double adapters_bf16 = 2 * T * 16 * (4 - 2);
    CHECK(hf - activations(Framework::torchtune, LossImpl::full) == doctest::Approx(e * T * V + adapters_bf16).epsilon(1e-9));
    CHECK(hf - activations(Framework::megatron, LossImpl::full) == doctest::Approx(8 * T * V + adapters_bf16).epsilon(1e-9));
    // The whole HF loss at these sizes: 14 × 8192 × 128256 = 14.7 GB.
    CHECK((e + 12) * T * V == doctest::Approx(14.71e9).epsilon(0.001));
}
