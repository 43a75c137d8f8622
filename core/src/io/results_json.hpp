#pragma once
// The results as nlohmann objects, so results_to_json (export.cpp) embeds them without
// printing and re-parsing; estimate_to_json / recommendation_to_json dump these.
#include "gpusizer/estimate.hpp"
#include "gpusizer/recommend.hpp"
#include "json_util.hpp"

namespace gpusizer {

detail::ojson estimate_to_ojson(const Estimate& e);
detail::ojson recommendation_to_ojson(const Recommendation& r);

}  // namespace gpusizer
