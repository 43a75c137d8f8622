// Fuzz target: whatever scenario gets through the parsers, run through the planner
// (recommend with the built-in catalog). Slow (every candidate is re-estimated), so it is not
// in scripts/fuzz's default list: FUZZ_TARGETS=fuzz_recommend scripts/fuzz 600. Input: a scenario JSON when it starts
// with '{', else a share link (compact, so mutations reach extreme values quickly).
// Invariants ("numbers stay honest"): no crash, hang or UB; every number of the estimate is
// finite and non-negative, in the structs and in the printed JSON; the
// memory total covers each of its parts; fits/headroom/shortfall agree with each other.
#include <string>

#include "fuzz_results.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/scenario.hpp"
#include <nlohmann/json.hpp>

using namespace gpusizer;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    const Result<Scenario> s = (!text.empty() && text[0] == '{') ? parse_scenario_json(text) : decode_link(text);
    if (!s.ok()) return 0;
    const std::string in = encode_link(*s);

    Result<Recommendation> r = recommend(gpusizer_fuzz::builtin_catalog(), *s, 5);
    gpusizer_fuzz::check_error_shape(r);
    if (!r.ok()) return 0;
    gpusizer_fuzz::check_recommendation(*r, in);
    return 0;
}
