#pragma once
// Internal: the named steps of memory_per_gpu (breakdown.cpp), one file each.
//
//   framework.cpp   what each training stack does that changes memory (Traits)
//   share.cpp       weights and parameters on the most loaded GPU of the layout
//   states.cpp      weights, gradients, optimizer states and master copy (ZeRO, offload)
//   training.cpp    what the backward pass holds: the activation stack, the loss, the adapters
//   inference.cpp   the KV cache and each engine's forward peak (HF, vLLM's profile run, llama.cpp)
//   overhead.cpp    CUDA context, NCCL, CUDA graphs, buckets, dequantization, allocator slack;
//                   the memory CUDA lets a process use
//   host.cpp        host RAM for the whole job
//   breakdown.cpp   memory_per_gpu: the steps above in order, the peak moment, the totals
//
// Every formula is in docs/memory-model.md with its source; docs/frameworks.md has the
// frameworks' code behind each Traits value.
#include <string>

#include "gpusizer/units.hpp"
#include "gpusizer/memory.hpp"
#include "layer_activations.hpp"

namespace gpusizer::memory {

constexpr double k_mib = k_bytes_per_mib;
constexpr double k_gib = k_bytes_per_gib;

std::string num(double v);      // "4096", "1.311e+06"

// [SECTION] framework.cpp
struct Traits {
    const char* name;
    double adapter_bytes;      // LoRA A/B weights (and their grads and AdamW states): 4 fp32, 2 bf16
    bool kbit_upcast;          // QLoRA: the non-quantized parameters (embeddings, LM head, norms) cast to fp32
    double main_grad_bytes;    // 0 = gradients in the weight dtype; 4 = fp32 main gradients (Megatron)
    bool keeps_logits;         // the 16-bit model-output logits stay alive through the loss backward
    double full_loss_fp32;     // bytes per logit of the fp32 loss with materialised logits: 12 = PyTorch
                               // cross_entropy on an fp32 copy; 4 = Megatron's in-place vocab-parallel one
    bool fused_lora_mlp;       // the LoRA MLP kernel saves its input and the gate and up outputs only
    double offload_in_flight;  // activation offload: layer checkpoints still on the GPU in forward
    const char* offload_how;   // the code that offloads, for the explanation
    bool fixed_grad_bucket;    // ZeRO-1/2 reduce a fixed 5e8-element bucket instead of DDP's gradient copy
    bool amp_fp32_params;      // mixed precision is torch.autocast over fp32 parameters and gradients (the
                               // parameters are the master copy), not 16-bit parameters + an fp32 master
};
const Traits& traits(Framework f);

// [SECTION] The job every step reads
struct Job {
    const ModelArch& a;
    const Scenario& s;  // weight_dtype already set to what training can use
    const Layout& l;
    const ParamDetail& pd;
    const Traits& fw;
    bool train = false, lora = false, explain = false;
    double t = 1, p = 1, dp = 1, ep = 1;  // tensor, pipeline, data, expert parallel
    double L = 0;                          // layers of the model
    double layers = 0;                     // layers on the most loaded pipeline stage: ceil(L / pp)
    double moe_layers = 0, dense_layers = 0;  // of those (MoE first: they are heavier)
    double b = 1, S = 1;                   // micro-batch (sequences), tokens per sequence
    double e = 2;                          // bytes per activation element (the compute dtype)
    double gpu_memory = 0;                 // bytes of one GPU; 0 = no GPU chosen
};

// [SECTION] share.cpp
struct Share {
    double weights = 0;                 // bytes of the weights as stored, on this GPU
    double params_dense = 0;            // parameters on this GPU outside routed experts
    double params_expert = 0;           // routed-expert parameters on this GPU
    double largest_layer = 0;           // parameters of the largest unit (ZeRO-3/FSDP gather two)
    double decoder_layer = 0;           // parameters of the largest decoder layer on this GPU
    double lm_head_params = 0;          // output projection on this GPU (its gradient comes first)
    double norm_params = 0;             // RMSNorm/LayerNorm weights (kept fp32 by a k-bit upcast)
    double embedding_params = 0;        // input + output embeddings on this GPU (k-bit upcast)
    double host_weights = 0;            // bytes the engine keeps in host memory (llama.cpp)
    double kv_layer_fraction = 1;       // share of the stage's KV cache on this GPU (llama.cpp -ngl)
    double gpu_layers = 0;              // layers whose weights are on this GPU
};
Share share_on_gpu(const Job& j, MemoryDetail& out);
// "nf4 (4.127 bits per quantized weight; …), ÷ tp 2, 32 of 32 layers on this GPU", or the
// checkpoint's stored quantization when its quantization_config applies.
std::string weights_formula(const Job& j, const Share& sh);
inline constexpr const char* k_weights_source =
    "QLoRA paper §3 (NF4+DQ 4.127 b); GPTQ/AWQ 4 + 20/128 b; ggml block structs; llama.cpp llama_tensor_get_type; "
    "the checkpoint's quantization_config (docs/memory-model.md, checkpoints as stored)";

// [SECTION] states.cpp
struct States {
    double weights = 0, gradients = 0, optimizer = 0, host = 0;
    double gradients_at_backward = 0;  // of those, what exists when the backward pass begins
    double bucket = 0;                 // DDP / ZeRO gradient buckets (an overhead part)
    double autocast_copies = 0;        // 16-bit weight copies torch.autocast keeps for backward
};
States training_states(const Job& j, const Share& sh, MemoryDetail& out);

// [SECTION] training.cpp
struct Activations {
    double stack = 0;    // what the layers keep for backward at its start
    double loss = 0;     // logits, loss and LM-head input at the loss backward
    double adapters = 0; // LoRA x·A products kept by the adapters
    double host = 0;     // checkpoints offloaded to host memory
    double dequant = 0;  // a 4-bit matrix dequantized for a matmul (an overhead part)
    double total() const { return stack + loss + adapters; }
};
Activations training_activations(const Job& j, MemoryDetail& out);

// [SECTION] inference.cpp
struct Inference {
    double kv = 0;           // the KV cache this batch × sequence holds
    double activations = 0;  // the engine's forward peak (vLLM: its profile run)
};
Inference inference_memory(const Job& j, const Share& sh, MemoryDetail& out);

// [SECTION] overhead.cpp
// The part of a GPU's memory CUDA lets a process allocate: below the marketed size (driver
// reservations, ECC); `gpu_memory_gib` given by the user is taken as that figure already.
double cuda_visible_bytes(double gpu_memory, bool user_given);
OverheadParts overhead_parts(const Job& j, const States& st, double activations, double kv, double dequant,
                             MemoryDetail& out);

// [SECTION] host.cpp
double host_bytes(const Job& j, double offloaded_per_gpu, const Share& sh, MemoryDetail& out);

}  // namespace gpusizer::memory
