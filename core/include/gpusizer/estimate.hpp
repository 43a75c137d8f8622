#pragma once
// The memory estimate: for one scenario, how much each GPU needs, part by part, whether it
// fits the chosen GPU, and the largest batch / sequence / KV capacity that still fits.
// Output keys follow docs/scenario.md (`estimate --json`).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/result.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

struct ParamCounts {
    std::uint64_t total = 0;      // every parameter (MoE: all experts)
    std::uint64_t active = 0;     // used per token (MoE: top-k routed + shared + dense parts)
    std::uint64_t trainable = 0;  // full training: total; LoRA/QLoRA: adapter parameters; inference: 0
    std::uint64_t embedding = 0;  // input embedding (+ untied LM head)
};

// What `overhead` holds, part by part (bytes per GPU); the parts sum to `overhead`.
struct OverheadParts {
    std::uint64_t cuda_context = 0;     // CUDA context, kernels, cuBLAS/cuDNN handles (not torch tensors)
    std::uint64_t nccl = 0;             // NCCL communicators and buffers (cudaMalloc, not torch)
    std::uint64_t cuda_graphs = 0;      // vLLM's captured decode graphs
    std::uint64_t ddp_buckets = 0;      // DDP / ZeRO gradient buckets (torch tensors)
    std::uint64_t dequant_buffer = 0;   // a 4-bit matrix dequantized to 16 bit (torch tensor)
    std::uint64_t allocator_slack = 0;  // caching allocator: reserved but not allocated
};

struct MemoryBreakdown {  // bytes per GPU (the most loaded one)
    std::uint64_t weights = 0, gradients = 0, optimizer = 0, activations = 0, kv_cache = 0,
                  overhead = 0, total = 0;
    OverheadParts overhead_parts;
    // What torch.cuda.max_memory_allocated() shows for the same run: the total without the CUDA
    // context, NCCL's own buffers and the allocator's slack (memory torch does not count as allocated).
    std::uint64_t torch_peak_allocated = 0;
};

// One line of "how was this computed": shown as a tooltip in the page and by the CLI.
struct Explanation {
    std::string term;     // "weights", "kv_cache", … (a key of MemoryBreakdown) or another output key
    std::string formula;  // the formula with the numbers put in
    std::string source;   // where the formula or constant comes from
};

struct GpuFit {
    std::string id;  // accelerator id, or "custom"
    std::uint64_t memory_bytes = 0;
    bool fits = false;
    std::uint64_t headroom_bytes = 0;   // memory - total when it fits, else 0
    std::uint64_t shortfall_bytes = 0;  // total - memory when it does not fit, else 0
};

struct Throughput {
    double tokens_per_s = 0;
    double prefill_tokens_per_s = 0;
    double decode_tokens_per_s_per_seq = 0;
    // Vision, diffusion and speech models (docs/scenario.md, other kinds); null for token models.
    std::optional<double> images_per_s;       // vision, diffusion: the whole job
    std::optional<double> seconds_per_image;  // diffusion: one image at `steps` (VAE decode included)
    std::optional<double> realtime_factor;    // speech: audio seconds per wall-clock second
};

struct TimeEstimate {
    double hours = 0;
    double gpu_hours = 0;
};

struct Estimate {
    Scenario scenario;
    Notes warnings;  // assumptions and warnings, in English and Chinese
    ParamCounts params;
    MemoryBreakdown memory_per_gpu_bytes;
    std::uint64_t host_memory_bytes = 0;
    std::uint64_t kv_bytes_per_token = 0;  // per GPU
    std::optional<GpuFit> gpu;
    std::optional<std::uint64_t> kv_capacity_tokens;
    std::optional<std::uint64_t> kv_pool_bytes;  // vLLM with a gpu: the KV cache it pre-allocates ("Available KV cache memory")
    std::optional<std::int64_t> max_batch_size;
    std::optional<std::int64_t> max_seq_len;
    std::optional<Throughput> throughput;
    std::optional<TimeEstimate> time;
    std::vector<Explanation> explanations;
    // The checkpoint as stored (every tensor, wherever it resides): download and disk size. A
    // quantization_config sizes it as stored; a GGUF weight_dtype gives the GGUF file's size.
    std::uint64_t model_bytes = 0;
    // The model's kind (ModelArch::kind): "" for a transformer over tokens, else cnn · vit · unet · dit ·
    // whisper, whose outputs are in images, denoising steps and audio seconds (docs/other-kinds.md).
    std::string model_kind;
};

// Resolve the scenario's model (preset, config or bare size) against the catalog.
Result<ModelArch> resolve_model(const Catalog& catalog, const Scenario& s);

// What an estimate computes beyond the memory, the fit and the KV capacity. Callers that
// estimate many variants (the planner, the page's badges and chart) turn both off: the numbers
// they read are the same, at a fraction of the cost (bench/recompute.cpp).
struct EstimateOptions {
    bool explain = true;  // explanations: formula text per term, and the note on how the checkpoint was sized
    bool solvers = true;  // max_batch_size, max_seq_len (binary searches)
};
// Memory, fit and KV capacity only: for callers that estimate many variants.
inline constexpr EstimateOptions k_estimate_memory_only{/*explain=*/false, /*solvers=*/false};

// The whole estimate. Fails only when the model cannot be resolved or the scenario is
// inconsistent (e.g. tensor_parallel does not divide num_gpus); everything else is a warning.
Result<Estimate> estimate(const Catalog& catalog, const Scenario& s, const EstimateOptions& options = {});

// `estimate --json` (one object, keys as in docs/scenario.md).
std::string estimate_to_json(const Estimate& e);

}  // namespace gpusizer
