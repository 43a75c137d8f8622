#pragma once
// Errors without exceptions: every fallible core function returns a Result<T>.
// A Result holds either a value or one error (code, message, JSON path), and in both cases
// the warnings collected on the way (partial success: a dropped catalog row, an unknown key).

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

template <class T>
struct Result {
    std::optional<T> value;
    Error error;
    std::vector<std::string> warnings;

    bool ok() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    T& operator*() { return *value; }
    const T* operator->() const { return &*value; }
    T* operator->() { return &*value; }

    static Result success(T v, std::vector<std::string> w = {}) {
        Result r;
        r.value = std::move(v);
        r.warnings = std::move(w);
        return r;
    }
    static Result failure(Error e, std::vector<std::string> w = {}) {
        Result r;
        r.error = std::move(e);
        r.warnings = std::move(w);
        return r;
    }
};

}  // namespace gpusizer
