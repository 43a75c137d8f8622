#pragma once
// Internal helpers for reading untrusted JSON without exceptions (core/src only).
// nlohmann aborts when exceptions are off, so every read is type-checked first.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer::detail {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// A JSON number as nlohmann reads it: written without fraction or exponent and within 64 bits,
// an unsigned (not negative: "0", "2048") or a signed integer ("-0" is the integer 0); else a double.
struct JsonNumber {
    enum class Type { unsigned_integer, integer, floating } type = Type::floating;
    std::uint64_t u = 0;
    std::int64_t i = 0;
    double d = 0;
    double as_double() const {  // what get<double>() gives
        return type == Type::unsigned_integer ? static_cast<double>(u) : type == Type::integer ? static_cast<double>(i) : d;
    }
};

// Integral JSON number (2048 or 2048.0) within [lo, hi]; nullopt when not.
inline std::optional<std::int64_t> as_int(const JsonNumber& n, std::int64_t lo, std::int64_t hi) {
    if (n.type == JsonNumber::Type::unsigned_integer) {
        if (n.u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        const auto i = static_cast<std::int64_t>(n.u);
        return (i >= lo && i <= hi) ? std::optional<std::int64_t>(i) : std::nullopt;
    }
    if (n.type == JsonNumber::Type::integer) return (n.i >= lo && n.i <= hi) ? std::optional<std::int64_t>(n.i) : std::nullopt;
    const double d = n.d;
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        return std::nullopt;
    return static_cast<std::int64_t>(d);
}
inline std::optional<std::int64_t> as_int(const json& v, std::int64_t lo, std::int64_t hi) {
    JsonNumber n;
    if (v.is_number_unsigned()) n.type = JsonNumber::Type::unsigned_integer, n.u = v.get<std::uint64_t>();
    else if (v.is_number_integer()) n.type = JsonNumber::Type::integer, n.i = v.get<std::int64_t>();
    else if (v.is_number_float()) n.d = v.get<double>();
    else return std::nullopt;
    return as_int(n, lo, hi);
}

// Short printable form of a JSON value for error messages (never huge).
inline std::string show(const json& v) {
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > 60) { std::size_t n = 57; while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n; s = s.substr(0, n) + "..."; }  // whole UTF-8 characters only
    return s;
}

// Checks nesting depth and size before nlohmann sees the text (a parser recursion per level).
inline bool nesting_within(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth) return false;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return true;
}

// The same bound for a value already parsed (arrays and objects count one level each).
inline bool depth_within(const json& v, int max_depth) {
    if (!v.is_structured()) return true;
    if (max_depth <= 0) return false;
    for (const json& x : v)
        if (!depth_within(x, max_depth - 1)) return false;
    return true;
}

// True when s is well-formed UTF-8 (nlohmann's dump() aborts on anything else without exceptions).
inline bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t extra;
        if (c < 0x80) extra = 0;
        else if (c >= 0xC2 && c <= 0xDF) extra = 1;
        else if (c >= 0xE0 && c <= 0xEF) extra = 2;
        else if (c >= 0xF0 && c <= 0xF4) extra = 3;
        else return false;  // continuation byte, overlong lead (C0, C1) or above U+10FFFF
        if (i + extra >= s.size() && extra > 0) return false;  // truncated sequence
        for (std::size_t k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        if (extra >= 2) {
            const unsigned char d = static_cast<unsigned char>(s[i + 1]);
            if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0) ||  // overlong, surrogates
                (c == 0xF0 && d < 0x90) || (c == 0xF4 && d >= 0x90))    // overlong, above U+10FFFF
                return false;
        }
        i += extra + 1;
    }
    return true;
}

// Text safe to echo in a message: printable ASCII and well-formed UTF-8 characters as they
// are, control characters, '%' and broken bytes as %XX; cut after about 60 bytes.
inline std::string printable(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (out.size() >= 60) {
            out += "...";
            break;
        }
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (c >= 0x80 && i + len <= s.size() && valid_utf8(s.substr(i, len))) {
            out.append(s.substr(i, len));
            i += len;
            continue;
        }
        if (c >= 0x20 && c < 0x7F && c != '%') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        ++i;
    }
    return out;
}

// Keys that appear twice in the top-level object of `text` (nlohmann keeps the last silently).
inline std::vector<std::string> duplicate_top_level_keys(std::string_view text) {
    std::vector<std::string> seen, dups;
    json::parser_callback_t cb = [&](int depth, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::key && depth == 1 && parsed.is_string()) {
            const std::string k = parsed.get<std::string>();
            bool again = false;
            for (const auto& x : seen) again = again || x == k;
            if (again) {
                bool listed = false;
                for (const auto& x : dups) listed = listed || x == k;
                if (!listed) dups.push_back(k);
            } else {
                seen.push_back(k);
            }
        }
        return true;
    };
    const json ignored = json::parse(text, cb, false);  // only the callback matters
    (void)ignored;
    return dups;
}

// Where a syntax error is, without exceptions: "syntax error at byte 13 (…)".
inline std::string syntax_error_place(std::string_view text) {
    struct Sax : nlohmann::json_sax<json> {
        std::size_t position = 0;
        std::string token;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t pos, const std::string& last, const nlohmann::detail::exception&) override {
            position = pos;
            token = last;
            return false;
        }
    } sax;
    json::sax_parse(text, &sax, nlohmann::detail::input_format_t::json, true, false);
    if (sax.position == 0) return "";
    std::string out = "syntax error at byte " + std::to_string(sax.position);
    // The token that failed starts at or just before the error position.
    std::string around(text.substr(sax.position >= 2 ? sax.position - 2 : 0, 12));
    for (char& c : around) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (around.find("nan") != std::string::npos || around.find("inf") != std::string::npos)
        out += " (NaN and Infinity are not JSON numbers)";
    else if (sax.position >= text.size())
        out += " (the text ends too early)";
    return out;
}

}  // namespace gpusizer::detail
