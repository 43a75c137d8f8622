// The catalog's JSON reader (json_reader.hpp): the checking pass, then the reads.
// Each rule of the pass follows nlohmann's lexer (nlohmann/detail/input/lexer.hpp, 3.11), so a
// text is JSON here exactly when json::parse accepts it (tests/core/test_json_reader.cpp).
#include "catalog/json_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace gpusizer::detail {

namespace {

constexpr std::uint32_t k_kind_bits = 3, k_flag = 1u << k_kind_bits, k_count_shift = k_kind_bits + 1;
constexpr std::size_t k_max_text = std::size_t(1) << 28;  // lengths and counts fit the 28 bits above the kind and flag
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "plain_run reads eight bytes as one little-endian word");

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The 4 hex digits at s[at…]; -1 when they are not.
long hex4(std::string_view s, std::size_t at) {
    if (at + 4 > s.size()) return -1;
    long v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
        const int d = hex_digit(s[k]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

void append_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The string token s (quotes included, escapes known to be well-formed), unescaped.
std::string unescape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        if (s[i] != '\\') {  // the run up to the next backslash (or the closing quote) as it is
            const std::size_t end = std::min(s.find('\\', i), s.size() - 1);
            out.append(s.data() + i, end - i);
            i = end - 1;
            continue;
        }
        const char e = s[++i];
        switch (e) {
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned long cp = static_cast<unsigned long>(hex4(s, i + 1));
                i += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: its low half follows (checked)
                    const unsigned long low = static_cast<unsigned long>(hex4(s, i + 3));
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                }
                append_utf8(out, cp);
                break;
            }
            default: out += e; break;  // \" \\ \/
        }
    }
    return out;
}

}  // namespace

// [SECTION] The checking pass
//
// Laid out for V8 as much as for speed. On a cold page load the parse runs in V8's baseline code
// (Liftoff), which charges a function's tier-up budget about its whole machine code per call, and a
// loop's per pass; a function that spends its budget (13 M) is recompiled by TurboFan beside the
// main thread, and on 2 cores those compiles, not the parse, took most of the time
// (docs/speed-and-cost.md, "Catalog parse, fourth pass"). So each step of a token is a small
// function of its own (the value dispatch, an object, an array, a key, a string, a number, the
// 8-byte scan), the rare paths are kept out of the common ones (string_rest, skip_ws_run), and
// binaryen does not inline them back (CMakeLists.txt): on the catalog, no function of this pass
// spends its budget.

class JsonParser {
public:
    JsonParser(std::string_view text, JsonDoc& out, int max_depth)
        : t_(text), n_(text.size()), out_(out), max_depth_(max_depth) {}

    bool run() {
        if (n_ >= k_max_text) return false;
        if (n_ > 0 && static_cast<unsigned char>(t_[0]) == 0xEF) {  // a UTF-8 byte order mark
            if (n_ < 3 || static_cast<unsigned char>(t_[1]) != 0xBB || static_cast<unsigned char>(t_[2]) != 0xBF) return false;
            pos_ = 3;
        }
        skip_ws();
        if (!element(0)) return false;
        skip_ws();
        return pos_ == n_ || t_[pos_] == '\0';  // nlohmann stops at a NUL byte (its end of input)
    }

private:
    using Kind = JsonValue::Kind;

    char peek() const { return pos_ < n_ ? t_[pos_] : '\0'; }
    static bool digit(char c) { return c >= '0' && c <= '9'; }
    static bool space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    // The catalog has no whitespace between tokens: one test inline (whitespace is below '!'), the
    // exact test and the loop out of line.
    __attribute__((always_inline)) void skip_ws() {
        if (pos_ < n_ && static_cast<unsigned char>(t_[pos_]) <= ' ') skip_ws_run();
    }
    __attribute__((noinline)) void skip_ws_run() {
        std::size_t p = pos_;
        while (p < n_ && space(t_[p])) ++p;
        pos_ = p;
    }
    // A scalar's token, its text [begin, pos_). Out of line: inlined, it made key() big enough to
    // spend its tier-up budget on the catalog.
    __attribute__((noinline)) bool leaf(Kind k, std::size_t begin, bool flag) {
        if (out_.count_ == out_.capacity_) out_.grow();
        const std::uint32_t info = static_cast<std::uint32_t>(k) | (flag ? k_flag : 0) | static_cast<std::uint32_t>(pos_ - begin) << k_count_shift;
        out_.tokens_[out_.count_++] = {static_cast<std::uint32_t>(begin), info};
        return true;
    }

    // A value where one is expected: an element of an array, a member's value, or the whole text.
    __attribute__((noinline)) bool element(int depth) {
        switch (peek()) {
            case '"': return string();
            case '{': return container<Kind::object>(depth + 1);
            case '[': return container<Kind::array>(depth + 1);
            case 't': return literal("true", Kind::boolean, true);
            case 'f': return literal("false", Kind::boolean, false);
            case 'n': return literal("null", Kind::null, false);
            default: return number();
        }
    }

    // An object (members: a key, its colon, a value) or an array (elements): one function each, so
    // that neither is charged for the other's calls.
    template <Kind K>
    __attribute__((noinline)) bool container(int depth) {
        constexpr char closer = K == Kind::object ? '}' : ']';
        if (depth > max_depth_) return false;
        if (out_.capacity_ - out_.count_ < 2) out_.grow();
        const std::uint32_t me = out_.count_;
        const std::uint32_t begin = static_cast<std::uint32_t>(pos_);
        out_.count_ += 2;  // written below, once the count and the end are known
        ++pos_;
        skip_ws();
        std::uint32_t count = 0;
        if (peek() == closer) {
            ++pos_;
        } else {
            for (;;) {
                if constexpr (K == Kind::object)
                    if (peek() != '"' || !key()) return false;
                if (!element(depth)) return false;
                ++count;
                skip_ws();
                const char c = peek();
                ++pos_;
                if (c == closer) break;
                if (c != ',') return false;
                skip_ws();
            }
        }
        out_.tokens_[me] = {begin, static_cast<std::uint32_t>(K) | count << k_count_shift};
        out_.tokens_[me + 1] = {static_cast<std::uint32_t>(pos_), out_.count_};  // its end, the token after it
        return true;
    }

    __attribute__((noinline)) bool literal(const char* word, Kind kind, bool flag) {
        const std::size_t len = std::strlen(word), begin = pos_;
        if (t_.substr(pos_, len) != word) return false;
        pos_ += len;
        return leaf(kind, begin, flag);
    }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?  (the flag: no fraction, no exponent), and
    // finite as a double: nlohmann rejects 1e400 ("number overflow"), also written out in digits.
    __attribute__((noinline)) bool number() {
        const std::size_t begin = pos_;
        std::size_t p = pos_;  // locals: a store to pos_ could alias the text's bytes
        const auto at = [&](std::size_t i) { return i < n_ ? t_[i] : '\0'; };
        bool integer = true;
        long magnitude = 0;  // the value is below 10^magnitude
        if (at(p) == '-') ++p;
        if (at(p) == '0') {
            ++p;
        } else if (digit(at(p))) {
            for (; digit(at(p)); ++p) ++magnitude;
        } else {
            return false;
        }
        if (at(p) == '.') {
            integer = false;
            ++p;
            if (!digit(at(p))) return false;
            while (digit(at(p))) ++p;
        }
        if (at(p) == 'e' || at(p) == 'E') {
            integer = false;
            ++p;
            const bool negative = at(p) == '-';
            if (at(p) == '+' || at(p) == '-') ++p;
            if (!digit(at(p))) return false;
            long exponent = 0;
            for (; digit(at(p)); ++p) exponent = std::min(exponent * 10 + (t_[p] - '0'), 100000L);
            magnitude += negative ? -exponent : exponent;
        }
        pos_ = p;
        leaf(Kind::number, begin, integer);
        // Below 10^308 a double is finite; above, ask strtod as nlohmann does.
        return magnitude <= 308 || std::isfinite(JsonValue::read_number(t_.substr(begin, p - begin), integer).as_double());
    }

    // A string: no control characters, escapes \" \\ \/ \b \f \n \r \t \uXXXX (a surrogate only as
    // a high-low pair), UTF-8 well-formed (RFC 3629: no overlong forms, no surrogates, ≤ U+10FFFF).
    // A plain one (printable ASCII: nearly all of the catalog's) is read by plain_string; string_rest
    // reads any other.
    __attribute__((noinline)) bool string() {
        std::size_t p;
        return plain_string(p) || string_rest(pos_, p);
    }
    // A member's key and the colon after it.
    __attribute__((noinline)) bool key() {
        std::size_t p;
        if (!plain_string(p) && !string_rest(pos_, p)) return false;
        skip_ws();
        if (peek() != ':') return false;
        ++pos_;
        skip_ws();
        return true;
    }
    // The string at pos_ when it is plain: printable ASCII up to its quote. Otherwise false, and p is
    // its first other byte.
    __attribute__((always_inline)) bool plain_string(std::size_t& p) {
        p = plain_run(pos_ + 1);
        if (p >= n_ || t_[p] != '"') return false;
        const std::size_t begin = pos_;
        pos_ = p + 1;
        return leaf(Kind::string, begin, false);
    }

    // The string that starts at `begin`, read on from p, where plain_run stopped.
    __attribute__((noinline)) bool string_rest(std::size_t begin, std::size_t p) {
        bool escaped = false;
        pos_ = p;
        for (;;) {
            if (pos_ >= n_) return false;
            const unsigned char c = static_cast<unsigned char>(t_[pos_]);
            if (c == '"') break;
            if (c < 0x20) return false;
            if (c == '\\') {
                escaped = true;
                if (!escape()) return false;
            } else if (c < 0x80) {  // plain, within the text's last 7 bytes (plain_run reads whole words)
                ++pos_;
            } else if (!utf8(c)) {
                return false;
            }
            pos_ = plain_run(pos_);
        }
        ++pos_;
        return leaf(Kind::string, begin, escaped);
    }

    // The first byte from p on that a string cannot hold as it is, or the first of the text's last
    // 7 bytes (string_rest reads those one by one). Eight bytes at a time: a word passes when none
    // of its bytes is below 0x20, 0x80 or above, '"' or a backslash. No byte loop here: every call
    // is charged the whole function (see the top of this section).
    std::size_t plain_run(std::size_t p) const {
        const unsigned char* d = reinterpret_cast<const unsigned char*>(t_.data());  // not pos_: a store to it could alias the text
        constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
        for (; p + 8 <= n_; p += 8) {
            std::uint64_t w;
            std::memcpy(&w, d + p, 8);
            // Below 0x20 or a quote or a backslash: (x - k·ones) sets the high bit of a byte below k
            // (k = 0x20; k = 1 after the xor), and a borrow only marks bytes above one that is; a byte
            // of 0x80 or above is marked by w itself. So the word is plain exactly when bad is 0, and
            // its lowest marked byte is the first that is not plain.
            const std::uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
            const std::uint64_t bad = (w | (w - ones * 0x20) | (quote - ones) | (backslash - ones)) & highs;
            if (bad) return p + static_cast<std::size_t>(__builtin_ctzll(bad)) / 8;  // the first such byte (little-endian load)
        }
        return p;
    }

    bool escape() {
        const char e = pos_ + 1 < n_ ? t_[pos_ + 1] : '\0';
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            pos_ += 2;
            return true;
        }
        if (e != 'u') return false;
        const long cp = hex4(t_, pos_ + 2);
        if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;  // a low surrogate alone
        pos_ += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: \uDC00–\uDFFF must follow
            if (pos_ + 1 >= n_ || t_[pos_] != '\\' || t_[pos_ + 1] != 'u') return false;
            const long low = hex4(t_, pos_ + 2);
            if (low < 0xDC00 || low > 0xDFFF) return false;
            pos_ += 6;
        }
        return true;
    }

    bool utf8(unsigned char c) {
        unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
        std::size_t extra;
        if (c >= 0xC2 && c <= 0xDF) extra = 1;
        else if (c == 0xE0) extra = 2, lo = 0xA0;
        else if (c == 0xED) extra = 2, hi = 0x9F;
        else if (c >= 0xE1 && c <= 0xEF) extra = 2;
        else if (c == 0xF0) extra = 3, lo = 0x90;
        else if (c == 0xF4) extra = 3, hi = 0x8F;
        else if (c >= 0xF1 && c <= 0xF3) extra = 3;
        else return false;
        if (pos_ + extra >= n_) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const unsigned char b = static_cast<unsigned char>(t_[pos_ + k]);
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return false;
        }
        pos_ += extra + 1;
        return true;
    }

    std::string_view t_;
    std::size_t n_, pos_ = 0;
    JsonDoc& out_;
    int max_depth_;
};

bool JsonDoc::parse(std::string_view text, int max_depth) {
    text_ = text;
    count_ = 0;
    if (capacity_ < text.size() / 16 + 2) {  // the catalog has a token per ~18 bytes: one or two growths at most
        capacity_ = static_cast<std::uint32_t>(text.size() / 16 + 2);
        tokens_.reset(new Token[capacity_]);
    }
    if (JsonParser(text, *this, max_depth).run()) return true;
    count_ = 0;
    return false;
}

void JsonDoc::grow() {
    std::unique_ptr<Token[]> more(new Token[2 * std::size_t(capacity_)]);
    std::copy(tokens_.get(), tokens_.get() + count_, more.get());
    tokens_ = std::move(more);
    capacity_ *= 2;
}

// [SECTION] Reads

namespace {
JsonValue::Kind kind_of(std::uint32_t info) { return static_cast<JsonValue::Kind>(info & ((1u << k_kind_bits) - 1)); }
bool is_container(std::uint32_t info) {
    const JsonValue::Kind k = kind_of(info);
    return k == JsonValue::Kind::array || k == JsonValue::Kind::object;
}
}  // namespace

JsonValue::Kind JsonValue::kind() const { return kind_of(doc_->tokens_[index_].info); }
std::uint32_t JsonValue::size_raw() const {
    const std::uint32_t info = doc_->tokens_[index_].info;
    return is_container(info) ? info >> k_count_shift : 0;
}
std::size_t JsonValue::size() const { return size_raw(); }
std::uint32_t JsonValue::next(std::uint32_t i) const {
    const JsonDoc::Token* t = doc_->tokens_.get();
    return is_container(t[i].info) ? t[i + 1].info : i + 1;  // the second token's `info`: the token after
}

std::string_view JsonValue::text() const {
    const JsonDoc::Token* t = doc_->tokens_.get() + index_;
    const std::uint32_t end = is_container(t->info) ? t[1].begin : t->begin + (t->info >> k_count_shift);
    return doc_->text_.substr(t->begin, end - t->begin);
}

bool JsonValue::has_escapes() const { return is_string() && (doc_->tokens_[index_].info & k_flag); }

bool JsonValue::boolean() const { return is_boolean() && (doc_->tokens_[index_].info & k_flag); }

std::string JsonValue::string() const {
    if (!is_string()) return {};
    if (doc_->tokens_[index_].info & k_flag) return unescape(text());
    return std::string(written());
}

bool JsonValue::key_equals(std::string_view key) const {
    const std::string_view s = text();
    if (doc_->tokens_[index_].info & k_flag) return unescape(s) == key;
    return s.size() == key.size() + 2 && s.substr(1, key.size()) == key;
}

std::optional<JsonValue> JsonValue::find(std::string_view key) const {
    std::optional<JsonValue> found;
    if (is_object())
        each_member([&](JsonValue k, JsonValue v) {
            if (k.key_equals(key)) found = v;  // the last one wins, as in nlohmann's DOM
        });
    return found;
}

namespace {

// a[0, n) == b[0, n), a word at a time (a key is ~12 bytes: no call to memcmp's byte loop in wasm).
bool same_bytes(const char* a, const char* b, std::size_t n) {
    for (; n >= 8; n -= 8, a += 8, b += 8) {
        std::uint64_t x, y;
        std::memcpy(&x, a, 8);
        std::memcpy(&y, b, 8);
        if (x != y) return false;
    }
    for (; n > 0; --n)
        if (*a++ != *b++) return false;
    return true;
}

// Length, and bytes at the ends and in the middle: enough to tell the catalog's keys apart (a
// collision costs one more comparison, never a wrong answer).
std::uint32_t key_hash(std::string_view key) {
    const std::size_t n = key.size();
    if (n == 0) return 0;
    const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(key[i])); };
    const std::uint32_t h = (static_cast<std::uint32_t>(n) ^ b(0) << 8 ^ b(n - 1) << 16 ^ b(n / 2) << 24 ^ b(n / 3) << 4) * 0x9E3779B1u;
    return h ^ h >> 16;
}

}  // namespace

std::uint32_t JsonMembers::slot_for(std::string_view key) const {
    for (std::uint32_t i = key_hash(key);; ++i) {
        const Slot& s = slots_[i % k_slots];
        if (s.token == 0) return i % k_slots;
        if (s.size == key.size() ? same_bytes(s.key, key.data(), key.size())
                                 : s.size == k_escaped && JsonValue(object_.doc_, s.token).key_equals(key))
            return i % k_slots;
    }
}

JsonMembers::JsonMembers(const JsonValue& object) : object_(object), hashed_(object.size() <= k_slots / 2) {
    if (!hashed_) return;
    for (Slot& s : slots_) s.token = 0;
    // A key's first slot is mostly free: it is taken then without slot_for, which the lookups call
    // (V8 charges a function's tier-up budget per call: "The checking pass" above).
    object.each_member([&](JsonValue k, JsonValue) {
        const std::string_view t = k.text(), written = t.substr(1, t.size() - 2);
        std::uint32_t at;
        if (k.has_escapes()) {
            at = slot_for(unescape(t));
        } else {
            at = key_hash(written) % k_slots;
            if (slots_[at].token != 0) at = slot_for(written);  // taken: another key, or this one given twice
        }
        slots_[at] = {written.data(), k.has_escapes() ? k_escaped : static_cast<std::uint32_t>(written.size()), k.index_};  // the last one wins
    });
}

std::optional<JsonValue> JsonMembers::find(std::string_view key) const {
    if (!hashed_) return object_.find(key);
    const Slot& s = slots_[slot_for(key)];
    if (s.token == 0) return std::nullopt;
    return JsonValue(object_.doc_, s.token + 1);
}

JsonNumber JsonValue::number() const {
    if (!is_number()) return {};
    return read_number(text(), doc_->tokens_[index_].info & k_flag);
}

namespace {

// The number s (JSON syntax, checked) without strtod when that is exact: musl's strtod computes in
// 128-bit long doubles, emulated in software in wasm. An integer of at most 18 digits fits int64;
// a decimal whose digits m stay within 2^53, scaled by 10^e with |e| <= 22, is m·10^e or m/10^-e of
// two exact doubles, which IEEE arithmetic rounds correctly: strtod's value (Clinger 1990).
bool exact_number(std::string_view s, bool integer, JsonNumber& n) {
    static constexpr double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    std::size_t i = 0;
    const bool negative = s[0] == '-';
    i += negative;
    std::uint64_t m = 0;
    int significant = 0, e = 0;
    const auto digits = [&](bool fraction) {
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
            if (significant == 18) return false;
            m = m * 10 + static_cast<unsigned>(s[i] - '0');
            significant += m != 0;
            e -= fraction;
        }
        return true;
    };
    if (!digits(false)) return false;
    if (integer) {
        if (negative) n.type = JsonNumber::Type::integer, n.i = -static_cast<std::int64_t>(m);
        else n.type = JsonNumber::Type::unsigned_integer, n.u = m;
        return true;
    }
    if (i < s.size() && s[i] == '.' && (++i, !digits(true))) return false;
    if (i < s.size()) {  // e or E, a sign, digits
        ++i;
        const bool minus = s[i] == '-';
        i += s[i] == '-' || s[i] == '+';
        int x = 0;
        for (; i < s.size(); ++i) x = std::min(x * 10 + (s[i] - '0'), 1000);
        e += minus ? -x : x;
    }
    if (m == 0) e = 0;  // 0e999 is 0
    if (m > (std::uint64_t(1) << 53) || e < -22 || e > 22) return false;
    const double v = e >= 0 ? static_cast<double>(m) * pow10[e] : static_cast<double>(m) / pow10[-e];
    n.type = JsonNumber::Type::floating;
    n.d = negative ? -v : v;
    return true;
}

}  // namespace

JsonNumber JsonValue::read_number(std::string_view s, bool integer) {
    JsonNumber n;
    if (exact_number(s, integer, n)) return n;
    char small[64];
    std::string large;
    char* p = small;
    if (s.size() < sizeof small) {
        std::memcpy(small, s.data(), s.size());
        small[s.size()] = '\0';
    } else {
        large.assign(s);
        p = &large[0];
    }
    char* end = nullptr;
    if (integer) {  // integer syntax: 64-bit when it fits, as nlohmann
        errno = 0;
        if (s[0] == '-') {
            const long long v = std::strtoll(p, &end, 10);
            if (errno == 0) return n.type = JsonNumber::Type::integer, n.i = v, n;
        } else {
            const unsigned long long v = std::strtoull(p, &end, 10);
            if (errno == 0) return n.type = JsonNumber::Type::unsigned_integer, n.u = v, n;
        }
    }
    // strtod reads the locale's decimal point: nlohmann writes that in place of '.' too.
    const char point = *std::localeconv()->decimal_point;
    if (point != '.')
        for (char* c = p; *c; ++c)
            if (*c == '.') *c = point;
    n.d = std::strtod(p, &end);
    return n;
}

}  // namespace gpusizer::detail
