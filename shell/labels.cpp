#include "labels.hpp"

#include <cstring>

#include "strings.hpp"

namespace gpusizer::shell {

const char* label(Task v) {
    switch (v) {
        case Task::inference: return tr("Inference / serving", "推理 / 部署");
        case Task::pretrain: return tr("Pretraining", "预训练");
        case Task::full_ft: return tr("Full fine-tune", "全参数微调");
        case Task::lora: return tr("LoRA fine-tune", "LoRA 微调");
        case Task::qlora: return tr("QLoRA fine-tune (4-bit base)", "QLoRA 微调(4 位基座)");
    }
    return "?";
}

const char* label(WeightDtype v) {
    switch (v) {
        case WeightDtype::fp32: return tr("fp32 (full precision)", "fp32(全精度)");
        case WeightDtype::bf16: return tr("bf16 (half precision)", "bf16(半精度)");
        case WeightDtype::fp16: return tr("fp16 (half precision)", "fp16(半精度)");
        case WeightDtype::fp8: return "fp8";
        case WeightDtype::int8: return tr("int8 (LLM.int8 / W8)", "int8(LLM.int8 / W8)");
        case WeightDtype::int4_gptq: return tr("4-bit GPTQ (group 128)", "4 位 GPTQ(组 128)");
        case WeightDtype::int4_awq: return tr("4-bit AWQ (group 128)", "4 位 AWQ(组 128)");
        case WeightDtype::nf4: return tr("NF4 (bitsandbytes, QLoRA)", "NF4(bitsandbytes, QLoRA)");
        case WeightDtype::gguf_q2_k: return "GGUF Q2_K";
        case WeightDtype::gguf_q3_k_m: return "GGUF Q3_K_M";
        case WeightDtype::gguf_q4_0: return "GGUF Q4_0";
        case WeightDtype::gguf_q4_k_m: return "GGUF Q4_K_M";
        case WeightDtype::gguf_q5_k_m: return "GGUF Q5_K_M";
        case WeightDtype::gguf_q6_k: return "GGUF Q6_K";
        case WeightDtype::gguf_q8_0: return "GGUF Q8_0";
    }
    return "?";
}

const char* label(KvDtype v) {
    switch (v) {
        case KvDtype::auto_: return tr("same as the model", "与模型相同");
        case KvDtype::fp16: return "fp16";
        case KvDtype::bf16: return "bf16";
        case KvDtype::fp8: return "fp8";
        case KvDtype::q8_0: return "q8_0 (llama.cpp)";
        case KvDtype::q4_0: return "q4_0 (llama.cpp)";
    }
    return "?";
}

const char* label(Optimizer v) {
    switch (v) {
        case Optimizer::adamw: return "AdamW";
        case Optimizer::adamw_8bit: return tr("AdamW 8-bit", "AdamW 8 位");
        case Optimizer::paged_adamw_8bit: return tr("Paged AdamW 8-bit", "分页 AdamW 8 位");
        case Optimizer::sgd: return "SGD";
        case Optimizer::sgd_momentum: return tr("SGD with momentum", "SGD(动量)");
        case Optimizer::adafactor: return "Adafactor";
        case Optimizer::lion: return "Lion";
    }
    return "?";
}

const char* label(Checkpointing v) {
    switch (v) {
        case Checkpointing::none: return tr("none (fastest)", "不使用(最快)");
        case Checkpointing::selective: return tr("selective (attention)", "选择性(注意力)");
        case Checkpointing::full: return tr("full (every layer)", "完全(每层)");
        case Checkpointing::offload: return tr("full + offload to CPU", "完全 + 卸载到 CPU");
    }
    return "?";
}

const char* label(Attention v) {
    switch (v) {
        case Attention::flash: return "FlashAttention";
        case Attention::sdpa: return tr("PyTorch SDPA", "PyTorch SDPA");
        case Attention::eager: return tr("eager (materialised scores)", "eager(显式注意力矩阵)");
    }
    return "?";
}

const char* label(LoraTargets v) {
    switch (v) {
        case LoraTargets::qv: return tr("q, v projections", "q、v 投影");
        case LoraTargets::attention: return tr("all attention projections", "全部注意力投影");
        case LoraTargets::all_linear: return tr("all linear layers", "全部线性层");
        case LoraTargets::custom: return tr("custom module list", "自定义模块");
    }
    return "?";
}

const char* label(Offload v) {
    switch (v) {
        case Offload::none: return tr("none", "不卸载");
        case Offload::optimizer: return tr("optimizer states to CPU", "优化器状态到 CPU");
        case Offload::optimizer_and_params: return tr("optimizer + parameters to CPU", "优化器和参数到 CPU");
    }
    return "?";
}

const char* label(Engine v) {
    switch (v) {
        case Engine::hf: return tr("Hugging Face transformers", "Hugging Face transformers");
        case Engine::vllm: return "vLLM";
        case Engine::llama_cpp: return "llama.cpp";
    }
    return "?";
}

const char* label(Region v) {
    switch (v) {
        case Region::any: return tr("anywhere", "不限");
        case Region::global: return tr("outside mainland China", "中国大陆以外");
        case Region::cn_mainland: return tr("mainland China", "中国大陆");
    }
    return "?";
}

const char* label(SpotPolicy v) {
    switch (v) {
        case SpotPolicy::allow: return tr("on-demand and spot", "按需和抢占式");
        case SpotPolicy::only: return tr("spot only (interruptible)", "仅抢占式(可被中断)");
        case SpotPolicy::never: return tr("on-demand only", "仅按需");
    }
    return "?";
}

const char* label(Currency v) {
    switch (v) {
        case Currency::USD: return tr("US dollar ($)", "美元 ($)");
        case Currency::CNY: return tr("Chinese yuan (\u00a5)", "人民币 (\u00a5)");
    }
    return "?";
}

const char* label(Framework v) {
    switch (v) {
        case Framework::hf: return tr("Hugging Face Trainer / PEFT / TRL", "Hugging Face Trainer / PEFT / TRL");
        case Framework::torchtune: return "torchtune";
        case Framework::unsloth: return "Unsloth";
        case Framework::deepspeed: return tr("DeepSpeed (HF models)", "DeepSpeed(HF 模型)");
        case Framework::megatron: return "Megatron-LM / NeMo";
    }
    return "?";
}

const char* label(LossImpl v) {
    switch (v) {
        case LossImpl::full: return tr("full logits, fp32 loss", "完整 logits,fp32 损失");
        case LossImpl::chunked: return tr("chunked (8 chunks)", "分块(8 块)");
        case LossImpl::fused: return tr("fused linear cross-entropy", "融合线性交叉熵");
    }
    return "?";
}

const char* label(EngineVersion v) {
    switch (v) {
        case EngineVersion::v1: return tr("V1 (0.8 and later)", "V1(0.8 及以后)");
        case EngineVersion::v0: return tr("V0 (0.6 / 0.7)", "V0(0.6 / 0.7)");
    }
    return "?";
}

const char* memory_term_label(const char* key) {
    struct Row {
        const char *key, *en, *zh;
    };
    static const Row rows[] = {
        {"weights", "Weights", "权重"},
        {"gradients", "Gradients", "梯度"},
        {"optimizer", "Optimizer states", "优化器状态"},
        {"activations", "Activations", "激活值"},
        {"kv_cache", "KV cache", "KV 缓存"},
        {"overhead", "Overhead (CUDA, buffers)", "额外开销(CUDA、缓冲区)"},
        {"total", "Total per GPU", "每 GPU 合计"},
    };
    for (const Row& r : rows)
        if (std::strcmp(r.key, key) == 0) return tr(r.en, r.zh);
    return key;
}

}  // namespace gpusizer::shell
