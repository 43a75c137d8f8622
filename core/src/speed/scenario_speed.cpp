// `throughput` and `time` of `estimate` (docs/scenario.md): the planner's speed model for the
// scenario's own layout (num_gpus, tensor/pipeline/expert parallel, ZeRO) on its `gpu`.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] The links of a bare gpu
// [SECTION] add_speed

#include <cmath>
#include <cstdio>

#include "gpusizer/speed.hpp"

namespace gpusizer {

// [SECTION] Constants
namespace {

// ASSUMPTION: a bare `gpu` of more than 8 is 8 per node (HGX / DGX shape) on a fabric of
// 400 Gb/s per GPU, the rate of AWS p5, Azure ND H100 v5 and Meta's Llama 3 clusters (links.md §4).
constexpr std::int64_t k_gpus_per_node = 8;
constexpr double k_fabric_gbps_per_gpu = 400;

// [SECTION] The links of a bare gpu

// The GPU's own scale-up link when it has one on an SXM/OAM board (or a TPU/Trainium/Ascend
// mesh), else PCIe.
std::string own_interconnect(const Accelerator& a) {
    if (a.nvlink_bandwidth_gbps <= 0) return "pcie";
    if (a.software == "xla") return "ici";
    if (a.software == "neuron") return "neuronlink";
    if (a.software == "cann") return "hccs";
    if (a.software == "rocm") return "infinity-fabric";
    const bool board = a.form_factor.find("SXM") != std::string::npos || a.form_factor.find("OAM") != std::string::npos ||
                       a.form_factor.find("HGX") != std::string::npos || a.software == "synapse";
    return board ? "nvlink" : "pcie";
}

std::string num(const char* f, double v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

void say_missing(Estimate& e, bool train) {
    e.warnings.add("throughput" + std::string(train ? " and time are" : " is") +
                       " null: give a catalog `gpu` (speed needs its peak FLOP/s and memory bandwidth)",
                   std::string(train ? "吞吐量和时间" : "吞吐量") + "为空:请选择目录中的 `gpu`(速度需要其峰值 FLOP/s 和显存带宽)");
}

}  // namespace

// [SECTION] add_speed

void add_speed(const Catalog& catalog, const Scenario& s, const ModelArch& arch, Estimate& e, bool explain) {
    const bool train = s.task != Task::inference;
    // The longest sequence that fits memory is no longer than the model's positions (issue 13).
    if (e.max_seq_len && arch.max_position_embeddings > 0 && !arch.encoder &&
        static_cast<std::uint64_t>(*e.max_seq_len) > arch.max_position_embeddings)
        e.max_seq_len = static_cast<std::int64_t>(arch.max_position_embeddings);
    const Accelerator* acc = s.gpu.empty() ? nullptr : catalog.find_accelerator(s.gpu);
    if (!acc) return say_missing(e, train);
    const Accelerator& a = *acc;  // gpu_memory_gib changes the memory, never the speed
    const std::int64_t gpus = std::max<std::int64_t>(1, s.num_gpus);
    const std::int64_t per_node = std::min(gpus, k_gpus_per_node);
    const std::int64_t nodes = (gpus + per_node - 1) / per_node;
    const std::string ic = per_node > 1 ? own_interconnect(a) : "none";
    const Links links = node_links(a, ic, per_node, nodes > 1 ? k_fabric_gbps_per_gpu * double(per_node) : 0);
    if (lacks_bf16(a, s))
        e.warnings.add(a.id + " has no bf16 tensor cores: speed is for fp16 (training then needs loss scaling)",
                       a.id + " 没有 bf16 张量核心:速度按 fp16 计算(训练时需要损失缩放)");
    if (e.gpu && !e.gpu->fits)
        e.warnings.add("the job does not fit " + a.id + ": throughput and time are for this layout as if it did",
                       "任务在 " + a.id + " 上放不下:吞吐量和时间是假设放得下时此布局的数值");

    JobLayout l;
    l.tp = s.tensor_parallel;
    l.pp = s.pipeline_parallel;
    l.dp = std::max<std::int64_t>(1, gpus / (l.tp * l.pp));
    l.ep = s.expert_parallel;
    l.zero = train ? s.zero_stage : 0;
    l.nodes = nodes;
    l.gpus_per_node = per_node;
    std::string formula;
    if (train) {
        const TrainingStep t = training_step(s, arch, e.params, a, links, l);
        e.throughput = Throughput{t.tokens_per_s, 0, 0};
        formula = num("%.0f tokens/s = ", t.tokens_per_s) + num("%.0f tokens per step / ", t.tokens) +
                  num("%.3f s (compute ", t.step_s) + num("%.3f", t.compute_s) + num(" + TP %.3f", t.tp_s) +
                  num(" + bubble %.3f", t.pp_bubble_s) + num(" + exposed DP %.3f", t.dp_exposed_s) +
                  num(" + offload %.3f); MFU ", t.offload_s) + num("%.3f", t.mfu) +
                  (t.user_mfu ? " (given)" : ", efficiency " + t.efficiency.why);
        if (s.train_tokens && t.tokens_per_s > 0) {
            const double hours = *s.train_tokens / t.tokens_per_s / 3600;
            e.time = TimeEstimate{hours, hours * static_cast<double>(gpus)};
        } else {
            e.warnings.add("time is null: give train_tokens (tokens to process in the whole run)",
                           "时间为空:请给出 train_tokens(整个训练要处理的 token 数)");
        }
    } else {
        const ServingSpeed v = serving_speed(s, arch, e.params, e.memory_per_gpu_bytes, e.kv_bytes_per_token, a, links,
                                             l.tp, l.pp, s.batch_size);
        e.throughput = Throughput{v.tokens_per_s * static_cast<double>(l.dp), v.prefill_tokens_per_s,
                                  v.decode_tokens_per_s_per_seq};
        formula = std::to_string(l.dp) + " replica(s) × " + std::to_string(s.batch_size) + " sequences / " +
                  num("%.2f ms per output token", v.tpot_s * 1e3) + num(" (decode step %.2f ms", v.decode_step_s * 1e3) +
                  num(", TP all-reduces %.2f ms", v.tp_comm_s * 1e3) + (v.memory_bound ? ", memory-bound" : ", compute-bound") +
                  num("); first token %.0f ms", v.ttft_s * 1e3);
        if (s.train_tokens && e.throughput->tokens_per_s > 0) {
            const double hours = *s.train_tokens / e.throughput->tokens_per_s / 3600;
            e.time = TimeEstimate{hours, hours * static_cast<double>(gpus)};
        }
    }
    if (!explain) return;
    e.explanations.push_back({"throughput", formula, "docs/speed-and-cost.md (FLOPs, compute efficiency, communication)"});
    e.explanations.push_back(
        {"interconnect",
         std::to_string(per_node) + " × " + a.id + " per node over " + ic +
             (nodes > 1 ? ", " + std::to_string(nodes) + " nodes over an assumed " + num("%.0f", k_fabric_gbps_per_gpu) +
                              " Gb/s per GPU fabric"
                        : ""),
         "ASSUMPTION: a bare gpu uses its own NVLink/ICI when it has one (SXM/OAM parts), else PCIe; 8 GPUs per node"});
}

}  // namespace gpusizer
