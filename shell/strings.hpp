#pragma once
// The UI's languages. Every visible string is spelled at its call site in both languages,
// tr("Model", "模型"), so a translation cannot go missing and the text sits beside the widget
// it labels. Widget *ids* ("##model") and test tags ("model_combo") are not UI text.
// The CJK glyphs the page needs are collected from these literals at build time (web/).

namespace gpusizer::shell {

enum class Language { en, zh };

// The language of the UiState bound to the current ImGui context (panels.hpp: bind_ui_state);
// English when none is bound.
void set_language(Language lang);
Language language();

// The current language's text. printf formats must take the same arguments in both.
inline const char* tr(const char* en, const char* zh) { return language() == Language::zh ? zh : en; }

}  // namespace gpusizer::shell
