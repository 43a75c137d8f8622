#pragma once
// Internal helpers for reading untrusted JSON without exceptions (core/src only).
// nlohmann aborts when exceptions are off, so every read is type-checked first.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gpusizer::detail {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// Integral JSON number (2048 or 2048.0) within [lo, hi]; nullopt when not.
inline std::optional<std::int64_t> as_int(const json& v, std::int64_t lo, std::int64_t hi) {
    if (v.is_number_integer()) {
        if (v.is_number_unsigned()) {
            const std::uint64_t u = v.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
            const auto i = static_cast<std::int64_t>(u);
            return (i >= lo && i <= hi) ? std::optional<std::int64_t>(i) : std::nullopt;
        }
        const std::int64_t i = v.get<std::int64_t>();
        return (i >= lo && i <= hi) ? std::optional<std::int64_t>(i) : std::nullopt;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
            return std::nullopt;
        return static_cast<std::int64_t>(d);
    }
    return std::nullopt;
}

// Short printable form of a JSON value for error messages (never huge).
inline std::string show(const json& v) {
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
}

// Checks nesting depth and size before nlohmann sees the text (a parser recursion per level).
inline bool nesting_within(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth) return false;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return true;
}

}  // namespace gpusizer::detail
