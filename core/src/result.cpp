#include "gpusizer/result.hpp"

namespace gpusizer {

std::string format_error(const Error& e) {
    return e.path.empty() ? e.message : e.path + ": " + e.message;
}

}  // namespace gpusizer
