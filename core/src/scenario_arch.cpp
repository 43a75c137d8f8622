// hf_config inside a scenario: read a config.json or gpusizer's normalised arch object, and
// print the normalised object (from the one field table in model.hpp).
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

bool read_field(const json& v, std::uint64_t& out) {
    const auto i = detail::as_int(v, 0, INT64_MAX);
    if (i) out = static_cast<std::uint64_t>(*i);
    return i.has_value();
}
bool read_field(const json& v, bool& out) {
    if (v.is_boolean()) out = v.get<bool>();
    return v.is_boolean();
}
bool read_field(const json& v, std::string& out) {
    if (v.is_string()) out = v.get<std::string>();
    return v.is_string() && out.size() <= 128;
}

}  // namespace

Result<ModelArch> arch_from_json_object(const json& v) {
    if (!v.is_object()) return Result<ModelArch>::failure({"bad_type", "expected a config.json object, got " + detail::show(v), ""});
    if (!v.contains("gpusizer_arch")) return parse_hf_config(v.dump());
    ModelArch a;
    std::vector<std::string> warnings;
#define GPUSIZER_X(type, member, hf, link, def)                                                        \
    if (v.contains(#member) && !read_field(v[#member], a.member))                                     \
        return Result<ModelArch>::failure({"bad_type", std::string(#member) + ": unexpected value " + \
                                                           detail::show(v[#member]), #member});
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    for (auto it = v.begin(); it != v.end(); ++it) {
        bool known = it.key() == "gpusizer_arch";
#define GPUSIZER_X(type, member, hf, link, def) known = known || it.key() == #member;
        GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
        if (!known) warnings.push_back("unknown architecture field '" + it.key() + "' ignored");
    }
    return Result<ModelArch>::success(a, warnings);
}

}  // namespace gpusizer
