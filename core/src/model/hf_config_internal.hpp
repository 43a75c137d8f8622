#pragma once
// Internal: a config.json already parsed (the catalog's presets, a scenario's hf_config object),
// read without printing and parsing it again.
#include "gpusizer/model.hpp"
#include "json_util.hpp"

namespace gpusizer::detail {

Result<ModelArch> parse_hf_config_object(const json& root);

}  // namespace gpusizer::detail
