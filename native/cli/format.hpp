#pragma once
// Human output helpers for the CLI.
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpusizer::cli {

// 17179869184 -> "16.00 GiB"
inline std::string gib(std::uint64_t bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
    return buf;
}

// 8030261248 -> "8.03 B"
inline std::string billions(std::uint64_t n) {
    char buf[48];
    if (n >= 1000000000ull)
        std::snprintf(buf, sizeof buf, "%.2f B", static_cast<double>(n) / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.2f M", static_cast<double>(n) / 1e6);
    return buf;
}

inline std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

}  // namespace gpusizer::cli
