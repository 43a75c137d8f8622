#include "format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "strings.hpp"

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

std::string format_money(double amount, const std::string& currency) {
    const char* sign = currency == "CNY" ? "\u00a5" : "$";
    if (amount > 0 && amount < 0.01) return std::string("< ") + sign + "0.01";
    const double cents = std::round(amount * 100.0);
    const std::uint64_t whole = static_cast<std::uint64_t>(cents / 100.0);
    const int frac = static_cast<int>(cents - static_cast<double>(whole) * 100.0);
    char buf[16];
    std::snprintf(buf, sizeof buf, ".%02d", frac < 0 ? 0 : frac % 100);
    return sign + format_grouped(whole) + buf;
}

std::string format_hours(double hours) {
    char buf[48];
    if (hours < 1.0)
        std::snprintf(buf, sizeof buf, tr("%.0f min", "%.0f 分钟"), hours * 60.0);
    else if (hours < 48.0)
        std::snprintf(buf, sizeof buf, tr("%.1f h", "%.1f 小时"), hours);
    else if (hours < 24.0 * 730)
        std::snprintf(buf, sizeof buf, tr("%.1f days", "%.1f 天"), hours / 24.0);
    else
        std::snprintf(buf, sizeof buf, tr("%.1f years", "%.1f 年"), hours / (24.0 * 365.25));
    return buf;
}

std::string format_count(double n) {
    char buf[48];
    if (n >= 1e12)
        std::snprintf(buf, sizeof buf, "%.2f T", n / 1e12);
    else if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2f B", n / 1e9);
    else if (n >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f M", n / 1e6);
    else if (n >= 1e4)
        std::snprintf(buf, sizeof buf, "%.1f k", n / 1e3);
    else if (n > 0 && n < 10)  // images/s of a diffusion model, a real-time factor: keep 3 digits
        std::snprintf(buf, sizeof buf, "%.3g", n);
    else
        std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

}  // namespace gpusizer::shell
