#pragma once
// Internal: memory, speed and the whole estimate of the sample kinds (model/kinds.hpp: CNN, ViT,
// diffusion UNet / DiT, Whisper). Formulas and constants: docs/other-kinds.md.
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/estimate.hpp"
#include "model/kinds.hpp"

namespace gpusizer::kinds {

struct KindMemory {
    MemoryBreakdown gpu;
    double limit = 0;         // what CUDA lets the process use (0 without a GPU)
    std::uint64_t host = 0;   // host RAM: the checkpoint loaded once plus the data loader
    std::vector<Explanation> explanations;
};
// Per GPU of a data-parallel job of s.num_gpus GPUs (every GPU a replica when serving).
KindMemory kind_memory(const ModelArch& a, const Walk& w, const Scenario& s, double gpu_memory, bool explain);

struct KindSpeed {
    double samples_per_s = 0;      // whole job: images/s (diffusion: generated images/s), 30 s windows/s (Whisper)
    double seconds_per_image = 0;  // diffusion: one image at `steps` on one GPU, VAE decode included
    double realtime_factor = 0;    // Whisper: audio seconds per wall-clock second, whole job
    double efficiency = 0;         // fraction of the dense 16-bit peak the FLOPs run at
    std::string why;               // the formula with its numbers
};
KindSpeed kind_speed(const ModelArch& a, const Walk& w, const Scenario& s, const Accelerator& acc, std::int64_t gpus);

// Samples of the whole job: train_images × epochs (vision, diffusion training; images to make or
// classify when serving), audio_seconds / 30 s × epochs (Whisper); nullopt when not given.
std::optional<double> job_samples(const ModelArch& a, const Scenario& s);
// Training without train_images: an ImageNet-1k-sized set (1,281,167 images) × epochs; Whisper 1,000 h.
double reference_samples(const ModelArch& a, const Scenario& s);
// Diffusion: denoising steps (given, else the pipeline's default).
std::int64_t steps_of(const ModelArch& a, const Scenario& s);

Result<Estimate> estimate_kind(const Catalog& catalog, const Scenario& s, const ModelArch& a,
                               Notes warnings, const EstimateOptions& options);

}  // namespace gpusizer::kinds
