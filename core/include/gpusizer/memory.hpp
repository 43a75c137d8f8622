#pragma once
// The memory model's pieces, for estimate() and for the planner (which re-runs them for each
// candidate plan). Every formula is in docs/memory-model.md with its source and a worked example.
//
// Index
//   [SECTION] Saturating arithmetic (counts never wrap; a clamp becomes a warning)
//   [SECTION] Parameters (per part, total/active/embedding, LoRA adapters)
//   [SECTION] Weights (bits per weight per dtype, GGUF per-tensor mixes, bytes on a GPU)
//   [SECTION] KV cache
//   [SECTION] A parallel layout and the per-GPU breakdown
//   [SECTION] Model states alone (ZeRO paper / DeepSpeed estimator comparisons)

#include <cstdint>
#include <string>
#include <vector>

#include "gpusizer/estimate.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

// [SECTION] Saturating arithmetic
constexpr std::uint64_t k_u64_cap = 9223372036854775807ULL;  // 2^63 - 1: outputs stay in int64 too

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b);
std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b);
// A finite non-negative double → bytes; NaN/negative → 0, above the cap → the cap (and `clamped` set).
std::uint64_t to_bytes(double v, bool* clamped = nullptr);

// [SECTION] Parameters
struct ParamDetail {
    // One copy of the whole model, by part (parameter counts, not bytes).
    std::uint64_t embedding = 0;     // token (+ position, token-type, patch) embeddings
    std::uint64_t lm_head = 0;       // untied output projection; 0 when tied
    std::uint64_t head_extra = 0;    // BERT pooler, ViT classifier
    std::uint64_t final_norm = 0;
    std::uint64_t extra = 0;         // vision tower + projector of a multimodal config
    std::uint64_t attention = 0;     // one layer: q,k,v,o (or MLA) weights + biases + q/k norms + sinks
    std::uint64_t layer_norms = 0;   // one layer: its RMSNorm/LayerNorm weights
    std::uint64_t dense_mlp = 0;     // one dense MLP
    std::uint64_t expert = 0;        // one routed expert
    std::uint64_t shared = 0;        // all shared experts of one MoE layer (+ their gate)
    std::uint64_t router = 0;        // one MoE layer's router (+ bias)
    std::uint64_t dense_layers = 0;  // layers with a dense MLP
    std::uint64_t moe_layers = 0;    // layers with routed experts
    std::uint64_t total = 0, active = 0;
    std::uint64_t dense_layer_total = 0, moe_layer_total = 0;  // one layer of each kind, all experts
    bool saturated = false;
};
ParamDetail param_detail(const ModelArch& a);

// total, active, embedding (input + untied head), trainable (task dependent).
ParamCounts count_params(const ModelArch& a, const Scenario& s, Notes* warnings = nullptr);

// LoRA adapter parameters: r·(d_in + d_out) per adapted matrix, summed over layers.
std::uint64_t lora_params(const ModelArch& a, const Scenario& s, Notes* warnings = nullptr);
// How many adapted Linear modules a token passes through in one layer (lora_targets; a fused
// q,k,v or gate,up matrix counts once), in the attention and in one MLP (or one expert).
struct LoraLinears {
    int attention = 0, mlp = 0;
};
LoraLinears lora_linears(const ModelArch& a, const Scenario& s);

// [SECTION] Weights
// Bits per weight of the tensors a format quantizes (block/group metadata included):
// nf4 4.127, int4_gptq/awq 4.156, gguf types from their block structs.
double weight_bits(WeightDtype w);
// Bytes of the whole model stored in `w` (one copy): quantized linears at their format's
// bits, the tensors each format keeps in 16 bit (embeddings, LM head, norms) at 2 bytes,
// GGUF with llama.cpp's per-tensor type mix; a config with a quantization_config as its
// checkpoint stores it (see below). The layers the model runs (model_bytes adds MTP modules).
std::uint64_t weights_bytes(const ModelArch& a, WeightDtype w);
// Bytes per parameter of one decoder layer's linears, of the embedding and of the LM head in
// `w` (used to shard weights by part).
struct WeightBytesByPart {
    double embedding = 0, lm_head = 0, head_extra = 0, final_norm = 0, extra = 0;
    double attention = 0, layer_norms = 0, dense_mlp = 0, expert = 0, shared = 0, router = 0;  // one layer
    double dense_layers = 0, moe_layers = 0;  // counts
    double total() const;
};
WeightBytesByPart weight_bytes_by_part(const ModelArch& a, WeightDtype w);
// The same from the model's param_detail(a), when the caller has it.
WeightBytesByPart weight_bytes_by_part(const ModelArch& a, const ParamDetail& d, WeightDtype w);

// Checkpoints as stored (docs/memory-model.md). A config whose quantization_config was read
// (ModelArch.quant_*) sizes its weights as the checkpoint stores them, whatever `w` says, except
// for a GGUF `w` (a different file: llama.cpp's mix wins). weight_bytes_by_part and weights_bytes
// follow this; `w` then describes the compute only.
bool stored_quantization_applies(const ModelArch& a, WeightDtype w);
// Bytes of one [out, in] linear as stored (weights + scales + zero points + indices).
double stored_linear_bytes(const ModelArch& a, double out, double in);
// The whole checkpoint as stored (every tensor: all layers, all experts, the MTP modules a
// DeepSeek-style checkpoint carries): download and disk size. GGUF: the file size (no MTP).
// `notes` (optional) gets the sentence saying how the weights were sized (weights as stored from a
// quantization_config, or why a quantization_config was not used).
std::uint64_t model_bytes(const ModelArch& a, WeightDtype w, Notes* notes = nullptr);
// That sentence alone (zh: in Chinese); "" when the checkpoint is stored as `w` says.
std::string stored_weights_note(const ModelArch& a, WeightDtype w, bool zh = false);

// [SECTION] KV cache
// Bytes per stored element for the cache dtype (auto = the compute dtype: 4 for fp32 weights, else 2).
double kv_bytes_per_element(KvDtype kv, WeightDtype w);
// Per token, per GPU, every attention layer (MLA: latent + rope key, replicated over TP;
// GQA: max(1, k/tp) heads), layers of one pipeline stage.
std::uint64_t kv_bytes_per_token(const ModelArch& a, const Scenario& s, std::int64_t tp, std::int64_t pp = 1);
// Split into full-attention layers and sliding-window layers (which hold at most W tokens).
struct KvRate {
    double full_per_token = 0;     // bytes per token of full-attention layers, per GPU
    double sliding_per_token = 0;  // bytes per token of windowed layers, per GPU
    std::uint64_t window = 0;
};
KvRate kv_rate(const ModelArch& a, const Scenario& s, std::int64_t tp, std::int64_t pp);
// Whole cache for `batch` sequences of `seq` tokens (vLLM: rounded up to blocks of 16).
double kv_cache_bytes(const KvRate& r, const Scenario& s, double batch, double seq);

// [SECTION] A parallel layout and the per-GPU breakdown
struct Layout {
    std::int64_t tp = 1, pp = 1, dp = 1, ep = 1;
    int zero = 0;
    bool sp = false;
};
Layout layout_of(const Scenario& s);  // dp = num_gpus / (tp · pp)

struct MemoryDetail {
    MemoryBreakdown gpu;            // per GPU (the most loaded one)
    std::uint64_t host_bytes = 0;   // CPU RAM for the whole job
    std::uint64_t limit_bytes = 0;  // what `budgeted_bytes` must fit in: the memory CUDA lets a process
                                    // use (vLLM: × gpu_memory_utilization); 0 = no GPU
    std::uint64_t budgeted_bytes = 0;  // the part of the total the limit applies to (vLLM: without
                                       // its CUDA graphs, which live in the headroom it leaves)
    double kv_budget_bytes = 0;     // inference: memory left for the KV cache under `limit_bytes`
    KvRate kv;
    std::vector<Explanation> explanations;
    Notes warnings;
};
// gpu_memory_bytes: the GPU's memory (catalog size, or gpu_memory_gib when the scenario gives it,
// which is taken as the usable total); 0 when no GPU is chosen (no fit, no budget). explain = false leaves
// `explanations` empty (inner loops: solvers, planner); the numbers are the same.
MemoryDetail memory_per_gpu(const ModelArch& a, const Scenario& s, const Layout& l, std::uint64_t gpu_memory_bytes,
                            bool explain = true);
// The same with the model's param_detail(a) made once by a caller that sizes many layouts of one
// model (solvers, the planner).
MemoryDetail memory_per_gpu(const ModelArch& a, const ParamDetail& pd, const Scenario& s, const Layout& l,
                            std::uint64_t gpu_memory_bytes, bool explain = true);

// What estimate() reads off the breakdown on a GPU (gpu_memory_bytes > 0), and the planner's
// serving candidates too: it fits when the part the limit applies to is within it (headroom: the
// limit − that part); serving, the tokens the KV cache holds in what is left (vLLM: whole blocks of 16).
bool fits_on_gpu(const MemoryDetail& md);
// MemoryDetail::limit_bytes outside vLLM: the memory CUDA lets a process use of a GPU of
// gpu_memory_bytes (`given`: the user's gpu_memory_gib, taken as usable already); 0 without a GPU.
std::uint64_t cuda_limit_bytes(std::uint64_t gpu_memory_bytes, bool given);
std::uint64_t kv_capacity_tokens(const Scenario& s, const MemoryDetail& md);

// vLLM's batch knobs with the defaults of the scenario's engine_version on a GPU of this size
// (engine/arg_utils.py): what its profile run uses.
struct VllmKnobs {
    std::int64_t max_num_batched_tokens = 0, max_num_seqs = 0;
};
VllmKnobs vllm_knobs(const Scenario& s, double gpu_memory_bytes);

// [SECTION] Model states alone
// Bytes per trainable parameter of gradients, optimizer states and the fp32 master copy for
// this scenario (weights themselves come from weights_bytes).
struct StateBytes {
    double weight = 2, gradient = 2, master = 0, optimizer = 8;
};
StateBytes state_bytes_per_param(const Scenario& s);
// Model states per GPU for Ψ parameters over dp ranks with ZeRO `stage` and offload, plus the
// ZeRO-3 working set (2 gathered copies of the largest layer). Used by the per-GPU breakdown
// and compared with the ZeRO paper (Fig. 1) and DeepSpeed's estimator.
struct ModelStates {
    double weights = 0, gradients = 0, optimizer = 0;  // optimizer includes the master copy
    double host = 0;                                   // offloaded to CPU (before buffer factor)
};
ModelStates model_states(double params, double largest_layer_params, const StateBytes& b, std::int64_t dp, int stage,
                         Offload offload);

}  // namespace gpusizer
