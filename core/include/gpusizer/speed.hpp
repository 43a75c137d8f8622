#pragma once
// The speed model: training time from FLOPs and a documented MFU, inference prefill and
// decode from a roofline (docs/speed-and-cost.md has every formula and constant with its
// source). Pure arithmetic on catalog specs; deterministic on every host.

#include <cstdint>
#include <string>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

// Dense tensor peak (FLOP/s) the task computes in on this accelerator: bf16 (else fp16, else
// fp32/tf32) for training and for weight-only quantized inference; fp8 for fp8 weights.
double peak_flops(const Accelerator& a, const Scenario& s);

// Default model-FLOPs utilisation for the task on this accelerator (documented table) and
// the reasons it was lowered; `mfu` in the scenario overrides it.
struct MfuChoice {
    double mfu = 0;
    std::string why;  // "pretrain default 0.40 × 0.70 (MoE)"
};
MfuChoice default_mfu(const Scenario& s, const ModelArch& arch, const Accelerator& a, bool model_parallel_over_pcie);

// Model FLOPs per trained token: 6·N_active + 12·L·H·Q·T (PaLM App. B); LoRA/QLoRA skip the
// weight-gradient GEMMs of frozen weights (4·N); full recompute adds a forward (+2·N) —
// the recompute is hardware work, so it lowers achieved MFU rather than adding model FLOPs.
double model_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active_params);
// Hardware FLOPs per token including recompute (8·N with full checkpointing; used for
// reproducing published per-GPU TFLOP/s, which count recompute).
double hardware_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active_params);

struct TrainingSpeed {
    double tokens_per_s = 0;  // whole job
    double hours = 0;         // for train_tokens (0 when not given)
    double gpu_hours = 0;
    double mfu = 0;
    std::string mfu_why;
};
TrainingSpeed training_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const Accelerator& a,
                             std::int64_t gpus, bool model_parallel_over_pcie);

struct InferenceSpeed {
    double prefill_tokens_per_s = 0;         // per replica, whole batch
    double decode_tokens_per_s_per_seq = 0;  // per sequence
    double tokens_per_s = 0;                 // decode, all replicas, whole batch
    bool memory_bound = true;                // decode limited by memory bandwidth
};
// One replica spans tp × pp GPUs; `replicas` copies serve in parallel.
InferenceSpeed inference_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p,
                               const MemoryBreakdown& per_gpu, std::uint64_t kv_bytes_per_token_per_gpu,
                               const Accelerator& a, std::int64_t tp, std::int64_t replicas,
                               const std::string& interconnect);

// Engine constants (documented): achievable fraction of memory bandwidth in decode.
double memory_efficiency(Engine e);

}  // namespace gpusizer
