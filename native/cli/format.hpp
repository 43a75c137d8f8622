#pragma once
// Human output helpers for the CLI: printf numbers and tables whose columns fit their widest cell.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpusizer/units.hpp"

namespace gpusizer::cli {

// GiB and billions: core's format_gib / format_billions (gpusizer/units.hpp).
using gpusizer::format_billions;
using gpusizer::format_gib;

inline std::string num(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Display width of UTF-8 text in a terminal: CJK and full-width characters take two columns.
inline std::size_t display_width(const std::string& s) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        unsigned cp = c;
        std::size_t n = 1;
        if (c >= 0xF0) cp = ((c & 0x07u) << 18), n = 4;
        else if (c >= 0xE0) cp = ((c & 0x0Fu) << 12), n = 3;
        else if (c >= 0xC0) cp = ((c & 0x1Fu) << 6), n = 2;
        for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
            cp |= (static_cast<unsigned char>(s[i + k]) & 0x3Fu) << (6 * (n - 1 - k));
        w += (cp >= 0x1100 && (cp <= 0x115F || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
                               (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFF60)))
                 ? 2
                 : 1;
        i += n;
    }
    return w;
}

// Rows of left-aligned cells; render() pads every column but the last to its widest cell plus two
// spaces, so long instance names never push the next column out of line.
class Table {
public:
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    std::string render(const std::string& indent = "") const {
        std::vector<std::size_t> widths;
        for (const auto& r : rows_)
            for (std::size_t i = 0; i < r.size(); ++i) {
                if (widths.size() <= i) widths.push_back(0);
                if (display_width(r[i]) > widths[i]) widths[i] = display_width(r[i]);
            }
        std::string out;
        for (const auto& r : rows_) {
            out += indent;
            for (std::size_t i = 0; i < r.size(); ++i) {
                out += r[i];
                if (i + 1 < r.size()) out.append(widths[i] - display_width(r[i]) + 2, ' ');
            }
            out += "\n";
        }
        return out;
    }

private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpusizer::cli
