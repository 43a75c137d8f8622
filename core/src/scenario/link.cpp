// Share-link codec: `v=1&m=qwen3-8b&t=qlora…`. One table maps short keys to scenario keys;
// encoding writes only values that differ from the defaults; decoding types each value like
// the CLI does and validates through parse_scenario_object, dropping (with a warning) any
// key the parser rejects, so a bad link still opens everything else. A pinned scenario (the
// page's compare) follows as `pin=1&pin.t=lora…`, decoded the same way on its own.
//
// Index
// [SECTION] Key table
// [SECTION] Percent-encoding and number text
// [SECTION] Encoding
// [SECTION] Differences (the page's compare)
// [SECTION] Decoding

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gpusizer/link.hpp"
#include "gpusizer/units.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "scenario_internal.hpp"
#include "scenario_text.hpp"

namespace gpusizer {

using detail::json;
using detail::ojson;

// [SECTION] Key table: one line per key (short key, scenario key). Never reuse a short key.
namespace {

struct LinkKey {
    const char* short_key;
    const char* key;
};

// From the key table (scenario_keys.hpp); hf_config has no short key of its own (cfg.* below).
#define GPUSIZER_X(key, link, limit, how) {link, #key},
constexpr LinkKey k_link_keys[] = {GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)};
#undef GPUSIZER_X
constexpr const char* k_cfg_prefix = "cfg.";  // hf_config architecture fields: cfg.<link_key>
constexpr const char* k_pin_key = "pin";      // a pinned scenario rides along (compare): pin=1 …
constexpr const char* k_pin_prefix = "pin.";  // … and its keys as pin.<short key>, pin.cfg.<link_key>

const char* long_key(std::string_view short_key) {
    for (const LinkKey& k : k_link_keys)
        if (!short_key.empty() && short_key == k.short_key) return k.key;
    return nullptr;
}
const char* short_key(std::string_view key) {
    for (const LinkKey& k : k_link_keys)
        if (key == k.key) return *k.short_key ? k.short_key : nullptr;
    return nullptr;
}

// [SECTION] Percent-encoding and number text

bool unreserved(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~' || c == ',';
}

std::string percent_encode(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (unreserved(c)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// nullopt when a '%' is not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size()) return std::nullopt;
            const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

// The link text of one JSON value: numbers shortest (at least `digits` significant digits: the
// link 1, "1e+09"; people 6, "1000000000"), lists comma-joined, strings as is.
std::string value_text(const ojson& v, int digits = 1) {
    if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number()) return shortest_number(v.get<double>(), digits);
    if (v.is_array()) {
        std::string out;
        for (const auto& x : v) out += (out.empty() ? "" : ",") + x.get<std::string>();
        return out;
    }
    if (v.is_string()) return v.get<std::string>();
    return "";
}

}  // namespace

// [SECTION] Encoding

namespace {

// The scenario's keys as `&<prefix><short key>=value` pairs.
void encode_keys(const Scenario& s, const std::string& prefix, std::string& out) {
    // A key is written when it differs from its default for this scenario (keys_off_default:
    // the dependent defaults of the scenario's own task and framework).
    const GivenKeys off = keys_off_default(s);
    const ojson js = scenario_to_ojson(s);
    auto add = [&out, &prefix](std::string_view k, const std::string& v) {
        out += '&';
        out += prefix;
        out += k;
        out += '=';
        out += percent_encode(v);
    };
    const bool derived_seq = s.prompt_tokens || s.output_tokens;  // seq_len follows from them
    std::size_t index = 0;
    for (auto it = js.begin(); it != js.end(); ++it, ++index) {  // scenario_to_ojson prints the keys in table order
        const std::string& key = it.key();
        if (key == "hf_config") continue;
        if (key == "seq_len" && derived_seq) continue;
        if (key == "model" && s.source != ModelSource::preset) continue;
        if (!off.test(index)) continue;
        if (it.value().is_null()) continue;
        const char* sk = short_key(key);
        if (!sk) continue;
        std::string v = value_text(it.value());
        // A list of one module named like a target preset (["attention"]) keeps a trailing comma:
        // "attention" alone reads back as the preset (text_to_json, ValueKind::targets). K7.
        if (it.value().is_array() && it.value().size() == 1 && parse_enum<LoraTargets>(v)) v += ',';
        add(sk, v);
    }
    if (s.source == ModelSource::hf_config) {
        const ModelArch none;
        bool any = false;
#define GPUSIZER_X(type, member, hf, link, def)                                            \
    if (s.hf_config.member != none.member) {                                             \
        add(std::string(k_cfg_prefix) + link, value_text(ojson(s.hf_config.member)));    \
        any = true;                                                                      \
    }
        GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
        if (!any) add(std::string(k_cfg_prefix) + "mt", "");
    }
}

}  // namespace

std::string encode_link(const Scenario& s, const std::optional<Scenario>& pinned) {
    std::string out = "v=" + std::to_string(k_link_version);
    encode_keys(s, "", out);
    if (pinned) {
        out += std::string("&") + k_pin_key + "=1";  // a pinned scenario of all defaults has no other key
        encode_keys(*pinned, k_pin_prefix, out);
    }
    return out;
}

// [SECTION] Differences (the page's compare)

std::vector<KeyChange> scenario_changes(const Scenario& a, const Scenario& b) {
    const ojson ja = scenario_to_ojson(a), jb = scenario_to_ojson(b);
    std::vector<KeyChange> out;
    for (auto it = ja.begin(); it != ja.end(); ++it) {  // table order
        const std::string& key = it.key();
        const auto other = jb.find(key);
        if (other == jb.end() || *other == it.value()) continue;
        auto text = [&key](const ojson& v) -> std::string {
            if (v.is_null()) return "-";
            if (key == "hf_config") return v.is_object() && v.contains("model_type") ? value_text(v["model_type"]) : "config.json";
            return value_text(v, 6);
        };
        out.push_back({key, text(it.value()), text(*other)});
    }
    return out;
}

// [SECTION] Decoding

namespace {

struct Pair {
    std::string key, value;
};

// A model field's link key is known (cfg.<link_key>).
bool known_field(std::string_view field) {
#define GPUSIZER_X(type, member, hf, link_key, def) \
    if (field == link_key) return true;
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    return false;
}

// Where a warning is from, in English and Chinese: the link's scenario or its pinned one.
struct Who {
    std::string en, zh;
};
const Who k_current{"link: ", "链接:"};
const Who k_pinned{"link, pinned: ", "链接(固定的场景):"};

// One scenario from its pairs (known keys, without the pin. prefix). Never fails: what cannot be
// used is dropped with a warning starting with `who` ("link: " or "link, pinned: "). Messages of
// core's errors (a value out of range, …) are English in both lines.
Scenario scenario_from_pairs(const std::vector<Pair>& pairs, const Who& who, Notes& warnings) {
    json obj = json::object();
    json cfg = json::object();
    for (const Pair& p : pairs) {  // keys known (decode_link_pair dropped the others)
        if (p.key.rfind(k_cfg_prefix, 0) == 0) {
            const std::string field = p.key.substr(4);
#define GPUSIZER_X(type, member, hf, link_key, def)                                          \
    if (field == link_key)                                                                  \
        cfg[#member] = text_to_json(std::string_view(#type) == "text" ? ValueKind::text      \
                                    : std::string_view(#type) == "flag" ? ValueKind::boolean \
                                                                        : ValueKind::number, \
                                    p.value);
            GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
            continue;
        }
        obj[long_key(p.key)] = text_to_json(*value_kind(long_key(p.key)), p.value);
    }
    if (!cfg.empty()) {
        cfg["gpusizer_arch"] = 1;
        if (obj.contains("model")) {
            warnings.add(who.en + "both a preset (m) and model fields (cfg.*) given; using the preset",
                         who.zh + "同时给出了预设模型(m)和模型字段(cfg.*);使用预设模型");
        } else {
            // A bad architecture field is dropped, keeping the others.
            for (int guard = 0; guard < 64; ++guard) {
                auto a = arch_from_json_object(cfg);
                if (a.ok() || a.error.path.empty() || !cfg.contains(a.error.path)) break;
                warnings.add(who.en + "model field " + a.error.message + "; ignored",
                             who.zh + "模型字段 " + a.error.message + ";已忽略");
                cfg.erase(a.error.path);
            }
            obj["hf_config"] = cfg;
        }
    }
    // Validate; drop each rejected key with its message and try again.
    for (std::size_t guard = 0; guard <= obj.size() + 1; ++guard) {
        Result<Scenario> r = parse_scenario_object(obj);
        if (r.ok()) {
            warnings.append(r.warnings);
            return *r;
        }
        std::string top = r.error.path.substr(0, r.error.path.find_first_of(".["));
        if (top.empty() || !obj.contains(top)) {
            // A cross-key problem (e.g. num_gpus vs tensor_parallel): drop the parallel layout.
            top = r.error.path == "num_gpus" ? "num_gpus" : std::string();
            if (top.empty() || !obj.contains(top)) {
                warnings.add(who.en + r.error.message + "; using the defaults instead", who.zh + r.error.message + ";改用默认值");
                obj = json::object();
                continue;
            }
        }
        warnings.add(who.en + r.error.message + "; ignored", who.zh + r.error.message + ";已忽略");
        if (top == "num_gpus") {
            obj.erase("tensor_parallel");
            obj.erase("pipeline_parallel");
        }
        obj.erase(top);
    }
    return Scenario{};
}

}  // namespace

Result<LinkedScenarios> decode_link_pair(std::string_view link) {
    if (link.size() > k_max_link_bytes)
        return Result<LinkedScenarios>::failure({"too_large",
                                                 "link is " + std::to_string(link.size()) + " bytes; the limit is " +
                                                     std::to_string(k_max_link_bytes),
                                                 ""});
    // Keep only the fragment (or the whole text when there is no '#').
    if (const std::size_t hash = link.find('#'); hash != std::string_view::npos) link = link.substr(hash + 1);
    Notes warnings;
    std::vector<Pair> current, pinned;
    std::vector<std::string> seen_current, seen_pinned;  // keys already read, to report repeats
    bool has_version = false, has_pin = false, any_known = false;
    const std::string pin_prefix = k_pin_prefix;

    std::size_t start = 0;
    while (start <= link.size()) {
        std::size_t end = link.find('&', start);
        if (end == std::string_view::npos) end = link.size();
        const std::string_view pair = link.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) {
            if (end >= link.size()) break;
            continue;
        }
        const std::size_t eq = pair.find('=');
        const auto key = percent_decode(pair.substr(0, eq));
        const auto val = percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        // Keys and values are echoed only in printable form (%XX for other bytes).
        const std::string shown_key =
            key ? detail::printable(*key) : detail::printable(pair.substr(0, std::min<std::size_t>(eq, 40)));
        if (!key || !val) {
            warnings.add("link: '" + shown_key + "' has a broken %-escape; ignored", "链接:'" + shown_key + "' 的 %-转义不完整;已忽略");
            continue;
        }
        if (!detail::valid_utf8(*val)) {
            warnings.add("link: " + shown_key + " is not valid UTF-8 text; ignored", "链接:" + shown_key + " 不是有效的 UTF-8 文本;已忽略");
            continue;
        }
        if (*key == "v") {
            if (has_version)
                warnings.add("link: v is given twice; the last value (" + detail::printable(*val) + ") is used",
                             "链接:v 给出了两次;使用最后一个值(" + detail::printable(*val) + ")");
            has_version = true;
            if (*val != std::to_string(k_link_version))
                warnings.add("link: version " + detail::printable(*val) + " is newer or unknown; reading it as version " +
                                 std::to_string(k_link_version),
                             "链接:版本 " + detail::printable(*val) + " 较新或未知;按版本 " + std::to_string(k_link_version) +
                                 " 读取");
            continue;
        }
        if (*key == k_pin_key) {
            has_pin = true;
            continue;
        }
        // Which scenario the key is for, then the checks every key gets (in the link's order).
        const bool for_pin = key->rfind(pin_prefix, 0) == 0;
        has_pin = has_pin || for_pin;
        const std::string k = for_pin ? key->substr(pin_prefix.size()) : *key;
        const Who& who = for_pin ? k_pinned : k_current;
        const std::string shown = for_pin ? detail::printable(k) : shown_key;
        std::vector<std::string>& seen = for_pin ? seen_pinned : seen_current;
        if (std::find(seen.begin(), seen.end(), k) != seen.end())
            warnings.add(who.en + shown + " is given twice; the last value (" + detail::printable(*val) + ") is used",
                         who.zh + shown + " 给出了两次;使用最后一个值(" + detail::printable(*val) + ")");
        else
            seen.push_back(k);
        if (k.rfind(k_cfg_prefix, 0) == 0) {
            if (!known_field(std::string_view(k).substr(4))) {
                warnings.add(who.en + "unknown model field '" + detail::printable(k.substr(4)) + "' ignored",
                             who.zh + "未知的模型字段 '" + detail::printable(k.substr(4)) + "',已忽略");
                continue;
            }
        } else if (!long_key(k)) {
            warnings.add(who.en + "unknown key '" + shown + "' ignored", who.zh + "未知的键 '" + shown + "',已忽略");
            continue;
        }
        any_known = any_known || !for_pin;
        (for_pin ? pinned : current).push_back({k, *val});
    }
    if (!has_version && !any_known && !has_pin)
        return Result<LinkedScenarios>::failure({"not_a_link", "not a gpusizer link (expected '#v=1&…')", ""});
    if (!has_version) warnings.add("link: no version (v=1) given; read as version 1", "链接:没有给出版本(v=1);按版本 1 读取");
    LinkedScenarios out;
    out.current = scenario_from_pairs(current, k_current, warnings);
    if (has_pin) out.pinned = scenario_from_pairs(pinned, k_pinned, warnings);
    return Result<LinkedScenarios>::success(std::move(out), std::move(warnings));
}

Result<Scenario> decode_link(std::string_view link) {
    Result<LinkedScenarios> r = decode_link_pair(link);
    if (!r.ok()) return Result<Scenario>::failure(r.error, r.warnings);
    return Result<Scenario>::success(r->current, r.warnings);
}

}  // namespace gpusizer
