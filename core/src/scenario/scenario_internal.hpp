#pragma once
// Scenario <-> nlohmann JSON, shared by scenario.cpp, estimate_json.cpp and the link codec.
#include "gpusizer/scenario.hpp"
#include "json_util.hpp"

namespace gpusizer {

Result<Scenario> parse_scenario_object(const detail::json& obj);
detail::ojson scenario_to_ojson(const Scenario& s);

// hf_config inside a scenario: a real config.json, or gpusizer's own normalised form
// (the ModelArch fields by member name plus "gpusizer_arch": 1) as printed by scenario_to_json.
Result<ModelArch> arch_from_json_object(const detail::json& v);
detail::ojson arch_to_json_object(const ModelArch& a);

}  // namespace gpusizer
