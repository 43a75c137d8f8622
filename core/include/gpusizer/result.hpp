#pragma once
// Errors without exceptions: every fallible core function returns a Result<T>.
// A Result holds either a value or one error (code, message, JSON path), and in both cases
// the warnings collected on the way (partial success: a dropped catalog row, an unknown key),
// in English and Chinese, line by line (Notes).

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

// Warnings in English and in Chinese, line by line: zh()[i] says en()[i] in Chinese. Lines are
// only added in pairs, so the two lists cannot drift apart. A producer that has no Chinese text
// (the catalog) adds English-only lines: their Chinese line is the English text.
class Notes {
public:
    void add(std::string e, std::string z) {
        en_.push_back(std::move(e));
        zh_.push_back(std::move(z));
    }
    void add_en(std::string e) {
        zh_.push_back(e);
        en_.push_back(std::move(e));
    }
    void append(const Notes& n) {
        en_.insert(en_.end(), n.en_.begin(), n.en_.end());
        zh_.insert(zh_.end(), n.zh_.begin(), n.zh_.end());
    }
    // n's lines before these (the parser's warnings ahead of the estimate's).
    void prepend(const Notes& n) {
        en_.insert(en_.begin(), n.en_.begin(), n.en_.end());
        zh_.insert(zh_.begin(), n.zh_.begin(), n.zh_.end());
    }
    const std::vector<std::string>& en() const { return en_; }
    const std::vector<std::string>& zh() const { return zh_; }
    const std::vector<std::string>& lines(bool chinese) const { return chinese ? zh_ : en_; }
    std::size_t size() const { return en_.size(); }
    bool empty() const { return en_.empty(); }

private:
    std::vector<std::string> en_, zh_;
};

template <class T>
struct Result {
    std::optional<T> value;
    Error error;
    Notes warnings;

    bool ok() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    T& operator*() { return *value; }
    const T* operator->() const { return &*value; }
    T* operator->() { return &*value; }

    static Result success(T v, Notes w = {}) {
        Result r;
        r.value = std::move(v);
        r.warnings = std::move(w);
        return r;
    }
    static Result failure(Error e, Notes w = {}) {
        Result r;
        r.error = std::move(e);
        r.warnings = std::move(w);
        return r;
    }
};

}  // namespace gpusizer
