// The palette: every text colour readable on every background of its theme (WCAG 2.x AA:
// 4.5:1 for body text), and white on the button and badge fills. The contrast formula is
// checked on WCAG's own reference pairs first.
#include <doctest/doctest.h>

#include <initializer_list>

#include "style.hpp"

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
