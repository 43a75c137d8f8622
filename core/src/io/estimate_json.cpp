// `estimate --json`: one object with the keys of docs/scenario.md, in that order.
#include "gpusizer/estimate.hpp"
#include "results_json.hpp"
#include "scenario/scenario_internal.hpp"

namespace gpusizer {

using detail::ojson;

ojson estimate_to_ojson(const Estimate& e) {
    ojson j;
    j["scenario"] = scenario_to_ojson(e.scenario);
    j["warnings"] = e.warnings.en();
    j["warnings_zh"] = e.warnings.zh();
    j["params"] = {{"total", e.params.total},
                   {"active", e.params.active},
                   {"trainable", e.params.trainable},
                   {"embedding", e.params.embedding}};
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    j["memory_per_gpu_bytes"] = {{"weights", m.weights},         {"gradients", m.gradients},
                                 {"optimizer", m.optimizer},     {"activations", m.activations},
                                 {"kv_cache", m.kv_cache},       {"overhead", m.overhead},
                                 {"total", m.total}};
    // The named parts of `overhead` that are not zero, in a fixed order; they sum to it.
    const OverheadParts& op = m.overhead_parts;
    ojson parts = ojson::object();
    for (const auto& [name, bytes] : {std::pair<const char*, std::uint64_t>{"cuda_context", op.cuda_context},
                                      {"nccl", op.nccl},
                                      {"cuda_graphs", op.cuda_graphs},
                                      {"ddp_buckets", op.ddp_buckets},
                                      {"dequant_buffer", op.dequant_buffer},
                                      {"allocator_slack", op.allocator_slack}})
        if (bytes > 0) parts[name] = bytes;
    j["memory_per_gpu_bytes"]["overhead_parts"] = parts;
    j["memory_per_gpu_bytes"]["torch_peak_allocated"] = m.torch_peak_allocated;
    j["host_memory_bytes"] = e.host_memory_bytes;
    j["kv_bytes_per_token"] = e.kv_bytes_per_token;
    if (e.gpu)
        j["gpu"] = {{"id", e.gpu->id},
                    {"memory_bytes", e.gpu->memory_bytes},
                    {"fits", e.gpu->fits},
                    {"headroom_bytes", e.gpu->headroom_bytes},
                    {"shortfall_bytes", e.gpu->shortfall_bytes}};
    else
        j["gpu"] = nullptr;
    auto opt = [](const auto& o) { return o ? ojson(*o) : ojson(nullptr); };
    j["kv_capacity_tokens"] = opt(e.kv_capacity_tokens);
    j["kv_pool_bytes"] = opt(e.kv_pool_bytes);
    j["max_batch_size"] = opt(e.max_batch_size);
    j["max_seq_len"] = opt(e.max_seq_len);
    if (e.throughput)
        j["throughput"] = {{"tokens_per_s", e.throughput->tokens_per_s},
                           {"prefill_tokens_per_s", e.throughput->prefill_tokens_per_s},
                           {"decode_tokens_per_s_per_seq", e.throughput->decode_tokens_per_s_per_seq}};
    if (e.throughput) {
        if (e.throughput->images_per_s) j["throughput"]["images_per_s"] = *e.throughput->images_per_s;
        if (e.throughput->seconds_per_image) j["throughput"]["seconds_per_image"] = *e.throughput->seconds_per_image;
        if (e.throughput->realtime_factor) j["throughput"]["realtime_factor"] = *e.throughput->realtime_factor;
    }
    else
        j["throughput"] = nullptr;
    if (e.time)
        j["time"] = {{"hours", e.time->hours}, {"gpu_hours", e.time->gpu_hours}};
    else
        j["time"] = nullptr;
    j["model_bytes"] = e.model_bytes;  // the checkpoint as stored (download and disk size)
    if (!e.model_kind.empty()) j["model_kind"] = e.model_kind;
    ojson ex = ojson::array();
    for (const Explanation& x : e.explanations)
        ex.push_back({{"term", x.term}, {"formula", x.formula}, {"source", x.source}});
    j["explanations"] = ex;
    return j;
}

std::string estimate_to_json(const Estimate& e) { return estimate_to_ojson(e).dump(); }

}  // namespace gpusizer
