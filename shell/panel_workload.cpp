// The workload panel: what the job is. Every widget edits one scenario key within core's
// limits; keys that default from others follow them as in the CLI and the link decoder.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpusizer/units.hpp"
#include "format.hpp"
#include "gpusizer/model.hpp"
#include "imgui.h"
#include "gpusizer/estimate.hpp"
#include "gpusizer/memory.hpp"
#include "labels.hpp"
#include "panels.hpp"
#include "strings.hpp"
#include "widgets.hpp"

namespace gpusizer::shell {
namespace {

constexpr std::size_t k_max_paste_bytes = 256 * 1024;  // a config.json is a few kB; the biggest seen ~30 kB


// [SECTION] Model picker
std::string preset_text(const PresetInfo& p) {
    std::string s = p.name;
    if (p.total) {
        s += "  \u00b7  " + format_billions(p.total);
        if (p.active && p.active != p.total) s += std::string(" / ") + format_billions(p.active) + tr(" active", " 激活");
    }
    return s;
}

bool contains_ci(const std::string& hay, const char* needle) {
    if (!*needle) return true;
    auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
    const std::size_t n = std::strlen(needle);
    for (std::size_t i = 0; i + n <= hay.size(); ++i) {
        std::size_t k = 0;
        while (k < n && lower(hay[i + k]) == lower(needle[k])) ++k;
        if (k == n) return true;
    }
    return false;
}

void model_picker(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    char* filter = ctx.ui.model_filter;
    std::string preview;
    if (s.source == ModelSource::preset) {
        const ModelPreset* m = ctx.catalog.find_model(s.model);
        preview = m ? m->name : s.model;
    } else if (s.source == ModelSource::params_b) {
        preview = format_value(s.params_b) + tr(" B parameters (inferred shape)", " B 参数(推断结构)");
    } else {
        preview = tr("pasted config.json: ", "粘贴的 config.json:") + s.hf_config.model_type;
    }
    const std::string value = s.source == ModelSource::preset ? s.model : s.source == ModelSource::params_b ? "__params_b" : "__hf_config";
    if (!combo_begin(ctx, "model", preview.c_str(), value.c_str())) return;
    if (ImGui::IsWindowAppearing()) {
        filter[0] = '\0';
        ImGui::SetKeyboardFocusHere();
    }
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::InputTextWithHint("##filter", tr("search models", "搜索模型"), filter, sizeof ctx.ui.model_filter);
    ctx.tags.tag_item("model_filter");
    if (combo_item(ctx, "model", "__params_b", tr("A bare size in billions of parameters...", "仅输入参数量(十亿)……"),
                   s.source == ModelSource::params_b)) {
        if (s.source != ModelSource::params_b) {
            s.source = ModelSource::params_b;
            if (!(s.params_b > 0)) s.params_b = 7;
        }
    }
    if (combo_item(ctx, "model", "__paste", tr("Paste a config.json...", "粘贴 config.json……"), false)) ctx.ui.paste_open = true;
    if (!ctx.presets) ctx.presets = preset_infos(ctx.catalog);  // first opened: every preset's size
    std::string last_family = "\x01";
    for (const PresetInfo& p : *ctx.presets) {
        const std::string text = preset_text(p);
        if (!contains_ci(text, filter) && !contains_ci(p.id, filter) && !contains_ci(p.family, filter)) continue;
        if (p.family != last_family) {
            last_family = p.family;
            ImGui::TextDisabled("%s", p.family.empty() ? tr("Other", "其他") : p.family.c_str());
        }
        ImGui::Indent();
        if (combo_item(ctx, "model", p.id, text.c_str(), s.source == ModelSource::preset && s.model == p.id)) {
            s.source = ModelSource::preset;
            s.model = p.id;
        }
        ImGui::Unindent();
    }
    ImGui::EndCombo();
}

void paste_config_modal(PanelContext& ctx) {
    std::vector<char>& buffer = ctx.ui.paste_buffer;
    if (ctx.ui.paste_open) {
        ImGui::OpenPopup("##paste_config");
        ctx.ui.paste_open = false;
        buffer.assign(k_max_paste_bytes + 1, '\0');
        ctx.ui.paste_error.clear();
    }
    const ImVec2 size(std::min(ImGui::GetMainViewport()->WorkSize.x * 0.95f, ImGui::GetFontSize() * 40),
                      ImGui::GetFontSize() * 22);
    ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("##paste_config", nullptr, ImGuiWindowFlags_NoTitleBar)) return;
    ImGui::TextWrapped("%s", tr("Paste the config.json of a Hugging Face model (Ctrl+V). Only its architecture "
                                "fields are kept; they travel in the share link.",
                                "粘贴 Hugging Face 模型的 config.json(Ctrl+V)。只保留结构字段,并随分享链接一起发送。"));
    ImGui::InputTextMultiline("##config_text", buffer.data(), buffer.size(),
                              ImVec2(-FLT_MIN, ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 2.5f));
    ctx.tags.tag_item("paste_text", std::to_string(std::strlen(buffer.data())));  // bytes in the box
    if (!ctx.ui.paste_error.empty()) {
        ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.3f, 1), "%s", ctx.ui.paste_error.c_str());
        ctx.tags.tag_item("paste_error", ctx.ui.paste_error);
    }
    if (ImGui::Button(tr("Use this config", "使用此配置"))) {
        const std::string_view text(buffer.data(), std::strlen(buffer.data()));
        Result<ModelArch> a = parse_hf_config(text);
        if (a.ok()) {
            ctx.scenario.source = ModelSource::hf_config;
            ctx.scenario.hf_config = *a;
            ImGui::CloseCurrentPopup();
        } else {
            ctx.ui.paste_error = format_error(a.error);
        }
    }
    ctx.tags.tag_item("paste_use");
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel", "取消"))) ImGui::CloseCurrentPopup();
    ctx.tags.tag_item("paste_cancel");
    ImGui::EndPopup();
}

// [SECTION] GPU picker (grouped by vendor, memory shown)
void gpu_picker(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    const Accelerator* current = s.gpu.empty() ? nullptr : ctx.catalog.find_accelerator(s.gpu);
    std::string preview = current ? current->name : (s.gpu.empty() ? tr("none (planner picks)", "不指定(由规划器选择)") : s.gpu);
    if (!combo_begin(ctx, "gpu", preview.c_str(), s.gpu.empty() ? "__none" : s.gpu.c_str())) return;
    if (combo_item(ctx, "gpu", "__none", tr("none (planner picks)", "不指定(由规划器选择)"), s.gpu.empty())) s.gpu.clear();
    std::vector<std::string> vendors;
    for (const Accelerator& a : ctx.catalog.accelerators)
        if (std::find(vendors.begin(), vendors.end(), a.vendor) == vendors.end()) vendors.push_back(a.vendor);
    for (const std::string& v : vendors) {
        ImGui::TextDisabled("%s", v.c_str());
        ImGui::Indent();
        for (const Accelerator& a : ctx.catalog.accelerators) {
            if (a.vendor != v) continue;
            char text[160];
            std::snprintf(text, sizeof text, "%s  \u00b7  %s GB", a.name.c_str(), format_value(a.memory_gb).c_str());
            if (combo_item(ctx, "gpu", a.id, text, s.gpu == a.id)) s.gpu = a.id;
        }
        ImGui::Unindent();
    }
    ImGui::EndCombo();
}

// [SECTION] Sections

// The model's kind (ModelArch::kind): "" for a transformer over tokens; cnn · vit · unet · dit · whisper
// count images, denoising steps and audio instead (docs/other-kinds.md), so their token widgets hide.
std::string model_kind(const PanelContext& ctx) {
    const Result<ModelArch> a = resolve_model(ctx.catalog, ctx.scenario);
    return a.ok() ? a->kind : std::string();
}
bool is_diffusion(const std::string& kind) { return kind == "unet" || kind == "dit"; }

// Vision and diffusion: the image side; diffusion serving: the denoising steps. Whisper has none.
void kind_shape(PanelContext& ctx, const std::string& kind) {
    Scenario& s = ctx.scenario;
    if (kind == "whisper") return;
    form_row(tr("Image size (px)", "图像尺寸(像素)"),
             tr("Pixels per side. Off: the model's own resolution.", "每边的像素数。关闭时使用模型自身的分辨率。"));
    optional_int(ctx, "image_size", s.image_size, k_limit_image_size, is_diffusion(kind) ? 1024 : 224, tr("the model's own", "模型自身"));
    if (is_diffusion(kind) && !is_training(s.task)) {
        form_row(tr("Denoising steps", "去噪步数"),
                 tr("Steps per image. Off: the pipeline's default (50 for Stable Diffusion, 28 for FLUX).",
                    "每张图像的步数。关闭时使用管线默认值(Stable Diffusion 50,FLUX 28)。"));
        optional_int(ctx, "steps", s.steps, k_limit_steps, 30, tr("pipeline default", "管线默认值"));
    }
}

// How much work the job is, in the kind's units: images × epochs, or hours of audio.
void kind_amount(PanelContext& ctx, const std::string& kind) {
    Scenario& s = ctx.scenario;
    const bool train = is_training(s.task);
    if (kind == "whisper") {
        form_row(tr("Audio (hours)", "音频(小时)"),
                 train ? tr("Hours of audio in the training set: gives the time and the total cost.", "训练集中的音频小时数:用于估算时间和总费用。")
                       : tr("Hours of audio to transcribe: gives the time and the total cost.", "待转写的音频小时数:用于估算时间和总费用。"));
        optional_real(ctx, "audio_seconds", s.audio_seconds, k_limit_audio_seconds, 3600, 1.0 / 3600, "%.4g");
    } else {
        form_row(train ? tr("Training images", "训练图像数") : tr("Images to process", "待处理图像数"),
                 tr("Gives the time and the total cost.", "用于估算时间和总费用。"));
        optional_real(ctx, "train_images", s.train_images, k_limit_train_images, 1e6, 1.0, "%.6g");
    }
    if (train) {
        form_row(tr("Epochs", "轮数"), tr("Passes over the training set.", "遍历训练集的轮数。"));
        int_stepper(ctx, "kind_epochs", s.epochs, k_limit_epochs, 1, false);
    }
}

void section_model(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    if (!form_begin("##model_form")) return;
    form_row(tr("Task", "任务"));
    enum_combo(ctx, "task", s.task, [](Task v) { return label(v); });  // App re-derives what follows (apply_edit)
    form_row(tr("Model", "模型"), tr("A preset from the catalog (parameter counts from its config.json), a bare size, "
                                    "or a pasted config.json.",
                                    "目录中的预设(参数量由其 config.json 计算)、仅参数量,或粘贴的 config.json。"));
    model_picker(ctx);
    if (s.source == ModelSource::params_b) {
        form_row(tr("Size (billions)", "参数量(十亿)"),
                 tr("A plausible dense Llama-like shape is inferred from the size; a config.json is exact.",
                    "按参数量推断一个类似 Llama 的稠密结构;使用 config.json 更准确。"));
        real_input(ctx, "params_b", s.params_b, k_limit_params_b, 1.0, "%.3g");
    }
    form_row(tr("Weights", "权重精度"), tr("Storage precision of the weights; quantized formats include their scales "
                                           "and the tensors kept in 16 bit.",
                                           "权重的存储精度;量化格式已计入缩放因子和保持 16 位的张量。"));
    enum_combo(ctx, "dtype", s.weight_dtype, [](WeightDtype v) { return label(v); });
    if (!is_training(s.task) && model_kind(ctx).empty()) {
        form_row(tr("KV cache", "KV 缓存"));
        enum_combo(ctx, "kv", s.kv_cache_dtype, [](KvDtype v) { return label(v); });
    }
    form_end();
    paste_config_modal(ctx);
}

void section_shape(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    if (!form_begin("##shape_form")) return;
    if (const std::string kind = model_kind(ctx); !kind.empty()) {
        form_row(kind == "whisper" ? tr("Windows per batch", "每批音频段数") : tr("Images per batch", "每批图像数"),
                 kind == "whisper" ? tr("30 s audio windows processed at once on each GPU.", "每块 GPU 同时处理的 30 秒音频段数。")
                                   : tr("Images processed at once on each GPU.", "每块 GPU 同时处理的图像数。"));
        int_stepper(ctx, "batch", s.batch_size, k_limit_batch_size, 2, true);
        kind_shape(ctx, kind);
        form_end();
        return;
    }
    // "Micro-batch / GPU": with its (?) it fits the label column of the 1280 px layout.
    form_row(is_training(s.task) ? tr("Micro-batch / GPU", "每 GPU 微批大小") : tr("Concurrent sequences", "并发序列数"),
             is_training(s.task) ? tr("Sequences each model replica processes at once: the micro-batch, before gradient accumulation.",
                                      "每个模型副本一次处理的序列数:即梯度累积之前的微批。")
                                 : tr("Sequences processed at once on each model replica.", "每个模型副本同时处理的序列数。"));
    int_stepper(ctx, "batch", s.batch_size, k_limit_batch_size, 2, true);
    const bool split = s.prompt_tokens.has_value() || s.output_tokens.has_value();
    if (!is_training(s.task)) {
        form_row(tr("Prompt + output", "输入 + 输出"), tr("Give the prompt and output lengths instead of one sequence length.",
                                                       "分别给出输入和输出长度,代替单一序列长度。"));
        bool on = split;
        if (checkbox(ctx, "split", on)) {
            if (on) {
                s.prompt_tokens = s.seq_len;
                s.output_tokens = 512;
            } else {
                s.prompt_tokens.reset();
                s.output_tokens.reset();
            }
        }
    }
    if (!is_training(s.task) && (s.prompt_tokens || s.output_tokens)) {
        std::int64_t prompt = s.prompt_tokens.value_or(0), output = s.output_tokens.value_or(0);
        form_row(tr("Prompt tokens", "输入 token 数"));
        const bool a = int_stepper(ctx, "prompt", prompt, k_limit_tokens, 2, true);
        form_row(tr("Output tokens", "输出 token 数"));
        const bool b = int_stepper(ctx, "output", output, k_limit_tokens, 2, true);
        if (a || b) {
            s.prompt_tokens = prompt;
            s.output_tokens = output;
            if (prompt + output < 1) s.output_tokens = 1;
        }
    } else {
        form_row(tr("Sequence length", "序列长度"), tr("Tokens per sequence (context length).", "每条序列的 token 数(上下文长度)。"));
        int_stepper(ctx, "seq", s.seq_len, k_limit_seq_len, 2, true);
    }
    form_end();
}

// Vision, diffusion and speech training: the keys their model reads (docs/other-kinds.md).
void kind_training(PanelContext& ctx, const std::string& kind) {
    Scenario& s = ctx.scenario;
    form_row(tr("Optimizer", "优化器"));
    enum_combo(ctx, "optimizer", s.optimizer, [](Optimizer v) { return label(v); });
    if (!is_lora(s.task)) {
        form_row(tr("fp32 weights (mixed precision)", "fp32 权重(混合精度)"),
                 tr("torch.autocast over fp32 weights and gradients, as vision and diffusion training scripts run.",
                    "在 fp32 权重和梯度上使用 torch.autocast,视觉和扩散训练脚本均如此。"));
        checkbox(ctx, "master", s.master_weights);
    }
    form_row(tr("Checkpointing", "激活重计算"));
    enum_combo(ctx, "checkpointing", s.activation_checkpointing, [](Checkpointing v) { return label(v); });
    if (is_lora(s.task)) {
        form_row(tr("LoRA rank", "LoRA 秩"), tr("Adapters on the attention projections (to_q, to_k, to_v, to_out).",
                                                "适配器加在注意力投影上(to_q、to_k、to_v、to_out)。"));
        int_stepper(ctx, "rank", s.lora_rank, k_limit_lora_rank, 2, true);
    }
    kind_amount(ctx, kind);
}

void section_training(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    if (!form_begin("##training_form")) return;
    if (const std::string kind = model_kind(ctx); !kind.empty()) {
        kind_training(ctx, kind);
        form_end();
        return;
    }
    form_row(tr("Framework", "训练框架"),
             tr("What the training stack does to memory, from its own code: HF/PEFT keeps fp32 adapters and the whole "
                "fp32 loss; torchtune trains pure bf16 with a chunked loss, checkpointing on and (full fine-tuning) an "
                "8-bit optimizer stepped in backward; Unsloth fuses the loss and LoRA kernels and offloads checkpoints; "
                "Megatron keeps fp32 main gradients and an in-place loss. Choosing one sets its defaults below.",
                "训练框架按其代码对显存的影响:HF/PEFT 使用 fp32 适配器和完整 fp32 损失;torchtune 纯 bf16 训练、分块损失、"
                "默认重计算,全参数微调用 8 位优化器并在反向中更新;Unsloth 融合损失和 LoRA 内核并把检查点卸载到内存;"
                "Megatron 保留 fp32 主梯度并原地计算损失。选择后下方各项取该框架的默认值。"));
    enum_combo(ctx, "framework", s.framework, [](Framework v) { return label(v); });
    form_row(tr("Loss", "损失计算"),
             tr("How the cross-entropy over the vocabulary is computed: full logits with an fp32 copy (HF, "
                "12-14 bytes per logit), chunked (torchtune: the fp32 log-softmax plus one of 8 chunks), or fused "
                "linear cross-entropy (Liger, Cut Cross-Entropy, Unsloth: no logits tensor).",
                "词表交叉熵的计算方式:完整 logits 加 fp32 副本(HF,每个 logit 12-14 字节);分块(torchtune:fp32 "
                "log-softmax 加 8 块之一);或融合线性交叉熵(Liger、Cut Cross-Entropy、Unsloth:不生成 logits 张量)。"));
    enum_combo(ctx, "loss", s.loss_impl, [](LossImpl v) { return label(v); });
    form_row(tr("Optimizer", "优化器"));
    enum_combo(ctx, "optimizer", s.optimizer, [](Optimizer v) { return label(v); });
    if (!is_lora(s.task)) {
        form_row(tr("fp32 master weights", "fp32 主权重"),
                 tr("Mixed precision keeps an fp32 copy of the weights for the optimizer (4 bytes per parameter).",
                    "混合精度训练为优化器保留一份 fp32 权重副本(每参数 4 字节)。"));
        checkbox(ctx, "master", s.master_weights);
    }
    form_row(tr("Checkpointing", "激活重计算"), tr("Recompute activations in the backward pass instead of keeping them: "
                                               "less memory, about 20-33% more compute.",
                                               "反向传播时重新计算激活值而不保存:显存更少,计算量增加约 20-33%。"));
    enum_combo(ctx, "checkpointing", s.activation_checkpointing, [](Checkpointing v) { return label(v); });
    form_row(tr("Attention", "注意力实现"));
    enum_combo(ctx, "attention", s.attention, [](Attention v) { return label(v); });
    form_row(tr("Dropout", "Dropout"));
    checkbox(ctx, "dropout", s.dropout);
    form_row(tr("Optimizer in backward", "反向中更新参数"),
             tr("Apply the optimizer step per parameter during the backward pass, so full gradients are never held.",
                "在反向传播中逐参数执行优化器更新,不保留完整梯度。"));
    checkbox(ctx, "oib", s.optimizer_in_backward);
    if (is_lora(s.task)) {
        form_row(tr("LoRA rank", "LoRA 秩"));
        int_stepper(ctx, "rank", s.lora_rank, k_limit_lora_rank, 2, true);
        form_row(tr("LoRA targets", "LoRA 目标模块"));
        LoraTargets t = s.lora_targets;
        if (combo_begin(ctx, "targets", label(t), to_string(t))) {
            for (LoraTargets v : {LoraTargets::qv, LoraTargets::attention, LoraTargets::all_linear})
                if (combo_item(ctx, "targets", to_string(v), label(v), v == t)) s.lora_targets = v;
            ImGui::EndCombo();
        }
    }
    form_row(tr("ZeRO / FSDP stage", "ZeRO / FSDP 阶段"),
             tr("Shard optimizer states (1), plus gradients (2), plus parameters (3) across data-parallel GPUs.",
                "在数据并行 GPU 间切分优化器状态(1)、再加梯度(2)、再加参数(3)。"));
    {
        static const char* names[] = {"0", "1", "2", "3"};
        static const char* texts_en[] = {"0 (none: DDP)", "1 (optimizer)", "2 (+ gradients)", "3 (+ parameters: FSDP)"};
        static const char* texts_zh[] = {"0(不切分:DDP)", "1(优化器)", "2(+ 梯度)", "3(+ 参数:FSDP)"};
        auto text = [](int z) { return tr(texts_en[z], texts_zh[z]); };
        if (combo_begin(ctx, "zero", text(s.zero_stage), names[s.zero_stage])) {
            for (int z = 0; z <= 3; ++z)
                if (combo_item(ctx, "zero", names[z], text(z), z == s.zero_stage)) s.zero_stage = z;
            ImGui::EndCombo();
        }
    }
    form_row(tr("CPU offload", "CPU 卸载"));
    enum_combo(ctx, "offload", s.offload, [](Offload v) { return label(v); });
    form_row(tr("Tokens to train (billions)", "训练 token 数(十亿)"),
             tr("Dataset tokens × epochs. Gives the time and the total cost.", "数据集 token 数 × 轮数。用于估算时间和总费用。"));
    optional_real(ctx, "train_tokens", s.train_tokens, k_limit_train_tokens, 1e9, 1e-9, "%.4g");
    if (s.train_tokens) {
        // The same number as dataset × epochs: either side can be edited (the link keeps the product).
        std::int64_t& epochs = ctx.ui.epochs;
        double dataset = *s.train_tokens / static_cast<double>(epochs);
        form_row(tr("  = dataset (billions)", "  = 数据集(十亿)"), tr("Tokens in the dataset, once.", "数据集的 token 数(一遍)。"));
        bool changed = real_input(ctx, "dataset", dataset, k_limit_train_tokens, 1e-9, "%.4g");
        form_row(tr("  \u00d7 epochs", "  \u00d7 轮数"), tr("Passes over the dataset.", "遍历数据集的轮数。"));
        changed = int_stepper(ctx, "epochs", epochs, IntLimit{1, 1000}, 1, false) || changed;
        if (changed)
            s.train_tokens = std::clamp(dataset * static_cast<double>(epochs), k_limit_train_tokens.lo, k_limit_train_tokens.hi);
    }
    form_end();
}

void section_serving(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    if (!form_begin("##serving_form")) return;
    if (const std::string kind = model_kind(ctx); !kind.empty()) {
        kind_amount(ctx, kind);
        form_end();
        return;
    }
    form_row(tr("Engine", "推理引擎"), tr("How the engine allocates memory: vLLM pre-allocates its KV cache from the "
                                          "memory utilisation; llama.cpp adds a compute buffer.",
                                          "引擎的显存分配方式:vLLM 按显存利用率预分配 KV 缓存;llama.cpp 另有计算缓冲区。"));
    enum_combo(ctx, "engine", s.engine, [](Engine v) { return label(v); });
    if (s.engine == Engine::vllm) {
        form_row(tr("GPU memory utilisation", "显存利用率"),
                 tr("vLLM's --gpu-memory-utilization: the share of GPU memory it takes; the KV cache gets what is "
                    "left after weights, activations and overheads.",
                    "vLLM 的 --gpu-memory-utilization:它占用的显存比例;KV 缓存得到扣除权重、激活值和额外开销后剩余的部分。"));
        float u = static_cast<float>(s.gpu_memory_utilization);
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::SliderFloat("##util", &u, 0.5f, 0.98f, "%.2f")) s.gpu_memory_utilization = std::round(u * 100.0f) / 100.0;
        ctx.tags.tag_item("util_slider", format_value(s.gpu_memory_utilization));
        form_row(tr("vLLM version", "vLLM 版本"),
                 tr("V1 profiles max_num_batched_tokens with chunked prefill; V0 profiles a whole max_model_len batch "
                    "(no chunked prefill by default), which leaves less memory for the KV cache.",
                    "V1 以分块预填充按 max_num_batched_tokens 做显存探测;V0 默认不分块,按整段 max_model_len 探测,KV 缓存所得更少。"));
        enum_combo(ctx, "engine_version", s.engine_version, [](EngineVersion v) { return label(v); });
        // The defaults vLLM takes on this GPU, shown while the knobs are not set (core's vllm_knobs).
        const Accelerator* acc = s.gpu.empty() ? nullptr : ctx.catalog.find_accelerator(s.gpu);
        const double gpu_bytes = s.gpu_memory_gib ? *s.gpu_memory_gib * k_bytes_per_gib
                                                  : acc ? static_cast<double>(acc->memory_bytes) : 0.0;
        const VllmKnobs k = vllm_knobs(s, gpu_bytes);
        char tokens_default[48], seqs_default[48];
        std::snprintf(tokens_default, sizeof tokens_default, "%s %lld", tr("default", "默认"),
                      static_cast<long long>(k.max_num_batched_tokens));
        std::snprintf(seqs_default, sizeof seqs_default, "%s %lld", tr("default", "默认"), static_cast<long long>(k.max_num_seqs));
        form_row(tr("max_num_batched_tokens", "max_num_batched_tokens"),
                 tr("Tokens of vLLM's profile run: the activation peak it reserves before the KV cache. Default per "
                    "version and GPU: V1 8192 on ≥ 70 GiB GPUs (not A100), else 2048; V0 max(max_model_len, 2048).",
                    "vLLM 显存探测运行的 token 数:在 KV 缓存之前预留的激活峰值。默认随版本和 GPU:V1 在 ≥ 70 GiB 的 GPU(A100 "
                    "除外)为 8192,否则 2048;V0 为 max(max_model_len, 2048)。"));
        optional_int(ctx, "mbt", s.max_num_batched_tokens, k_limit_seq_len, k.max_num_batched_tokens, tokens_default);
        form_row(tr("max_num_seqs", "max_num_seqs"),
                 tr("Sequences vLLM batches at most; its sampler is profiled for this many rows of fp32 logits.",
                    "vLLM 最多同时批处理的序列数;采样器按这么多行 fp32 logits 做显存探测。"));
        optional_int(ctx, "mns", s.max_num_seqs, k_limit_batch_size, k.max_num_seqs, seqs_default);
        form_row(tr("enforce_eager", "enforce_eager"),
                 tr("No CUDA graphs: saves their memory (0.2-2.5 GiB in vLLM logs), decodes slower.",
                    "不使用 CUDA 图:省下其显存(vLLM 日志中 0.2-2.5 GiB),解码更慢。"));
        checkbox(ctx, "eager", s.enforce_eager);
    }
    if (s.engine == Engine::llama_cpp) {
        form_row(tr("GPU layers (-ngl)", "GPU 层数(-ngl)"),
                 tr("llama.cpp's -ngl: the last n layers (and their KV cache) on the GPU, the rest in host memory; "
                    "the output layer moves to the GPU when n is above the layer count.",
                    "llama.cpp 的 -ngl:最后 n 层(及其 KV 缓存)放在 GPU 上,其余在主机内存;n 大于层数时输出层也放到 GPU。"));
        optional_int(ctx, "ngl", s.gpu_layers, k_limit_gpu_layers, 16, tr("every layer", "全部层"));
    }
    form_row(tr("Tokens to serve (billions)", "服务 token 数(十亿)"),
             tr("Generated tokens to price: gives hours and total cost.", "要计价的生成 token 数:用于估算时长和总费用。"));
    optional_real(ctx, "train_tokens", s.train_tokens, k_limit_train_tokens, 1e9, 1e-9, "%.4g");
    form_end();
}

void section_gpus(PanelContext& ctx) {
    Scenario& s = ctx.scenario;
    if (!form_begin("##gpu_form")) return;
    form_row(tr("GPU", "GPU"), tr("A GPU to check the fit, capacity and speed against. Offers below cover every GPU.",
                                  "用于检查能否装下、容量和速度的 GPU。下方的方案涵盖所有 GPU。"));
    gpu_picker(ctx);
    form_row(tr("Custom memory (GiB)", "自定义显存(GiB)"));
    optional_real(ctx, "gpu_memory", s.gpu_memory_gib, k_limit_gpu_memory_gib, 24, 1.0, "%.4g");
    form_row(tr("GPUs", "GPU 数量"), tr("GPUs of the job: tensor × pipeline × data parallel.", "作业使用的 GPU 总数:张量 × 流水线 × 数据并行。"));
    const std::int64_t mp = s.tensor_parallel * s.pipeline_parallel;
    std::int64_t replicas = s.num_gpus / std::max<std::int64_t>(mp, 1);
    if (int_stepper(ctx, "gpus", replicas, IntLimit{1, k_limit_num_gpus.hi / std::max<std::int64_t>(mp, 1)}, 2, true))
        s.num_gpus = replicas * mp;  // stays a multiple of tp × pp
    ImGui::TextDisabled("%s %lld", tr("total GPUs:", "GPU 总数:"), static_cast<long long>(s.num_gpus));
    form_end();
    if (!ImGui::TreeNodeEx(tr("Model parallelism (advanced)", "模型并行(高级)"), ImGuiTreeNodeFlags_None)) {
        ctx.tags.tag_item("parallel_open");
        return;
    }
    ctx.tags.tag_item("parallel_open");
    if (form_begin("##parallel_form")) {
        auto parallel = [&](const char* lbl, const char* help, const char* tag, std::int64_t& v) {
            form_row(lbl, help);
            // Keep num_gpus a multiple of tp × pp: the number of replicas stays.
            const std::int64_t replicas = s.num_gpus / std::max<std::int64_t>(s.tensor_parallel * s.pipeline_parallel, 1);
            if (int_stepper(ctx, tag, v, k_limit_parallel, 2, true))
                s.num_gpus = std::min(k_limit_num_gpus.hi, std::max<std::int64_t>(replicas, 1) * s.tensor_parallel * s.pipeline_parallel);
        };
        parallel(tr("Tensor parallel", "张量并行"),
                 tr("Split every layer across GPUs; needs NVLink/NVSwitch to be fast.", "每层切分到多个 GPU;需要 NVLink/NVSwitch 才快。"),
                 "tp", s.tensor_parallel);
        parallel(tr("Pipeline parallel", "流水线并行"), tr("Split the layers into stages.", "把层切分为多个阶段。"), "pp",
                 s.pipeline_parallel);
        form_row(tr("Expert parallel", "专家并行"), tr("MoE experts spread across GPUs.", "MoE 专家分布到多个 GPU。"));
        int_stepper(ctx, "ep", s.expert_parallel, k_limit_parallel, 2, true);
        form_row(tr("Sequence parallel", "序列并行"));
        checkbox(ctx, "sp", s.sequence_parallel);
        form_row(tr("MFU override", "MFU 覆盖值"), tr("Model FLOPs utilisation; default from the task and GPU.",
                                                  "模型算力利用率;默认按任务和 GPU 取值。"));
        optional_real(ctx, "mfu", s.mfu, k_limit_mfu, 0.4, 1.0, "%.2f");
        form_end();
    }
    ImGui::TreePop();
}

}  // namespace

void panel_workload(PanelContext& ctx) {
    if (section_header(ctx, tr("Model and task", "模型与任务"), "section_model")) section_model(ctx);
    const bool tokens = model_kind(ctx).empty();
    if (section_header(ctx, tokens ? tr("Batch and sequence", "批大小与序列") : tr("Batch and input", "批大小与输入"), "section_shape"))
        section_shape(ctx);
    if (is_training(ctx.scenario.task)) {
        if (section_header(ctx, tr("Training", "训练"), "section_training")) section_training(ctx);
    } else {
        if (section_header(ctx, tr("Serving", "部署"), "section_serving")) section_serving(ctx);
    }
    if (section_header(ctx, tr("GPUs", "GPU"), "section_gpus")) section_gpus(ctx);
}

}  // namespace gpusizer::shell
