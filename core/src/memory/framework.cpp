// What each training stack's code does that changes GPU memory (docs/frameworks.md has the
// code behind every value, with file and function names).
#include "steps.hpp"

namespace gpusizer::memory {

namespace {

// PEFT keeps adapters in fp32 (BaseTuner._cast_adapter_dtype, autocast_adapter_dtype=True);
// prepare_model_for_kbit_training casts every non-quantized fp16/bf16 parameter to fp32 (TRL's
// SFTTrainer calls it for 4-bit models); transformers' training step drops the model outputs only
// after backward in the PEFT-measured runs the loss formula is checked on (tests/fixtures/measured_runs.json);
// F.cross_entropy on the fp32 copy keeps its log-softmax (4 B per logit) and, in backward, the
// gradients of the log-softmax and of the logits (4 + 4). Trainer's --bf16/--fp16 on an fp32 model
// is torch.autocast: fp32 parameters and gradients, 16-bit copies made per matmul.
constexpr Traits k_hf{"Hugging Face Trainer / PEFT", 4, true, 0, true, 12, false, 1,
                      "transformers save_on_cpu around each checkpointed layer", false, true};
// torchtune builds the model, LoRA adapters included, under set_default_dtype(bf16); its recipes
// `del logits` before backward ("free logits otherwise it peaks backward memory");
// OffloadActivations(max_fwd_stash_size=5) keeps up to 5 offloaded tensors on the GPU until
// their copies finish (training/_activation_offloading.py).
constexpr Traits k_torchtune{"torchtune", 2, false, 0, false, 12, false, 5,
                             "torchtune OffloadActivations (use_streams, max_fwd_stash_size 5)", false, false};
// Unsloth builds on PEFT (fp32 adapters) and the HF Trainer (autocast mixed precision); its LoRA_MLP kernel saves X, e (gate out) and g (up out)
// and recomputes act(e)·g in backward (kernels/fast_lora.py); "unsloth" checkpointing copies each
// decoder layer's input to the CPU and keeps none on the GPU (unsloth-zoo gradient_checkpointing.py).
constexpr Traits k_unsloth{"Unsloth", 4, false, 0, false, 12, true, 0,
                           "Unsloth_Offloaded_Gradient_Checkpointer (hidden_states.to(\"cpu\"))", false, true};
// DeepSpeed runs Hugging Face models (PEFT adapters, the HF loss) with its own 16-bit parameters
// and fp32 master partitions (bf16/fp16 config); ZeRO-1/2 reduce through one
// fixed bucket of reduce_bucket_size = 5e8 elements (stage_1_and_2.py) instead of DDP's copy of
// every gradient; cpu_checkpointing moves checkpoints to the CPU.
constexpr Traits k_deepspeed{"DeepSpeed", 4, true, 0, true, 12, false, 1, "DeepSpeed cpu_checkpointing", true, false};
// Megatron-LM accumulates gradients in an fp32 main_grad buffer (theoretical_memory_usage.py:
// 18 bytes per parameter), and its vocab-parallel cross-entropy keeps one fp32 buffer, softmax
// and gradient in place (the 16-bit logits stay with the graph).
constexpr Traits k_megatron{"Megatron-LM", 2, false, 4, true, 4, false, 2,
                            "Megatron activation offloading (double-buffered; ASSUMPTION: 2 in flight)", false, false};

}  // namespace

const Traits& traits(Framework f) {
    switch (f) {
        case Framework::hf: return k_hf;
        case Framework::torchtune: return k_torchtune;
        case Framework::unsloth: return k_unsloth;
        case Framework::deepspeed: return k_deepspeed;
        case Framework::megatron: return k_megatron;
    }
    return k_hf;
}

}  // namespace gpusizer::memory
