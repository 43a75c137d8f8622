#pragma once
// The guided start (issue 17): the five questions a buyer answers first and the scenario keys
// each answer sets. In core, so the page, the desktop window and the tests build the same
// scenario from the same answers; the keys it sets are marked given, so the planner keeps them.

#include <vector>

#include "gpusizer/scenario.hpp"

namespace gpusizer {

// The largest model of the job, as catalog presets of typical sizes (dense, then a big MoE), then
// the other kinds users rent GPUs for: an image classifier, image generation, speech recognition.
struct GuidedSize {
    const char* preset;  // catalog id
    const char *en, *zh;
};
const std::vector<GuidedSize>& guided_sizes();

struct GuidedAnswers {
    enum Task { serve, lora, qlora, full_ft, pretrain };
    enum Gpus { one, data_parallel, model_parallel };  // one GPU · a full copy each · the model split
    enum Where { abroad, mainland, either };
    enum Priority { total_cost, hourly, fastest };     // rank_by cost · hourly · time
    int task = serve;
    int size = 1;              // index into guided_sizes()
    int gpus = one;
    bool interruptible = true; // the job checkpoints and resumes: spot allowed
    int where = abroad;
    int priority = total_cost;
};

// A fresh scenario from the answers: task, model, layout (one GPU: num_gpus 1; a full copy each:
// tensor and pipeline parallel 1 on 8 GPUs; the model split: 8 GPUs, tensor parallel 8 over
// NVLink), spot, region and currency, rank_by. The answered keys become Scenario::given.
void apply_guided(const GuidedAnswers& a, Scenario& s);

}  // namespace gpusizer
