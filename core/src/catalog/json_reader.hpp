#pragma once
// The catalog's JSON reader (core/src only): one pass over the text checks it and records one
// token per value and key (two per array or object), each a view into the text — no DOM, no
// allocation per value. It accepts exactly what nlohmann::json::parse accepts (strict RFC 8259:
// UTF-8 checked, escapes and surrogate pairs checked, no comments; a leading UTF-8 BOM skipped;
// after the value only whitespace, or a NUL byte, which nlohmann takes for the end of input; no
// number beyond a double's range), and reads values as nlohmann's DOM would give them: a key given twice reads as
// its last value, numbers as nlohmann's get<double>() and as_int. Values are decoded only when
// read (JsonValue::string, number). The text must outlive the JsonDoc. docs/catalog.md
// "Validation rules and limits"; tests/core/test_json_reader.cpp compares it with nlohmann.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "json_util.hpp"

namespace gpusizer::detail {

class JsonDoc;

// One value of a JsonDoc (a handle: copy it freely while the JsonDoc lives).
class JsonValue {
public:
    enum class Kind : std::uint8_t { null, boolean, number, string, array, object };

    Kind kind() const;
    bool is_null() const { return kind() == Kind::null; }
    bool is_boolean() const { return kind() == Kind::boolean; }
    bool is_number() const { return kind() == Kind::number; }
    bool is_string() const { return kind() == Kind::string; }
    bool is_array() const { return kind() == Kind::array; }
    bool is_object() const { return kind() == Kind::object; }

    bool boolean() const;                // true for `true`; false for anything else
    JsonNumber number() const;           // a number as nlohmann reads it (integer, unsigned or float)
    std::string string() const;          // a string, unescaped; "" for anything else
    std::string_view text() const;       // the value's JSON text, as written
    std::string_view written() const {   // a string's text between its quotes, escapes not decoded (strings only)
        const std::string_view t = text();
        return t.substr(1, t.size() - 2);
    }
    bool has_escapes() const;            // a string written with a backslash escape
    std::size_t size() const;            // elements of an array, members of an object (keys given twice count twice)

    // An object's value for `key` (the last one when the key is given twice); nullopt when absent.
    std::optional<JsonValue> find(std::string_view key) const;

    // Elements of an array, or members of an object, in the order written.
    template <class F>  // f(JsonValue element)
    void each_element(F f) const {
        for (std::uint32_t i = first_child(), n = size_raw(); n > 0; --n, i = next(i)) f(JsonValue(doc_, i));
    }
    template <class F>  // f(JsonValue key, JsonValue value); key.string() is the unescaped key
    void each_member(F f) const {
        for (std::uint32_t i = first_child(), n = size_raw(); n > 0; --n, i = next(i + 1)) f(JsonValue(doc_, i), JsonValue(doc_, i + 1));
    }

private:
    friend class JsonDoc;
    friend class JsonMembers;
    friend class JsonParser;
    JsonValue(const JsonDoc* doc, std::uint32_t index) : doc_(doc), index_(index) {}
    std::uint32_t first_child() const { return index_ + 2; }  // an array's or object's: after its two tokens
    std::uint32_t size_raw() const;
    std::uint32_t next(std::uint32_t i) const;
    bool key_equals(std::string_view key) const;  // this is a string token equal to `key` once unescaped
    static JsonNumber read_number(std::string_view text, bool integer_syntax);

    const JsonDoc* doc_;
    std::uint32_t index_;
};

// An object's members, hashed once for many lookups (a catalog row reads ~30 keys). An object of
// more than 32 members is searched as JsonValue::find does (no crafted keys can make it quadratic).
class JsonMembers {
public:
    explicit JsonMembers(const JsonValue& object);
    JsonMembers(const JsonMembers&) = delete;
    JsonMembers& operator=(const JsonMembers&) = delete;
    std::optional<JsonValue> find(std::string_view key) const;  // as JsonValue::find

private:
    static constexpr std::uint32_t k_slots = 64;
    // A key as written (its text, quotes excluded; size k_escaped when written with escapes) and
    // its token (its value is the next token); token 0 (the root, never a key) marks an empty slot.
    static constexpr std::uint32_t k_escaped = UINT32_MAX;
    struct Slot {
        const char* key;
        std::uint32_t size;
        std::uint32_t token;
    };
    std::uint32_t slot_for(std::string_view key) const;  // the key's slot, or the empty one where it would go

    JsonValue object_;
    bool hashed_;
    Slot slots_[k_slots];  // open addressing
};

// The tokens of one text. Values point into it: it neither moves nor copies.
class JsonDoc {
public:
    JsonDoc() = default;
    JsonDoc(const JsonDoc&) = delete;
    JsonDoc& operator=(const JsonDoc&) = delete;

    // Reads `text` (under 256 MiB), nesting at most `max_depth` arrays and objects; false when
    // it is not JSON or breaks a limit (the catalog checks both limits itself before, to say which).
    bool parse(std::string_view text, int max_depth);
    JsonValue root() const { return JsonValue(this, 0); }

private:
    friend class JsonValue;
    friend class JsonParser;
    // A scalar is one token; an array or object two, the second holding its text's end in `begin`
    // and the token after everything in it in `info`. Eight bytes, not sixteen: the tokens are
    // fresh memory, and on the machines the page is tested on a fresh 4 kB page costs ~15 µs
    // (docs/speed-and-cost.md "Catalog parse, ninth pass").
    struct Token {
        std::uint32_t begin;  // the value's text starts here (a string's quote included)
        std::uint32_t info;   // kind (3 bits), a flag (string: has escapes; number: integer syntax),
                              // then the text's length (scalars) or elements / members (arrays, objects)
    };
    void grow();  // twice the capacity, the tokens kept

    std::string_view text_;
    std::unique_ptr<Token[]> tokens_;  // count_ of capacity_ written (no vector: a cheaper append)
    std::uint32_t count_ = 0, capacity_ = 0;
};

}  // namespace gpusizer::detail
