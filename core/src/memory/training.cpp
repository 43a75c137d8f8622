// What the backward pass holds when it begins: the layers' saved tensors (or their checkpoints,
// on the GPU or in host memory), the loss over the vocabulary as the framework computes it, and
// the LoRA adapters' products. Shapes: layer_activations.cpp; frameworks: docs/frameworks.md.
//
// Index
//   [SECTION] Constants
//   [SECTION] The activation stack (checkpointing and offload)
//   [SECTION] The loss (full, chunked, fused)
//   [SECTION] LoRA adapters and 4-bit dequantization
//   [SECTION] training_activations
#include <algorithm>
#include <cmath>

#include "steps.hpp"

namespace gpusizer::memory {

namespace {

// [SECTION] Constants
// torchtune LinearCrossEntropyLoss / CEWithChunkedOutputLoss: num_output_chunks = 8.
constexpr double k_loss_chunks = 8;

// [SECTION] The activation stack (checkpointing and offload)

struct Stack {
    double bytes = 0, host = 0, one_layer = 0;
    std::string how;
};

Stack activation_stack(const Job& j) {
    const ModelArch& a = j.a;
    const Scenario& s = j.s;
    const detail::LayerActivations ad = detail::layer_activations_training(a, s, j.b, j.S, false, j.t);
    const detail::LayerActivations am = detail::layer_activations_training(a, s, j.b, j.S, true, j.t);
    const double T = j.b * j.S;
    // Unsloth's LoRA_MLP kernel keeps its input and the gate and up outputs (e, g), and recomputes
    // act(e)·g in backward: 2·e·T·i of the 4·e·T·i an autograd MLP saves.
    auto fused_mlp_saving = [&](bool moe) {
        if (!j.fw.fused_lora_mlp || !j.lora || !a.gated_mlp) return 0.0;
        const double i = static_cast<double>(moe ? a.moe_intermediate_size : a.intermediate_size);
        const double k = moe ? static_cast<double>(a.experts_per_token) : 1;
        return 2 * j.e * T * i * k / j.t;
    };
    auto layer = [&](const detail::LayerActivations& x, bool keep_quadratic, bool moe) {
        return (j.l.sp ? x.replicated / j.t : x.replicated) + (x.split + (keep_quadratic ? x.quadratic : 0)) / j.t -
               fused_mlp_saving(moe);
    };
    Stack st;
    const bool quad = s.activation_checkpointing == Checkpointing::none;  // selective recomputes the s² core
    st.one_layer = std::fmax(j.dense_layers > 0 ? layer(ad, true, false) : 0, j.moe_layers > 0 ? layer(am, true, true) : 0);
    const double ckpt = j.l.sp ? ad.checkpoint / j.t : ad.checkpoint;
    switch (s.activation_checkpointing) {
        case Checkpointing::none:
        case Checkpointing::selective:
            st.bytes = j.dense_layers * layer(ad, quad, false) + j.moe_layers * layer(am, quad, true);
            if (j.explain)
                st.how = std::string(s.activation_checkpointing == Checkpointing::none ? "no recompute"
                                                                                      : "selective recompute (no s² terms)") +
                         ": " + num(j.layers) + " layers × saved tensors";
            break;
        case Checkpointing::full:
            st.bytes = j.layers * ckpt + st.one_layer;  // layer inputs + one layer recomputed in backward
            if (j.explain)
                st.how = "full recompute: " + num(j.layers) + " layer inputs (" + format_gib(ckpt) + " each) + one layer recomputed (" +
                         format_gib(st.one_layer) + ")";
            break;
        case Checkpointing::offload: {
            // The checkpoints go to host memory; the GPU holds those still in flight and, in the
            // backward pass, the layer being recomputed (its input back on the GPU).
            const double in_flight = std::fmin(j.fw.offload_in_flight, j.layers);
            st.bytes = in_flight * ckpt + ckpt + st.one_layer;
            st.host = j.layers * ckpt * (j.l.pp > 1 ? j.p : 1);
            if (j.explain)
                st.how = "checkpoints offloaded to host (" + format_gib(j.layers * ckpt) + "; " + j.fw.offload_how + "): " +
                         num(in_flight) + " in flight + the input and activations of the layer being recomputed";
            break;
        }
    }
    return st;
}

// [SECTION] The loss (full, chunked, fused)

struct Loss {
    double bytes = 0;
    std::string how;
    const char* source = "";
};

Loss loss_memory(const Job& j) {
    Loss r;
    const ModelArch& a = j.a;
    if (a.encoder) return r;  // encoders: a small head, no vocabulary-wide logits
    const double T = j.b * j.S, V = static_cast<double>(a.vocab_size), h = static_cast<double>(a.hidden_size);
    const double TV = T * V / j.t;                          // logits elements on this GPU (vocab-parallel)
    const double head_input = 2 * j.e * T * h / (j.l.sp ? j.t : 1);  // final-norm input + LM-head input
    switch (j.s.loss_impl) {
        case LossImpl::full: {
            // Logits materialised: the 16-bit model output (when the framework keeps it) plus the fp32
            // loss: PyTorch cross_entropy on a .float() copy saves its log-softmax and, in backward,
            // the gradients of the log-softmax and of the logits (12 B per logit); Megatron's
            // vocab-parallel cross-entropy works in one fp32 buffer in place (4 B).
            const double per = (j.fw.keeps_logits ? j.e : 0) + j.fw.full_loss_fp32;
            r.bytes = head_input + per * TV;
            if (j.explain) r.how = "logits + loss " + num(per) + " B × " + num(T) + " tokens × " + num(V) + " vocab";
            r.source = "transformers loss_utils.ForCausalLMLoss (logits.float()); torchtune recipes `del logits`; "
                       "Megatron _VocabParallelCrossEntropy (in place)";
            break;
        }
        case LossImpl::chunked: {
            // torchtune LinearCrossEntropyLoss: the output projection and the fp32 loss per chunk of
            // the sequence; each chunk's fp32 log-softmax (4 B per logit) is saved for backward, the
            // chunk's 16-bit logits and fp32 copy (e + 4) or its backward gradients (8) are transient;
            // the masked hidden chunk is a copy of the LM-head input.
            const double transient = std::fmax(j.e + 4, 8) / k_loss_chunks;
            r.bytes = head_input + j.e * T * h / j.t + (4 + transient) * TV;
            if (j.explain)
                r.how = "chunked loss: fp32 log-softmax 4 B + one of " + num(k_loss_chunks) + " chunks " + num(transient * k_loss_chunks) +
                        " B per logit";
            r.source = "torchtune modules/loss/cross_entropy_loss.py LinearCrossEntropyLoss (num_output_chunks=8)";
            break;
        }
        case LossImpl::fused: {
            // Fused linear cross-entropy (Liger, Cut Cross-Entropy, Unsloth): no T×V tensor lives;
            // the gradient of the LM-head input is allocated in forward (T·h), one chunk of logits
            // is about T·h elements (Liger chunk_size = next_pow2(BT / ceil(V / H))), plus fp32 lse.
            r.bytes = head_input + 2 * j.e * T * h / j.t + 4 * T;
            if (j.explain) r.how = "fused linear cross-entropy: no logits; input gradient + one chunk ≈ 2 × T × h";
            r.source = "Liger ops/fused_linear_cross_entropy.py; apple/ml-cross-entropy cce.py; unsloth-zoo fused CE";
            break;
        }
    }
    return r;
}

// [SECTION] LoRA adapters and 4-bit dequantization

// x·A of every adapted linear, saved by B for its weight gradient: T·r per adapter in the adapter
// dtype; for the layers whose activations are kept (checkpointing recomputes the others).
double adapter_products(const Job& j, double kept_layers) {
    if (!j.lora) return 0;
    const LoraLinears n = lora_linears(j.a, j.s);
    const double K = j.a.num_experts > 0 ? static_cast<double>(j.a.experts_per_token) : 1;
    const double per_token = (static_cast<double>(n.attention) + static_cast<double>(n.mlp) * K) *
                             static_cast<double>(j.s.lora_rank) * j.fw.adapter_bytes;
    return kept_layers * j.b * j.S * per_token / j.t;
}

// bitsandbytes / torchao dequantize one 4-bit matrix at a time into 16 bit for each matmul.
double dequant_buffer(const Job& j) {
    if (j.s.task != Task::qlora) return 0;
    const double widest = static_cast<double>(std::max(j.a.intermediate_size, j.a.moe_intermediate_size));
    return 2 * 2 * static_cast<double>(j.a.hidden_size) * widest / j.t;
}

}  // namespace

// [SECTION] training_activations

Activations training_activations(const Job& j, MemoryDetail& out) {
    Activations r;
    const Stack st = activation_stack(j);
    const Loss loss = loss_memory(j);
    const bool recompute = j.s.activation_checkpointing == Checkpointing::full ||
                           j.s.activation_checkpointing == Checkpointing::offload;
    r.stack = st.bytes;
    r.loss = loss.bytes;
    r.adapters = adapter_products(j, recompute ? 1 : j.layers);
    // 1F1B: the first stage keeps pp micro-batches in flight (assumes ≥ pp micro-batches), the
    // last stage one micro-batch and the loss; the most loaded of the two is what counts.
    if (j.l.pp > 1 && j.p * (r.stack + r.adapters) > r.stack + r.adapters + r.loss) {
        r.stack *= j.p;
        r.adapters *= j.p;
        r.loss = 0;
    }
    r.host = st.host;
    r.dequant = dequant_buffer(j);
    if (j.explain)
        out.explanations.push_back(
            {"activations",
             st.how + "; per layer " + format_gib(st.one_layer) + " for b=" + num(j.b) + ", s=" + num(j.S) +
                 (j.l.pp > 1 ? "; × " + num(j.p) + " micro-batches in flight (1F1B)" : "") + "; " + loss.how + " " +
                 format_gib(r.loss) + (r.adapters > 0 ? "; LoRA x·A " + format_gib(r.adapters) : "") + " = " + format_gib(r.total()),
             std::string("Korthikanti et al. 2022 Table 2 with flash attention (s² terms only for eager), GQA K/V, "
                         "gated MLP saved tensors; ") + j.fw.name + " (docs/frameworks.md); " + loss.source});
    return r;
}

}  // namespace gpusizer::memory
