#include "format.hpp"

#include <cstdio>

namespace gpusizer::shell {

std::string format_grouped(std::uint64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string format_gib(std::uint64_t bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
    return buf;
}

std::string format_billions(std::uint64_t n) {
    char buf[48];
    if (n >= 1000000000ull)
        std::snprintf(buf, sizeof buf, "%.2f B", static_cast<double>(n) / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.2f M", static_cast<double>(n) / 1e6);
    return buf;
}

}  // namespace gpusizer::shell
