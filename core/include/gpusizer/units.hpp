#pragma once
// Units and number text shared by core, the CLI and the page: one spelling of each.
#include <cstdint>
#include <string>

namespace gpusizer {

inline constexpr double k_bytes_per_gib = 1073741824.0;  // GiB = 2^30 bytes, as everywhere in gpusizer
inline constexpr double k_bytes_per_mib = 1048576.0;

// 17179869184 -> "16.00 GiB"
std::string format_gib(double bytes);
// 8030261248 -> "8.03 B", 494032768 -> "494.03 M"
std::string format_billions(std::uint64_t n);
// The shortest decimal text that reads back as exactly v, with at least `min_digits`
// significant digits ("%.*g"): deterministic on every host. Links use 1 (1e+05), the page 6 (100000).
std::string shortest_number(double v, int min_digits = 1);

}  // namespace gpusizer
