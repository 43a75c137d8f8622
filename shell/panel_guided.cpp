// The guided start: the questions a buyer should answer first, each answer filling in
// scenario keys. Nothing is computed here; the panels show core's answer for the result.
#include <string>

#include "gpusizer/scenario_limits.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "strings.hpp"

namespace gpusizer::shell {
namespace {

struct SizeChoice {
    const char* preset;  // catalog id
    const char *en, *zh;
};
// The largest model of the job, as catalog presets of typical sizes (dense, then the big MoE).
const SizeChoice k_sizes[] = {
    {"llama-3.2-3b", "up to 3B (Llama 3.2 3B)", "30 亿以内(Llama 3.2 3B)"},
    {"llama-3.1-8b", "about 8B (Llama 3.1 8B)", "约 80 亿(Llama 3.1 8B)"},
    {"qwen3-14b", "about 14B (Qwen3 14B)", "约 140 亿(Qwen3 14B)"},
    {"qwen3-32b", "about 32B (Qwen3 32B)", "约 320 亿(Qwen3 32B)"},
    {"llama-3.1-70b", "about 70B (Llama 3.1 70B)", "约 700 亿(Llama 3.1 70B)"},
    {"llama-3.1-405b", "about 405B (Llama 3.1 405B)", "约 4050 亿(Llama 3.1 405B)"},
    {"deepseek-v3", "671B MoE (DeepSeek-V3)", "6710 亿 MoE(DeepSeek-V3)"},
};

struct Answers {
    int task = 0;      // serve, LoRA, QLoRA, full fine-tune, pretrain
    int size = 1;      // k_sizes
    int gpus = 0;      // one, several with a copy each, several splitting the model
    int interrupt = 0; // yes (spot allowed), no (on-demand only)
    int where = 0;     // abroad, mainland China, either
};

bool radio(PanelContext& ctx, const char* text, int& value, int v, const std::string& tag) {
    const bool clicked = ImGui::RadioButton(text, &value, v);
    ctx.tags.tag_item(tag + ":" + std::to_string(v));
    return clicked;
}

// The answers set these keys; they are the user's choices even where a value stays the same.
constexpr Key k_answered[] = {Key::task, Key::model, Key::gpu, Key::gpu_memory_gib, Key::num_gpus, Key::tensor_parallel,
                              Key::pipeline_parallel, Key::expert_parallel, Key::zero_stage, Key::spot, Key::region,
                              Key::currency, Key::providers};

void apply(const Answers& a, Scenario& s) {
    static const Task tasks[] = {Task::inference, Task::lora, Task::qlora, Task::full_ft, Task::pretrain};
    s.task = tasks[a.task];
    s.source = ModelSource::preset;
    s.model = k_sizes[a.size].preset;
    s.gpu.clear();
    s.gpu_memory_gib.reset();
    s.pipeline_parallel = 1;
    s.expert_parallel = 1;
    if (a.gpus == 0) {
        s.num_gpus = 1;
        s.tensor_parallel = 1;
    } else if (a.gpus == 1) {  // data parallel: a full copy per GPU, PCIe is fine
        s.num_gpus = 8;
        s.tensor_parallel = 1;
    } else {  // model parallel inside one 8-GPU NVLink/NVSwitch server
        s.num_gpus = 8;
        s.tensor_parallel = 8;
    }
    s.zero_stage = s.task == Task::inference ? 0 : (a.gpus == 1 && (s.task == Task::full_ft || s.task == Task::pretrain) ? 3 : 0);
    s.spot = a.interrupt == 0 ? SpotPolicy::allow : SpotPolicy::never;
    s.region = a.where == 0 ? Region::global : a.where == 1 ? Region::cn_mainland : Region::any;
    s.currency = a.where == 1 ? Currency::CNY : Currency::USD;
    s.providers.clear();
}

}  // namespace

void panel_guided(PanelContext& ctx) {
    static Answers answers;
    if (ctx.ui.guided_open) {
        ImGui::OpenPopup("##guided");
        ctx.ui.guided_open = false;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->WorkSize.x * 0.96f, vp->WorkSize.y * 0.94f));
    if (!ImGui::BeginPopupModal("##guided", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(tr("Four questions, then refine on the page.", "回答四个问题,然后在页面上细调。"));
    ImGui::Separator();
    ImGui::TextUnformatted(tr("What will you do?", "你要做什么?"));
    const char* tasks_en[] = {"Serve (inference)", "LoRA fine-tune", "QLoRA fine-tune", "Full fine-tune", "Pretrain"};
    const char* tasks_zh[] = {"部署推理", "LoRA 微调", "QLoRA 微调", "全参数微调", "预训练"};
    for (int i = 0; i < 5; ++i) {
        radio(ctx, tr(tasks_en[i], tasks_zh[i]), answers.task, i, "guided_task");
        if (i % 3 != 2 && i != 4) ImGui::SameLine();
    }
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("1. How large is the largest model?", "1. 最大的模型有多大?"));
    for (int i = 0; i < static_cast<int>(sizeof k_sizes / sizeof k_sizes[0]); ++i)
        if (ctx.catalog.find_model(k_sizes[i].preset)) radio(ctx, tr(k_sizes[i].en, k_sizes[i].zh), answers.size, i, "guided_size");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("2. One GPU or several?", "2. 一块 GPU 还是多块?"));
    radio(ctx, tr("One GPU", "一块 GPU"), answers.gpus, 0, "guided_gpus");
    radio(ctx, tr("Several, each with a full copy (data parallel: PCIe is fine)", "多块,每块一份完整模型(数据并行:PCIe 即可)"),
          answers.gpus, 1, "guided_gpus");
    radio(ctx, tr("Several, the model split across them (model parallel: needs NVLink)", "多块,模型切分到各块(模型并行:需要 NVLink)"),
          answers.gpus, 2, "guided_gpus");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("3. Can the job be interrupted and resumed?", "3. 作业能否被中断后恢复?"));
    radio(ctx, tr("Yes: it checkpoints (spot / preemptible is fine, often far cheaper)", "可以:会保存检查点(可用抢占式实例,通常便宜很多)"),
          answers.interrupt, 0, "guided_interrupt");
    radio(ctx, tr("No: it must run to the end (on-demand only)", "不可以:必须一次跑完(仅按需实例)"), answers.interrupt, 1,
          "guided_interrupt");
    ImGui::Spacing();
    ImGui::TextUnformatted(tr("4. Where must it run?", "4. 必须在哪里运行?"));
    radio(ctx, tr("Outside mainland China", "中国大陆以外"), answers.where, 0, "guided_where");
    radio(ctx, tr("Mainland China (H20, A800/H800, RTX 4090D, Ascend; prices in yuan)", "中国大陆(H20、A800/H800、RTX 4090D、昇腾;人民币计价)"),
          answers.where, 1, "guided_where");
    radio(ctx, tr("Either", "都可以"), answers.where, 2, "guided_where");
    ImGui::Separator();
    if (ImGui::Button(tr("Show me what to rent", "告诉我该租什么"))) {
        apply(answers, ctx.scenario);
        for (Key k : k_answered) ctx.ui.chosen.set(static_cast<std::size_t>(k));
        ImGui::CloseCurrentPopup();
    }
    ctx.tags.tag_item("guided_apply");
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel", "取消"))) ImGui::CloseCurrentPopup();
    ctx.tags.tag_item("guided_cancel");
    ImGui::EndPopup();
}

}  // namespace gpusizer::shell
