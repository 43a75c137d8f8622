#pragma once
// Typing of scenario values given as text (internal: CLI overrides and the link decoder).
#include <optional>
#include <string_view>

#include "json_util.hpp"

namespace gpusizer {

enum class ValueKind { text, number, boolean, list, targets, config };

std::optional<ValueKind> value_kind(std::string_view key);
std::optional<double> parse_number_text(std::string_view text);  // strict decimal, finite
detail::json text_to_json(ValueKind kind, std::string_view text);

}  // namespace gpusizer
