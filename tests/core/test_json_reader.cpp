// The catalog's JSON reader (core/src/catalog/json_reader.hpp): it must accept exactly the texts
// nlohmann::json::parse accepts and read every value as nlohmann's DOM holds it, since the
// catalog's messages were written against nlohmann. Each case is compared with nlohmann, and the
// values someone could get wrong are also checked against hand-worked expectations.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/json_reader.hpp"
#include "gpusizer/catalog.hpp"
#include "support.hpp"

using gpusizer::detail::JsonDoc;
using gpusizer::detail::JsonNumber;
using gpusizer::detail::JsonValue;
using nlohmann::json;

namespace {

json dom(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

// The reader's value and nlohmann's are the same, all the way down (an object: its keys as
// nlohmann keeps them, each the last value given).
void same(const JsonValue& v, const json& j, const std::string& where) {
    CAPTURE(where);
    switch (v.kind()) {
        case JsonValue::Kind::null: CHECK(j.is_null()); break;
        case JsonValue::Kind::boolean:
            REQUIRE(j.is_boolean());
            CHECK(v.boolean() == j.get<bool>());
            break;
        case JsonValue::Kind::number: {
            REQUIRE(j.is_number());
            const JsonNumber n = v.number();
            if (j.is_number_unsigned()) {
                CHECK(n.type == JsonNumber::Type::unsigned_integer);
                CHECK(n.u == j.get<std::uint64_t>());
            } else if (j.is_number_integer()) {
                CHECK(n.type == JsonNumber::Type::integer);
                CHECK(n.i == j.get<std::int64_t>());
            } else {
                CHECK(n.type == JsonNumber::Type::floating);
                const double d = j.get<double>();
                CHECK((n.d == d || (std::isnan(n.d) && std::isnan(d))));
                CHECK(std::signbit(n.d) == std::signbit(d));
            }
            CHECK(n.as_double() == j.get<double>());
            break;
        }
        case JsonValue::Kind::string:
            REQUIRE(j.is_string());
            CHECK(v.string() == j.get<std::string>());
            break;
        case JsonValue::Kind::array: {
            REQUIRE(j.is_array());
            CHECK(v.size() == j.size());
            std::size_t i = 0;
            v.each_element([&](JsonValue e) {
                if (i < j.size()) same(e, j[i], where + "[" + std::to_string(i) + "]");
                ++i;
            });
            break;
        }
        case JsonValue::Kind::object: {
            REQUIRE(j.is_object());
            std::size_t distinct = 0;
            for (auto it = j.begin(); it != j.end(); ++it) {
                ++distinct;
                const auto found = v.find(it.key());
                REQUIRE_MESSAGE(found, it.key());
                same(*found, it.value(), where + "." + it.key());
                const auto indexed = gpusizer::detail::JsonMembers(v).find(it.key());
                REQUIRE(indexed);
                CHECK(indexed->text().data() == found->text().data());  // the same value
            }
            CHECK(v.size() >= distinct);  // a key given twice counts twice
            break;
        }
    }
}

// Accepted by both or by neither; when accepted, the same values.
void agrees(const std::string& text) {
    CAPTURE(text);
    JsonDoc doc;
    const bool ours = doc.parse(text, 32);
    const json j = dom(text);
    CHECK(ours == !j.is_discarded());
    if (ours && !j.is_discarded()) same(doc.root(), j, "$");
}

}  // namespace

TEST_CASE("json reader: accepts exactly what nlohmann accepts, and reads the same values") {
    const std::vector<std::string> texts = {
        // Values and whitespace
        "{}", "[]", "0", "\"\"", "null", "true", "false", " \t\r\n{ \"a\" : [ 1 , 2 ] }\n", "[[],[{}],{\"a\":{}}]",
        // Numbers: integer syntax within 64 bits is an integer ("-0" too), anything else a double
        "[0, -0, 1, -1, 1e3, 1E3, 1e+3, 1e-3, -0.0, 0.5, 123456789012345678, 2.5e-308]",
        "[9223372036854775807, 9223372036854775808, 18446744073709551615, 18446744073709551616]",
        "[-9223372036854775808, -9223372036854775809, 1e-400, 1.7976931348623157e308, 1.8e308]", "[1e400]", "[-1e400]",
        "[0.0000001e309]", "[0.00000000001e317]", "[1" + std::string(308, '0') + "]", "[1" + std::string(309, '0') + "]",
        "[1e-99999999999999999999]", "[1e99999999999999999999]", "[0e99999999999999999999]",
        "01", "-", "+1", ".5", "1.", "1e", "1e+", "0x10", "1.5.2", "--1", "NaN", "Infinity", "-Infinity",
        // Strings: escapes, surrogate pairs, UTF-8
        R"(["a\"b", "\\", "\/", "\b\f\n\r\t", "\u0041\u00e9\u4e2d", "\ud83d\ude00", "\uD83D\uDE00", "\u0000x"])",
        R"(["\ud83d"])", R"(["\ude00"])", R"(["\ud83d\u0041"])", R"(["\ud83dx"])", R"(["\u12"])", R"(["\u12g4"])",
        R"(["\x"])", R"(["\'"])", "[\"tab\there\"]", "[\"nl\nhere\"]", "[\"\x01\"]", "[\"\x7f\"]",
        "[\"\xc3\xa9\"]", "[\"\xe4\xb8\xad\"]", "[\"\xf0\x9f\x98\x80\"]",              // é 中 😀
        "[\"\xc0\xaf\"]", "[\"\xe0\x80\xaf\"]", "[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]",  // overlong, surrogate, > U+10FFFF
        "[\"\xc3\"]", "[\"\xe4\xb8\"]", "[\"\x80\"]", "[\"\xff\"]",
        // Keys: given twice (the last wins), escaped, empty
        R"({"a": 1, "a": 2})", R"({"a": {"x": 1}, "b": 0, "a": [3]})", R"({"\u0061": 1, "a": 2})", R"({"a": 1, "\u0061": 2})",
        R"({"": 0})", R"({"a\"b": 1})",
        // Structure errors, truncation, trailing text
        "", " ", "{", "[", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{'a':1}", "[1 2]", "{\"a\":1 \"b\":2}",
        "{\"a\":[1,2}", "[1,2", "[\"abc", "{\"a\":\"b", "\"\\", "tru", "nul", "falsey", "[true,fals]",
        "{} {}", "{}x", "[1]]", "{}\n\t ", "1 2", "[1] // comment", "/* c */ [1]",
        // A NUL ends nlohmann's input; a leading UTF-8 byte order mark is skipped
        std::string("{}\0garbage", 10), std::string("[1,\0]", 5), std::string("\0", 1),
        "\xEF\xBB\xBF{\"a\":1}", "\xEF\xBB{}", "\xEF{}", " \xEF\xBB\xBF{}",
    };
    for (const std::string& t : texts) agrees(t);
    // The shipped catalog reads the same as nlohmann's DOM of it.
    agrees(gpusizer_test::read_text("assets/catalog.json"));
}

// Numbers are read without strtod where that is exact (json_reader.cpp, exact_number): every
// number, whichever way it is read, must be the double (or integer) nlohmann's strtod gives, to
// the bit. Random texts around the fast path's edges: 15 to 20 digits, 2^53, exponents near ±22.
TEST_CASE("json reader: numbers read as nlohmann reads them, to the bit") {
    std::uint64_t state = 0x243F6A8885A308D3u;  // a fixed seed: the same texts every run
    const auto next = [&](std::uint64_t n) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        return (state >> 33) % n;
    };
    const auto digits = [&](std::size_t n, bool lead) {
        std::string d;
        for (std::size_t k = 0; k < n; ++k) d += static_cast<char>('0' + (k == 0 && lead ? 1 + next(9) : next(10)));
        return d;
    };
    std::string text = "[9007199254740992, 9007199254740993, 9007199254740992.0, 9007199254740993.0, 9007199254740993e0,"
                       " 1e22, 1e23, 1.5e-22, 1.5e-23, 123456789012345678, 1234567890123456789, -123456789012345678,"
                       " 0.1, 0.2, 0.30000000000000004, 17.6289, 55.04, -0.0, -0, 0e-999, 1.00000000000000000000001]";
    for (int k = 0; k < 20000; ++k) {
        std::string t = next(4) == 0 ? "-" : "";
        const std::size_t whole = next(21);
        t += whole == 0 ? "0" : digits(whole, true);
        if (next(2)) t += "." + digits(1 + next(20), false);
        if (next(2)) t += std::string(next(2) ? "e" : "E") + (next(2) ? "-" : next(2) ? "+" : "") + std::to_string(next(40));
        text.insert(text.size() - 1, ", " + t);
    }
    JsonDoc doc;
    REQUIRE(doc.parse(text, 32));
    const json j = dom(text);
    REQUIRE(j.is_array());
    std::size_t i = 0, mismatches = 0;
    doc.root().each_element([&](JsonValue v) {
        const JsonNumber n = v.number();
        const json& x = j[i++];
        const bool same_value = x.is_number_unsigned() ? n.type == JsonNumber::Type::unsigned_integer && n.u == x.get<std::uint64_t>()
                              : x.is_number_integer()  ? n.type == JsonNumber::Type::integer && n.i == x.get<std::int64_t>()
                                                       : n.type == JsonNumber::Type::floating &&
                                                             std::memcmp(&n.d, &x.get_ref<const double&>(), sizeof(double)) == 0;
        if (!same_value && ++mismatches <= 5) FAIL_CHECK("read differently from nlohmann: " << v.text());
    });
    CHECK(i == j.size());
    CHECK(mismatches == 0);
}

// Strings are scanned eight bytes at a time (json_reader.cpp, plain_run): each byte a string
// cannot hold as it is, at each place in and around a word, next to plain bytes of every value.
TEST_CASE("json reader: every byte at every place of a string is read as nlohmann reads it") {
    for (int b = 0; b < 256; ++b) {
        const bool plain = b >= 0x20 && b < 0x80 && b != '"' && b != '\\';
        if (plain && b != ' ' && b != '!' && b != '#' && b != '[' && b != ']' && b != '~' && b != 0x7f) continue;
        for (std::size_t at = 0; at < 18; ++at) {
            std::string body(24, 'a' + static_cast<char>(at % 26));
            body[at] = static_cast<char>(b);
            agrees("[\"" + body + "\", \"x" + body + "\"]");
        }
    }
}

// Rows are read through JsonMembers (hashed up to 32 members, searched beyond): keys that share
// their length and most bytes, a key given twice, an escaped key, and objects of 32 and 33 members.
TEST_CASE("json reader: member lookup by key, hashed or searched") {
    for (const int members : {3, 31, 32, 33, 80}) {
        CAPTURE(members);
        std::string text = "{";
        for (int k = 0; k < members; ++k) text += "\"k" + std::string(3 - std::to_string(k).size(), '0') + std::to_string(k) + "x\": " + std::to_string(k) + ",";
        text += "\"k\\u0030\\u0030\\u0031x\": 1001, \"k001x\": 2001}";  // "k001x" escaped, then given again
        agrees(text);
        JsonDoc doc;
        REQUIRE(doc.parse(text, 32));
        const gpusizer::detail::JsonMembers m(doc.root());
        for (int k = 0; k < members; ++k) {
            const std::string key = "k" + std::string(3 - std::to_string(k).size(), '0') + std::to_string(k) + "x";
            REQUIRE(m.find(key));
            CHECK(m.find(key)->number().u == static_cast<std::uint64_t>(k == 1 ? 2001 : k));
        }
        CHECK_FALSE(m.find("k999x"));
        CHECK_FALSE(m.find(""));
        CHECK_FALSE(m.find("k001"));
    }
}

TEST_CASE("json reader: hand-worked values") {
    JsonDoc doc;
    REQUIRE(doc.parse(R"({"s": "\ud83d\ude00 \u00e9\n", "k": 1, "k": 2, "n": [-0, 1e3, 1e-400, 18446744073709551616]})", 32));
    const JsonValue root = doc.root();
    CHECK(root.find("s")->string() == "\xf0\x9f\x98\x80 \xc3\xa9\n");  // U+1F600 from its surrogate pair, U+00E9
    CHECK(root.find("s")->has_escapes());
    CHECK(root.find("k")->number().u == 2);  // a key given twice: its last value
    CHECK(root.size() == 4);
    CHECK_FALSE(root.find("missing"));
    std::vector<JsonNumber> n;
    root.find("n")->each_element([&](JsonValue v) { n.push_back(v.number()); });
    REQUIRE(n.size() == 4);
    CHECK(n[0].type == JsonNumber::Type::integer);  // "-0" is the integer 0: no sign in messages
    CHECK(n[0].i == 0);
    CHECK_FALSE(std::signbit(n[0].as_double()));
    CHECK(n[1].type == JsonNumber::Type::floating);  // 1e3 has an exponent: a double, 1000
    CHECK(n[1].d == 1000.0);
    CHECK(n[2].d == 0.0);                             // below double's range: 0
    CHECK_FALSE(doc.parse("[1e400]", 32));             // past it: not JSON for nlohmann ("number overflow")
    CHECK_FALSE(doc.parse("[-1" + std::string(400, '0') + "]", 32));  // so is an integer of 401 digits
    CHECK(n[3].type == JsonNumber::Type::floating);   // 2^64 does not fit 64 bits: a double
    CHECK(n[3].d == 18446744073709551616.0);
    CHECK(gpusizer::detail::as_int(n[1], 0, 2000) == 1000);  // 1e3 is integral
    CHECK_FALSE(gpusizer::detail::as_int(n[3], 0, INT64_MAX));
}

TEST_CASE("json reader: each value's text, past nested arrays and objects") {
    // Arrays and objects take two tokens, scalars one: the reads must step over each correctly.
    JsonDoc doc;
    const std::string text = R"( {"a": [1, {"b": [2, 3], "q": "x\"y"}, [], "z"], "c": {"d": {}}, "e": [[[]], -2.5e1], "f": true} )";
    REQUIRE(doc.parse(text, 32));
    const JsonValue root = doc.root();
    CHECK(root.text() == text.substr(1, text.size() - 2));
    CHECK(root.size() == 4);
    std::vector<std::string> a;
    root.find("a")->each_element([&](JsonValue v) { a.emplace_back(v.text()); });
    CHECK(a == std::vector<std::string>{"1", R"({"b": [2, 3], "q": "x\"y"})", "[]", R"("z")"});
    CHECK(root.find("a")->text() == R"([1, {"b": [2, 3], "q": "x\"y"}, [], "z"])");
    std::vector<std::string> keys;
    root.each_member([&](JsonValue k, JsonValue) { keys.push_back(k.string()); });
    CHECK(keys == std::vector<std::string>{"a", "c", "e", "f"});
    CHECK(root.find("c")->find("d")->text() == "{}");
    CHECK(root.find("c")->find("d")->size() == 0);
    std::vector<std::string> e;
    root.find("e")->each_element([&](JsonValue v) { e.emplace_back(v.text()); });
    CHECK(e == std::vector<std::string>{"[[]]", "-2.5e1"});
    CHECK(root.find("f")->boolean());
    JsonValue q = *root.find("a");  // "q" inside the second element: "x\"y" unescaped
    q.each_element([&](JsonValue v) {
        if (v.is_object()) q = *v.find("q");
    });
    CHECK(q.string() == "x\"y");
    CHECK(q.has_escapes());
}

TEST_CASE("json reader: the depth limit counts arrays and objects") {
    JsonDoc doc;
    const auto nest = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
    CHECK(doc.parse(nest(32), 32));
    CHECK_FALSE(doc.parse(nest(33), 32));
    CHECK(doc.parse("{\"a\":" + nest(31) + "}", 32));
    CHECK_FALSE(doc.parse("{\"a\":" + nest(32) + "}", 32));
    CHECK(doc.parse("\"" + std::string(100, '[') + "\"", 1));  // brackets in a string are text
}

TEST_CASE("catalog: the file's edge cases keep their messages (reader, not nlohmann's DOM)") {
    const auto error_of = [](const std::string& text) { return gpusizer::parse_catalog(text).error; };
    // Not JSON: trailing text, truncation; too deep wins over broken JSON, whichever comes first.
    CHECK(error_of("{} x").code == "bad_json");
    CHECK(error_of("{\"schema\": 1").code == "bad_json");
    CHECK(error_of("{\"a\": [1, 2} " + std::string(40, '[')).code == "too_deep");
    CHECK(error_of(std::string("{}\0", 3) + std::string(40, '[')).code == "too_deep");  // after a NUL: still counted
    CHECK(error_of(std::string("{}\0 tail", 8)).code == "missing");  // JSON ends at the NUL; then `schema` is missing
    // The value in a message is nlohmann's dump of it (sorted keys, the last of a key given twice).
    const gpusizer::Error e = error_of(R"({"schema": 1, "version": {"b": 1, "a": 2, "b": 3}})");
    CHECK(e.path == "version");
    CHECK(e.message == "must be a string, got {\"a\":2,\"b\":3}");
    CHECK(error_of(R"({"schema": 1e0, "version": 5})").message == "must be a string, got 5");  // 1e0 is schema 1
    CHECK(error_of(R"({"schema": 2.5})").message == "must be an integer, got 2.5");
}
