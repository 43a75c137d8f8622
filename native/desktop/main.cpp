// gpusizer_desktop: the shell in a GLFW + OpenGL 3 window, with the catalog embedded.
//
//   gpusizer_desktop [--link URL] [--model ID] [--weight_dtype D] [--size WxH]
//                    [--click TAG]... [--frames N] [--screenshot OUT.png] [--print-results]
//
// --click TAG     after the UI settles, click the centre of the widget tagged TAG (the same
//                 tags the browser tests use, e.g. dtype_combo then dtype_item:int8); the click
//                 goes through ImGui's own hit-testing, as a mouse click would.
// --frames N      draw N frames after the last scripted click, then exit (default: run until closed)
// --screenshot    with --frames: read the framebuffer back and write it as PNG before exiting
// --print-results print the scenario and results JSON (test hooks) to stdout before exiting
// --export-dir D  where the Export menu writes its files (default: the current directory)
//
// Index
//   [SECTION] Options
//   [SECTION] Scripted clicks
//   [SECTION] main

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app.hpp"
#include "embedded_catalog.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/scenario.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "png_write.hpp"
#include "style.hpp"

namespace {

// [SECTION] Options

struct Options {
    std::string link;                   // --link URL-or-#fragment: the base scenario
    gpusizer::TextOverrides overrides;  // --model, --weight_dtype, … passed to core as the CLI does
    std::vector<std::string> clicks;
    int frames = -1;  // -1 = interactive
    int width = 1100, height = 720;
    std::string screenshot;
    std::string export_dir = ".";
    bool print_results = false;
};

int usage(const char* msg) {
    std::fprintf(stderr, "gpusizer_desktop: %s\n"
                         "usage: gpusizer_desktop [--KEY VALUE (scenario keys)] [--size WxH] [--click TAG]...\n"
                         "                        [--frames N] [--screenshot OUT.png] [--print-results] [--export-dir DIR]\n", msg);
    return 2;
}

bool parse_options(int argc, char** argv, Options& o, std::string& err) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) { err = a + " needs a value"; return false; }
            out = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--print-results") {
            o.print_results = true;
        } else if (a == "--click") {
            if (!value(v)) return false;
            o.clicks.push_back(v);
        } else if (a == "--frames") {
            if (!value(v)) return false;
            o.frames = std::atoi(v.c_str());
            if (o.frames < 1) { err = "--frames needs a positive number"; return false; }
        } else if (a == "--screenshot") {
            if (!value(o.screenshot)) return false;
        } else if (a == "--export-dir") {
            if (!value(o.export_dir)) return false;
        } else if (a == "--size") {
            if (!value(v) || std::sscanf(v.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 64 ||
                o.height < 64) { err = "--size needs WxH, e.g. 1100x720"; return false; }
        } else if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
            if (!value(v)) return false;
            std::string key = a.substr(2);
            std::replace(key.begin(), key.end(), '-', '_');
            if (key == "link")
                o.link = v;
            else
                o.overrides.emplace_back(key, v);
        } else {
            err = "unknown argument " + a;
            return false;
        }
    }
    if (!o.screenshot.empty() && o.frames < 0) o.frames = 3;
    if (!o.clicks.empty() && o.frames < 0) o.frames = 3;
    return true;
}

// [SECTION] Scripted clicks
// One click = move there (settle frames), press for a frame, release for a frame. Applied after
// ImGui_ImplGlfw_NewFrame (which polls the real cursor) and before ImGui::NewFrame.

struct ClickScript {
    std::vector<std::string> tags;
    std::size_t next = 0;
    int phase = 0, wait = 0, misses = 0;
    ImVec2 at, last{-1, -1};
    std::string error;

    bool done() const { return next >= tags.size() && phase == 0; }

    void apply(const gpusizer::shell::App& app, ImGuiIO& io) {
        if (done() || !error.empty()) return;
        if (wait > 0) { --wait; io.MousePos = at; return; }
        switch (phase) {
            case 0: {  // find the widget in the last frame
                const gpusizer::shell::TaggedRect* r = app.tags().find(tags[next]);
                if (!r) {  // not drawn yet (first frames, a popup opening): wait a little
                    if (++misses > 30) error = "no widget tagged '" + tags[next] + "' on screen";
                    return;
                }
                // Still moving (a box sizing itself to its content, a popup opening): wait until
                // it is drawn at the same place twice, as the browser tests' findWidget does.
                const ImVec2 centre((r->x0 + r->x1) * 0.5f, (r->y0 + r->y1) * 0.5f);
                if (centre.x != last.x || centre.y != last.y) {
                    last = centre;
                    if (++misses > 30) error = "widget '" + tags[next] + "' never stops moving";
                    return;
                }
                misses = 0;
                last = ImVec2(-1, -1);
                at = centre;
                io.MousePos = at;
                phase = 1;
                wait = 2;
                break;
            }
            case 1: io.MousePos = at; io.MouseDown[0] = true; phase = 2; break;
            case 2: io.MousePos = at; io.MouseDown[0] = false; phase = 0; ++next; wait = 3; break;
        }
    }
};

// The desktop's platform services: the system clipboard through GLFW, exports written to
// --export-dir.
struct DesktopHost final : gpusizer::shell::Host {
    GLFWwindow* window = nullptr;
    std::string export_dir;
    void set_clipboard(std::string_view text) override { glfwSetClipboardString(window, std::string(text).c_str()); }
    std::string get_clipboard() override {
        const char* s = glfwGetClipboardString(window);
        return s ? s : "";
    }
    std::string save_file(std::string_view filename, std::string_view, std::string_view content) override {
        const std::string path = export_dir + "/" + std::string(filename);
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "gpusizer_desktop: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
            return {};
        }
        const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
        if (std::fclose(f) != 0 || !ok) {
            std::fprintf(stderr, "gpusizer_desktop: writing %s failed\n", path.c_str());
            return {};
        }
        return path;
    }
};

}  // namespace

// [SECTION] main

constexpr int k_settle_frames = 8;  // frames drawn after an event before sleeping again
#if GPUSIZER_EMBEDDED_FONTS
// The page's font subsets (scripts/fonts.cmake), embedded by scripts/embed.cmake.
extern const unsigned char gpusizer_font_ui[], gpusizer_font_ui_bold[], gpusizer_font_cjk[];
extern const unsigned long gpusizer_font_ui_size, gpusizer_font_ui_bold_size, gpusizer_font_cjk_size;
#endif

namespace {

// The scenario from --link and key=value overrides; false (with the message) when they are bad.
bool open_scenario(const Options& opt, gpusizer::shell::App& app, std::string& err) {
    if (opt.link.empty() && opt.overrides.empty()) return true;
    std::string base = "{}";
    if (!opt.link.empty()) {  // a share link opens as in the page: bad parts are warnings
        auto l = gpusizer::decode_link(opt.link);
        if (!l.ok()) {
            err = "--link: " + gpusizer::format_error(l.error);
            return false;
        }
        for (const auto& w : l.warnings.en()) std::fprintf(stderr, "gpusizer_desktop: warning: %s\n", w.c_str());
        base = gpusizer::scenario_given_to_json(*l);
    }
    auto s = gpusizer::parse_scenario_overrides(base, opt.overrides);
    if (!s.ok()) {
        err = gpusizer::format_error(s.error);
        return false;
    }
    app.set_scenario(*s);
    return true;
}

// An OpenGL 3.0 window (GLFW started); null with a message when there is no display.
GLFWwindow* open_window(const Options& opt) {
    if (!glfwInit()) {
        std::fprintf(stderr, "gpusizer_desktop: GLFW could not start (no display? try xvfb-run -a)\n");
        return nullptr;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "gpusizer", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "gpusizer_desktop: no OpenGL 3.0 window\n");
        glfwTerminate();
        return nullptr;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    return window;
}

// ImGui with the page's style and fonts at the window's content scale, and its GLFW/GL backends.
void start_imgui(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini beside the user's files
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    float xscale = 1, yscale = 1;
    glfwGetWindowContentScale(window, &xscale, &yscale);
    gpusizer::shell::apply_style(xscale);
    // The page's fonts, embedded (DejaVu Sans, its Bold, the Chinese subset); ProggyClean when the
    // build had no fontTools.
#if GPUSIZER_EMBEDDED_FONTS
    const gpusizer::shell::FontData font{gpusizer_font_ui, gpusizer_font_ui_size};
    const gpusizer::shell::FontData bold{gpusizer_font_ui_bold, gpusizer_font_ui_bold_size};
    const gpusizer::shell::FontData cjk{gpusizer_font_cjk, gpusizer_font_cjk_size};
    gpusizer::shell::build_fonts(xscale, &font, &cjk, &bold);
#else
    gpusizer::shell::build_fonts(xscale);
#endif
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 130");
}

// The back buffer as a PNG (--screenshot); false when the file cannot be written.
bool save_screenshot(const std::string& path, int w, int h) {
    std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4), flipped(px.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    for (int y = 0; y < h; ++y)  // GL's origin is bottom-left
        std::memcpy(&flipped[static_cast<std::size_t>(y) * w * 4], &px[static_cast<std::size_t>(h - 1 - y) * w * 4],
                    static_cast<std::size_t>(w) * 4);
    return gpusizer::desktop::write_png(path, w, h, flipped);
}

// Draws frames until the window closes, or (scripted: --frames) until the clicks are done and
// the frames counted; returns the exit status.
int run(GLFWwindow* window, const Options& opt, gpusizer::shell::App& app) {
    ImGuiIO& io = ImGui::GetIO();
    DesktopHost host;
    host.window = window;
    host.export_dir = opt.export_dir;
    ClickScript script{opt.clicks};
    const bool scripted = opt.frames > 0;
    int frames_left = opt.frames;
    int idle_frames = 0;
    while (!glfwWindowShouldClose(window)) {
        // Interactive and idle: sleep until an event instead of redrawing at the refresh rate.
        if (!scripted && idle_frames > k_settle_frames) {
            glfwWaitEvents();
            idle_frames = 0;
        } else {
            glfwPollEvents();
        }
        idle_frames = app.take_redraw_request() ? 0 : idle_frames + 1;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        script.apply(app, io);
        gpusizer::shell::enter_also_activates(io);
        ImGui::NewFrame();
        app.frame(host);
        ImGui::Render();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window, &w, &h);
        glViewport(0, 0, w, h);
        glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (!script.error.empty()) {
            std::fprintf(stderr, "gpusizer_desktop: --click: %s\n", script.error.c_str());
            return 1;
        }
        if (scripted && script.done() && --frames_left <= 0) {
            if (!opt.screenshot.empty() && !save_screenshot(opt.screenshot, w, h)) {
                std::fprintf(stderr, "gpusizer_desktop: cannot write %s\n", opt.screenshot.c_str());
                return 3;
            }
            return 0;
        }
        glfwSwapBuffers(window);
        if (!scripted && (io.WantTextInput || ImGui::IsAnyMouseDown())) idle_frames = 0;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    std::string err;
    if (!parse_options(argc, argv, opt, err)) return usage(err.c_str());
    gpusizer::shell::App app;
    app.set_catalog(gpusizer::parse_catalog(embedded_catalog_json()));
    if (!open_scenario(opt, app, err)) return usage(err.c_str());
    GLFWwindow* window = open_window(opt);
    if (!window) return 3;
    start_imgui(window);
    const int status = run(window, opt, app);
    if (opt.print_results) std::printf("%s\n%s\n", app.scenario_json().c_str(), app.results_json().c_str());
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}
