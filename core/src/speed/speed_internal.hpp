#pragma once
// Shared by the speed model's files (core/src/speed/*.cpp); not public.
#include <string>

#include "gpusizer/model.hpp"

namespace gpusizer {

// Σ over layers of (attention width × attended tokens) for one token at context T (speed.cpp).
double attention_span_of(const ModelArch& a, double T);

// Appends "%.Nf" of v (N ≤ 6, |v| < 1e15, rounded half up) without printf — the planner formats
// thousands of numbers per answer; false (nothing appended) for other values (speed.cpp).
bool append_fixed(std::string& out, double v, int decimals);
std::string fixed_text(double v, int decimals);

// PCIe x16 bandwidth per direction, bytes/s: gen3 16, gen4 32, gen5 64, gen6 128 GB/s (PCI-SIG) (comm.cpp).
double pcie_bytes_per_s(int gen);

}  // namespace gpusizer
