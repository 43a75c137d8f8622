// ModelArch equality, from the one field table in model.hpp.
#include "gpusizer/model.hpp"

namespace gpusizer {

bool operator==(const ModelArch& a, const ModelArch& b) {
#define GPUSIZER_X(type, member, hf, link, def) \
    if (!(a.member == b.member)) return false;
    GPUSIZER_ARCH_FIELDS(GPUSIZER_X)
#undef GPUSIZER_X
    return true;
}

}  // namespace gpusizer
