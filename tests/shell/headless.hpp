#pragma once
// A headless ImGui window for shell tests (imgui's examples/example_null): no GPU, no GLFW.
// Frames are driven by hand; clicks go through ImGui's hit-testing at tagged rectangles.
#include <string>

#include "app.hpp"
#include "embedded_catalog.hpp"
#include "imgui.h"
#include "style.hpp"

namespace gpusizer_test {

class Headless {
public:
    explicit Headless(float ratio = 1.0f, ImVec2 size = ImVec2(1000, 900)) {
        ctx_ = ImGui::CreateContext();
        ImGui::SetCurrentContext(ctx_);  // CreateContext only makes the first one current
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = size;
        io.DeltaTime = 1.0f / 60.0f;
        gpusizer::shell::apply_style(ratio);
        gpusizer::shell::build_fonts(ratio);
        unsigned char* px = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);  // the atlas must be built before NewFrame
    }
    ~Headless() { ImGui::DestroyContext(ctx_); }

    void frame(gpusizer::shell::App& app) {
        ImGui::NewFrame();
        app.frame(host_);
        ImGui::Render();
    }
    void frames(gpusizer::shell::App& app, int n) {
        for (int i = 0; i < n; ++i) frame(app);
    }
    // Move, press, release at the centre of the tagged widget; false if it is not on screen.
    bool click(gpusizer::shell::App& app, const std::string& tag) {
        const gpusizer::shell::TaggedRect* r = app.tags().find(tag);
        if (!r) return false;
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2((r->x0 + r->x1) / 2, (r->y0 + r->y1) / 2);
        frames(app, 2);
        io.MouseDown[0] = true;
        frame(app);
        io.MouseDown[0] = false;
        frames(app, 3);  // release, then a popup appears and sizes itself
        return true;
    }

private:
    ImGuiContext* ctx_ = nullptr;
    gpusizer::shell::Host host_;
};

}  // namespace gpusizer_test
