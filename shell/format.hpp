#pragma once
// Display formatting of numbers that core computed. Unit conversions for display only; no
// arithmetic that changes meaning (the shell never computes a number itself).

#include <cstdint>
#include <string>

#include "gpusizer/units.hpp"

namespace gpusizer::shell {

// 16060522496 -> "16,060,522,496"
std::string format_grouped(std::uint64_t n);

// GiB and billions: core's format_gib / format_billions (gpusizer/units.hpp), the CLI's spelling.
// A scenario value as typed (shortest text that reads back the same, ≥ 6 digits): 0.9, 1e+09, 2048
inline std::string format_value(double v) { return shortest_number(v, 6); }

// Money: "$1,234.56" / "¥1,234.56" (two decimals; under 0.01 shown as "< $0.01")
std::string format_money(double amount, const std::string& currency);

// Hours in the current language: "37 min", "5.2 h", "3.4 days", "1.2 years" (core's hours_text spelling)
std::string format_hours(double hours);

// Large counts: 1.5e9 -> "1.50 B", 3.2e6 -> "3.20 M", 950 -> "950"; below 10, 3 digits: 0.116 -> "0.116"
std::string format_count(double n);

}  // namespace gpusizer::shell
