// Fuzz target: the share link (core/src/scenario/link.cpp), the input a stranger controls completely.
// Invariants: decode_link never crashes or hangs; a decoded scenario is valid, so it encodes
// to a link that decodes without error to the same scenario; encode is a fixed point after one
// round; an encoded link holds only URL-safe characters (it goes straight into an href and the
// address bar); the scenario also survives scenario_to_json → parse_scenario_json.
#include "fuzz_check.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario.hpp"

using namespace gpusizer;

namespace {

bool link_safe(const std::string& l) {
    for (unsigned char c : l) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.' || c == '~' || c == ',' || c == '&' || c == '=' || c == '%';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    Result<Scenario> d = decode_link(text);
    gpusizer_fuzz::check_error_shape(d);
    if (!d.ok()) {
        GPUSIZER_FUZZ_CHECK(d.error.code == "too_large" || d.error.code == "not_a_link",
                            "decode_link failed with code " + d.error.code + ": " + d.error.message);
        return 0;
    }
    const std::string l1 = encode_link(*d);
    GPUSIZER_FUZZ_CHECK(link_safe(l1), "encode_link wrote a character outside the URL-safe set: " + l1.substr(0, 300));
    GPUSIZER_FUZZ_CHECK(l1.size() <= k_max_link_bytes, "encode_link wrote a link longer than decode accepts");
    Result<Scenario> d2 = decode_link(l1);
    GPUSIZER_FUZZ_CHECK(d2.ok(), "decode(encode(s)) failed: " + d2.error.message + " for link " + l1.substr(0, 300));
    GPUSIZER_FUZZ_CHECK(*d2 == *d, "decode(encode(s)) != s for link " + l1.substr(0, 300) + "\n  s  = " +
                                       scenario_to_json(*d).substr(0, 600) + "\n  s' = " +
                                       scenario_to_json(*d2).substr(0, 600));
    const std::string l2 = encode_link(*d2);
    GPUSIZER_FUZZ_CHECK(l2 == l1, "encode(decode(encode(s))) != encode(s): " + l1.substr(0, 200) + " vs " + l2.substr(0, 200));

    // Everything the page shows from a link is well-formed UTF-8 (K1, K2: dump() aborts otherwise).
    GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::valid_utf8(d->hf_config.model_type), "model_type is not UTF-8");
    for (const auto& w : d.warnings.en())
        GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::valid_utf8(w) && w.size() < 2048, "a link warning is not short UTF-8: " + w.substr(0, 200));
    const std::string j = scenario_to_json(*d);
    Result<Scenario> p = parse_scenario_json(j);
    GPUSIZER_FUZZ_CHECK(p.ok(), "a decoded link's scenario JSON does not parse: " + p.error.message + "\n  " + j.substr(0, 600));
    GPUSIZER_FUZZ_CHECK(*p == *d, "scenario_to_json round trip changed a decoded link's scenario:\n  " + j.substr(0, 600));
    return 0;
}
