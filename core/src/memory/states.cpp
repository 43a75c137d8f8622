// Training states: weights, gradients, optimizer states and the fp32 master copy, per trainable
// parameter, sharded by ZeRO and moved by offload (ZeRO paper Fig. 1; DeepSpeed's estimators;
// docs/research/memory-model.md §2.3, §2.7; docs/frameworks.md for each framework's dtypes).
//
// Index
//   [SECTION] Constants
//   [SECTION] Bytes per parameter
//   [SECTION] ZeRO / offload
//   [SECTION] The training states of one GPU
#include <algorithm>
#include <cmath>

#include "steps.hpp"

namespace gpusizer {

namespace {

// [SECTION] Constants
// bitsandbytes 8-bit optimizers: blockwise quantization, one fp32 absmax per 2048 values per state.
constexpr double k_bnb_block = 2048;
// DeepSpeed ZeRO-1/2 reduce_bucket_size default: 5e8 elements (deepspeed/runtime/zero/config.py).
constexpr double k_zero_bucket_elements = 5e8;


}  // namespace

// [SECTION] Bytes per parameter

StateBytes state_bytes_per_param(const Scenario& s) {
    StateBytes b;
    const memory::Traits& fw = memory::traits(s.framework);
    if (is_lora(s.task)) {
        // Adapters: fp32 under PEFT (autocast_adapter_dtype), bf16 in torchtune and Megatron.
        b.weight = fw.adapter_bytes;
        b.gradient = fw.adapter_bytes;
        b.master = 0;
    } else {
        const bool fp32 = s.weight_dtype == WeightDtype::fp32;
        // torch.autocast mixed precision (HF Trainer --bf16/--fp16 on an fp32 model): the fp32
        // parameters are the master copy and their gradients are fp32 too; the 16-bit copies each
        // matmul makes are counted with the activations (training_states: autocast_copies).
        const bool amp = s.master_weights && !fp32 && fw.amp_fp32_params;
        b.weight = fp32 || amp ? 4 : 2;
        b.gradient = fp32 || amp ? 4 : 2;
        b.master = (s.master_weights && !fp32 && !amp) ? 4 : 0;  // fp32 master copy (ZeRO paper K = 12 includes it)
    }
    if (fw.main_grad_bytes > b.gradient) b.gradient = fw.main_grad_bytes;  // Megatron main_grad in fp32
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

// [SECTION] ZeRO / offload

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

namespace memory {

// [SECTION] The training states of one GPU

namespace {

void explain(const Job& j, MemoryDetail& out, const char* term, const std::string& formula, const char* source) {
    if (j.explain) out.explanations.push_back({term, formula, source});
}

bool autocast(const Job& j) {
    return j.s.master_weights && j.s.weight_dtype != WeightDtype::fp32 && j.fw.amp_fp32_params;
}

// Adafactor (no first moment, HF default beta1=None): fp32 row + column statistics per matrix =
// 4·Σ(d_in + d_out), i.e. a rank-1 "LoRA" over all linears; 1-D tensors full.
double adafactor_states(const Job& j) {
    Scenario r1 = j.s;
    r1.lora_rank = 1;
    r1.lora_targets = LoraTargets::all_linear;
    const double factored = 4.0 * static_cast<double>(lora_params(j.a, r1)) / (j.t * j.p) +
                            4.0 * static_cast<double>(j.a.vocab_size + j.a.hidden_size) / j.t;
    return j.l.zero >= 1 ? factored / j.dp : factored;
}

// Full training (pretrain, full fine-tuning): every parameter has a gradient and optimizer states.
States full_training_states(const Job& j, const Share& sh, const StateBytes& sb, MemoryDetail& out) {
    const Scenario& s = j.s;
    States st;
    // Expert parameters shard their ZeRO states over dp / ep ranks (llm-analysis mlp_sharded_dp_size).
    const std::int64_t dp_expert = j.l.dp / j.l.ep > 0 ? j.l.dp / j.l.ep : 1;
    const ModelStates dense = model_states(sh.params_dense, sh.largest_layer, sb, j.l.dp, j.l.zero, s.offload);
    const ModelStates experts = model_states(sh.params_expert, 0, sb, dp_expert, j.l.zero, s.offload);
    st.weights = dense.weights + experts.weights;
    st.gradients = dense.gradients + experts.gradients;
    st.optimizer = dense.optimizer + experts.optimizer;
    st.host = dense.host + experts.host;
    if (autocast(j)) {
        // autocast caches the 16-bit copy of each weight it casts (cache_enabled=True) and the
        // matmul saves it for backward: the copies of the layers whose activations are kept
        // (one layer under recompute) and of the LM head live until the backward pass uses them.
        const bool recompute = s.activation_checkpointing == Checkpointing::full ||
                               s.activation_checkpointing == Checkpointing::offload;
        st.autocast_copies = j.e * ((recompute ? 1 : j.layers) * sh.decoder_layer + sh.lm_head_params);
    }
    // The backward pass starts at the loss: the LM head's gradient exists first, every other
    // gradient appears as the pass goes down the layers (and with ZeRO-2/3 is reduced away).
    const double shard = j.l.zero >= 2 ? j.dp : 1;
    st.gradients_at_backward = s.offload == Offload::none ? sb.gradient * sh.lm_head_params / shard : 0;
    if (s.optimizer_in_backward && s.offload == Offload::none) {
        // Each parameter steps as soon as its gradient exists, so only the largest tensor's
        // gradient is alive (torchtune optimizer_in_bwd; no gradient accumulation).
        st.gradients = sb.gradient * std::fmax(sh.largest_layer / 4, sh.lm_head_params);
        st.gradients_at_backward = st.gradients;
        out.warnings.add("optimizer_in_backward: gradients are freed per parameter; gradient accumulation is not possible",
                         "optimizer_in_backward:梯度逐参数释放;无法进行梯度累积");
    }
    if (s.optimizer == Optimizer::adafactor) st.optimizer += adafactor_states(j);
    if (!j.explain) return st;
    const double on_gpu = sh.params_dense + sh.params_expert;
    explain(j, out, "weights",
            num(on_gpu) + " params on this GPU × " + num(sb.weight) + " B" +
                (st.autocast_copies > 0 ? " (fp32 parameters under torch.autocast)" : "") +
                (j.l.zero >= 3 ? " ÷ dp " + num(j.dp) + " + 2 × largest layer (" + num(sh.largest_layer) + ")" : "") +
                " = " + format_gib(st.weights),
            "ZeRO paper (Rajbhandari et al. 2020) Fig. 1; Megatron theoretical_memory_usage.py sharding");
    explain(j, out, "gradients",
            std::string(s.optimizer_in_backward ? "largest tensor only (optimizer_in_backward)" : "params × " + num(sb.gradient) + " B") +
                (j.l.zero >= 2 ? " ÷ dp " + num(j.dp) : "") + (s.offload != Offload::none ? ", offloaded to CPU" : "") + " = " +
                format_gib(st.gradients),
            j.fw.main_grad_bytes > 0 ? "Megatron fp32 main_grad buffer (theoretical_memory_usage.py 18 B/param)"
                                     : "ZeRO paper Fig. 1 (stage 2 shards gradients)");
    explain(j, out, "optimizer",
            std::string(to_string(s.optimizer)) + ": " + num(sb.optimizer) + " B/param + master " + num(sb.master) + " B/param" +
                (j.l.zero >= 1 ? " ÷ dp " + num(j.dp) : "") + (s.offload != Offload::none ? ", offloaded to CPU" : "") + " = " +
                format_gib(st.optimizer),
            "docs/research/memory-model.md §2.3: AdamW fp32 m+v 8 B, bnb 8-bit 2 B (+absmax/2048), Lion/SGD "
            "momentum 4 B, Adafactor factored; ZeRO paper K = 12 with master weights");
    return st;
}

// LoRA / QLoRA: the frozen base at its storage precision, sharded by ZeRO-3 too (+ 2 gathered
// layers), or on the CPU with parameter offload; states for the adapters only.
States adapter_states(const Job& j, const Share& sh, const StateBytes& sb, MemoryDetail& out) {
    const Scenario& s = j.s;
    States st;
    double base = sh.weights;
    // A k-bit upcast (PEFT prepare_model_for_kbit_training) turns the 16-bit embeddings, LM head
    // and norms of a QLoRA model into fp32. Only a bitsandbytes-loaded model goes through it (TRL
    // calls it for is_loaded_in_4bit/8bit; GPTQ and pre-quantized fp8/mxfp4 keep their 16-bit parts).
    const bool bnb = (s.weight_dtype == WeightDtype::nf4 || s.weight_dtype == WeightDtype::int8) &&
                     (j.a.quant_method.empty() || j.a.quant_method == "bitsandbytes");
    if (s.task == Task::qlora && j.fw.kbit_upcast && bnb) {
        const double upcast = 2.0 * (sh.embedding_params + sh.norm_params);
        base += upcast;
        if (j.explain)  // the text only when explaining (the planner sizes many candidates)
            explain(j, out, "weights_upcast", "embeddings, LM head and norms cast to fp32: + " + format_gib(upcast),
                    "peft prepare_model_for_kbit_training (\"cast all non INT8 parameters to fp32\"), which TRL's "
                    "SFTTrainer calls for 4-bit models");
    }
    double base_on_host = 0;
    const bool params_offloaded = j.l.zero >= 3 && s.offload == Offload::optimizer_and_params;
    if (j.l.zero >= 3) {
        const double per_param = base / std::fmax(1, sh.params_dense + sh.params_expert);
        const double gathered = 2 * sh.largest_layer * per_param;  // current + prefetched unit
        if (params_offloaded) {
            // ZeRO-3 offload_param and FSDP CPUOffload(offload_params=True) keep every parameter
            // shard on the CPU, the frozen base's too: a unit is gathered whole onto the GPU for
            // its forward and backward, then freed (FSDP-QLoRA runs 70B on 2 × 24 GB this way).
            base_on_host = base / j.dp;
            base = gathered;
        } else {
            base = base / j.dp + gathered * (1 - 1 / j.dp);
        }
    }
    const double lora = static_cast<double>(lora_params(j.a, s, &out.warnings)) / (j.t * j.p);
    const ModelStates ad = model_states(lora, 0, sb, j.l.dp, j.l.zero, s.offload);
    st.weights = base + ad.weights;
    st.gradients = ad.gradients;
    st.gradients_at_backward = ad.gradients;  // small; they grow through the backward pass
    st.optimizer = ad.optimizer;
    st.host = ad.host + base_on_host;
    if (!j.explain) return st;
    explain(j, out, "weights",
            "frozen base: " + weights_formula(j, sh) +
                (params_offloaded ? ", shards on the CPU (offload_param), 2 gathered layers on the GPU"
                                  : j.l.zero >= 3 ? ", ÷ dp " + num(j.dp) + " + 2 gathered layers" : "") +
                "; + " + num(lora) + " adapter params × " + num(sb.weight) + " B = " + format_gib(st.weights),
            k_weights_source);
    explain(j, out, "gradients", num(lora) + " LoRA params × " + num(sb.gradient) + " B = " + format_gib(st.gradients),
            "docs/research/memory-model.md §2.3 LoRA/QLoRA: states for adapter parameters only");
    explain(j, out, "optimizer",
            num(lora) + " LoRA params × " + num(sb.optimizer) + " B (" + to_string(s.optimizer) + ") = " + format_gib(st.optimizer),
            "docs/research/memory-model.md §2.3");
    return st;
}

// Gradient buckets: DDP reducer buckets are a flat copy of the gradients
// (gradient_as_bucket_view=False); DeepSpeed ZeRO-1/2 reduce through one fixed bucket of
// 5e8 elements in the gradient dtype (ZeRO-3 reduce-scatters in place).
double gradient_buckets(const Job& j, const States& st, const StateBytes& sb) {
    if (j.l.dp <= 1 || j.s.offload != Offload::none || j.s.optimizer_in_backward) return 0;
    if (j.fw.fixed_grad_bucket && j.l.zero >= 1 && j.l.zero <= 2) return std::fmin(k_zero_bucket_elements * sb.gradient, st.gradients);
    return j.l.zero == 0 ? st.gradients : 0;
}

}  // namespace

States training_states(const Job& j, const Share& sh, MemoryDetail& out) {
    const StateBytes sb = state_bytes_per_param(j.s);
    States st = j.lora ? adapter_states(j, sh, sb, out) : full_training_states(j, sh, sb, out);
    st.bucket = gradient_buckets(j, st, sb);
    return st;
}

}  // namespace memory
}  // namespace gpusizer
