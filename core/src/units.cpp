#include "gpusizer/units.hpp"

#include <cstdio>
#include <cstdlib>

namespace gpusizer {

std::string format_gib(double bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / k_bytes_per_gib);
    return buf;
}

std::string format_billions(std::uint64_t n) {
    char buf[48];
    if (n >= 1000000000ull) std::snprintf(buf, sizeof buf, "%.2f B", static_cast<double>(n) / 1e9);
    else std::snprintf(buf, sizeof buf, "%.2f M", static_cast<double>(n) / 1e6);
    return buf;
}

std::string shortest_number(double v, int min_digits) {
    char buf[40];
    for (int prec = min_digits; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

}  // namespace gpusizer
