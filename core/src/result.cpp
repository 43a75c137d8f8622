#include "gpusizer/result.hpp"

namespace gpusizer {

// Messages usually start with their key already ("batch_size: 0 is not …"): then as is.
std::string format_error(const Error& e) {
    if (e.path.empty() || e.message.rfind(e.path + ":", 0) == 0) return e.message;
    return e.path + ": " + e.message;
}

}  // namespace gpusizer
