// Scenario values given as text (CLI flags, share links) turned into typed JSON values, so
// that every input path ends in the same validating parser (parse_scenario_object).
#include <cmath>
#include <cstdlib>
#include <optional>
#include <type_traits>

#include "gpusizer/scenario_limits.hpp"
#include "scenario_internal.hpp"
#include "scenario_text.hpp"

namespace gpusizer {

using detail::json;

namespace {

struct KeyKind {
    const char* key;
    ValueKind kind;
};

// How the text of a `field` key is typed, from its member's C++ type.
template <class T>
constexpr ValueKind kind_of() {
    if constexpr (std::is_enum_v<T>) return ValueKind::text;
    else if constexpr (std::is_same_v<T, bool>) return ValueKind::boolean;
    else return ValueKind::number;
}
template <class T>
constexpr ValueKind kind_of_optional(const std::optional<T>*) { return kind_of<T>(); }
template <class T>
constexpr ValueKind kind_of_optional(const T*) { return kind_of<T>(); }

// Every scenario key with the kind of value it takes (scenario_keys.hpp order).
#define GPUSIZER_KIND_field(key) kind_of_optional(static_cast<const decltype(Scenario::key)*>(nullptr))
#define GPUSIZER_KIND_text(key) ValueKind::text
#define GPUSIZER_KIND_config(key) ValueKind::config
#define GPUSIZER_KIND_number(key) ValueKind::number
#define GPUSIZER_KIND_targets(key) ValueKind::targets
#define GPUSIZER_KIND_list(key) ValueKind::list
#define GPUSIZER_X(key, link, limit, how) {#key, GPUSIZER_KIND_##how(key)},
constexpr KeyKind k_key_kinds[] = {GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)};
#undef GPUSIZER_X
#undef GPUSIZER_KIND_field
#undef GPUSIZER_KIND_text
#undef GPUSIZER_KIND_config
#undef GPUSIZER_KIND_number
#undef GPUSIZER_KIND_targets
#undef GPUSIZER_KIND_list

std::vector<std::string> split_commas(std::string_view s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t end = s.find(',', start);
        const std::string_view part = s.substr(start, end == std::string_view::npos ? s.npos : end - start);
        if (!part.empty()) out.emplace_back(part);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

}  // namespace

const std::vector<std::string>& scenario_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k;
        for (const KeyKind& kk : k_key_kinds) k.emplace_back(kk.key);
        return k;
    }();
    return keys;
}

std::optional<ValueKind> value_kind(std::string_view key) {
    for (const KeyKind& kk : k_key_kinds)
        if (key == kk.key) return kk.kind;
    return std::nullopt;
}

std::optional<double> parse_number_text(std::string_view text) {
    if (text.empty() || text.size() > 64) return std::nullopt;
    const std::string s(text);
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
    for (char c : s)  // decimal only: no hex floats, no "inf"/"nan" spellings
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
    return d;
}

json text_to_json(ValueKind kind, std::string_view text) {
    switch (kind) {
        case ValueKind::number: {
            const auto d = parse_number_text(text);
            if (!d) return json(std::string(text));  // the parser then names the key and the bad value
            if (*d == std::floor(*d) && std::fabs(*d) < 9.0e15) return json(static_cast<std::int64_t>(*d));
            return json(*d);
        }
        case ValueKind::boolean:
            if (text == "true" || text == "1" || text == "yes") return json(true);
            if (text == "false" || text == "0" || text == "no") return json(false);
            return json(std::string(text));
        case ValueKind::list: return json(split_commas(text));
        case ValueKind::targets:
            if (parse_enum<LoraTargets>(text) && text != "custom") return json(std::string(text));
            return json(split_commas(text));
        case ValueKind::config: {
            // Oversized or deeply nested text stays a string; callers report the limit first.
            if (text.size() > k_max_scenario_bytes || !detail::nesting_within(text, k_max_json_depth))
                return json(std::string("<config too large or too deep>"));
            json v = json::parse(text, nullptr, false);
            return v.is_discarded() ? json(detail::printable(text)) : v;
        }
        case ValueKind::text: break;
    }
    return json(std::string(text));
}

Result<Scenario> parse_scenario_overrides(std::string_view base_json, const TextOverrides& overrides) {
    if (base_json.size() > k_max_scenario_bytes || !detail::nesting_within(base_json, k_max_json_depth))
        return parse_scenario_json(base_json);  // reports the limit
    json obj = json::parse(base_json, nullptr, false);
    if (obj.is_discarded()) return Result<Scenario>::failure({"bad_json", "scenario is not valid JSON", ""});
    if (!obj.is_object()) return parse_scenario_object(obj);
    for (const auto& [key, text] : overrides) {
        const auto kind = value_kind(key);
        if (!kind) return Result<Scenario>::failure({"unknown_key", "unknown scenario key '" + key + "'", key});
        // A model source given here replaces the base's model source.
        if (key == "model" || key == "hf_config" || key == "params_b") {
            obj.erase("model");
            obj.erase("hf_config");
            obj.erase("params_b");
        }
        if (key == "prompt_tokens" || key == "output_tokens") obj.erase("seq_len");
        if (key == "hf_config") {
            if (text.size() > k_max_scenario_bytes)
                return Result<Scenario>::failure({"too_large",
                                                  "hf_config: config.json is " + std::to_string(text.size()) +
                                                      " bytes; the limit is " + std::to_string(k_max_scenario_bytes),
                                                  "hf_config"});
            if (!detail::nesting_within(text, k_max_json_depth))
                return Result<Scenario>::failure(
                    {"too_deep", "hf_config: nested deeper than " + std::to_string(k_max_json_depth) + " levels", "hf_config"});
        }
        obj[key] = text_to_json(*kind, text);
        if (key == "hf_config" && obj[key].is_string()) {
            const std::string place = detail::syntax_error_place(text);
            return Result<Scenario>::failure(
                {"bad_json", "hf_config: not valid JSON" + (place.empty() ? std::string() : ": " + place), "hf_config"});
        }
    }
    return parse_scenario_object(obj);
}

}  // namespace gpusizer
