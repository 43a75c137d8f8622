#include "strings.hpp"

namespace gpusizer::shell {
namespace {
Language g_language = Language::en;  // the UI is one per process: a shell-wide setting
}  // namespace

void set_language(Language lang) { g_language = lang; }
Language language() { return g_language; }

}  // namespace gpusizer::shell
