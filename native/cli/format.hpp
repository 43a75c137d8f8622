#pragma once
// Human output helpers for the CLI.
#include <cstdint>
#include <cstdio>
#include <string>

#include "gpusizer/units.hpp"

namespace gpusizer::cli {

// GiB and billions: core's format_gib / format_billions (gpusizer/units.hpp).
using gpusizer::format_billions;
using gpusizer::format_gib;

inline std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

}  // namespace gpusizer::cli
