// Numbers and words shared by the planner's answers (English and Chinese).
#include <cstdio>

#include "../speed/speed_internal.hpp"
#include "gpusizer/units.hpp"
#include "model/kinds.hpp"
#include "plan.hpp"

namespace gpusizer::plan {

std::string fmt(const char* f, double v) {
    // The one conversion is "%.Nf": copy the text around it in runs ("%%" is a percent sign).
    std::string out;
    out.reserve(32);
    bool done = false;
    const char* run = f;
    for (const char* p = f; *p; ++p) {
        if (*p != '%') continue;
        out.append(run, static_cast<std::size_t>(p - run));
        if (p[1] == '%') {
            out += '%';
            run = ++p + 1;
        } else if (!done && p[1] == '.' && p[2] >= '0' && p[2] <= '9' && p[3] == 'f' && append_fixed(out, v, p[2] - '0')) {
            done = true;
            p += 3;
            run = p + 1;
        } else {
            char buf[256];  // Chinese text: 3 bytes a character
            std::snprintf(buf, sizeof buf, f, v);
            return buf;
        }
    }
    out.append(run);
    return out;
}

std::string cat(std::initializer_list<std::string_view> parts) {
    std::size_t n = 0;
    for (std::string_view s : parts) n += s.size();
    std::string out;
    out.reserve(n);
    for (std::string_view s : parts) out.append(s);
    return out;
}

std::string hours_text(double h) {
    if (h < 1) return fmt("%.0f min", h * 60 < 1 ? 1 : h * 60);
    if (h < 48) return fmt("%.1f h", h);
    return fmt("%.1f days", h / 24);
}

std::string hours_text_zh(double h) {
    if (h < 1) return fmt("%.0f 分钟", h * 60 < 1 ? 1 : h * 60);
    if (h < 48) return fmt("%.1f 小时", h);
    return fmt("%.1f 天", h / 24);
}

std::string gib(std::uint64_t bytes) { return fmt("%.1f", static_cast<double>(bytes) / k_bytes_per_gib); }

const char* task_title(Task t) {
    switch (t) {
        case Task::inference: return "serving";
        case Task::pretrain: return "pretraining";
        case Task::full_ft: return "full fine-tuning";
        case Task::lora: return "LoRA";
        case Task::qlora: return "QLoRA";
    }
    return "";
}

const char* task_title_zh(Task t) {
    switch (t) {
        case Task::inference: return "推理服务";
        case Task::pretrain: return "预训练";
        case Task::full_ft: return "全参数微调";
        case Task::lora: return "LoRA 微调";
        case Task::qlora: return "QLoRA 微调";
    }
    return "";
}

std::string lever_words(const std::vector<Lever>& levers, bool zh) {
    std::string out;
    for (std::size_t i = 0; i < levers.size(); ++i) {
        const std::string_view t = zh && !levers[i].text_zh.empty() ? levers[i].text_zh : levers[i].text;
        out.append(i == 0 ? "" : zh ? "、" : i + 1 == levers.size() ? " and " : ", ").append(t);
    }
    return out;
}

std::string gpu_label(const Accelerator& a) { return a.name.empty() ? a.id : a.name; }
UnitWords unit_words(std::string_view model_kind) {
    if (model_kind.empty()) return {"tokens", "token", false};
    if (model_kind == "whisper") return {"30 s audio windows", "段 30 秒音频", true};
    return {"images", "张图像", true};
}
UnitWords unit_words(const Context& ctx) {
    return unit_words(kinds::is_sample_kind(ctx.arch) ? std::string_view(ctx.arch.kind) : std::string_view());
}

std::string gpu_label_zh(const Accelerator& a) { return a.name_zh.empty() ? gpu_label(a) : a.name_zh; }

}  // namespace gpusizer::plan

namespace gpusizer {

// At least 3 significant digits, never "0" for a positive amount.
std::string format_money_sig(double v, Currency c) {
    const std::string sym = c == Currency::CNY ? "¥" : "$";
    if (v >= 100) return sym + plan::fmt("%.0f", v);
    if (v >= 10) return sym + plan::fmt("%.1f", v);
    if (v >= 1) return sym + plan::fmt("%.2f", v);
    if (v >= 0.1) return sym + plan::fmt("%.3f", v);
    if (v >= 0.01) return sym + plan::fmt("%.4f", v);
    if (v >= 0.001) return sym + plan::fmt("%.5f", v);
    if (v <= 0) return sym + "0";
    return sym + plan::fmt("%.3g", v);
}

double convert_currency(double amount, const std::string& from, Currency to, const CurrencyRate& rate) {
    const std::string_view target = to_string(to);
    if (from == target || rate.cny_per_usd <= 0) return amount;
    if (from == "USD" && to == Currency::CNY) return amount * rate.cny_per_usd;
    if (from == "CNY" && to == Currency::USD) return amount / rate.cny_per_usd;
    return amount;
}

}  // namespace gpusizer
