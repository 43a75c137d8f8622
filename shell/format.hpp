#pragma once
// Display formatting of numbers that core computed. Unit conversions for display only; no
// arithmetic that changes meaning (the shell never computes a number itself).

#include <cstdint>
#include <string>

namespace gpusizer::shell {

// 16060522496 -> "16,060,522,496"
std::string format_grouped(std::uint64_t n);

// 17179869184 -> "16.00 GiB" (same spelling as the CLI's human output)
std::string format_gib(std::uint64_t bytes);

// 8030261248 -> "8.03 B", 494032768 -> "494.03 M"
std::string format_billions(std::uint64_t n);

}  // namespace gpusizer::shell
