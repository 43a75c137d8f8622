// ImGui 1.86's OpenGL3 backend saves the GL state before it draws and restores it after. In
// Chromium, eight of its queries — the viewport, the scissor box and the blend functions and
// equations — are synchronous round trips to the GPU process, so every frame waited there for the
// previous frame to be drawn: with SwiftShader ~37 ms of each ~45 ms frame, all in one
// getParameter(SCISSOR_BOX) (docs/speed-and-cost.md "Frames", 2026-12-05). The page owns its
// WebGL context and draws nothing but ImGui, so the backend's file is compiled with glGetIntegerv
// renamed to the function below (CMakeLists.txt), which answers those eight from the state the
// page keeps between frames: the whole canvas as viewport and scissor box (main.cpp sets the
// viewport before every draw and never enables the scissor test itself) and GL's default
// blending. Every other query goes to WebGL as before.
#include <GLES3/gl3.h>
#include <emscripten/html5.h>

extern "C" void gpusizer_glGetIntegerv(GLenum pname, GLint* data) {
    switch (pname) {
        case GL_VIEWPORT:
        case GL_SCISSOR_BOX: {
            int w = 0, h = 0;  // the canvas's drawing buffer: a property of the context, no round trip
            emscripten_webgl_get_drawing_buffer_size(emscripten_webgl_get_current_context(), &w, &h);
            data[0] = 0, data[1] = 0, data[2] = w, data[3] = h;
            return;
        }
        case GL_BLEND_SRC_RGB:
        case GL_BLEND_SRC_ALPHA: *data = GL_ONE; return;
        case GL_BLEND_DST_RGB:
        case GL_BLEND_DST_ALPHA: *data = GL_ZERO; return;
        case GL_BLEND_EQUATION_RGB:
        case GL_BLEND_EQUATION_ALPHA: *data = GL_FUNC_ADD; return;
        default: glGetIntegerv(pname, data);
    }
}
