#pragma once
// What the shell asks of the window it lives in. One small interface, one implementation per
// host (web/, native/desktop/, the headless tests). Everything has a harmless default so a
// host only overrides what its platform can do.

#include <string>
#include <string_view>

namespace gpusizer::shell {

class Host {
public:
    virtual ~Host() = default;

    // Clipboard. The browser's GLFW emulation has a no-op clipboard (docs/research/toolchain.md, pitfall 5),
    // so the web host bridges to navigator.clipboard itself.
    virtual void set_clipboard(std::string_view text) { (void)text; }
    virtual std::string get_clipboard() { return {}; }

    // The share link of the current scenario ("v=1&m=…", no '#'), written when it settles.
    // The web host puts it in the URL fragment with history.replaceState; others ignore it.
    virtual void set_link(std::string_view fragment) { (void)fragment; }

    // The full share URL for a fragment, as a person would paste it. The web host builds it from
    // the page's own address; elsewhere the bare fragment is the best there is.
    virtual std::string share_url(std::string_view fragment) { return "#" + std::string(fragment); }

    // A plain-text summary of the current results for people and tools that cannot read the
    // canvas (the page puts it in an aria-live region). Called when the results change.
    virtual void set_summary(std::string_view text) { (void)text; }

    // Save an export the user asked for: the web host downloads it, the desktop writes it to
    // its export folder. Returns where it went ("downloads", a path) or "" when it could not.
    virtual std::string save_file(std::string_view filename, std::string_view mime, std::string_view content) {
        (void)filename, (void)mime, (void)content;
        return {};
    }

    // The platform's appearance (prefers-color-scheme, the desktop's setting): dark or light.
    virtual bool prefers_dark() const { return true; }

    // The user's preferred language tag ("zh-CN", "en-US"; navigator.language), "" when unknown.
    virtual std::string preferred_language() const { return {}; }

    // Physical pixels per logical pixel of the framebuffer the shell draws into
    // (devicePixelRatio in the browser, the content scale on the desktop). Used to convert
    // tagged widget rectangles to CSS pixels for tests, and to scale fonts and style.
    virtual float pixel_ratio() const { return 1.0f; }
};

}  // namespace gpusizer::shell
