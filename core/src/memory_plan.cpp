// The per-GPU breakdown for one parallel layout: weights, gradients, optimizer states,
// activations, KV cache and overheads, each sharded exactly by the parallelism that divides it,
// with one Explanation per term.
//
// Index
//   [SECTION] Constants (each with its source)
//   [SECTION] Layout and state bytes
//   [SECTION] Model states (ZeRO / offload)
//   [SECTION] Weights per GPU
//   [SECTION] memory_per_gpu
//
// research/memory-model.md §2.3 (state bytes), §2.4 (activations), §2.7 (sharding), §2.8 (overheads).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "activations.hpp"
#include "gpusizer/memory.hpp"

namespace gpusizer {

namespace {

// [SECTION] Constants (each with its source)
constexpr double k_mib = 1048576.0;
constexpr double k_gib = 1073741824.0;
// PyTorch CUDA context + cuBLAS/cuDNN handles and workspaces on first use: 0.4–0.9 GiB measured
// on A100/H100 with CUDA 12 lazy loading; gpu_poor uses 650 MB, asmirnov 1000 MiB (§2.8).
constexpr double k_torch_context_bytes = 640 * k_mib;
// llama.cpp's CUDA backend (no PyTorch): context + cuBLAS workspace, ~300 MiB.
constexpr double k_llama_cpp_context_bytes = 320 * k_mib;
// NCCL communicators and their buffers (NCCL_BUFFSIZE 4 MiB × channels × peers) when GPUs talk:
// "hundreds of MB per process group" (§2.8, vLLM PR #2031).
constexpr double k_nccl_bytes = 512 * k_mib;
// vLLM's CUDA-graph pool for the captured decode batch sizes (not in the profiled peak).
constexpr double k_vllm_cudagraph_bytes = 512 * k_mib;
// PyTorch caching allocator: reserved − allocated gap, 5–20% of the dynamic tensors (§2.8);
// we charge 5% of activations, gradients and (HF) a growing KV cache.
constexpr double k_fragmentation = 0.05;
// vLLM defaults: max_num_batched_tokens 8192 for the profiling run, max_num_seqs 256 dummy
// sequences for the sampler (vllm/config.py SchedulerConfig, V1 engine).
constexpr double k_vllm_profile_tokens = 8192;
constexpr double k_vllm_max_num_seqs = 256;
// llama.cpp default micro-batch (n_ubatch) for its compute graph.
constexpr double k_llama_cpp_ubatch = 512;
// Host RAM per training/serving process: Python, PyTorch, CUDA runtime and pinned staging
// buffers (typical 1.5–3 GiB RSS).
constexpr double k_host_per_process_bytes = 2 * k_gib;
// DeepSpeed's estimator multiplies offloaded CPU memory by additional_buffer_factor = 1.5.
constexpr double k_offload_buffer_factor = 1.5;
// bitsandbytes 8-bit optimizers: blockwise quantization, one fp32 absmax per 2048 values per state.
constexpr double k_bnb_block = 2048;

std::string gib(double bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / k_gib);
    return buf;
}
std::string num(double v) {
    char buf[64];
    if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.4g", v);
    else std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

bool is_training(Task t) { return t != Task::inference; }
bool is_lora(Task t) { return t == Task::lora || t == Task::qlora; }
bool is_16bit_or_32(WeightDtype w) { return w == WeightDtype::fp32 || w == WeightDtype::bf16 || w == WeightDtype::fp16; }

}  // namespace

// [SECTION] Layout and state bytes

Layout layout_of(const Scenario& s) {
    Layout l;
    l.tp = s.tensor_parallel > 0 ? s.tensor_parallel : 1;
    l.pp = s.pipeline_parallel > 0 ? s.pipeline_parallel : 1;
    const std::int64_t g = s.num_gpus > 0 ? s.num_gpus : 1;
    l.dp = g / (l.tp * l.pp) > 0 ? g / (l.tp * l.pp) : 1;
    l.ep = s.expert_parallel > 0 ? s.expert_parallel : 1;
    l.zero = s.zero_stage;
    l.sp = s.sequence_parallel;
    return l;
}

StateBytes state_bytes_per_param(const Scenario& s) {
    StateBytes b;
    if (is_lora(s.task)) {
        // PEFT keeps adapters in fp32 (autocast_adapter_dtype): 4 + 4 grads + optimizer in fp32.
        b.weight = 4;
        b.gradient = 4;
        b.master = 0;
    } else {
        const bool fp32 = s.weight_dtype == WeightDtype::fp32;
        b.weight = fp32 ? 4 : 2;
        b.gradient = fp32 ? 4 : 2;
        b.master = (s.master_weights && !fp32) ? 4 : 0;  // fp32 master copy (ZeRO paper K = 12 includes it)
    }
    // Optimizer states live in fp32 with a master copy or fp32 weights, else in the weight dtype
    // (torch optimizers allocate state like the parameter: "pure bf16" rows of §2.3).
    const double sd = (b.master > 0 || b.weight == 4) ? 4 : 2;
    switch (s.optimizer) {
        case Optimizer::adamw: b.optimizer = 2 * sd; break;  // m, v
        case Optimizer::adamw_8bit:
        case Optimizer::paged_adamw_8bit: b.optimizer = 2 + 2 * 4 / k_bnb_block; break;  // int8 m, v + absmax
        case Optimizer::sgd: b.optimizer = 0; break;
        case Optimizer::sgd_momentum: b.optimizer = sd; break;  // momentum buffer
        case Optimizer::lion: b.optimizer = sd; break;          // one momentum (llm-analysis)
        case Optimizer::adafactor: b.optimizer = 0; break;      // factored rows + columns: added from shapes
    }
    return b;
}

// [SECTION] Model states (ZeRO / offload)

ModelStates model_states(double params, double largest_layer_params, const StateBytes& b, std::int64_t dp, int stage,
                         Offload offload) {
    // ZeRO paper Fig. 1 (Ψ params, N_d ranks): stage 1 shards optimizer states (incl. master),
    // stage 2 also gradients, stage 3 also parameters (+ 2 gathered copies of the largest layer:
    // current + prefetched; DeepSpeed's estimator charges 4 bytes × largest layer).
    const double n = dp > 0 ? static_cast<double>(dp) : 1;
    ModelStates m;
    m.weights = b.weight * params;
    m.gradients = b.gradient * params;
    m.optimizer = (b.master + b.optimizer) * params;
    if (stage >= 1) m.optimizer /= n;
    if (stage >= 2) m.gradients /= n;
    // The gathered copies hold the other ranks' (1 − 1/N) share of a layer; with N = 1 nothing is gathered.
    if (stage >= 3) m.weights = m.weights / n + 2 * largest_layer_params * b.weight * (1 - 1 / n);
    if (offload != Offload::none) {
        // ZeRO-Offload: optimizer states, master weights and fp32 gradient partitions move to CPU
        // (DeepSpeed estimator: CPU 16 bytes/param × 1.5); the GPU keeps 16-bit params only.
        m.host += m.optimizer + 4 * params / (stage >= 2 ? n : 1);
        m.optimizer = 0;
        m.gradients = 0;
        if (offload == Offload::optimizer_and_params && stage >= 3) {
            m.host += b.weight * params / n;
            m.weights = 2 * largest_layer_params * b.weight;  // only the gathered working set stays (DeepSpeed: 4 B × largest layer)
        }
    }
    return m;
}

// [SECTION] memory_per_gpu

MemoryDetail memory_per_gpu(const ModelArch& a, const Scenario& s_in, const Layout& l, std::uint64_t gpu_memory_bytes,
                            bool explaining) {
    MemoryDetail out;
    Scenario s = s_in;
    // `formula` makes the text only when explanations are wanted: solvers and the planner call
    // this thousands of times per scenario, and the formatting would dominate.
    auto explain = [&](const char* term, auto formula, const char* source) {
        if (explaining) out.explanations.push_back({term, formula(), source});
    };
    const bool train = is_training(s.task);
    if ((s.task == Task::pretrain || s.task == Task::full_ft) && !is_16bit_or_32(s.weight_dtype)) {
        out.warnings.push_back(std::string("weight_dtype: ") + to_string(s.weight_dtype) +
                               " weights cannot be trained directly; estimated as bf16 training");
        s.weight_dtype = WeightDtype::bf16;
    }
    const ParamDetail pd = param_detail(a);
    const double t = static_cast<double>(l.tp), p = static_cast<double>(l.pp), dp = static_cast<double>(l.dp);
    const double ep = static_cast<double>(l.ep);
    const double L = static_cast<double>(a.num_layers);

    // --- Layers on the most loaded pipeline stage: ceil(L/pp), MoE layers first (they are heavier).
    const double Ls = std::ceil(L / p);
    const double moe_s = std::fmin(static_cast<double>(pd.moe_layers), Ls);
    const double dense_s = Ls - moe_s;

    // --- Weights per GPU from per-part bytes: linears ÷ tp, routed experts ÷ (tp · ep), norms
    // and router replicated, embedding and LM head vocab-parallel (÷ tp) on the first/last stage.
    const WeightBytesByPart wb = weight_bytes_by_part(a, s.weight_dtype);
    const double k = static_cast<double>(a.num_kv_heads ? a.num_kv_heads : 1);
    double attn_gpu = wb.attention / t;
    if (a.kv_lora_rank == 0 && k < t && wb.attention > 0) {
        // KV projections replicated when tp > k: each rank keeps one whole KV head (vLLM).
        const double kv_share = 2 * k / (2 * k + 2 * static_cast<double>(a.num_heads));
        attn_gpu = wb.attention * (1 - kv_share) / t + wb.attention * kv_share / k;
    }
    const double dense_layer_w = attn_gpu + wb.layer_norms + wb.dense_mlp / t;
    const double moe_layer_w = attn_gpu + wb.layer_norms + wb.expert / (t * ep) + wb.shared / t + wb.router;
    const double layers_w = dense_s * dense_layer_w + moe_s * moe_layer_w;
    // llama.cpp keeps the input embedding table in host memory ("there is very little benefit to
    // offloading the input layer, so always keep it on the CPU", llama-model.cpp load_tensors; its log
    // prints it as the 'CPU buffer' even with every layer offloaded). A tied model still holds the
    // table on the GPU, loaded a second time as the output matrix.
    const bool embedding_on_host = !train && s.engine == Engine::llama_cpp;
    const double embedding_gpu = embedding_on_host && wb.lm_head > 0 ? 0 : wb.embedding / t;
    const double first_extra = embedding_gpu + wb.extra + wb.head_extra;
    const double last_extra = wb.lm_head / t + wb.final_norm;
    const double ends_w = l.pp == 1 ? first_extra + last_extra : std::fmax(first_extra, last_extra);
    double weights = layers_w + ends_w;

    // The same split for parameter counts (states are per parameter).
    const double f_attn = static_cast<double>(pd.attention) / t, f_norm = static_cast<double>(pd.layer_norms);
    const double dense_layer_p = f_attn + f_norm + static_cast<double>(pd.dense_mlp) / t;
    const double moe_dense_p = f_attn + f_norm + static_cast<double>(pd.shared) / t + static_cast<double>(pd.router);
    const double moe_expert_p = static_cast<double>(a.num_experts) * static_cast<double>(pd.expert) / (t * ep);
    const double ends_p = l.pp == 1 ? static_cast<double>(pd.embedding + pd.lm_head + pd.extra + pd.head_extra + pd.final_norm) / t
                                    : std::fmax(static_cast<double>(pd.embedding + pd.extra + pd.head_extra),
                                                static_cast<double>(pd.lm_head + pd.final_norm)) / t;
    const double params_nonexpert_gpu = dense_s * dense_layer_p + moe_s * moe_dense_p + ends_p;
    const double params_expert_gpu = moe_s * moe_expert_p;
    const double largest_layer =
        std::fmax(std::fmax(dense_layer_p, moe_dense_p + moe_expert_p),
                  std::fmax(static_cast<double>(pd.embedding), static_cast<double>(pd.lm_head)) / t);

    double gradients = 0, optimizer = 0, host = 0;
    const StateBytes sb = state_bytes_per_param(s);
    // Expert parameters shard their ZeRO states over dp / ep ranks (llm-analysis mlp_sharded_dp_size).
    const std::int64_t dp_expert = l.dp / l.ep > 0 ? l.dp / l.ep : 1;
    if (train && !is_lora(s.task)) {
        const ModelStates dense = model_states(params_nonexpert_gpu, largest_layer, sb, l.dp, l.zero, s.offload);
        const ModelStates experts = model_states(params_expert_gpu, 0, sb, dp_expert, l.zero, s.offload);
        weights = dense.weights + experts.weights;
        gradients = dense.gradients + experts.gradients;
        optimizer = dense.optimizer + experts.optimizer;
        host += dense.host + experts.host;
        if (s.optimizer_in_backward && s.offload == Offload::none) {
            // Each parameter steps as soon as its gradient exists, so only the largest tensor's
            // gradient is alive (torchtune optimizer_in_bwd; no gradient accumulation).
            gradients = sb.gradient * std::fmax(largest_layer / 4, std::fmax(static_cast<double>(pd.embedding),
                                                                             static_cast<double>(pd.lm_head)) / t);
            out.warnings.push_back("optimizer_in_backward: gradients are freed per parameter; gradient accumulation "
                                   "is not possible");
        }
        if (s.optimizer == Optimizer::adafactor) {
            // Adafactor (no first moment, HF default beta1=None): fp32 row + column statistics per
            // matrix = 4·Σ(d_in + d_out), i.e. a rank-1 "LoRA" over all linears; 1-D tensors full.
            Scenario r1 = s;
            r1.lora_rank = 1;
            r1.lora_targets = LoraTargets::all_linear;
            const double factored = 4.0 * static_cast<double>(lora_params(a, r1)) / (t * p) +
                                    4.0 * static_cast<double>(a.vocab_size + a.hidden_size) / t;
            optimizer += l.zero >= 1 ? factored / dp : factored;
        }
        explain("weights",
                [&] { return std::string(num(params_nonexpert_gpu + params_expert_gpu) + " params on this GPU × " + num(sb.weight) + " B" +
                    (l.zero >= 3 ? " ÷ dp " + num(dp) + " + 2 × largest layer (" + num(largest_layer) + ")" : "") +
                    " = " + gib(weights)); },
                "ZeRO paper (Rajbhandari et al. 2020) Fig. 1; Megatron theoretical_memory_usage.py sharding");
        explain("gradients",
                [&] { return std::string(std::string(s.optimizer_in_backward ? "largest tensor only (optimizer_in_backward)" : "params × " + num(sb.gradient) + " B") +
                    (l.zero >= 2 ? " ÷ dp " + num(dp) : "") + (s.offload != Offload::none ? ", offloaded to CPU" : "") + " = " +
                    gib(gradients)); },
                "ZeRO paper Fig. 1 (stage 2 shards gradients)");
        explain("optimizer",
                [&] { return std::string(std::string(to_string(s.optimizer)) + ": " + num(sb.optimizer) + " B/param + master " + num(sb.master) +
                    " B/param" + (l.zero >= 1 ? " ÷ dp " + num(dp) : "") + (s.offload != Offload::none ? ", offloaded to CPU" : "") +
                    " = " + gib(optimizer)); },
                "research/memory-model.md §2.3: AdamW fp32 m+v 8 B, bnb 8-bit 2 B (+absmax/2048), Lion/SGD momentum 4 B, "
                "Adafactor factored; ZeRO paper K = 12 with master weights");
    } else {
        if (l.zero >= 3 && train)  // frozen base sharded by ZeRO-3 too, + 2 gathered layers
            weights = weights / dp + 2 * largest_layer * (weights / std::fmax(1, params_nonexpert_gpu + params_expert_gpu)) * (1 - 1 / dp);
        explain("weights",
                [&] { return std::string(std::string(to_string(s.weight_dtype)) + " (" + num(weight_bits(s.weight_dtype)) +
                    " bits per quantized weight; embeddings, LM head, norms kept 16-bit" +
                    (s.weight_dtype >= WeightDtype::gguf_q2_k ? ", llama.cpp per-tensor type mix" : "") + "), ÷ tp " + num(t) +
                    ", " + num(Ls) + " of " + num(L) + " layers on this stage = " + gib(weights)); },
                "QLoRA paper §3 (NF4+DQ 4.127 b); GPTQ/AWQ 4 + 20/128 b; ggml block structs; llama.cpp llama_tensor_get_type");
    }
    if (is_lora(s.task)) {
        // Adapters: Ψ_lora split like the layers they sit on; fp32 weights + grads + optimizer.
        const double lora = static_cast<double>(lora_params(a, s, &out.warnings)) / (t * p);
        const ModelStates st = model_states(lora, 0, sb, l.dp, l.zero, s.offload);
        weights += st.weights;
        gradients = st.gradients;
        optimizer = st.optimizer;
        host += st.host;
        explain("gradients", [&] { return std::string(num(lora) + " LoRA params × " + num(sb.gradient) + " B (fp32 adapters) = " + gib(gradients)); },
                "research/memory-model.md §2.3 LoRA/QLoRA: states for adapter parameters only");
        explain("optimizer", [&] { return std::string(num(lora) + " LoRA params × " + num(sb.optimizer) + " B (" + to_string(s.optimizer) + ") = " + gib(optimizer)); },
                "research/memory-model.md §2.3; PEFT keeps adapters in fp32");
    }

    // --- Activations.
    double activations = 0;
    double kv = 0;
    double overhead_extra = 0;
    const double b = static_cast<double>(s.batch_size > 0 ? s.batch_size : 1);
    double S = static_cast<double>(s.seq_len > 0 ? s.seq_len : 1);
    if (a.encoder && a.patch_size > 0) S = static_cast<double>(a.max_position_embeddings);  // ViT: patches + [CLS]
    const double e = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;
    const double V = static_cast<double>(a.vocab_size), h = static_cast<double>(a.hidden_size);
    out.kv = kv_rate(a, s, l.tp, l.pp);
    if (train) {
        const detail::LayerActivations ad = detail::layer_activations_training(a, s, b, S, false, t);
        const detail::LayerActivations am = detail::layer_activations_training(a, s, b, S, true, t);
        auto layer = [&](const detail::LayerActivations& x, bool keep_quadratic) {
            return (l.sp ? x.replicated / t : x.replicated) + (x.split + (keep_quadratic ? x.quadratic : 0)) / t;
        };
        const bool quad = s.activation_checkpointing == Checkpointing::none;  // selective recomputes the s² core
        const double one_layer = std::fmax(dense_s > 0 ? layer(ad, true) : 0, moe_s > 0 ? layer(am, true) : 0);
        const double ckpt = l.sp ? ad.checkpoint / t : ad.checkpoint;
        double stack = 0;
        std::string how;
        switch (s.activation_checkpointing) {
            case Checkpointing::none:
            case Checkpointing::selective:
                stack = dense_s * layer(ad, quad) + moe_s * layer(am, quad);
                if (explaining) how = std::string(s.activation_checkpointing == Checkpointing::none ? "no recompute" : "selective recompute (no s² terms)") +
                      ": " + num(Ls) + " layers × saved tensors";
                break;
            case Checkpointing::full:
                stack = Ls * ckpt + one_layer;  // layer inputs + one layer recomputed in backward
                if (explaining) how = "full recompute: " + num(Ls) + " layer inputs (" + gib(ckpt) + " each) + one layer recomputed (" + gib(one_layer) + ")";
                break;
            case Checkpointing::offload:
                stack = 2 * ckpt + one_layer;  // double-buffered copies to host + one recomputed layer
                host += Ls * ckpt * (l.pp > 1 ? p : 1);
                if (explaining) how = "checkpoints offloaded to host (" + gib(Ls * ckpt) + "), 2 in flight + one recomputed layer";
                break;
        }
        // 1F1B: the first stage keeps pp micro-batches in flight (assumes ≥ pp micro-batches).
        const double stage_stack = l.pp > 1 ? stack * p : stack;
        // Logits at the start of backward: the 16-bit logits (kept by the model output), the fp32
        // log-softmax saved by cross_entropy, and, live together in the loss backward, the fp32
        // gradient w.r.t. the log-softmax (nll_loss backward) and the fp32 gradient of the logits
        // (log_softmax backward) = (e + 12)·b·s·V, vocab-parallel ÷ tp. transformers
        // loss_utils.ForCausalLMLoss upcasts with logits.float(); with fp32 weights that is no copy.
        // Checked against PEFT's MetaMathQA peaks (tests/fixtures/measured_runs.json).
        const double logits = a.encoder ? 0 : (e + 12) * b * S * V / t;
        const double tail = 2 * e * b * S * h / (l.sp ? t : 1) + logits;  // final-norm input + LM-head input + logits
        activations = l.pp > 1 ? std::fmax(stage_stack, stack + tail) : stack + tail;
        if (is_lora(s.task)) activations += L / p * 7 * 4 * b * S * static_cast<double>(s.lora_rank) / t;  // x·A per adapted linear (fp32)
        explain("activations",
                [&] { return std::string(how + "; per layer " + gib(one_layer) + " for b=" + num(b) + ", s=" + num(S) +
                    (l.pp > 1 ? "; × " + num(p) + " micro-batches in flight (1F1B)" : "") + "; logits + loss " + gib(logits) +
                    " = " + gib(activations)); },
                "Korthikanti et al. 2022 Table 2 with flash attention (s² terms only for eager), GQA K/V, gated MLP "
                "4·s·b·i saved tensors; HF fp32 loss upcast");
        if (s.task == Task::qlora) {
            // bitsandbytes dequantizes one 4-bit matrix at a time into 16 bit for forward and backward.
            const double widest = static_cast<double>(std::max(a.intermediate_size, a.moe_intermediate_size));
            overhead_extra += 2 * 2 * h * widest / t;
        }
    } else {
        // Inference: the KV cache and the forward peak of the engine.
        kv = kv_cache_bytes(out.kv, s, b, S);
        double act = 0;
        std::string how;
        if (s.engine == Engine::vllm) {
            const double T = k_vllm_profile_tokens;
            act = detail::layer_peak_inference(a, s, 1, T) / t + k_vllm_max_num_seqs * V * 4 * 2 / t;
            if (explaining) how = "vLLM profiling run: one layer's live tensors for max_num_batched_tokens " + num(T) +
                  " + sampler fp32 logits for max_num_seqs " + num(k_vllm_max_num_seqs);
        } else if (s.engine == Engine::llama_cpp) {
            // llama.cpp compute buffer: ggml-alloc reuses memory along the graph, so the buffer is the
            // largest live set of one phase, in f32 for n_ubatch tokens: the hidden state plus the
            // logits (V), the KQ scores (n_ctx × heads, without flash attention) or the FFN
            // intermediates (gate + up, × top-k experts). 258.50 MiB measured for Llama-3-8B at
            // n_ctx 512 (512 × (128256 + 4096) × 4, tests/fixtures/measured_runs.json); 120 MiB for
            // Mixtral against the 117.85 MiB of llama.cpp #4381.
            const double ub = std::fmin(k_llama_cpp_ubatch, b * S);
            const double ctx = b * S;
            const double kq = s.attention == Attention::flash ? 0 : ctx * static_cast<double>(a.num_heads);
            const double ffn = a.num_experts > 0
                                   ? 2 * static_cast<double>(a.experts_per_token * a.moe_intermediate_size +
                                                             a.num_shared_experts * a.shared_intermediate_size)
                                   : 2 * static_cast<double>(a.intermediate_size);
            act = ub * (h + std::fmax(V, std::fmax(kq, ffn))) * 4;
            if (explaining) how = "llama.cpp compute buffer: n_ubatch " + num(ub) + " × (hidden + max(V logits, KQ, FFN)) × 4 B";
        } else {
            act = detail::layer_peak_inference(a, s, b, S) / t + b * V * 4 * 2 / t;
            if (explaining) how = "HF prefill of " + num(b) + " × " + num(S) + " tokens: one layer's live tensors + last-token logits (fp32)";
        }
        activations = act;
        explain("activations", [&] { return std::string(how + " = " + gib(activations)); },
                "tensor shapes of the forward pass; vLLM gpu_worker.determine_num_available_blocks profiling; llama.cpp #4381");
        explain("kv_cache",
                [&] { return std::string(num(b) + " seq × " + num(S) + " tokens × " + num(out.kv.full_per_token + out.kv.sliding_per_token) +
                    " B/token" + (out.kv.window ? " (windowed layers hold ≤ " + num(static_cast<double>(out.kv.window)) + " tokens)" : "") +
                    (s.engine == Engine::vllm ? ", paged in blocks of 16" : "") + " = " + gib(kv)); },
                a.kv_lora_rank > 0 ? "MLA: L × (kv_lora_rank + qk_rope_head_dim) × bytes, replicated over TP (vLLM MLA backend)"
                                   : "2 × L × max(1, k/tp) × head_dim × bytes (vLLM get_num_kv_heads, cache_engine)");
    }

    // --- Overheads, part by part.
    const std::int64_t gpus = l.tp * l.pp * l.dp;
    OverheadParts parts;
    std::string ov;
    auto part = [&](std::uint64_t& into, double bytes, const char* what) {
        into = to_bytes(bytes);
        if (explaining) ov += std::string(ov.empty() ? "" : " + ") + what + " " + gib(bytes);
    };
    part(parts.cuda_context, s.engine == Engine::llama_cpp && !train ? k_llama_cpp_context_bytes : k_torch_context_bytes,
         "CUDA context + libraries");
    if (gpus > 1) part(parts.nccl, k_nccl_bytes, "NCCL buffers");
    if (!train && s.engine == Engine::vllm) part(parts.cuda_graphs, k_vllm_cudagraph_bytes, "CUDA graphs");
    // DDP reducer buckets: a flat copy of the gradients (gradient_as_bucket_view=False).
    if (train && l.zero == 0 && l.dp > 1 && !s.optimizer_in_backward) part(parts.ddp_buckets, gradients, "DDP gradient buckets");
    if (overhead_extra > 0) part(parts.dequant_buffer, overhead_extra, "4-bit dequantization buffer");
    const double dynamic = activations + gradients + (s.engine == Engine::hf ? kv : 0);
    if (s.engine == Engine::hf || train) {
        part(parts.allocator_slack, k_fragmentation * dynamic, "allocator fragmentation 5% of dynamic tensors");
    }
    const double overhead = static_cast<double>(parts.cuda_context) + static_cast<double>(parts.nccl) +
                            static_cast<double>(parts.cuda_graphs) + static_cast<double>(parts.ddp_buckets) +
                            static_cast<double>(parts.dequant_buffer) + static_cast<double>(parts.allocator_slack);
    explain("overhead", [&] { return std::string(ov + " = " + gib(overhead)); },
            "research/memory-model.md §2.8: PyTorch context 0.4–0.9 GiB (gpu_poor 650 MB, asmirnov 1000 MiB), NCCL "
            "buffers, PyTorch DDP docs (gradient_as_bucket_view), caching-allocator fragmentation 5–20%");

    // --- Host memory for the whole job.
    const double procs = s.engine == Engine::llama_cpp && !train ? 1 : static_cast<double>(gpus);
    host = host * k_offload_buffer_factor * static_cast<double>(gpus);  // per-GPU offload × every GPU of the job
    if (embedding_on_host) host += wb.embedding;                         // llama.cpp's input embedding table
    host += procs * k_host_per_process_bytes;
    // K4 (docs/limits.md): the host sum saturates like every GPU term, and says so.
    bool host_clamped = false;
    out.host_bytes = to_bytes(host, &host_clamped);
    if (host_clamped || out.host_bytes == k_u64_cap)
        out.warnings.push_back("host_memory_bytes: exceeded 9.2e18 bytes and was clamped");
    explain("host_memory_bytes",
            [&] { return std::string(num(procs) + " processes × " + gib(k_host_per_process_bytes) + " + offloaded states × 1.5 = " + gib(host)); },
            "DeepSpeed estimate_zero*_model_states_mem_needs (additional_buffer_factor 1.5)");

    // --- Totals and the budget.
    bool clamped = false;
    MemoryBreakdown& m = out.gpu;
    m.weights = to_bytes(weights, &clamped);
    m.gradients = to_bytes(gradients, &clamped);
    m.optimizer = to_bytes(optimizer, &clamped);
    m.activations = to_bytes(activations, &clamped);
    m.kv_cache = to_bytes(kv, &clamped);
    m.overhead = to_bytes(overhead, &clamped);
    m.total = sat_add(sat_add(sat_add(m.weights, m.gradients), sat_add(m.optimizer, m.activations)), sat_add(m.kv_cache, m.overhead));
    m.overhead_parts = parts;
    const std::uint64_t untracked = sat_add(sat_add(parts.cuda_context, parts.nccl), parts.allocator_slack);
    m.torch_peak_allocated = m.total > untracked ? m.total - untracked : 0;
    if (clamped || m.total == k_u64_cap) out.warnings.push_back("memory: a term exceeded 9.2e18 bytes and was clamped");
    if (gpu_memory_bytes > 0) {
        double limit = static_cast<double>(gpu_memory_bytes);
        if (!train && s.engine == Engine::vllm) limit *= s.gpu_memory_utilization;  // vLLM takes only this fraction
        out.limit_bytes = to_bytes(std::floor(limit));
        out.kv_budget_bytes = limit - (weights + activations + overhead);
        if (!train && s.engine == Engine::vllm)
            explain("kv_capacity_tokens",
                    [&] { return std::string("gpu_memory_utilization " + num(s.gpu_memory_utilization * 100) + "% × " + gib(static_cast<double>(gpu_memory_bytes)) +
                        " − weights − profiled activations − non-torch memory = " + gib(out.kv_budget_bytes) +
                        " of KV blocks (16 tokens each); vLLM pre-allocates all of it"); },
                    "vLLM gpu_worker.determine_num_available_blocks");
    }
    return out;
}

}  // namespace gpusizer
