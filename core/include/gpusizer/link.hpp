#pragma once
// The share link: `#v=1&k=v&k=v…` in the URL fragment (docs/scenario.md). Short keys from
// one table, only non-default values, percent-encoded, readable and editable by hand.
// A pasted hf_config travels as its architecture fields (`cfg.<link_key>=value`).
// A pinned scenario (the page's compare) rides along as `pin=1` and its own keys prefixed `pin.`
// (`pin.t=lora`, `pin.cfg.h=4096`): links without it are unchanged, and a reader that does not
// know `pin.` still opens the current scenario (listing the pin keys as unknown).
// Decoding never fails hard: a bad or unknown key or value keeps the default and is listed
// as a warning. decode_link(encode_link(s)).value == s for every scenario.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/result.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

inline constexpr int k_link_version = 1;
inline constexpr std::size_t k_max_link_bytes = 16 * 1024;  // longer links are refused before decoding

// "v=1&m=qwen3-8b&t=qlora" (no leading '#'); with a pinned scenario "…&pin=1&pin.t=lora".
std::string encode_link(const Scenario& s, const std::optional<Scenario>& pinned = std::nullopt);

struct LinkedScenarios {
    Scenario current;
    std::optional<Scenario> pinned;  // set when the link carries pin=1 or any pin.* key
};

// Accepts a full URL, "#v=1&…" or "v=1&…". Always returns a Scenario (defaults where the
// link says nothing or something unusable); warnings list everything that was not understood
// (in English and Chinese; the error messages they quote stay English).
// Fails only for input that is not a link at all (too long, no v=).
Result<Scenario> decode_link(std::string_view link);
// The same, with the pinned scenario (decoded on its own: its problems are warnings starting
// "link, pinned: " and never affect the current one).
Result<LinkedScenarios> decode_link_pair(std::string_view link);

// The scenario keys whose values differ between `a` and `b`, in key-table order, each value as a
// link spells it but numbers to 6 digits ("task": "lora" → "qlora", "budget": "-" → "250"; a key
// not set is "-"; a pasted config by its model_type). The page's compare lists them.
struct KeyChange {
    std::string key, before, after;
};
std::vector<KeyChange> scenario_changes(const Scenario& a, const Scenario& b);

}  // namespace gpusizer
