// Scenario values given as text (CLI flags, share links) turned into typed JSON values, so
// that every input path ends in the same validating parser (parse_scenario_object).
#include <cmath>
#include <cstdlib>

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

// Every scenario key with the kind of value it takes (spec order).
constexpr KeyKind k_key_kinds[] = {
    {"model", ValueKind::text},           {"hf_config", ValueKind::config},
    {"params_b", ValueKind::number},      {"task", ValueKind::text},
    {"weight_dtype", ValueKind::text},    {"kv_cache_dtype", ValueKind::text},
    {"batch_size", ValueKind::number},    {"seq_len", ValueKind::number},
    {"prompt_tokens", ValueKind::number}, {"output_tokens", ValueKind::number},
    {"optimizer", ValueKind::text},       {"master_weights", ValueKind::boolean},
    {"optimizer_in_backward", ValueKind::boolean},
    {"activation_checkpointing", ValueKind::text},
    {"attention", ValueKind::text},       {"dropout", ValueKind::boolean},
    {"lora_rank", ValueKind::number},     {"lora_targets", ValueKind::targets},
    {"zero_stage", ValueKind::number},    {"offload", ValueKind::text},
    {"num_gpus", ValueKind::number},      {"tensor_parallel", ValueKind::number},
    {"pipeline_parallel", ValueKind::number}, {"expert_parallel", ValueKind::number},
    {"sequence_parallel", ValueKind::boolean}, {"engine", ValueKind::text},
    {"gpu_memory_utilization", ValueKind::number}, {"gpu", ValueKind::text},
    {"gpu_memory_gib", ValueKind::number}, {"train_tokens", ValueKind::number},
    {"mfu", ValueKind::number},           {"region", ValueKind::text},
    {"providers", ValueKind::list},       {"spot", ValueKind::text},
    {"currency", ValueKind::text},        {"budget", ValueKind::number},
    {"deadline_hours", ValueKind::number},
};

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
