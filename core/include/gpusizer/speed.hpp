#pragma once
// The speed model (docs/speed-and-cost.md has every formula and constant with its source):
// training steps from FLOPs at a documented compute efficiency plus the communication each
// parallel layout moves over the links it crosses; serving from a roofline of prefill and decode
// with the engine's own behaviour. Pure arithmetic on catalog specs (+ − × ÷, comparisons and
// sqrt, which IEEE rounds exactly), so native and wasm agree bit for bit.
//
// Index
// [SECTION] Peaks, FLOPs and compute efficiency      core/src/speed/speed.cpp
// [SECTION] Links and collectives                     core/src/speed/comm.cpp
// [SECTION] Training steps                            core/src/speed/training.cpp
// [SECTION] Serving                                   core/src/speed/serving.cpp
// [SECTION] The scenario's own layout (estimate)      core/src/speed/scenario_speed.cpp

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

// [SECTION] Peaks, FLOPs and compute efficiency

// Dense tensor peak (FLOP/s) the task computes in on this accelerator: bf16 (else fp16, else
// fp32/tf32) for training and for weight-only quantized inference; fp8 for fp8 weights.
double peak_flops(const Accelerator& a, const Scenario& s);
// The peak a training step runs at: peak_flops, except fp8 training, which runs the linears in
// fp8 and the rest in bf16 — measured at 1.28 × the bf16 speed (torchtitan), never above the fp8 peak.
double training_peak_flops(const Accelerator& a, const Scenario& s);
// bf16 asked for on a part without bf16 tensor cores (T4, V100, P100): it trains in fp16.
bool lacks_bf16(const Accelerator& a, const Scenario& s);

// Fraction of the peak the GEMM-heavy work of a step reaches, communication excluded, and the
// reasons it was lowered ("full_ft 0.45 × 0.72 (bandwidth-starved: ridge 295 FLOP/B)").
struct Efficiency {
    double value = 0;
    std::string why;
};
// `explain` false leaves `why` empty (the planner's inner loops; the value is the same).
Efficiency compute_efficiency(const Scenario& s, const ModelArch& arch, const Accelerator& a, bool explain = true);

// Model FLOPs per trained token: 6·N_active + 12·L·H·Q·T (PaLM App. B); LoRA/QLoRA skip the
// weight-gradient GEMMs of frozen weights (4·N). MFU is defined on these.
double model_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active_params);
// What the hardware computes per token: model FLOPs plus recompute — full checkpointing repeats
// the forward (+2N + 4·L·H·Q·T: Narayanan et al. 2021, factor 96 instead of 72), selective the
// attention core (+4·L·H·Q·T, Korthikanti et al. 2022).
double hardware_flops_per_token(const Scenario& s, const ModelArch& arch, std::uint64_t active_params);

// [SECTION] Links and collectives
// The bandwidths an NCCL-style collective reaches among the GPUs of one job: inside a node over
// NVLink/NVSwitch, ICI, HCCS, xGMI or PCIe, and between nodes over the node's network.
struct Links {
    std::string intra;             // the node's interconnect as the catalog names it
    std::int64_t gpus_per_node = 1;
    double intra_busbw = 0;        // B/s: all-reduce bus bandwidth among all GPUs of one node
    double pair_busbw = 0;         // B/s: between two GPUs (an NVLink bridge joins pairs only)
    double intra_latency_s = 0;    // one small collective inside the node
    double network_gbps = 0;       // per node as listed (0 = not listed: an assumed plain network)
    double node_network = 0;       // B/s per node between nodes, as reached by NCCL
    double inter_latency_s = 0;    // one small collective across nodes
    bool rdma = false;             // InfiniBand/EFA/RoCE-class fabric (≥ 100 Gb/s per node)
    bool nvlink_class = false;     // intra is NVLink/NVSwitch/ICI/HCCS/xGMI/NeuronLink
    bool mesh = false;             // xGMI: a full mesh of peer links, busbw grows with the group
    bool network_listed = false;
};
// A node of `gpus_per_node` accelerators joined by `interconnect`, `network_gbps` per node (0 = not listed).
Links node_links(const Accelerator& a, std::string_view interconnect, std::int64_t gpus_per_node, double network_gbps);
// Bus bandwidth (B/s) of a group of `group` ranks with `local` of them in each node; the
// cross-node part shares the node's network with the other groups of that node.
double group_busbw(const Links& l, std::int64_t group, std::int64_t local);
// Seconds for one collective of `bytes` (each rank's buffer) over such a group: ring formulas of
// nccl-tests PERFORMANCE.md plus one latency.
double all_reduce_s(const Links& l, double bytes, std::int64_t group, std::int64_t local);
double reduce_scatter_s(const Links& l, double bytes, std::int64_t group, std::int64_t local);  // = all-gather
double all_to_all_s(const Links& l, double bytes, std::int64_t group, std::int64_t local);
// Point to point (pipeline activations): over the node's links, or over the network per GPU.
double send_s(const Links& l, double bytes, bool across_nodes);

// [SECTION] Training steps
struct JobLayout {
    std::int64_t tp = 1, pp = 1, dp = 1, ep = 1;
    int zero = 0;
    std::int64_t nodes = 1;
    std::int64_t gpus_per_node = 1;  // GPUs of the job in each node
    double global_batch_tokens = 0;  // tokens per optimizer step; 0 = the task's default (4M pretraining,
                                     // 0.25M fine-tuning), reached by gradient accumulation
};

// One optimizer step of the job: compute, the communication each layout moves and how much of it
// frameworks hide behind compute, the pipeline bubble and CPU offload.
struct TrainingStep {
    double tokens = 0;           // per optimizer step, whole job
    double micro_batches = 1;    // per DP rank per step (gradient accumulation)
    double compute_s = 0;        // model + recompute FLOPs at the efficiency
    double recompute_s = 0;      // the part of compute_s that recomputes activations
    double tp_s = 0;             // tensor-parallel all-reduces (exposed)
    double pp_bubble_s = 0;      // 1F1B fill and drain
    double pp_send_s = 0;        // activations between stages (exposed)
    double ep_s = 0;             // expert all-to-all (exposed)
    double dp_s = 0;             // data-parallel / ZeRO traffic in all
    double dp_exposed_s = 0;     // the part not hidden behind compute
    double offload_s = 0;        // CPU offload: PCIe transfers and the CPU optimizer step
    double step_s = 0;
    double tokens_per_s = 0;     // whole job
    double mfu = 0;              // model FLOPs / (GPUs × peak × step)
    Efficiency efficiency;
    bool user_mfu = false;       // `mfu` given: end to end, communication included
};
// `efficiency`: compute_efficiency(s, arch, a) when the caller already has it (the planner times
// thousands of layouts of one machine), else computed here.
TrainingStep training_step(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const Accelerator& a,
                           const Links& links, const JobLayout& l, const Efficiency* efficiency = nullptr);

// [SECTION] Serving
// One replica of tp × pp GPUs with `concurrency` sequences in flight (continuous batching).
struct ServingSpeed {
    double decode_step_s = 0;               // one decode step of the whole batch
    double tpot_s = 0;                      // time per output token per user, prefill of newcomers included
    double ttft_s = 0;                      // one prompt's prefill (no queueing)
    double prefill_tokens_per_s = 0;        // one replica, compute-bound
    double decode_tokens_per_s_per_seq = 0; // 1 / tpot
    double tokens_per_s = 0;                // output tokens/s of the replica at this concurrency
    double tp_comm_s = 0;                   // per decode step
    bool memory_bound = true;
};
ServingSpeed serving_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const MemoryBreakdown& per_gpu,
                           std::uint64_t kv_bytes_per_token_per_gpu, const Accelerator& a, const Links& links,
                           std::int64_t tp, std::int64_t pp, std::int64_t concurrency);
// Prompt and output tokens of one request (given, else half of seq_len each: a chat turn).
double prompt_tokens_of(const Scenario& s);
double output_tokens_of(const Scenario& s);
// Engine constants (documented): achievable fraction of memory bandwidth in decode, and the most
// sequences an engine keeps in flight per replica.
double memory_efficiency(Engine e);
std::int64_t engine_max_seqs(const Scenario& s);

// [SECTION] The scenario's own layout (estimate)
// Fills e.throughput (a gpu given) and e.time (training with train_tokens) for the scenario's
// num_gpus / tp / pp / zero on its `gpu`, also when the job does not fit (a warning says so);
// when an input is missing they stay null and a warning names it. A bare `gpu` talks over its
// own NVLink when it has one (SXM parts), else PCIe; more than 8 GPUs are 8 per node over a
// 400 Gb/s-per-GPU fabric (assumption, said in an explanation).
void add_speed(const Catalog& catalog, const Scenario& s, const ModelArch& arch, Estimate& e, bool explain);

}  // namespace gpusizer
