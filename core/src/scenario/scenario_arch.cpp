// hf_config inside a scenario: read a config.json or gpusizer's normalised arch object, and
// print the normalised object (from the one field table in model.hpp).
#include <optional>

#include "model/hf_config_internal.hpp"
#include "scenario_internal.hpp"

namespace gpusizer {

using detail::json;
using detail::ojson;

ojson arch_to_json_object(const ModelArch& a) {
    ojson j;
    j["gpusizer_arch"] = 1;
#define GPUSIZER_X(type, member, hf, link, def) j[#member] = a.member;
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    return j;
}

namespace {

// Same bounds as parse_hf_config: dimensions below 2^32 keep every product exact.
constexpr std::int64_t k_max_arch_value = 4294967295LL;
constexpr std::size_t k_max_arch_text = 64;

// Parameter counts (extra_params: a vision tower's weights) go to 10^13, like params_b.
constexpr std::int64_t k_max_arch_params = 10'000'000'000'000LL;

std::optional<std::string> read_field(const json& v, std::uint64_t& out, std::int64_t max = k_max_arch_value) {
    const auto i = detail::as_int(v, 0, max);
    if (!i) return "expected an integer between 0 and " + std::to_string(max) + ", got " + detail::show(v);
    out = static_cast<std::uint64_t>(*i);
    return std::nullopt;
}
std::optional<std::string> read_field(const json& v, bool& out, std::int64_t = 0) {
    if (!v.is_boolean()) return "expected true or false, got " + detail::show(v);
    out = v.get<bool>();
    return std::nullopt;
}
std::optional<std::string> read_field(const json& v, std::string& out, std::int64_t = 0) {
    if (!v.is_string()) return "expected a string, got " + detail::show(v);
    const std::string t = v.get<std::string>();
    if (t.size() > k_max_arch_text || !detail::valid_utf8(t))
        return "expected text of at most 64 bytes of UTF-8, got '" + detail::printable(t) + "'";
    out = t;
    return std::nullopt;
}

}  // namespace

Result<ModelArch> arch_from_json_object(const json& v) {
    if (!v.is_object()) return Result<ModelArch>::failure({"bad_type", "expected a config.json object, got " + detail::show(v), ""});
    if (!v.contains("gpusizer_arch")) {
        // parse_hf_config's bound on a config.json (the text path checks it before parsing).
        if (!detail::depth_within(v, 32)) return Result<ModelArch>::failure({"too_deep", "hf_config: nested deeper than 32 levels", ""});
        return detail::parse_hf_config_object(v);
    }
    ModelArch a;
    Notes warnings;
#define GPUSIZER_X(type, member, hf, link, def)                                                   \
    if (v.contains(#member))                                                                     \
        if (auto problem = read_field(v[#member], a.member,                                      \
                                      (std::string_view(#member) == "extra_params" || std::string_view(#member) == "frozen_params") ? k_max_arch_params \
                                                                                  : k_max_arch_value)) \
            return Result<ModelArch>::failure({"bad_type", std::string(#member) + ": " + *problem, #member});
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    for (auto it = v.begin(); it != v.end(); ++it) {
        bool known = it.key() == "gpusizer_arch";
#define GPUSIZER_X(type, member, hf, link, def) known = known || it.key() == #member;
        GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
        if (!known)
            warnings.add("unknown architecture field '" + detail::printable(it.key()) + "' ignored",
                         "未知的结构字段 '" + detail::printable(it.key()) + "',已忽略");
    }
    return Result<ModelArch>::success(a, warnings);
}

}  // namespace gpusizer
