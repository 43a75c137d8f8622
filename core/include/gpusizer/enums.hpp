#pragma once
// Every enumerated scenario value with its spelling in JSON, links and the CLI.
// One table per enum: the order of k_*_names matches the enum order.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpusizer {

enum class Task { inference, pretrain, full_ft, lora, qlora };
enum class WeightDtype {
    fp32, bf16, fp16, fp8, int8, int4_gptq, int4_awq, nf4,
    gguf_q2_k, gguf_q3_k_m, gguf_q4_0, gguf_q4_k_m, gguf_q5_k_m, gguf_q6_k, gguf_q8_0
};
enum class KvDtype { auto_, fp16, bf16, fp8, q8_0, q4_0 };
enum class Optimizer { adamw, adamw_8bit, paged_adamw_8bit, sgd, sgd_momentum, adafactor, lion };
enum class Checkpointing { none, selective, full, offload };
enum class Attention { flash, sdpa, eager };
enum class LoraTargets { qv, attention, all_linear, custom };  // custom = Scenario::lora_modules
enum class Offload { none, optimizer, optimizer_and_params };
enum class Engine { hf, vllm, llama_cpp };
enum class Region { any, global, cn_mainland };
enum class SpotPolicy { allow, only, never };
enum class Currency { USD, CNY };
enum class Framework { hf, torchtune, unsloth, deepspeed, megatron };
enum class LossImpl { full, chunked, fused };
enum class EngineVersion { v1, v0 };
enum class InterconnectNeed { any, nvlink };
enum class RankBy { cost, hourly, time };

inline constexpr bool is_training(Task t) { return t != Task::inference; }
inline constexpr bool is_lora(Task t) { return t == Task::lora || t == Task::qlora; }

template <class E> struct EnumNames;  // specialised below: static constexpr names[]
#define GPUSIZER_ENUM_NAMES(E, ...)                                  \
    template <> struct EnumNames<E> {                                \
        static constexpr const char* names[] = {__VA_ARGS__};        \
        static constexpr std::size_t count = sizeof(names) / sizeof(names[0]); \
    };
GPUSIZER_ENUM_NAMES(Task, "inference", "pretrain", "full_ft", "lora", "qlora")
GPUSIZER_ENUM_NAMES(WeightDtype, "fp32", "bf16", "fp16", "fp8", "int8", "int4_gptq", "int4_awq", "nf4",
                    "gguf_q2_k", "gguf_q3_k_m", "gguf_q4_0", "gguf_q4_k_m", "gguf_q5_k_m", "gguf_q6_k",
                    "gguf_q8_0")
GPUSIZER_ENUM_NAMES(KvDtype, "auto", "fp16", "bf16", "fp8", "q8_0", "q4_0")
GPUSIZER_ENUM_NAMES(Optimizer, "adamw", "adamw_8bit", "paged_adamw_8bit", "sgd", "sgd_momentum", "adafactor",
                    "lion")
GPUSIZER_ENUM_NAMES(Checkpointing, "none", "selective", "full", "offload")
GPUSIZER_ENUM_NAMES(Attention, "flash", "sdpa", "eager")
GPUSIZER_ENUM_NAMES(LoraTargets, "qv", "attention", "all_linear", "custom")
GPUSIZER_ENUM_NAMES(Offload, "none", "optimizer", "optimizer_and_params")
GPUSIZER_ENUM_NAMES(Engine, "hf", "vllm", "llama_cpp")
GPUSIZER_ENUM_NAMES(Region, "any", "global", "cn_mainland")
GPUSIZER_ENUM_NAMES(SpotPolicy, "allow", "only", "never")
GPUSIZER_ENUM_NAMES(Currency, "USD", "CNY")
GPUSIZER_ENUM_NAMES(Framework, "hf", "torchtune", "unsloth", "deepspeed", "megatron")
GPUSIZER_ENUM_NAMES(LossImpl, "full", "chunked", "fused")
GPUSIZER_ENUM_NAMES(EngineVersion, "v1", "v0")
GPUSIZER_ENUM_NAMES(InterconnectNeed, "any", "nvlink")
GPUSIZER_ENUM_NAMES(RankBy, "cost", "hourly", "time")
#undef GPUSIZER_ENUM_NAMES

template <class E>
constexpr const char* to_string(E e) {
    return EnumNames<E>::names[static_cast<std::size_t>(e)];
}

template <class E>
std::optional<E> parse_enum(std::string_view s) {
    for (std::size_t i = 0; i < EnumNames<E>::count; ++i)
        if (s == EnumNames<E>::names[i]) return static_cast<E>(i);
    return std::nullopt;
}

// "a · b · c" list of allowed spellings, for error messages.
template <class E>
std::string allowed_values() {
    std::string out;
    for (std::size_t i = 0; i < EnumNames<E>::count; ++i) {
        if (i) out += ", ";
        out += EnumNames<E>::names[i];
    }
    return out;
}

}  // namespace gpusizer
