// Host RAM for the whole job: each process's own footprint, what offload keeps in CPU memory
// (with DeepSpeed's buffer factor), and the weights an engine keeps on the host.
#include "steps.hpp"

namespace gpusizer::memory {

namespace {

// Host RAM per training/serving process: Python, PyTorch, CUDA runtime and pinned staging
// buffers (typical 1.5–3 GiB RSS).
constexpr double k_host_per_process_bytes = 2 * k_gib;
// DeepSpeed's estimator multiplies offloaded CPU memory by additional_buffer_factor = 1.5.
constexpr double k_offload_buffer_factor = 1.5;

}  // namespace

double host_bytes(const Job& j, double offloaded_per_gpu, const Share& sh, MemoryDetail& out) {
    const double gpus = static_cast<double>(j.l.tp * j.l.pp * j.l.dp);
    const double procs = !j.train && j.s.engine == Engine::llama_cpp ? 1 : gpus;
    const double offloaded = offloaded_per_gpu * k_offload_buffer_factor * gpus;  // per-GPU offload × every GPU of the job
    const double host = offloaded + sh.host_weights + procs * k_host_per_process_bytes;
    if (j.explain)
        out.explanations.push_back(
            {"host_memory_bytes",
             num(procs) + " processes × " + format_gib(k_host_per_process_bytes) + " + offloaded states and checkpoints × 1.5 (" +
                 format_gib(offloaded) + ")" + (sh.host_weights > 0 ? " + weights kept on the CPU " + format_gib(sh.host_weights) : "") +
                 " = " + format_gib(host),
             "DeepSpeed estimate_zero*_model_states_mem_needs (additional_buffer_factor 1.5); llama.cpp load_tensors"});
    return host;
}

}  // namespace gpusizer::memory
