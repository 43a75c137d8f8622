#include "strings.hpp"

#include "imgui.h"
#include "panels.hpp"

namespace gpusizer::shell {

void bind_ui_state(UiState* ui) {
    if (ImGui::GetCurrentContext()) ImGui::GetIO().UserData = ui;
}

UiState* bound_ui_state() {
    return ImGui::GetCurrentContext() ? static_cast<UiState*>(ImGui::GetIO().UserData) : nullptr;
}

void set_language(Language lang) {
    if (UiState* ui = bound_ui_state()) ui->language = lang;
}

Language language() {
    const UiState* ui = bound_ui_state();
    return ui ? ui->language : Language::en;
}

}  // namespace gpusizer::shell
