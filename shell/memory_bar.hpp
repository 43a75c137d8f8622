#pragma once
// The memory terms of core's MemoryBreakdown with their colours, and the stacked bar that draws
// them (the memory panel and the compare strip).

#include <cstdint>

#include "gpusizer/estimate.hpp"
#include "imgui.h"

namespace gpusizer::shell {

struct MemoryTerm {
    const char* key;  // "weights", "kv_cache", … (memory_term_label gives its name)
    std::uint64_t MemoryBreakdown::*bytes;
    ImU32 colour;
};
extern const MemoryTerm k_memory_terms[6];

// The terms stacked left to right, `scale_bytes` = the full width, with a line at `capacity`
// (0: none). Submits one item of the full available width (hover it for the numbers).
void memory_bar(const MemoryBreakdown& m, std::uint64_t capacity, double scale_bytes, float height);

}  // namespace gpusizer::shell
