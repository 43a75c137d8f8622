#pragma once
// quantization_config of a Hugging Face config.json → the quant_* fields of ModelArch (how the
// checkpoint stores its weights). Internal to core/src: called by parse_hf_config once the shape
// is known; sizing from these fields is in weights.cpp (docs/memory-model.md "Checkpoints as stored").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/model.hpp"
#include "json_util.hpp"

namespace gpusizer::detail {

// How a family names the linears of one decoder layer (the names modules_to_not_convert,
// ignore and targets refer to).
enum class ModuleNaming { llama, phi3, mixtral, gpt_oss, qwen_moe, deepseek };

// Reads `qc` (the quantization_config object, found at `path`) into a.quant_*; `a` has its shape
// already. A malformed config (wrong types, absurd bits or group sizes) leaves the quant_* fields
// at their defaults, or, for a method it cannot size, keeps quant_method with quant_bits 0; either
// way a warning naming the key says that weights are sized from weight_dtype instead.
// `nested`: the language model sits under text_config (module names may carry a
// language_model prefix).
void read_quantization_config(const json& qc, std::string_view path, ModuleNaming naming, bool nested, ModelArch& a,
                              Notes& warnings);

// Module-name patterns as quantizers write them (exposed for tests).
//   "re:<regex>": a regular expression (compressed-tensors ignore/targets, GPTQModel "-:" keys),
//                 matched from the start of the full module name;
//   otherwise:    a dotted name or glob ('*' = any characters), matched against any run of
//                 whole segments of the name ("mlp.gate" matches "model.layers.3.mlp.gate", not
//                 "…mlp.gate_proj"; "model.layers.1" does not match "model.layers.12").
// Returns false, and sets *unsupported, for a regex this matcher cannot read; steps bound the work.
bool module_pattern_matches(std::string_view pattern, std::string_view module_name, bool* unsupported = nullptr);

}  // namespace gpusizer::detail
