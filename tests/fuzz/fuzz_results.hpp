#pragma once
// Shared by fuzz_estimate and fuzz_recommend: the built-in catalog, parsed once, and the check
// that a printed result is JSON whose every number is finite and >= 0.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "gpusizer/catalog.hpp"

namespace gpusizer_fuzz {

// The built-in catalog (assets/catalog.json), parsed once; aborts when it does not parse.
inline const gpusizer::Catalog& builtin_catalog() {
    static const gpusizer::Catalog c = [] {
        gpusizer::Result<gpusizer::Catalog> r = gpusizer::parse_catalog(builtin_catalog_text());
        if (!r.ok()) {
            std::fprintf(stderr, "fuzz: the built-in catalog does not parse: %s\n", gpusizer::format_error(r.error).c_str());
            std::abort();
        }
        return *r;
    }();
    return c;
}

// Every number in a printed result is finite and >= 0 ("path" names the first offender).
inline void walk_numbers(const nlohmann::json& j, const std::string& path, const std::string& doc) {
    if (j.is_number_float()) {
        const double d = j.get<double>();
        GPUSIZER_FUZZ_CHECK(finite_non_negative(d), path + " = " + std::to_string(d) + " in " + doc.substr(0, 1500));
    } else if (j.is_number_integer() && !j.is_number_unsigned()) {
        GPUSIZER_FUZZ_CHECK(j.get<std::int64_t>() >= 0, path + " is negative in " + doc.substr(0, 1500));
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) walk_numbers(*it, path + "." + it.key(), doc);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) walk_numbers(j[i], path + "[" + std::to_string(i) + "]", doc);
    }
}

// `text` (what `what` printed) is JSON, and every number in it is finite and >= 0.
inline void check_printed(const std::string& text, const char* what) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    GPUSIZER_FUZZ_CHECK(!j.is_discarded(), std::string(what) + " printed invalid JSON: " + text.substr(0, 500));
    walk_numbers(j, what, text);
}

}  // namespace gpusizer_fuzz
