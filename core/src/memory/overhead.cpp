// What a process holds beyond its tensors, part by part (docs/research/memory-model.md §2.8), and the
// part of a GPU's memory CUDA lets it allocate.
#include <algorithm>
#include <cmath>

#include "steps.hpp"

namespace gpusizer::memory {

namespace {

// PyTorch CUDA context + cuBLAS/cuDNN handles and workspaces on first use: 0.4–0.9 GiB measured
// on A100/H100 with CUDA 12 lazy loading; gpu_poor uses 650 MB, asmirnov 1000 MiB (§2.8).
constexpr double k_torch_context_bytes = 640 * k_mib;
// llama.cpp's CUDA backend (no PyTorch): context + cuBLAS workspace, ~300 MiB.
constexpr double k_llama_cpp_context_bytes = 320 * k_mib;
// NCCL communicators and their buffers (NCCL_BUFFSIZE 4 MiB × channels × peers) when GPUs talk:
// "hundreds of MB per process group" (§2.8, vLLM PR #2031).
constexpr double k_nccl_bytes = 512 * k_mib;
// vLLM's CUDA-graph pool for the captured decode batch sizes: 0.21 GiB logged for a 1B model
// (35 shapes, vLLM PR #11349) up to 2.46 GiB per GPU for Yi-34B TP 4 (issue #7553); captured
// after the KV cache is allocated, so it comes out of the (1 − gpu_memory_utilization) headroom.
constexpr double k_vllm_cudagraph_bytes = 512 * k_mib;
// PyTorch caching allocator: reserved − allocated gap, 5–20% of the dynamic tensors (§2.8);
// we charge 5% of activations, gradients and (HF) a growing KV cache.
constexpr double k_fragmentation = 0.05;
// What CUDA reports as a GPU's total (torch.cuda.mem_get_info in vLLM's logs): 79.15–79.19 GiB
// of an 80 GiB H100/A100 and 23.55 GiB of a 24 GiB card (docs/frameworks.md §9): the driver keeps
// about 1% of the memory, and at least 0.45 GiB.
constexpr double k_driver_reserved_fraction = 0.01;
constexpr double k_driver_reserved_min = 0.45 * k_gib;

}  // namespace

double cuda_visible_bytes(double gpu_memory, bool user_given) {
    if (user_given || gpu_memory <= 0) return gpu_memory;
    return gpu_memory - std::fmax(k_driver_reserved_min, k_driver_reserved_fraction * gpu_memory);
}

OverheadParts overhead_parts(const Job& j, const States& st, double activations, double kv, double dequant,
                             MemoryDetail& out) {
    const Scenario& s = j.s;
    const std::int64_t gpus = j.l.tp * j.l.pp * j.l.dp;
    OverheadParts parts;
    std::string ov;
    auto part = [&](std::uint64_t& into, double bytes, const char* what) {
        into = to_bytes(bytes);
        if (j.explain) ov += std::string(ov.empty() ? "" : " + ") + what + " " + format_gib(bytes);
    };
    part(parts.cuda_context, !j.train && s.engine == Engine::llama_cpp ? k_llama_cpp_context_bytes : k_torch_context_bytes,
         "CUDA context + libraries");
    if (gpus > 1) part(parts.nccl, k_nccl_bytes, "NCCL buffers");
    if (!j.train && s.engine == Engine::vllm && !s.enforce_eager) part(parts.cuda_graphs, k_vllm_cudagraph_bytes, "CUDA graphs");
    if (st.bucket > 0)
        part(parts.ddp_buckets, st.bucket, j.fw.fixed_grad_bucket && j.l.zero >= 1 ? "ZeRO reduce bucket" : "DDP gradient buckets");
    if (dequant > 0) part(parts.dequant_buffer, dequant, "4-bit dequantization buffer");
    const double dynamic = activations + st.gradients + (s.engine == Engine::hf ? kv : 0);
    if (s.engine == Engine::hf || j.train)
        part(parts.allocator_slack, k_fragmentation * dynamic, "allocator fragmentation 5% of dynamic tensors");
    if (j.explain)
        out.explanations.push_back({"overhead", ov,
                                    "docs/research/memory-model.md §2.8: PyTorch context 0.4–0.9 GiB (gpu_poor 650 MB, "
                                    "asmirnov 1000 MiB), NCCL buffers, PyTorch DDP docs (gradient_as_bucket_view), "
                                    "DeepSpeed reduce_bucket_size, vLLM CUDA graphs, caching-allocator fragmentation 5–20%"});
    return parts;
}

}  // namespace gpusizer::memory
