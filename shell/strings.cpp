#include "strings.hpp"

namespace gpusizer::shell {
namespace {

// [SECTION] English
constexpr Strings k_strings_en = {
    /*app_title*/ "gpusizer",
    /*loading_catalog*/ "Loading the catalog...",
    /*catalog_failed*/ "The catalog could not be loaded:",
    /*model*/ "Model",
    /*weight_dtype*/ "Weight dtype",
    /*results*/ "Estimate",
    /*parameters*/ "Parameters",
    /*weights_memory*/ "Weights memory per GPU",
    /*bytes_suffix*/ "bytes",
    /*estimate_failed*/ "No estimate:",
    /*warnings*/ "Warnings",
    /*catalog_version*/ "Catalog",
    /*prices_as_of*/ "prices as of",
    /*family_other*/ "Other",
    /*link_warning*/ "Link:",
    /*copy_link*/ "Copy share link",
    /*link_copied*/ "Copied to the clipboard.",
    /*summary_format*/ "%s in %s: %s parameters; weights need %s per GPU (%s bytes).",
};

Language g_language = Language::en;

}  // namespace

const Strings& tr() {
    switch (g_language) {
        case Language::en: break;
    }
    return k_strings_en;
}

void set_language(Language lang) { g_language = lang; }
Language language() { return g_language; }

}  // namespace gpusizer::shell
