#pragma once
// An offer as the answer card, the compare strip and the offers table show it: its GPUs, where it
// is rented, and its figures (price per hour, time, cost) with their captions, in the current
// language. Formatting only: every figure is a field core computed.

#include <optional>
#include <string>

#include "gpusizer/recommend.hpp"

namespace gpusizer::shell {

std::string offer_gpus(const Offer& o);      // "8× H100 SXM 80GB" (the name with its notes in Chinese in Chinese)
std::string offer_provider(const Offer& o);  // "阿里云" in Chinese, "Alibaba Cloud (阿里云)" in English
std::string offer_instance(const Offer& o);  // the instance id, with its notes in Chinese when shown in Chinese
std::string offer_id(const Offer& o);        // "provider/instance[/spot]" (test tags)

// One figure: the value ("$4.27", "12.1 h") and what it is ("total", "whole job").
struct Figure {
    std::string value, caption;
};
struct OfferFigures {
    Figure price;  // per hour
    Figure time;   // the whole job, the reference run, or time per output token (serving); value "" = none
    Figure cost;   // the whole job, the reference run, or per million tokens; value "" = none
};
// "per 1M tokens", or per 1M images / 30 s windows for a vision, diffusion or speech job.
const char* per_million_text(const Recommendation& rec);
OfferFigures offer_figures(const Recommendation& rec, const Offer& o);
// The numbers behind the time and cost figures (test hooks compare them with the CLI's JSON):
// hours, reference hours or ms per output token; total, reference cost or cost per million tokens.
std::optional<double> time_number(const Offer& o);
std::optional<double> cost_number(const Offer& o);

}  // namespace gpusizer::shell
