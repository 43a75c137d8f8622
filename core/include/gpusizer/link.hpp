#pragma once
// The share link: `#v=1&k=v&k=v…` in the URL fragment (docs/scenario.md). Short keys from
// one table, only non-default values, percent-encoded, readable and editable by hand.
// A pasted hf_config travels as its architecture fields (`cfg.<link_key>=value`).
// Decoding never fails hard: a bad or unknown key or value keeps the default and is listed
// as a warning. decode_link(encode_link(s)).value == s for every scenario.

#include <string>
#include <string_view>

#include "gpusizer/result.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

inline constexpr int k_link_version = 1;
inline constexpr std::size_t k_max_link_bytes = 16 * 1024;  // longer links are refused before decoding

// "v=1&m=qwen3-8b&t=qlora" (no leading '#').
std::string encode_link(const Scenario& s);

// Accepts a full URL, "#v=1&…" or "v=1&…". Always returns a Scenario (defaults where the
// link says nothing or something unusable); warnings list everything that was not understood.
// Fails only for input that is not a link at all (too long, no v=).
Result<Scenario> decode_link(std::string_view link);

}  // namespace gpusizer
