// The guided start's rules (core/include/gpusizer/guided.hpp): each answer and the keys it sets.
#include "gpusizer/guided.hpp"

#include "gpusizer/scenario_limits.hpp"

namespace gpusizer {

const std::vector<GuidedSize>& guided_sizes() {
    static const std::vector<GuidedSize> sizes = {
        {"llama-3.2-3b", "up to 3B (Llama 3.2 3B)", "30 亿以内(Llama 3.2 3B)"},
        {"llama-3.1-8b", "about 8B (Llama 3.1 8B)", "约 80 亿(Llama 3.1 8B)"},
        {"qwen3-14b", "about 14B (Qwen3 14B)", "约 140 亿(Qwen3 14B)"},
        {"qwen3-32b", "about 32B (Qwen3 32B)", "约 320 亿(Qwen3 32B)"},
        {"llama-3.1-70b", "about 70B (Llama 3.1 70B)", "约 700 亿(Llama 3.1 70B)"},
        {"llama-3.1-405b", "about 405B (Llama 3.1 405B)", "约 4050 亿(Llama 3.1 405B)"},
        {"deepseek-v3", "671B MoE (DeepSeek-V3)", "6710 亿 MoE(DeepSeek-V3)"},
        // Not a language model (issue 16): images, image generation, speech.
        {"resnet-50", "an image classifier (ResNet-50)", "图像分类(ResNet-50)"},
        {"sdxl", "image generation (SDXL)", "图像生成(SDXL)"},
        {"whisper-large-v3", "speech recognition (Whisper large-v3)", "语音识别(Whisper large-v3)"},
    };
    return sizes;
}

namespace {

// Eight GPUs: one HGX/DGX-class server, the unit clouds rent multi-GPU machines in.
constexpr std::int64_t k_several_gpus = 8;

void layout(const GuidedAnswers& a, Scenario& s) {
    s.pipeline_parallel = 1;
    s.expert_parallel = 1;
    s.interconnect = InterconnectNeed::any;
    if (a.gpus == GuidedAnswers::one) {
        s.num_gpus = 1;
        s.tensor_parallel = 1;
    } else if (a.gpus == GuidedAnswers::data_parallel) {  // a full copy per GPU: PCIe is fine
        s.num_gpus = k_several_gpus;
        s.tensor_parallel = 1;
    } else {  // the model split inside one NVLink/NVSwitch server
        s.num_gpus = k_several_gpus;
        s.tensor_parallel = k_several_gpus;
        s.interconnect = InterconnectNeed::nvlink;
    }
}

}  // namespace

void apply_guided(const GuidedAnswers& a, Scenario& s) {
    static const Task tasks[] = {Task::inference, Task::lora, Task::qlora, Task::full_ft, Task::pretrain};
    static const RankBy ranks[] = {RankBy::cost, RankBy::hourly, RankBy::time};
    const auto& sizes = guided_sizes();
    s.task = tasks[a.task >= 0 && a.task < 5 ? a.task : 0];
    s.source = ModelSource::preset;
    s.model = sizes[a.size >= 0 && static_cast<std::size_t>(a.size) < sizes.size() ? static_cast<std::size_t>(a.size) : 1].preset;
    s.gpu.clear();
    s.gpu_memory_gib.reset();
    s.providers.clear();
    s.zero_stage = 0;  // the planner chooses ZeRO (not an answer)
    layout(a, s);
    s.spot = a.interruptible ? SpotPolicy::allow : SpotPolicy::never;
    s.region = a.where == GuidedAnswers::abroad ? Region::global : a.where == GuidedAnswers::mainland ? Region::cn_mainland : Region::any;
    s.currency = a.where == GuidedAnswers::mainland ? Currency::CNY : Currency::USD;
    s.rank_by = ranks[a.priority >= 0 && a.priority < 3 ? a.priority : 0];
    s.given = given_keys({Key::task, Key::model, Key::num_gpus, Key::tensor_parallel, Key::pipeline_parallel, Key::spot,
                          Key::region, Key::currency, Key::rank_by});
    if (s.interconnect == InterconnectNeed::nvlink) s.given.set(static_cast<std::size_t>(Key::interconnect));
    apply_dependent_defaults(s, s.given);
}

}  // namespace gpusizer
