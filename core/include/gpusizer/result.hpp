#pragma once
// Errors without exceptions: every fallible core function returns a Result<T>.
// A Result holds either a value or one error (code, message, JSON path), and in both cases
// the warnings collected on the way (partial success: a dropped catalog row, an unknown key).
// Warnings a person reads in the page come in English and Chinese, line by line (Notes).

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpusizer {

struct Error {
    std::string code;     // stable machine id, e.g. "bad_type", "out_of_range", "unknown_id"
    std::string message;  // human text that names the key, the value and the allowed range
    std::string path;     // JSON path of the offending value, e.g. "instances[37].gpu"; "" when none
};

// "path: message", or just the message when there is no path.
std::string format_error(const Error& e);

// Warnings in English and in Chinese: zh[i] says en[i] in Chinese. add() takes both texts, so
// the two lists cannot drift apart.
struct Notes {
    std::vector<std::string> en, zh;
    void add(std::string e, std::string z) {
        en.push_back(std::move(e));
        zh.push_back(std::move(z));
    }
    void append(const Notes& n) {
        en.insert(en.end(), n.en.begin(), n.en.end());
        zh.insert(zh.end(), n.zh.begin(), n.zh.end());
    }
};

template <class T>
struct Result {
    std::optional<T> value;
    Error error;
    std::vector<std::string> warnings;
    // The same in Chinese, line by line, from producers that have it (the scenario and config
    // parsers); empty from the others (catalog, link): notes() fills in the English.
    std::vector<std::string> warnings_zh;

    bool ok() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    T& operator*() { return *value; }
    const T* operator->() const { return &*value; }
    T* operator->() { return &*value; }

    static Result success(T v, std::vector<std::string> w = {}, std::vector<std::string> w_zh = {}) {
        Result r;
        r.value = std::move(v);
        r.warnings = std::move(w);
        r.warnings_zh = std::move(w_zh);
        return r;
    }
    static Result failure(Error e, std::vector<std::string> w = {}, std::vector<std::string> w_zh = {}) {
        Result r;
        r.error = std::move(e);
        r.warnings = std::move(w);
        r.warnings_zh = std::move(w_zh);
        return r;
    }
    // Both lists as Notes; English in place of Chinese when the producer has none.
    Notes notes() const { return {warnings, warnings_zh.size() == warnings.size() ? warnings_zh : warnings}; }
};

}  // namespace gpusizer
