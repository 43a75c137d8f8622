#pragma once
// Every string the UI shows, in one table per language. Panels never spell text inline:
// they read tr().<name>. Adding a language = one more table in strings.cpp.
// Widget *ids* ("##model") and test tags ("model_combo") are not UI text and stay in code.

namespace gpusizer::shell {

enum class Language { en };

struct Strings {
    const char* app_title;         // window / panel title
    const char* loading_catalog;   // shown until the catalog arrives
    const char* catalog_failed;    // followed by the error message
    const char* model;             // combo label
    const char* weight_dtype;      // combo label
    const char* results;           // section header
    const char* parameters;        // "Parameters"
    const char* weights_memory;    // "Weights memory (per GPU)"
    const char* bytes_suffix;      // "bytes"
    const char* estimate_failed;   // followed by the error message
    const char* warnings;          // section header
    const char* catalog_version;   // footer: "Catalog"
    const char* prices_as_of;      // footer: "prices as of"
    const char* family_other;      // model group for presets without a family
    const char* link_warning;      // prefix of a share-link warning
    const char* copy_link;         // button: copy the share link
    const char* link_copied;       // shown after copying
    const char* summary_format;    // printf: model, dtype, parameters, weights GiB, weights bytes
};

const Strings& tr();                 // the current language's table
void set_language(Language lang);    // switches tr()
Language language();

}  // namespace gpusizer::shell
