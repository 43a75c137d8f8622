#include "memory_bar.hpp"

#include "gpusizer/units.hpp"
#include "labels.hpp"
#include "strings.hpp"
#include "style.hpp"

namespace gpusizer::shell {

// Mid-tone hues that read on both themes (each term is also named in the legend and tooltip).
const MemoryTerm k_memory_terms[6] = {
    {"weights", &MemoryBreakdown::weights, IM_COL32(66, 133, 244, 255)},
    {"gradients", &MemoryBreakdown::gradients, IM_COL32(234, 67, 53, 255)},
    {"optimizer", &MemoryBreakdown::optimizer, IM_COL32(251, 188, 5, 255)},
    {"activations", &MemoryBreakdown::activations, IM_COL32(52, 168, 83, 255)},
    {"kv_cache", &MemoryBreakdown::kv_cache, IM_COL32(171, 71, 188, 255)},
    {"overhead", &MemoryBreakdown::overhead, IM_COL32(120, 144, 156, 255)},
};

void memory_bar(const MemoryBreakdown& m, std::uint64_t capacity, double scale_bytes, float height) {
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float r = height * 0.25f;
    dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), ImGui::GetColorU32(palette().raised), r);
    float x = p0.x;
    for (const MemoryTerm& t : k_memory_terms) {
        const float w = static_cast<float>(static_cast<double>(m.*t.bytes) / scale_bytes * width);
        if (w <= 0) continue;
        dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + w, p0.y + height), t.colour);
        x += w;
    }
    if (capacity) {
        const float cx = p0.x + static_cast<float>(static_cast<double>(capacity) / scale_bytes * width);
        dl->AddLine(ImVec2(cx, p0.y - 3), ImVec2(cx, p0.y + height + 3), ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    }
    ImGui::Dummy(ImVec2(width, height));
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        for (const MemoryTerm& t : k_memory_terms)
            if (m.*t.bytes) ImGui::Text("%s: %s", memory_term_label(t.key), format_gib(m.*t.bytes).c_str());
        ImGui::Text("%s: %s", memory_term_label("total"), format_gib(m.total).c_str());
        if (capacity) ImGui::Text("%s: %s", tr("GPU memory", "GPU 显存"), format_gib(capacity).c_str());
        ImGui::EndTooltip();
    }
}

}  // namespace gpusizer::shell
