#pragma once
// Test helpers: read repository files (fixtures, assets). Works natively and in wasm under
// node (-sNODERAWFS=1 gives the real file system).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "embedded_catalog.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/model.hpp"

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

// A config.json of assets/src/hf_configs (the presets' sources, shared/data/hf_configs) parsed.
inline gpusizer::ModelArch config_fixture(const std::string& id) {
    gpusizer::Result<gpusizer::ModelArch> r = gpusizer::parse_hf_config(read_text("assets/src/hf_configs/" + id + ".json"));
    REQUIRE_MESSAGE(r.ok(), id << ": " << r.error.message);
    return *r;
}
// A real config.json with a quantization_config (tests/fixtures/quant_configs, SOURCES.md there).
inline gpusizer::ModelArch quant_fixture(const std::string& file) {
    gpusizer::Result<gpusizer::ModelArch> r = gpusizer::parse_hf_config(read_text("tests/fixtures/quant_configs/" + file));
    REQUIRE_MESSAGE(r.ok(), file << ": " << r.error.message);
    return *r;
}

// The built-in catalog (assets/catalog.json, embedded), parsed once per test binary.
inline const gpusizer::Catalog& built_in_catalog() {
    static const gpusizer::Catalog c = *gpusizer::parse_catalog(embedded_catalog_json()).value;
    return c;
}

}  // namespace gpusizer_test
