// Memory levers (docs/speed-and-cost.md "Memory levers"): what an expert turns on when a plan
// does not fit or is tight, cheapest in time first — a fused cross-entropy loss and an 8-bit
// AdamW cost next to nothing, gradient checkpointing about a third more compute, CPU offload the
// PCIe transfers and a CPU optimizer step. ZeRO stages are part of the layout (layouts are timed
// against each other), and a lever the user fixed is never touched.
#include "plan.hpp"

namespace gpusizer::plan {

namespace {

// The kernels behind the cheap levers build for CUDA and ROCm only: Liger and Cut Cross-Entropy are
// Triton kernels, bitsandbytes' 8-bit optimizers and DeepSpeed's CPU Adam (ZeRO-Offload) are CUDA/HIP
// extensions. On TPU (XLA), Ascend (CANN), Cambricon, Trainium and Gaudi an expert has the chunked
// cross-entropy of plain PyTorch (torchtune's) and checkpointing.
bool cuda_or_rocm(const Accelerator* a) {
    return a == nullptr || a->software.empty() || a->software == "cuda" || a->software == "rocm";
}

}  // namespace

Few<int> lever_sets(const Context& ctx, const Machine& m) {
    Few<int> sets;  // none and at most five levers
    sets.push_back(0);
    if (!ctx.training) return sets;
    const Scenario& s = ctx.s;
    const Fixed& f = ctx.fixed;
    const bool lora = s.task == Task::lora || s.task == Task::qlora;
    int on = 0;
    auto add = [&](int bit) {
        on |= bit;
        sets.push_back(on);
    };
    const bool kernels = cuda_or_rocm(m.acc);
    if (!f.loss && s.loss_impl == LossImpl::full) add(kernels ? k_fused_loss : k_chunked_loss);
    // Adapters' optimizer states are tiny: an 8-bit optimizer and offload only matter for full training.
    if (!f.optimizer && !lora && kernels && s.optimizer == Optimizer::adamw) add(k_optimizer_8bit);
    if (!f.checkpointing && s.activation_checkpointing == Checkpointing::none) add(k_checkpointing);
    // CPU offload needs host RAM the catalog lists (checks.cpp blocks offload on unlisted RAM).
    const bool ram_listed = m.inst && m.inst->ram_gib > 0;
    if (!f.offload && !lora && kernels && ram_listed && s.offload == Offload::none && (!f.zero || s.zero_stage >= 2)) {
        add(k_offload_optimizer);
        if (!f.zero || s.zero_stage >= 3) add(k_offload_params);
    }
    return sets;
}

void apply_levers(Scenario& c, int levers) {
    if (levers & k_fused_loss) c.loss_impl = LossImpl::fused;
    if (levers & k_chunked_loss) c.loss_impl = LossImpl::chunked;
    if (levers & k_optimizer_8bit) c.optimizer = Optimizer::adamw_8bit;
    if (levers & k_checkpointing) c.activation_checkpointing = Checkpointing::full;
    if (levers & k_offload_optimizer) {  // DeepSpeed offloads with ZeRO-2 or ZeRO-3
        c.offload = Offload::optimizer;
        if (c.zero_stage < 2) c.zero_stage = 2;
    }
    if (levers & k_offload_params) {  // parameters offload only with ZeRO-3
        c.offload = Offload::optimizer_and_params;
        c.zero_stage = 3;
    }
}

std::vector<Lever> levers_of(int levers) {
    std::vector<Lever> out;
    if (levers) out.reserve(4);  // at most: a loss, the 8-bit optimizer, checkpointing, an offload
    if (levers & k_fused_loss)
        out.push_back({"loss_impl", "fused", "a fused cross-entropy loss (Liger / Cut Cross-Entropy)",
                       "融合交叉熵损失(Liger / Cut Cross-Entropy)"});
    if (levers & k_chunked_loss)
        out.push_back({"loss_impl", "chunked", "a chunked cross-entropy loss (plain PyTorch, as torchtune's)",
                       "分块交叉熵损失(纯 PyTorch 实现,同 torchtune)"});
    if (levers & k_optimizer_8bit)
        out.push_back({"optimizer", "adamw_8bit", "an 8-bit AdamW (bitsandbytes)", "8-bit AdamW(bitsandbytes)"});
    if (levers & k_checkpointing)
        out.push_back({"activation_checkpointing", "full", "gradient checkpointing (about a third more compute)",
                       "梯度检查点(约多三分之一计算量)"});
    if (levers & k_offload_params)
        out.push_back({"offload", "optimizer_and_params", "optimizer and parameters offloaded to CPU (ZeRO-3 Offload)",
                       "优化器和参数卸载到 CPU(ZeRO-3 Offload)"});
    else if (levers & k_offload_optimizer)
        out.push_back({"offload", "optimizer", "the optimizer offloaded to CPU (ZeRO-Offload)", "优化器卸载到 CPU(ZeRO-Offload)"});
    return out;
}

}  // namespace gpusizer::plan
