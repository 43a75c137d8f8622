#pragma once
// Shared by the fuzz targets: an invariant that must hold for every input. On failure it
// prints what broke and aborts, so libFuzzer saves the input as a crash-* artifact
// (scripts/fuzz puts them in test-artifacts/fuzz/). Turn each one into a case in
// tests/core/test_fuzz_regressions.cpp.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gpusizer/result.hpp"

#define GPUSIZER_FUZZ_CHECK(cond, what)                                                          \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            std::fprintf(stderr, "\nfuzz invariant broken at %s:%d: %s\n  %s\n", __FILE__, __LINE__, \
                         #cond, std::string(what).c_str());                                      \
            std::abort();                                                                        \
        }                                                                                        \
    } while (0)

namespace gpusizer_fuzz {

inline std::string_view as_text(const unsigned char* data, std::size_t size) {
    return std::string_view(reinterpret_cast<const char*>(data), size);
}

// Every failure must say what and where: a stable code and a human message, both short
// enough to show (messages quote at most ~60 characters of the input).
template <class T>
void check_error_shape(const gpusizer::Result<T>& r) {
    if (r.ok()) return;
    GPUSIZER_FUZZ_CHECK(!r.error.code.empty(), "error without a code: " + r.error.message);
    GPUSIZER_FUZZ_CHECK(!r.error.message.empty(), "error without a message, code " + r.error.code);
    GPUSIZER_FUZZ_CHECK(r.error.message.size() < 2048, "error message of " + std::to_string(r.error.message.size()) +
                                                           " bytes: " + r.error.message.substr(0, 200));
}

// The built-in catalog text (assets/catalog.json), read once; aborts when missing.
inline const std::string& builtin_catalog_text() {
    static const std::string text = [] {
        std::string out;
        std::FILE* f = std::fopen(GPUSIZER_CATALOG_PATH, "rb");
        if (!f) {
            std::fprintf(stderr, "fuzz: cannot read %s\n", GPUSIZER_CATALOG_PATH);
            std::abort();
        }
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        std::fclose(f);
        return out;
    }();
    return text;
}

// Well-formed UTF-8 (what nlohmann's dump() insists on: it aborts otherwise, -fno-exceptions).
inline bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t n;  // continuation bytes
        std::uint32_t cp;
        if (c < 0x80) { n = 0; cp = c; }
        else if ((c >> 5) == 0x6) { n = 1; cp = c & 0x1F; }
        else if ((c >> 4) == 0xE) { n = 2; cp = c & 0x0F; }
        else if ((c >> 3) == 0x1E) { n = 3; cp = c & 0x07; }
        else return false;
        if (i + n >= s.size() && n > 0) return false;
        for (std::size_t k = 1; k <= n; ++k) {
            const unsigned char cc = static_cast<unsigned char>(s[i + k]);
            if ((cc >> 6) != 0x2) return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

inline bool finite_non_negative(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace gpusizer_fuzz
