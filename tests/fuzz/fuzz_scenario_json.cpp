// Fuzz target: scenario JSON (CLI --scenario, exports; core/src/scenario/scenario.cpp).
// Invariants: parse never crashes or hangs; errors carry a code and a short message; a parsed
// scenario prints (scenario_to_json) to JSON that parses back to an equal Scenario and prints
// identically; its share link decodes to the same Scenario too.
#include "fuzz_check.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario.hpp"

using namespace gpusizer;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    Result<Scenario> r = parse_scenario_json(text);
    gpusizer_fuzz::check_error_shape(r);
    if (!r.ok()) return 0;

    const std::string j = scenario_to_json(*r);
    Result<Scenario> r2 = parse_scenario_json(j);
    GPUSIZER_FUZZ_CHECK(r2.ok(), "scenario_to_json output does not parse: " + format_error(r2.error) + "\n  " + j.substr(0, 800));
    GPUSIZER_FUZZ_CHECK(*r2 == *r, "parse(print(s)) != s\n  " + j.substr(0, 800));
    GPUSIZER_FUZZ_CHECK(scenario_to_json(*r2) == j, "print(parse(print(s))) != print(s)\n  " + j.substr(0, 800));

    const std::string l = encode_link(*r);
    Result<Scenario> d = decode_link(l);
    GPUSIZER_FUZZ_CHECK(d.ok(), "the link of a parsed scenario does not decode: " + d.error.message + " " + l.substr(0, 300));
    GPUSIZER_FUZZ_CHECK(*d == *r, "decode(encode(s)) != s for a parsed scenario; link " + l.substr(0, 300) + "\n  " +
                                      j.substr(0, 800));
    return 0;
}
