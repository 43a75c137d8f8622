#include "offer_text.hpp"

#include <cstdio>

#include "format.hpp"
#include "strings.hpp"

namespace gpusizer::shell {

std::string offer_gpus(const Offer& o) {
    return std::to_string(o.gpu_count) + "\u00d7 " + (language() == Language::zh ? o.gpu_name_zh : o.gpu_name);
}

std::string offer_provider(const Offer& o) { return language() == Language::zh ? o.provider_name_zh : o.provider_name; }

std::string offer_instance(const Offer& o) { return language() == Language::zh ? o.instance_zh : o.instance; }

std::string offer_id(const Offer& o) { return o.provider + "/" + o.instance + (o.spot ? "/spot" : ""); }

// What a vision, diffusion or speech job counts in place of tokens (Recommendation::model_kind).
const char* per_million_text(const Recommendation& rec) {
    if (rec.model_kind.empty()) return tr("per 1M tokens", "每百万 token");
    return rec.model_kind == "whisper" ? tr("per 1M 30 s windows", "每百万段 30 秒音频") : tr("per 1M images", "每百万张图像");
}

OfferFigures offer_figures(const Recommendation& rec, const Offer& o) {
    const Currency cur = o.currency == "CNY" ? Currency::CNY : Currency::USD;
    OfferFigures f;
    f.price = {o.price_known ? (o.price_is_estimate ? "\u2248" : "") + format_money(o.price_per_hour, o.currency) : "?",
               o.price_known ? tr("per hour", "每小时") : tr("price not listed", "价格未公布")};
    if (o.hours && o.total_cost) {
        f.time = {format_hours(*o.hours), tr("whole job", "整个作业")};
        f.cost = {format_money_sig(*o.total_cost, cur), tr("total", "总计")};
    } else if (o.reference_hours && o.reference_cost && rec.reference_tokens) {
        char run[96];
        if (rec.model_kind.empty())
            std::snprintf(run, sizeof run, tr("%s-token run (assumed)", "%s token 的训练(假设)"), format_count(*rec.reference_tokens).c_str());
        else
            std::snprintf(run, sizeof run, tr("%s-sample run (assumed)", "%s 个样本的训练(假设)"), format_count(*rec.reference_tokens).c_str());
        f.time = {format_hours(*o.reference_hours), run};
        f.cost = {format_money_sig(*o.reference_cost, cur), run};
    } else if (o.serving && !rec.model_kind.empty()) {
        const double per_s = o.serving->tokens_per_s;
        if (rec.model_kind == "whisper") f.time = {format_count(per_s * 30) + "\u00d7", tr("real time", "实时倍数")};
        else f.time = {format_count(per_s), tr("images per second", "张图像/秒")};
        if (o.cost_per_million_tokens) f.cost = {format_money_sig(*o.cost_per_million_tokens, cur), per_million_text(rec)};
    } else if (o.serving) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.0f ms", o.serving->tpot_ms);
        f.time = {ms, tr("per token per user", "每用户每 token")};
        if (o.cost_per_million_tokens) f.cost = {format_money_sig(*o.cost_per_million_tokens, cur), tr("per 1M tokens", "每百万 token")};
    } else if (o.cost_per_million_tokens) {
        f.cost = {format_money_sig(*o.cost_per_million_tokens, cur), per_million_text(rec)};
    }
    if (o.hours && !o.total_cost && f.time.value.empty()) f.time = {format_hours(*o.hours), tr("whole job", "整个作业")};
    return f;
}

std::optional<double> time_number(const Offer& o) {
    if (o.hours) return o.hours;
    if (o.reference_hours) return o.reference_hours;
    if (o.serving) return o.serving->tpot_ms;
    return std::nullopt;
}

std::optional<double> cost_number(const Offer& o) {
    if (o.total_cost) return o.total_cost;
    if (o.reference_cost) return o.reference_cost;
    return o.cost_per_million_tokens;
}

}  // namespace gpusizer::shell
