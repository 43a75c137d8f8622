// The palette: every text colour readable on every background of its theme (WCAG 2.x AA:
// 4.5:1 for body text), and white on the button and badge fills. The contrast formula is
// checked on WCAG's own reference pairs first. Also: long texts cut to fit with an ellipsis.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "headless.hpp"
#include "style.hpp"
#include "widgets.hpp"

using gpusizer::shell::contrast_ratio;
using gpusizer::shell::Palette;
using gpusizer::shell::Theme;

TEST_CASE("contrast_ratio is WCAG's: black on white 21:1, a colour on itself 1:1, #777 on white 4.48:1") {
    const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), grey(0x77 / 255.0f, 0x77 / 255.0f, 0x77 / 255.0f, 1);
    CHECK(contrast_ratio(black, white) == doctest::Approx(21.0).epsilon(1e-4));
    CHECK(contrast_ratio(white, black) == doctest::Approx(21.0).epsilon(1e-4));
    CHECK(contrast_ratio(grey, grey) == doctest::Approx(1.0));
    // #777777 on white is the usual example of a grey that just fails AA (WebAIM: 4.48:1).
    CHECK(contrast_ratio(grey, white) == doctest::Approx(4.48).epsilon(0.005));
}

TEST_CASE("palette: text, muted, accent and status colours are AA on background, surface and raised, in both themes") {
    for (Theme t : {Theme::dark, Theme::light}) {
        const Palette& p = gpusizer::shell::palette(t);
        const ImVec4 backs[] = {p.background, p.surface, p.raised};
        const ImVec4 fronts[] = {p.text, p.muted, p.accent, p.good, p.warn, p.bad, p.fast};
        for (const ImVec4& b : backs)
            for (const ImVec4& f : fronts) {
                CAPTURE(t == Theme::dark ? "dark" : "light");
                const float fg[3] = {f.x, f.y, f.z}, bg[3] = {b.x, b.y, b.z};
                CAPTURE(fg[0]); CAPTURE(fg[1]); CAPTURE(fg[2]); CAPTURE(bg[0]); CAPTURE(bg[1]); CAPTURE(bg[2]);
                CHECK(contrast_ratio(f, b) >= 4.5f);
            }
        const ImVec4 white(1, 1, 1, 1);
        for (const ImVec4& fill : {p.accent_fill, p.good_fill, p.bad_fill}) CHECK(contrast_ratio(white, fill) >= 4.5f);
    }
}

TEST_CASE("ellipsized: a text that fits is kept; a longer one is cut at a character with '…', as long as fits") {
    gpusizer_test::Headless h;
    ImGui::NewFrame();  // CalcTextSize needs the frame's font
    using gpusizer::shell::ellipsized;
    const std::string en = "Hugging Face Trainer / PEFT / TRL", zh = "每个模型副本一次处理的序列数", dots = "\u2026";
    const auto width = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
    CHECK(ellipsized(en, width(en)) == en);
    CHECK(ellipsized("", 0) == "");
    for (const std::string& text : {en, zh}) {
        for (float w : {width(text) * 0.3f, width(text) * 0.7f, width(text) - 1}) {
            const std::string cut = ellipsized(text, w);
            CAPTURE(text); CAPTURE(w); CAPTURE(cut);
            REQUIRE(cut.size() > dots.size());
            const std::string kept = cut.substr(0, cut.size() - dots.size());
            CHECK(cut.substr(kept.size()) == dots);
            CHECK(text.compare(0, kept.size(), kept) == 0);                                 // a prefix of the text,
            CHECK((static_cast<unsigned char>(text[kept.size()]) & 0xC0) != 0x80);         // cut between characters,
            CHECK(width(cut) <= w);                                                         // that fits,
            std::size_t next = kept.size() + 1;                                             // and one character more would not
            while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
            CHECK(width(text.substr(0, next) + dots) > w);
        }
    }
    CHECK(ellipsized(en, 1) == dots);  // nothing fits: the dots alone
    ImGui::EndFrame();
}
