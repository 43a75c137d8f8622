#pragma once
// What the benchmarks share: a named scenario (keys as the CLI gives them) and percentiles.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "gpusizer/scenario.hpp"

namespace bench {

struct Case {
    const char* name;
    gpusizer::TextOverrides keys;
};

// The p-th percentile (0..1) of v, nearest rank below; v non-empty.
inline double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

}  // namespace bench
