#pragma once
// assets/catalog.json compiled into the native binaries so they work with no files beside them.
#include <string_view>

extern const unsigned char gpusizer_embedded_catalog[];
extern const unsigned long gpusizer_embedded_catalog_size;

inline std::string_view embedded_catalog_json() {
    return {reinterpret_cast<const char*>(gpusizer_embedded_catalog),
            static_cast<std::size_t>(gpusizer_embedded_catalog_size)};
}
