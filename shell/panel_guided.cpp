// The guided start: the questions a buyer should answer first, each answer filling in
// scenario keys. Nothing is computed here; the panels show core's answer for the result.
#include <algorithm>
#include <string>

#include "gpusizer/guided.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {
namespace {

// A radio button after the previous one on the same line when it fits (answers flow and wrap,
// so the questions fit a laptop screen); `first` starts a new line.
bool radio(PanelContext& ctx, const char* text, int& value, int v, const std::string& tag, bool first = false) {
    if (!first) {
        const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(text).x;
        ImGui::SameLine(0, ImGui::GetFontSize());
        if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    const bool clicked = ImGui::RadioButton(text, &value, v);
    ctx.tags.tag_item(tag + ":" + std::to_string(v), value == v ? "on" : "");
    return clicked;
}

}  // namespace

// The rules that turn answers into keys are core's (core/include/gpusizer/guided.hpp:
// apply_guided), so every host builds the same scenario.
GuidedAnswers GuidedRadios::answers() const {
    GuidedAnswers a;
    a.task = task;
    a.size = size;
    a.gpus = gpus;
    a.interruptible = interrupt == 0;
    a.where = where;
    a.priority = priority;
    return a;
}

void panel_guided(PanelContext& ctx) {
    GuidedRadios& answers = ctx.ui.guided;
    if (ctx.ui.guided_open) {
        ImGui::OpenPopup("##guided");
        ctx.ui.guided_open = false;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    // A fixed width (answers wrap to it), the height of the content (0: auto-fit), at most the screen.
    ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x * 0.96f, ImGui::GetFontSize() * 46), 0));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->WorkSize.x * 0.96f, vp->WorkSize.y * 0.94f));
    if (!ImGui::BeginPopupModal("##guided", nullptr, ImGuiWindowFlags_NoTitleBar)) return;
    ImGui::TextUnformatted(tr("Five questions, then refine on the page.", "回答五个问题,然后在页面上细调。"));
    ImGui::Separator();
    ImGui::TextUnformatted(tr("What will you do?", "你要做什么?"));
    const char* tasks_en[] = {"Serve (inference)", "LoRA fine-tune", "QLoRA fine-tune", "Full fine-tune", "Pretrain"};
    const char* tasks_zh[] = {"部署推理", "LoRA 微调", "QLoRA 微调", "全参数微调", "预训练"};
    for (int i = 0; i < 5; ++i) radio(ctx, tr(tasks_en[i], tasks_zh[i]), answers.task, i, "guided_task", i == 0);
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("1. How large is the largest model, or what kind is it?", "1. 最大的模型有多大,或是哪一类?"));
    const auto& sizes = guided_sizes();
    bool first = true;
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i)
        if (ctx.catalog.find_model(sizes[static_cast<std::size_t>(i)].preset)) {
            radio(ctx, tr(sizes[static_cast<std::size_t>(i)].en, sizes[static_cast<std::size_t>(i)].zh), answers.size, i, "guided_size", first);
            first = false;
        }
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("2. One GPU or several?", "2. 一块 GPU 还是多块?"));
    radio(ctx, tr("One GPU", "一块 GPU"), answers.gpus, GuidedAnswers::one, "guided_gpus", true);
    radio(ctx, tr("Several, each with a full copy (data parallel: PCIe is fine)", "多块,每块一份完整模型(数据并行:PCIe 即可)"),
          answers.gpus, GuidedAnswers::data_parallel, "guided_gpus");
    radio(ctx, tr("Several, the model split across them (model parallel: needs NVLink)", "多块,模型切分到各块(模型并行:需要 NVLink)"),
          answers.gpus, GuidedAnswers::model_parallel, "guided_gpus");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("3. Can the job be interrupted and resumed?", "3. 作业能否被中断后恢复?"));
    radio(ctx, tr("Yes: it checkpoints (spot / preemptible is fine, often far cheaper)", "可以:会保存检查点(可用抢占式实例,通常便宜很多)"),
          answers.interrupt, 0, "guided_interrupt", true);
    radio(ctx, tr("No: it must run to the end (on-demand only)", "不可以:必须一次跑完(仅按需实例)"), answers.interrupt, 1,
          "guided_interrupt");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("4. Where must it run?", "4. 必须在哪里运行?"));
    radio(ctx, tr("Outside mainland China", "中国大陆以外"), answers.where, GuidedAnswers::abroad, "guided_where", true);
    radio(ctx, tr("Mainland China (H20, A800/H800, RTX 4090D, Ascend; prices in yuan)", "中国大陆(H20、A800/H800、RTX 4090D、昇腾;人民币计价)"),
          answers.where, GuidedAnswers::mainland, "guided_where");
    radio(ctx, tr("Either", "都可以"), answers.where, GuidedAnswers::either, "guided_where");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("5. What matters most?", "5. 最看重什么?"));
    radio(ctx, tr("The whole job's cost", "整个作业的总费用"), answers.priority, GuidedAnswers::total_cost, "guided_rank", true);
    radio(ctx, tr("A low price per hour (learning, experiments)", "每小时价格低(学习、试验)"), answers.priority, GuidedAnswers::hourly,
          "guided_rank");
    radio(ctx, tr("Finishing soonest", "尽快完成"), answers.priority, GuidedAnswers::fastest, "guided_rank");
    ImGui::Separator();
    if (ImGui::Button(tr("Show me what to rent", "告诉我该租什么"))) {
        apply_guided(answers.answers(), ctx.scenario);
        ImGui::CloseCurrentPopup();
    }
    ctx.tags.tag_item("guided_apply");
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel", "取消"))) ImGui::CloseCurrentPopup();
    ctx.tags.tag_item("guided_cancel");
    ImGui::EndPopup();
}

}  // namespace gpusizer::shell
