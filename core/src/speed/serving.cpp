// Serving (docs/speed-and-cost.md "Serving"): a roofline of the decode step (weights and KV read
// from memory, or the FLOPs, whichever is slower, plus tensor-parallel all-reduces) and of prefill
// (compute-bound), with continuous batching: each decode step of B sequences also prefills the
// B / output_tokens requests that arrive to replace the finished ones.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] Requests and engines
// [SECTION] serving_speed

#include <algorithm>

#include "gpusizer/speed.hpp"
#include "speed_internal.hpp"

namespace gpusizer {

// [SECTION] Constants
namespace {

// Inference compute efficiency of prefill and of compute-bound decode (llm-analysis README
// suggests ≤ 0.7 for inference; 0.5 keeps kernels' launch and softmax costs in).
constexpr double k_inference_flops_efficiency = 0.50;
// vLLM-class engines lose decode bandwidth as tensor parallelism grows (per-step scheduling,
// sampling and worker synchronisation; smaller per-GPU GEMMs): the LambdaLabs vLLM 0.6.0 table
// (Llama 3.1 8B TP1 8088, 70B TP4 3543, 405B-FP8 TP8 1714 tokens/s at 256 in flight) is fitted by
// η / (1 + 0.15 · (tp − 1)); SGLang 0.3.0's 70B TP4 offline run agrees within 6%.
constexpr double k_vllm_tp_overhead = 0.15;
// vLLM's default max_num_seqs (EngineArgs, V0 and V1): 256 sequences in flight per replica.
constexpr std::int64_t k_vllm_max_num_seqs = 256;
// Engines without a scheduler cap of their own keep what they are given.
constexpr std::int64_t k_no_engine_cap = 1000000;

// (1 − k/E)^n by repeated squaring (exact IEEE operations, identical on every host).
double power(double base, std::uint64_t n) {
    double result = 1.0;
    while (n) {
        if (n & 1) result *= base;
        base *= base;
        n >>= 1;
    }
    return result;
}

// Fraction of all weights a decode step reads: dense parts always, experts only when some
// token of the batch is routed to them. Each token picks k distinct experts; with uniform
// routing an expert is missed by all B tokens with probability (1 − k/E)^B.
double weights_read_fraction(const ModelArch& a, const ParamCounts& p, std::int64_t batch) {
    if (a.num_experts == 0 || a.experts_per_token == 0 || p.total == 0 || a.experts_per_token >= a.num_experts)
        return 1.0;
    const double E = static_cast<double>(a.num_experts), k = static_cast<double>(a.experts_per_token);
    const double all_experts = static_cast<double>(p.total - std::min(p.total, p.active)) * E / (E - k);
    const double dense = std::max(0.0, static_cast<double>(p.total) - all_experts);
    const double distinct = E * (1.0 - power(1.0 - k / E, static_cast<std::uint64_t>(batch)));
    return std::min(1.0, (dense + all_experts * distinct / E) / static_cast<double>(p.total));
}

}  // namespace

// [SECTION] Requests and engines

// Achievable fraction of peak memory bandwidth in decode: gpu_poor's extraFactor (2 for HF,
// 1.5 for GGML, 1 for vLLM) on top of llm-analysis' 0.9 "aggressive" efficiency.
double memory_efficiency(Engine e) {
    switch (e) {
        case Engine::vllm: return 0.80;
        case Engine::llama_cpp: return 0.60;
        case Engine::hf: return 0.45;
    }
    return 0.45;
}

std::int64_t engine_max_seqs(const Scenario& s) {
    if (s.engine != Engine::vllm) return k_no_engine_cap;
    return s.max_num_seqs ? *s.max_num_seqs : k_vllm_max_num_seqs;
}

// ASSUMPTION: without prompt_tokens / output_tokens a request is a chat turn, half prompt and half output.
double prompt_tokens_of(const Scenario& s) {
    if (s.prompt_tokens || s.output_tokens) return static_cast<double>(s.prompt_tokens.value_or(0));
    return static_cast<double>(s.seq_len) / 2;
}
double output_tokens_of(const Scenario& s) {
    if (s.prompt_tokens || s.output_tokens) return std::max(1.0, static_cast<double>(s.output_tokens.value_or(1)));
    return std::max(1.0, static_cast<double>(s.seq_len) / 2);
}

// [SECTION] serving_speed

ServingSpeed serving_speed(const Scenario& s, const ModelArch& arch, const ParamCounts& p, const MemoryBreakdown& per_gpu,
                           std::uint64_t kv_per_token, const Accelerator& a, const Links& links, std::int64_t tp,
                           std::int64_t pp, std::int64_t concurrency) {
    ServingSpeed r;
    const double B = static_cast<double>(std::max<std::int64_t>(1, concurrency));
    const double P = prompt_tokens_of(s), O = output_tokens_of(s);
    const double context = P + O / 2;  // mean context while a request decodes
    const double tp_loss = s.engine == Engine::vllm ? 1 + k_vllm_tp_overhead * static_cast<double>(tp - 1) : 1;
    const double bw = a.memory_bandwidth_gbps * 1e9 * memory_efficiency(s.engine) / tp_loss;
    const double flops = peak_flops(a, s) * k_inference_flops_efficiency * static_cast<double>(tp);
    const double stages = static_cast<double>(std::max<std::int64_t>(1, pp));
    if (bw <= 0 || flops <= 0) return r;
    const bool spans_nodes = tp * pp > links.gpus_per_node;
    const std::int64_t tp_local = std::min(tp, links.gpus_per_node);
    const double N = static_cast<double>(p.active), h = static_cast<double>(arch.hidden_size);
    const double L = static_cast<double>(arch.num_layers);

    // Encoder-only models (BERT, RoBERTa): one bidirectional forward over the whole sequence, nothing
    // decoded — throughput is the tokens that forward reads (issue 16). Full QKᵀ and PV, not halved.
    if (arch.encoder) {
        const double S = static_cast<double>(s.seq_len);
        const double forward = 2 * N * S + 4 * S * attention_span_of(arch, S);
        const double comm = tp > 1 ? 2 * L * all_reduce_s(links, 2 * B * S * h, tp, tp_local) : 0;
        const double batch = std::max(B * forward / flops, stages * static_cast<double>(per_gpu.weights) / bw) + comm;
        r.ttft_s = batch;
        r.prefill_tokens_per_s = batch > 0 ? B * S / batch : 0;
        r.tokens_per_s = r.prefill_tokens_per_s;
        r.decode_step_s = batch;
        r.tpot_s = S > 0 ? batch / S : 0;  // B / tokens_per_s, as for decoders (the planner's load rule)
        r.memory_bound = false;
        return r;
    }

    // Decode step (docs/research/memory-model.md §2.10): every stage reads its weights and the batch's KV.
    const double weight_bytes = static_cast<double>(per_gpu.weights) * weights_read_fraction(arch, p, concurrency);
    const double t_mem = stages * (weight_bytes + B * context * static_cast<double>(kv_per_token)) / bw;
    const double t_compute = (2 * N * B + 4 * B * attention_span_of(arch, context)) / flops;
    // Tensor parallel: two all-reduces per layer of the batch's hidden states (bf16).
    r.tp_comm_s = tp > 1 ? 2 * L * all_reduce_s(links, 2 * B * h, tp, tp_local) : 0;
    const double t_send = pp > 1 ? (stages - 1) * send_s(links, 2 * B * h, spans_nodes) : 0;
    r.decode_step_s = std::max(t_mem, t_compute) + r.tp_comm_s + t_send;
    r.memory_bound = t_mem >= t_compute;

    // Prefill of one prompt: 2·N·P + 2·P·ΣHQ (causal QKᵀ and PV, halved); at least one weight read.
    const double prefill_flops = 2 * N * P + 2 * P * attention_span_of(arch, P);
    const double prefill_comm = tp > 1 ? 2 * L * all_reduce_s(links, 2 * P * h, tp, tp_local) : 0;
    r.ttft_s = std::max(prefill_flops / flops, stages * static_cast<double>(per_gpu.weights) / bw) + prefill_comm;
    const double batch_prefill = std::max(B * prefill_flops / flops, stages * static_cast<double>(per_gpu.weights) / bw);
    r.prefill_tokens_per_s = batch_prefill > 0 ? B * P / batch_prefill : 0;

    // Continuous batching: B / O newcomers per step, each prefilled alongside the decode.
    r.tpot_s = r.decode_step_s + B / O * prefill_flops / flops;
    r.decode_tokens_per_s_per_seq = r.tpot_s > 0 ? 1 / r.tpot_s : 0;
    r.tokens_per_s = B * r.decode_tokens_per_s_per_seq;
    return r;
}

}  // namespace gpusizer
