#pragma once
// Test helpers: read repository files (fixtures, assets). Works natively and in wasm under
// node (-sNODERAWFS=1 gives the real file system).
#include <cstdio>
#include <string>

namespace gpusizer_test {

inline std::string source_path(const std::string& rel) { return std::string(GPUSIZER_SOURCE_DIR) + "/" + rel; }

// Whole file as text; "" when it cannot be read (the test then fails on its own checks).
inline std::string read_text(const std::string& rel) {
    std::string out;
    if (std::FILE* f = std::fopen(source_path(rel).c_str(), "rb")) {
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        std::fclose(f);
    }
    return out;
}

}  // namespace gpusizer_test
