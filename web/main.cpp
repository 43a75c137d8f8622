// The browser host: the shell in a WebGL2 canvas through Emscripten 3.1.6's GLFW emulation.
// The only place (with web/*.js) that knows about emscripten.h and the page.
//
// Index
//   [SECTION] JavaScript bridge (EM_JS: compiled into the glue, no eval, CSP-friendly)
//   [SECTION] Web host (clipboard, link, URL)
//   [SECTION] Catalog and font downloads
//   [SECTION] Frame pacing (no redraw when idle)
//   [SECTION] Canvas size and pixel ratio
//   [SECTION] Main loop
//   [SECTION] Test hooks (exported to page.js as window.__gpusizer)
//   [SECTION] main

#include <emscripten.h>
#include <emscripten/html5.h>

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "app.hpp"
#include "gpusizer/catalog.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8 (test hook)
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "strings.hpp"
#include "style.hpp"

using gpusizer::shell::App;

// [SECTION] JavaScript bridge ---------------------------------------------------------------

// page.js defines gpusizerPage (DOM messages, first-frame mark) before this module loads.
EM_JS(void, js_show_error, (const char* msg), { gpusizerPage.showError(UTF8ToString(msg)); });
EM_JS(void, js_ready, (), { gpusizerPage.ready(); });  // first frame with the catalog drawn
// A start-up mark (page.js keeps them: ms since navigation, printed by tests/browser/speed.test.mjs).
EM_JS(void, js_mark, (const char* name, double ms), { gpusizerPage.mark(UTF8ToString(name), ms); });
// page.js fetched catalog.json and the fonts while the module was downloading and compiling
// (gpusizerPage.download: one fetch per file, started at page load); each is written into
// gpusizer_download_buffer, then handed over by gpusizer_on_download(index, size), size -1 when
// the download failed. The index is gpusizer_on_download's (below).
EM_JS(void, js_start_downloads, (), {
    ["catalog.json", "fonts/ui.ttf", "fonts/cjk.ttf", "fonts/ui-bold.ttf"].forEach(function(name, i) {
        gpusizerPage.download(name).then(function(bytes) {
            var n = bytes.byteLength;
            var p = Module["_gpusizer_download_buffer"](n);
            HEAPU8.set(new Uint8Array(bytes), p);  // HEAPU8 after the call: it may have grown memory
            Module["_gpusizer_on_download"](i, n);
        }, function(e) {
            console.warn("gpusizer: " + name + " could not be downloaded (" + e + ")");
            Module["_gpusizer_on_download"](i, -1);
        });
    });
});
// Emscripten 3.1.6's glfwSetWindowSize requests fullscreen instead of resizing when the size
// equals screen.width × screen.height (library_glfw.js setWindowSize; noted 2026-12): a
// maximised canvas at DPR 1, a kiosk or headless Chromium then keeps a stale backing store and
// logs "requestFullscreen … user gesture". Do its else-branch ourselves. ImGui 1.86 polls
// glfwGetWindowSize (GLFW.active.width/height), so updating those is enough.
EM_JS(void, js_set_canvas_size, (int w, int h), {
    Browser.setCanvasSize(w, h);
    if (GLFW.active) { GLFW.active.width = w; GLFW.active.height = h; }
});
// Touch: 3.1.6's GLFW turns touchstart/touchend into button presses but never moves the cursor
// for them (Browser.calculateMouseEvent returns early: `event.touch` exists only under SDL), so a
// tap presses wherever the cursor last was (emscripten-core/emscripten#20804, fixed by #20805
// in 3.1.48; noted 2026-12). These listeners run first (registered before glfwInit's, capture
// phase): they put the cursor under the finger, then GLFW reports the press/release there.
// preventDefault stops the compatibility mouse events that would press a second time.
EM_JS(void, js_install_touch_fix, (), {
    var canvas = Module["canvas"];
    function place(e) {
        var t = e.changedTouches && e.changedTouches[0];
        if (!t) return;
        var r = canvas.getBoundingClientRect();
        Browser.mouseX = (t.clientX - r.left) * (canvas.width / r.width);
        Browser.mouseY = (t.clientY - r.top) * (canvas.height / r.height);
        if (e.cancelable) e.preventDefault();
    }
    ["touchstart", "touchmove", "touchend", "touchcancel"].forEach(function(type) {
        canvas.addEventListener(type, place, {capture: true, passive: false});
    });
});
EM_JS(void, js_set_clipboard, (const char* text), {
    if (navigator.clipboard) navigator.clipboard.writeText(UTF8ToString(text)).catch(function(e) {
        console.warn("gpusizer: the clipboard refused the text: " + e);
    });
});
EM_JS(char*, js_share_url, (const char* fragment), {  // caller frees
    var s = location.origin + location.pathname + location.search + "#" + UTF8ToString(fragment);
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
// Paste (Ctrl+V) arrives as a DOM event with the text; ImGui then reads it from the host.
EM_JS(void, js_watch_paste, (), {
    window.addEventListener("paste", function(e) {
        var t = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
        var n = lengthBytesUTF8(t) + 1;
        var p = _malloc(n);
        stringToUTF8(t, p, n);
        Module["_gpusizer_on_paste"](p);
        _free(p);
    });
});
// An export the user asked for: a Blob download named `name` (an <a download> click: no popup,
// no server round trip). The object URL is revoked once the click has been handled.
EM_JS(void, js_download, (const char* name, const char* mime, const char* data, int size), {
    var blob = new Blob([HEAPU8.slice(data, data + size)], {type: UTF8ToString(mime)});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = UTF8ToString(name);
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function() { URL.revokeObjectURL(a.href); }, 10000);
});
EM_JS(int, js_prefers_dark, (), {
    return !window.matchMedia || !window.matchMedia("(prefers-color-scheme: light)").matches ? 1 : 0;
});
EM_JS(char*, js_language, (), {  // caller frees
    var s = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
EM_JS(void, js_replace_hash, (const char* fragment), {
    history.replaceState(null, "", "#" + UTF8ToString(fragment));  // no hashchange, no history spam
    var a = document.getElementById("share");  // the same link as a real <a>, outside the canvas
    if (a) a.href = location.href;
});
EM_JS(char*, js_get_hash, (), {  // caller frees
    var s = window.location.hash.slice(1);
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
EM_JS(void, js_watch_hash, (), {  // a pasted or edited link in the address bar
    window.addEventListener("hashchange", function() { Module["_gpusizer_on_hash_changed"](); });
});
EM_JS(void, js_watch_scheme, (), {  // the system switched dark/light: redraw (the theme follows)
    if (!window.matchMedia) return;
    var q = window.matchMedia("(prefers-color-scheme: light)");
    if (q.addEventListener) q.addEventListener("change", function() { Module["_gpusizer_wake"](); });
});
EM_JS(void, js_set_summary, (const char* text), { gpusizerPage.setSummary(UTF8ToString(text)); });

// [SECTION] Web host --------------------------------------------------------------------------

namespace {

struct WebHost final : gpusizer::shell::Host {
    float ratio = 1.0f;  // canvas backing pixels per CSS pixel
    std::string clipboard;  // last text copied from the UI (GLFW's clipboard is a no-op, pitfall 5)
    std::string last_link;  // last fragment written, to ignore its echo
    void set_clipboard(std::string_view text) override {
        clipboard.assign(text);
        js_set_clipboard(clipboard.c_str());
    }
    std::string get_clipboard() override { return clipboard; }
    std::string share_url(std::string_view fragment) override {
        char* p = js_share_url(std::string(fragment).c_str());
        std::string s = p ? p : "";
        std::free(p);
        return s;
    }
    void set_link(std::string_view fragment) override {
        last_link.assign(fragment);
        js_replace_hash(last_link.c_str());
    }
    void set_summary(std::string_view text) override { js_set_summary(std::string(text).c_str()); }
    std::string save_file(std::string_view filename, std::string_view mime, std::string_view content) override {
        js_download(std::string(filename).c_str(), std::string(mime).c_str(), content.data(), static_cast<int>(content.size()));
        return "downloads";
    }
    bool prefers_dark() const override { return js_prefers_dark() != 0; }
    std::string preferred_language() const override {
        char* p = js_language();
        std::string s = p ? p : "";
        std::free(p);
        return s;
    }
    float pixel_ratio() const override { return ratio; }
};

struct Web {
    App app;
    WebHost host;
    GLFWwindow* window = nullptr;
    int fb_w = 0, fb_h = 0;       // canvas backing store (device pixels)
    double css_w = 0, css_h = 0;  // canvas CSS size
    float font_ratio = 0;         // ratio the fonts and style were built for
    std::string font_ttf;         // fonts/ui.ttf, alive as long as the atlas (it does not copy)
    std::string cjk_ttf;          // fonts/cjk.ttf (the Chinese subset), likewise
    std::string bold_ttf;         // fonts/ui-bold.ttf (headings, figures), likewise
    std::string download;         // the bytes of the download being handed over (gpusizer_download_buffer)
    bool fonts_dirty = true;      // rebuild the atlas at the next iteration
    int fonts_pending = 3;        // font downloads not yet done (or failed)
    bool catalog_settled = false;  // catalog.json downloaded and parsed (or failed)
    int pending_frames = 2;       // frames still to draw before going idle
    unsigned long long iterations = 0, drawn = 0;
    bool ready_sent = false;
};
Web* g = nullptr;  // heap object: emscripten_set_main_loop never returns from main (pitfall 21)

// [SECTION] Catalog and font downloads --------------------------------------------------------------------

// catalog.json is parsed as it arrives, usually while the fonts still download. Parsed after the
// font atlas instead (until 2026-12-05), it shared the two cores with V8's optimising compiles of
// the font build's hot functions (75-130 ms each on a slow machine): 23 ms median against 11 ms
// on arrival, the first frame no later (docs/speed-and-cost.md "Catalog parse, seventh pass").
// The catalog keeps the downloaded text: its sources, notes and presets' configs are views into it.
void on_catalog(std::shared_ptr<const std::string> text) {
    const double t0 = emscripten_get_now();
    auto catalog = gpusizer::parse_catalog(text);
    js_mark("catalog parsed", emscripten_get_now() - t0);  // with V8's compile of the parse's code (on its first call)
    if (!catalog.ok()) {
        const std::string msg = "The catalog (catalog.json) is invalid: " + gpusizer::format_error(catalog.error);
        js_show_error(msg.c_str());
    }
    g->app.set_catalog(std::move(catalog));
    g->catalog_settled = true;
    g->pending_frames = std::max(g->pending_frames, 2);
}

void on_catalog_error() {
    g->app.set_catalog_error("catalog.json could not be downloaded");
    js_show_error("The catalog (catalog.json) could not be downloaded. Check your connection and reload.");
    g->catalog_settled = true;
    g->pending_frames = std::max(g->pending_frames, 2);
}

// All downloads start at once; the first frame waits for all of them, so the UI never flashes from
// the fallback font to the real one. A missing font is not fatal: ProggyClean is built in.
void on_font(std::string& ttf, std::string bytes) {
    ttf = std::move(bytes);
    g->fonts_dirty = true;
}

void on_font_error(const std::string& ttf) {
    const bool ui = &ttf == &g->font_ttf, bold = &ttf == &g->bold_ttf;
    std::fprintf(stderr, "gpusizer: %s could not be downloaded; %s\n", ui ? "fonts/ui.ttf" : bold ? "fonts/ui-bold.ttf" : "fonts/cjk.ttf",
                 bold ? "headings in the regular face" :
                 ui ? "using the built-in font" : "Chinese text is drawn as '?'");
}

// [SECTION] Frame pacing -------------------------------------------------------------------------
// requestAnimationFrame keeps calling us, but when nothing happened we return before touching
// ImGui or GL: the browser then composites nothing new and the idle page costs ~no CPU/GPU.
// Any input event schedules k_settle_frames frames, enough for ImGui to open a popup (two
// frames: appear + auto-size), move the nav highlight and repaint hover states.

constexpr int k_settle_frames = 8;

void wake() { g->pending_frames = std::max(g->pending_frames, k_settle_frames); }

// Installed before ImGui_ImplGlfw_InitForOpenGL, which chains to them (1.86 stores the
// previous callbacks). Cursor position is polled by the 1.86 backend, so it is ours alone.
void cb_mouse_button(GLFWwindow*, int, int, int) { wake(); }
// Emscripten 3.1.6's GLFW passes the DOM wheel event's raw deltaY as the scroll offset
// (library_glfw.js onMouseWheel; noted 2026-12): wrong sign (DOM: positive = down; GLFW:
// positive = up) and in pixels, so 1.86's backend scrolls ~100 lines the wrong way per notch.
// ImGui's own GLFW scroll callback is replaced by a no-op and the wheel is read from the DOM
// (as imgui >= 1.89.3 does, #4019/#6096): 100 CSS px, 3 lines or 1/80 page = one step.
void cb_scroll_ignored(GLFWwindow*, double, double) {}

EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
    double k = 1.0 / 100.0;  // DOM_DELTA_PIXEL
    if (e->deltaMode == DOM_DELTA_LINE) k = 1.0 / 3.0;
    if (e->deltaMode == DOM_DELTA_PAGE) k = 80.0;
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel -= static_cast<float>(e->deltaY * k);
    io.MouseWheelH -= static_cast<float>(e->deltaX * k);
    wake();
    return EM_TRUE;  // the page itself does not scroll
}
void cb_key(GLFWwindow*, int, int, int, int) { wake(); }
void cb_char(GLFWwindow*, unsigned int) { wake(); }
void cb_cursor_pos(GLFWwindow*, double, double) { wake(); }
void cb_cursor_enter(GLFWwindow*, int) { wake(); }
void cb_focus(GLFWwindow*, int) { wake(); }

// [SECTION] Canvas size and pixel ratio ---------------------------------------------------------
// 3.1.6's GLFW knows nothing of devicePixelRatio and ignores browser resizes (pitfalls 7, 8):
// poll the CSS size every iteration, size the backing store to css × dpr ourselves. The CSS
// size comes from style.css (glfwSetWindowSize removes inline sizes, pitfall 9).

void poll_canvas_size() {
    double cw = 0, ch = 0;
    emscripten_get_element_css_size("#canvas", &cw, &ch);
    const double dpr = emscripten_get_device_pixel_ratio();
    const int w = std::max(1, static_cast<int>(std::lround(cw * dpr)));
    const int h = std::max(1, static_cast<int>(std::lround(ch * dpr)));
    if (w != g->fb_w || h != g->fb_h) {
        js_set_canvas_size(w, h);  // not glfwSetWindowSize: see js_set_canvas_size
        g->fb_w = w;
        g->fb_h = h;
        g->css_w = cw;
        g->css_h = ch;
        g->host.ratio = cw > 0 ? static_cast<float>(w / cw) : 1.0f;
        wake();
    }
    const float ratio = static_cast<float>(dpr);
    if (ratio != g->font_ratio || g->fonts_dirty) {  // first frame, font arrived, zoom, another monitor
        gpusizer::shell::apply_style(ratio);
        const gpusizer::shell::FontData font{g->font_ttf.data(), g->font_ttf.size()};
        const gpusizer::shell::FontData cjk{g->cjk_ttf.data(), g->cjk_ttf.size()};
        const gpusizer::shell::FontData bold{g->bold_ttf.data(), g->bold_ttf.size()};
        if (!gpusizer::shell::build_fonts(ratio, g->font_ttf.empty() ? nullptr : &font, g->cjk_ttf.empty() ? nullptr : &cjk,
                                          g->bold_ttf.empty() ? nullptr : &bold))
            std::fprintf(stderr, "gpusizer: a font in fonts/ is not usable; using what could be used\n");
        if (g->drawn > 0) {  // before the first frame, the backend's first NewFrame uploads it
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
        g->font_ratio = ratio;
        g->fonts_dirty = false;
        wake();
    }
}

// [SECTION] Main loop ----------------------------------------------------------------------------

void main_loop() {
    ++g->iterations;
    if (!g->catalog_settled || g->fonts_pending > 0) return;  // page.js shows "Loading…" meanwhile
    const bool first = !g->ready_sent;  // the start-up marks split the first frame in its parts
    double t = first ? emscripten_get_now() : 0;
    const auto lap = [&](const char* mark) {
        const double now = emscripten_get_now();
        js_mark(mark, now - t);
        t = now;
    };
    poll_canvas_size();
    if (first) lap("fonts built");
    if (g->app.take_redraw_request()) g->pending_frames = std::max(g->pending_frames, 2);
    if (ImGui::GetIO().WantTextInput) g->pending_frames = std::max(g->pending_frames, 1);  // caret blink
    if (g->pending_frames <= 0) return;  // idle
    --g->pending_frames;

    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    gpusizer::shell::enter_also_activates(io);
    // glfwGetTime may not be monotonic in the browser (ocornut/imgui#6491, fixed after 1.86;
    // noted 2026-12): a non-positive DeltaTime asserts in NewFrame. At most 50 ms: the first frame
    // after an idle spell (or a slow frame on a loaded machine) would otherwise count seconds of
    // key hold, and a single arrow press would auto-repeat (ImGui repeats after 0.25 s held).
    io.DeltaTime = std::clamp(io.DeltaTime, 1e-4f, 0.05f);
    ImGui::NewFrame();
    g->app.frame(g->host);
    ImGui::Render();
    if (first) lap("ui built");

    glViewport(0, 0, g->fb_w, g->fb_h);
    glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++g->drawn;
    if (!g->ready_sent && g->app.catalog()) {
        g->ready_sent = true;
        js_ready();
    }
}

// [SECTION] Test hooks ---------------------------------------------------------------------------

#if GPUSIZER_TEST_HOOKS
void append_json_string(std::string& out, const std::string& s) {
    out += '"';
    for (const char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

#endif

}  // namespace

// [SECTION] Share link in the fragment ------------------------------------------------------------

std::string current_hash() {
    char* p = js_get_hash();
    std::string s = p ? p : "";
    std::free(p);
    return s;
}

extern "C" EMSCRIPTEN_KEEPALIVE void gpusizer_on_paste(const char* text) {
    if (!g) return;
    g->host.clipboard = text ? text : "";
    wake();
}

// js_start_downloads writes a download's `size` bytes here, then calls gpusizer_on_download,
// which takes them as they are: no copy, whose fresh pages would cost ~15 µs each on the machines
// the page is tested on (docs/speed-and-cost.md "Catalog parse, tenth pass"). main() makes `g`
// before js_start_downloads.
extern "C" EMSCRIPTEN_KEEPALIVE char* gpusizer_download_buffer(int size) {
    g->download.resize(static_cast<std::size_t>(std::max(size, 0)));
    return g->download.data();
}

// js_start_downloads' files by index: 0 catalog.json, 1 fonts/ui.ttf, 2 fonts/cjk.ttf,
// 3 fonts/ui-bold.ttf; `size` < 0 when the download failed.
extern "C" EMSCRIPTEN_KEEPALIVE void gpusizer_on_download(int index, int size) {
    if (!g) return;
    std::string bytes = std::exchange(g->download, std::string());
    if (index == 0) {
        if (size < 0) on_catalog_error();
        else on_catalog(std::make_shared<const std::string>(std::move(bytes)));
        return;
    }
    std::string* const fonts[] = {&g->font_ttf, &g->cjk_ttf, &g->bold_ttf};
    if (index < 1 || index > 3) return;
    if (size < 0) on_font_error(*fonts[index - 1]);
    else on_font(*fonts[index - 1], std::move(bytes));
    if (--g->fonts_pending == 0) js_mark("fonts loaded", 0);
}

extern "C" EMSCRIPTEN_KEEPALIVE void gpusizer_wake() {
    if (g) wake();
}

extern "C" EMSCRIPTEN_KEEPALIVE void gpusizer_on_hash_changed() {
    if (!g) return;
    const std::string h = current_hash();
    if (h.empty() || h == g->host.last_link) return;  // our own replaceState, or nothing
    g->app.open_link(h);
    wake();
}

#if GPUSIZER_TEST_HOOKS
extern "C" {

// Strings stay valid until the next call of the same function (page.js copies them at once).
EMSCRIPTEN_KEEPALIVE const char* gpusizer_test_scenario() {
    static std::string s;
    s = g ? g->app.scenario_json() : "";
    return s.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* gpusizer_test_results() {
    static std::string s;
    s = g ? g->app.results_json() : "";
    return s.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* gpusizer_test_recommendation() {
    static std::string s;
    s = g ? g->app.recommendation_json() : "";
    return s.c_str();
}

// {"model_combo": {"x":…,"y":…,"w":…,"h":…,"text":"…"}, …} in CSS pixels relative to the
// canvas's top-left corner (page.js adds the canvas's page offset).
EMSCRIPTEN_KEEPALIVE const char* gpusizer_test_widgets() {
    static std::string s;
    s = "{";
    if (g) {
        const float k = 1.0f / g->host.ratio;
        char buf[160];
        bool first = true;
        for (const gpusizer::shell::TaggedRect& r : g->app.tags().last_frame()) {
            if (!first) s += ',';
            first = false;
            append_json_string(s, r.name);
            std::snprintf(buf, sizeof buf, ":{\"x\":%.2f,\"y\":%.2f,\"w\":%.2f,\"h\":%.2f,\"text\":", r.x0 * k, r.y0 * k,
                          (r.x1 - r.x0) * k, (r.y1 - r.y0) * k);
            s += buf;
            append_json_string(s, r.text);
            if (r.focused) s += ",\"focused\":true";
            s += '}';
        }
    }
    s += "}";
    return s.c_str();
}

// How many characters of `utf8` the UI font cannot draw (ImGui would show '?' for them).
EMSCRIPTEN_KEEPALIVE int gpusizer_test_missing_glyphs(const char* utf8) {
    if (!g || !utf8 || ImGui::GetIO().Fonts->Fonts.empty()) return -1;
    const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    int missing = 0;
    for (const char* p = utf8; *p;) {
        unsigned int c = 0;
        const int n = ImTextCharFromUtf8(&c, p, nullptr);
        p += n > 0 ? n : 1;
        if (c >= 0x20 && !font->FindGlyphNoFallback(static_cast<ImWchar>(c))) ++missing;
    }
    return missing;
}

// Counters for tests and the idle measurement.
EMSCRIPTEN_KEEPALIVE const char* gpusizer_test_stats() {
    static std::string s;
    char buf[480];
    const ImFontAtlas* atlas = ImGui::GetCurrentContext() ? ImGui::GetIO().Fonts : nullptr;
    std::snprintf(buf, sizeof buf,
                  "{\"frames\":%llu,\"iterations\":%llu,\"estimates\":%llu,\"ratio\":%.4f,"
                  "\"framebuffer\":[%d,%d],\"css\":[%.2f,%.2f],\"catalog\":%s,\"link_warnings\":%zu,"
                  "\"font\":\"%s\",\"atlas\":[%d,%d],\"theme\":\"%s\",\"language\":\"%s\",\"dim\":%.3f}",
                  g ? g->drawn : 0ull, g ? g->iterations : 0ull,
                  g ? static_cast<unsigned long long>(g->app.estimate_count()) : 0ull, g ? g->host.ratio : 0.0f,
                  g ? g->fb_w : 0, g ? g->fb_h : 0, g ? g->css_w : 0.0, g ? g->css_h : 0.0,
                  g && g->app.catalog() ? "true" : "false", g ? g->app.link_warnings().size() : std::size_t(0),
                  atlas && !atlas->Fonts.empty() ? atlas->Fonts[0]->GetDebugName() : "", atlas ? atlas->TexWidth : 0,
                  atlas ? atlas->TexHeight : 0, gpusizer::shell::theme() == gpusizer::shell::Theme::light ? "light" : "dark",
                  gpusizer::shell::language() == gpusizer::shell::Language::zh ? "zh" : "en",
                  ImGui::GetCurrentContext() ? static_cast<double>(ImGui::GetCurrentContext()->DimBgRatio) : 0.0);
    s = buf;
    return s.c_str();
}

}  // extern "C"
#endif

// [SECTION] main -----------------------------------------------------------------------------------

int main() {
    g = new Web();
    js_install_touch_fix();  // before glfwInit: our touch listeners must run before GLFW's
    if (!glfwInit()) {
        js_show_error("GLFW could not start in this browser.");
        return 1;
    }
    double cw = 0, ch = 0;
    emscripten_get_element_css_size("#canvas", &cw, &ch);
    const double dpr = emscripten_get_device_pixel_ratio();
    // WebGL2 comes from -sMIN/MAX_WEBGL_VERSION=2 at link time; GLFW's version hints are ignored
    // (fact 2). ImGui draws with neither a depth nor a stencil buffer: the context is made without
    // them (emscripten's GLFW reads these two hints), so the browser neither allocates nor clears them.
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    g->window = glfwCreateWindow(std::max(1, static_cast<int>(cw * dpr)), std::max(1, static_cast<int>(ch * dpr)),
                                 "gpusizer", nullptr, nullptr);
    if (!g->window) {
        js_show_error("This page needs WebGL 2, which this browser did not provide.");
        return 1;
    }
    glfwMakeContextCurrent(g->window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no file system (pitfall 22)
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;

    glfwSetMouseButtonCallback(g->window, cb_mouse_button);
    glfwSetKeyCallback(g->window, cb_key);
    glfwSetCharCallback(g->window, cb_char);
    glfwSetCursorPosCallback(g->window, cb_cursor_pos);
    glfwSetCursorEnterCallback(g->window, cb_cursor_enter);
    glfwSetWindowFocusCallback(g->window, cb_focus);
    ImGui_ImplGlfw_InitForOpenGL(g->window, /*install_callbacks=*/true);
    glfwSetScrollCallback(g->window, cb_scroll_ignored);  // see on_wheel
    // GLFW's clipboard is a no-op in the browser (pitfall 5): ImGui's copy/paste go through the host.
    io.SetClipboardTextFn = [](void*, const char* text) { g->host.set_clipboard(text ? text : ""); };
    io.GetClipboardTextFn = [](void*) -> const char* { return g->host.clipboard.c_str(); };
    js_watch_paste();
    emscripten_set_wheel_callback("#canvas", nullptr, /*useCapture=*/false, on_wheel);
    ImGui_ImplOpenGL3_Init("#version 300 es");  // WebGL2 = GLSL ES 3.00 (pitfall 4)

    // The scenario of the link the page was opened with (decoding never fails hard).
    if (const std::string h = current_hash(); !h.empty()) g->app.open_link(h);
    js_watch_hash();
    js_watch_scheme();

    js_start_downloads();
    emscripten_set_main_loop(main_loop, 0, /*simulate_infinite_loop=*/false);
    return 0;
}
