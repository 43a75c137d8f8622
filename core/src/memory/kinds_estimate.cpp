// Memory, speed and the estimate of vision, diffusion and speech models (kinds_memory.hpp).
// Every formula and constant is in docs/other-kinds.md with its source.
//
// Index
//   [SECTION] Constants
//   [SECTION] kind_memory
//   [SECTION] kind_speed
//   [SECTION] estimate_kind
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpusizer/memory.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "gpusizer/speed.hpp"
#include "gpusizer/units.hpp"
#include "kinds_memory.hpp"
#include "steps.hpp"

namespace gpusizer::kinds {

// [SECTION] Constants
namespace {

// Fractions of the dense 16-bit peak, fitted on the tuning set (tests/fixtures/measured_runs.json,
// "kinds"): ResNet-50 v1.5 AMP training, 2470 img/s on one A100 80GB, and AMP inference at batch
// 256, 3382 img/s on one V100 16GB (NVIDIA DeepLearningExamples PyTorch RN50v1.5 README, commit
// 291f0d02). Convolutions with BatchNorm and ReLU between them reach far less of the peak than
// transformer GEMMs.
constexpr double k_cnn_train_efficiency = 0.195;
constexpr double k_cnn_infer_efficiency = 0.22;
// ASSUMPTION: transformer-shaped denoisers and encoders (ViT, UNet attention blocks, DiT, Whisper's
// encoder) at the fraction of peak the token models' GEMMs reach at moderate width (docs/speed-and-cost.md,
// compute efficiency ≈ 0.4). Checked after it was set (hold-out): SDXL, 30 steps on an A100, 3.33 s per
// image against diffusers' measured 3.315 s (docs/other-kinds.md).
constexpr double k_transformer_efficiency = 0.40;
// One forward of a CNN/ViT in eager PyTorch is never faster than its kernel launches: 12.8 ms at
// batch 1 on a V100 and 13.0 ms on a T4 (same README, AMP inference latency at batch 1).
constexpr double k_forward_floor_s = 0.0128;
// A Whisper decoder step is never faster than its layers' kernels and the search around them: 0.625 ms
// per decoder layer per generated token, fitted on faster-whisper's benchmark (large-v2, fp16, beam 5:
// 13 minutes of audio in 54 s on a V100S, SYSTRAN/faster-whisper README @00cc7e1b) with 100 tokens
// per 30 s window: 2.08 s per window, ~20 ms per step of its 32 decoder layers.
constexpr double k_whisper_step_floor_per_layer_s = 0.02 / 32;
// Pipelines' default denoising steps: StableDiffusionPipeline / StableDiffusionXLPipeline 50,
// FluxPipeline 28 (diffusers pipeline __call__ defaults).
constexpr std::int64_t k_unet_default_steps = 50;
constexpr std::int64_t k_flux_default_steps = 28;
constexpr double k_imagenet_images = 1'281'167;  // ImageNet-1k training set
constexpr double k_reference_audio_hours = 1000;
constexpr double k_torch_context_bytes = 640 * k_bytes_per_mib;  // = overhead.cpp (CUDA context of a torch process)
constexpr double k_nccl_bytes = 512 * k_bytes_per_mib;
constexpr double k_fragmentation = 0.05;

std::string num(const char* f, double v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

double weight_bytes(WeightDtype w) {
    switch (w) {
        case WeightDtype::fp32: return 4;
        case WeightDtype::bf16:
        case WeightDtype::fp16: return 2;
        case WeightDtype::fp8:
        case WeightDtype::int8:
        case WeightDtype::gguf_q8_0: return 1;
        default: return 0.5;
    }
}

}  // namespace

std::int64_t steps_of(const ModelArch& a, const Scenario& s) {
    if (s.steps) return *s.steps;
    return a.kind == "dit" ? k_flux_default_steps : k_unet_default_steps;
}

std::optional<double> job_samples(const ModelArch& a, const Scenario& s) {
    const double epochs = static_cast<double>(s.epochs);
    if (a.kind == "whisper") {
        if (!s.audio_seconds) return std::nullopt;
        return *s.audio_seconds / k_whisper_window_s * (s.task == Task::inference ? 1.0 : epochs);
    }
    if (!s.train_images) return std::nullopt;
    return *s.train_images * (s.task == Task::inference ? 1.0 : epochs);
}

double reference_samples(const ModelArch& a, const Scenario& s) {
    if (a.kind == "whisper") return k_reference_audio_hours * 3600 / k_whisper_window_s * static_cast<double>(s.epochs);
    return k_imagenet_images * static_cast<double>(s.epochs);
}

// [SECTION] kind_memory

KindMemory kind_memory(const ModelArch& a, const Walk& w, const Scenario& s, double gpu_memory, bool explain) {
    KindMemory out;
    const bool train = s.task != Task::inference;
    const bool lora = s.task == Task::lora || s.task == Task::qlora;
    const double dp = static_cast<double>(std::max<std::int64_t>(1, s.num_gpus));
    const double b = static_cast<double>(s.batch_size);
    const double wb = weight_bytes(s.weight_dtype);
    const double e = s.weight_dtype == WeightDtype::fp32 ? 4 : 2;  // activations: autocast's 16-bit, or fp32
    double weights = 0, grads = 0, opt = 0, acts = 0, kv = 0;
    std::string how;
    if (train && !(lora && w.lora_dims > 0)) {
        // torch.autocast over fp32 parameters (torchvision references, diffusers train_text_to_image, HF
        // Trainier fp16/bf16): fp32 weights and gradients, optimizer states per trained parameter; the
        // frozen text encoders and VAE in the weight dtype.
        const double pb = s.master_weights || s.weight_dtype == WeightDtype::fp32 ? 4 : wb;
        double per_opt = 8;
        switch (s.optimizer) {
            case Optimizer::adamw: per_opt = 8; break;
            case Optimizer::adamw_8bit:
            case Optimizer::paged_adamw_8bit: per_opt = 2; break;
            case Optimizer::sgd: per_opt = 0; break;
            case Optimizer::sgd_momentum:
            case Optimizer::lion: per_opt = 4; break;
            case Optimizer::adafactor: per_opt = 4; break;
        }
        const int z = s.zero_stage;
        weights = w.params * pb / (z >= 3 ? dp : 1) + w.frozen * wb;
        grads = w.params * pb / (z >= 2 ? dp : 1);
        opt = w.params * per_opt / (z >= 1 ? dp : 1);
        how = num("%.4g trained parameters × ", w.params) + num("%.0f B", pb) + (w.frozen > 0 ? num(" + %.4g frozen × ", w.frozen) + num("%.1f B", wb) : "") +
              num("; gradients × %.0f B", pb) + num("; optimizer %.0f B per parameter", per_opt) + (z ? " (ZeRO-" + std::to_string(z) + " over " + num("%.0f GPUs)", dp) : "");
    } else if (train) {
        const double adapters = double(s.lora_rank) * w.lora_dims;
        weights = (w.params + w.frozen) * wb + adapters * 4;
        grads = adapters * 4;
        opt = adapters * 8;
        how = num("base %.4g parameters × ", w.params + w.frozen) + num("%.1f B; LoRA ", wb) + num("%.4g adapter parameters in fp32 with AdamW", adapters);
    } else {
        weights = (w.params + w.frozen) * wb;
        how = num("%.4g parameters × ", w.params + w.frozen) + num("%.1f B", wb);
    }
    if (train) {
        const bool ckpt = s.activation_checkpointing != Checkpointing::none;
        acts = b * (ckpt ? w.saved_ckpt : w.saved) * e;
    } else {
        acts = b * w.infer_peak * e;
        // Diffusion: the VAE decodes the batch after the last step (diffusers decodes it at once).
        if (w.vae_decode_peak > 0) acts = std::max(acts, b * w.vae_decode_peak * (w.vae_fp32 ? 4 : e));
        if (a.kind == "whisper")  // cross-attention K/V of the window + self-attention K/V up to 448 tokens
            kv = b * (w.cross_kv + w.kv_per_token * static_cast<double>(a.max_position_embeddings)) * e;
    }
    MemoryBreakdown& m = out.gpu;
    m.weights = to_bytes(weights);
    m.gradients = to_bytes(grads);
    m.optimizer = to_bytes(opt);
    m.activations = to_bytes(acts);
    m.kv_cache = to_bytes(kv);
    OverheadParts& op = m.overhead_parts;
    op.cuda_context = to_bytes(k_torch_context_bytes);
    if (train && dp > 1) op.nccl = to_bytes(k_nccl_bytes);
    if (train && dp > 1 && s.zero_stage == 0) op.ddp_buckets = to_bytes(grads);  // DDP's flat gradient buckets
    op.allocator_slack = to_bytes(k_fragmentation * (acts + kv + grads));
    m.overhead = op.cuda_context + op.nccl + op.ddp_buckets + op.allocator_slack;
    m.total = m.weights + m.gradients + m.optimizer + m.activations + m.kv_cache + m.overhead;
    m.torch_peak_allocated = m.total - op.cuda_context - op.nccl - op.allocator_slack;
    out.limit = gpu_memory > 0 ? memory::cuda_visible_bytes(gpu_memory, s.gpu_memory_gib.has_value()) : 0;
    out.host = to_bytes((w.params + w.frozen) * wb + 2 * k_bytes_per_gib);  // the checkpoint once + a data loader
    if (explain) {
        const char* unit = a.kind == "whisper" ? "window" : "image";
        out.explanations.push_back({"weights", how, "docs/other-kinds.md (torch.autocast mixed precision; LoRA adapters fp32)"});
        out.explanations.push_back(
            {"activations",
             train ? num("batch %.0f × ", b) + num("%.4g elements per ", s.activation_checkpointing != Checkpointing::none ? w.saved_ckpt : w.saved) +
                         unit + num(" × %.0f B", e) + (s.activation_checkpointing != Checkpointing::none ? " (checkpointed: block inputs + one block)" : "")
                   : num("batch %.0f × ", b) + num("%.4g elements live per ", w.infer_peak) + unit + num(" × %.0f B", e) +
                   (w.vae_decode_peak > 0 ? num(", or the VAE decode's %.4g elements per image", w.vae_decode_peak) +
                                                (w.vae_fp32 ? " in fp32 (SDXL's VAE is upcast)" : "") + ", whichever is larger"
                                          : ""),
             "docs/other-kinds.md: the architecture walked at the input size (model/kinds.cpp)"});
        if (kv > 0)
            out.explanations.push_back({"kv_cache",
                                        num("batch %.0f × (cross-attention ", b) + num("%.4g + self-attention 448 × ", w.cross_kv) +
                                            num("%.4g elements) × ", w.kv_per_token) + num("%.0f B", e),
                                        "modeling_whisper.py: encoder K/V per decoder layer, 448 target positions"});
    }
    return out;
}

// [SECTION] kind_speed

KindSpeed kind_speed(const ModelArch& a, const Walk& w, const Scenario& s, const Accelerator& acc, std::int64_t gpus) {
    KindSpeed v;
    const bool train = s.task != Task::inference;
    const double g = static_cast<double>(std::max<std::int64_t>(1, gpus));
    const double b = static_cast<double>(s.batch_size);
    const double peak = train ? training_peak_flops(acc, s) : peak_flops(acc, s);
    const double eff = s.mfu ? *s.mfu : a.kind == "cnn" ? (train ? k_cnn_train_efficiency : k_cnn_infer_efficiency) : k_transformer_efficiency;
    v.efficiency = eff;
    const double rate = peak * eff;
    const double bw = acc.memory_bandwidth_gbps * 1e9 * memory_efficiency(Engine::hf);
    const double wb = weight_bytes(s.weight_dtype);
    if (!(rate > 0)) return v;
    if (train) {
        // Forward + backward = 3 × forward (2 × for frozen weights under LoRA), + 1 forward recomputed
        // with checkpointing; diffusion training runs one pass per step (no guidance).
        const bool lora = (s.task == Task::lora || s.task == Task::qlora) && w.lora_dims > 0;
        const double fwd = w.fwd_flops / w.cfg;
        const double factor = (lora ? 2.0 : 3.0) + (s.activation_checkpointing != Checkpointing::none ? 1.0 : 0.0);
        const double step = b * fwd * factor / rate;
        v.samples_per_s = g * b / step;
        v.why = num("%.0f GPUs × ", g) + num("batch %.0f / (", b) + num("%.4g FLOPs × ", fwd) + num("%.0f / ", factor) +
                num("(%.4g FLOP/s peak × ", peak) + num("%.3f))", eff);
        if (a.kind == "whisper") v.realtime_factor = v.samples_per_s * k_whisper_window_s;
        return v;
    }
    if (a.kind == "whisper") {
        // Encoder and cross-attention K/V once per window (compute-bound); then each generated token reads
        // the decoder's weights and the batch's K/V (memory-bound at small batch).
        const double encode = b * w.encode_flops / rate;
        const double bytes = w.decode_params * wb + b * (w.cross_kv + w.kv_per_token * k_whisper_tokens_per_window / 2) * 2;
        const double floor = k_whisper_step_floor_per_layer_s * static_cast<double>(a.num_layers);
        const double token = std::max({bytes / bw, b * w.decode_flops_per_token / rate, floor});
        const double window = encode + k_whisper_tokens_per_window * token;
        v.samples_per_s = g * b / window;
        v.realtime_factor = v.samples_per_s * k_whisper_window_s;
        v.why = num("%.0f GPUs × ", g) + num("batch %.0f × 30 s / (encode ", b) + num("%.3f s + 100 tokens × ", encode) +
                num("%.2f ms", token * 1e3) +
                (token == floor ? " step floor" : bytes / bw > b * w.decode_flops_per_token / rate ? " memory-bound" : " compute-bound") + ")";
        return v;
    }
    if (a.kind == "unet" || a.kind == "dit") {
        const double steps = static_cast<double>(steps_of(a, s));
        const double step = std::max(b * w.fwd_flops / rate, (w.params * wb) / bw);  // at least one read of the weights
        const double vae = b * w.vae_decode_flops / rate;
        const double batch = steps * step + vae;
        v.samples_per_s = g * b / batch;
        v.seconds_per_image = batch / b;
        v.why = num("%.0f GPUs × ", g) + num("batch %.0f / (", b) + num("%.0f steps × ", steps) + num("%.3f s", step) +
                num(" + VAE decode %.3f s)", vae) + num("; %.4g FLOPs per step per image", w.fwd_flops) + (w.cfg > 1 ? " (2 passes: guidance)" : "");
        return v;
    }
    const double batch = std::max(k_forward_floor_s, b * w.fwd_flops / rate);
    v.samples_per_s = g * b / batch;
    v.why = num("%.0f GPUs × ", g) + num("batch %.0f / max(12.8 ms launch floor, ", b) + num("batch × %.4g FLOPs / ", w.fwd_flops) +
            num("(%.4g FLOP/s × ", peak) + num("%.3f))", eff);
    return v;
}

// [SECTION] estimate_kind

Result<Estimate> estimate_kind(const Catalog& catalog, const Scenario& s, const ModelArch& a, Notes warnings,
                               const EstimateOptions& options) {
    const Walk w = walk(a, s.image_size.value_or(0));
    if (!w.error.empty()) return Result<Estimate>::failure({"bad_model", "model: " + w.error, "model"}, warnings);
    Estimate e;
    e.scenario = s;
    e.model_kind = a.kind;
    e.warnings.append(warnings);
    const bool train = s.task != Task::inference;
    const bool speech = a.kind == "whisper";
    if (s.tensor_parallel > 1 || s.pipeline_parallel > 1 || s.expert_parallel > 1)
        e.warnings.add("tensor/pipeline/expert parallel: not modelled for " + a.model_type + "; every GPU holds a data-parallel replica",
                       "张量/流水线/专家并行:未对 " + a.model_type + " 建模;每块 GPU 持有一份数据并行副本");
    const GivenKeys& given = s.given;
    for (Key k : {Key::seq_len, Key::prompt_tokens, Key::output_tokens, Key::kv_cache_dtype, Key::engine, Key::train_tokens,
                  Key::target_tokens_per_s, Key::max_tpot_ms, Key::max_ttft_ms, Key::lora_targets}) {
        if (!is_given(given, k)) continue;
        static const char* names[] = {
#define GPUSIZER_X(key, link, limit, how) #key,
            GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
        };
        const std::string key = names[static_cast<int>(k)];
        e.warnings.add(key + ": token-based, ignored for " + a.model_type + " (" + unit_of(a) + ")",
                       key + ":按 token 计量,对 " + a.model_type + " 忽略(其单位为" + (speech ? "音频窗口" : "图像") + ")");
    }
    if (speech && s.image_size) e.warnings.add("image_size: ignored for speech (30 s audio windows)", "image_size:语音模型忽略(按 30 s 音频窗口计)");
    if (a.kind != "unet" && a.kind != "dit" && s.steps)
        e.warnings.add("steps: only diffusion models denoise in steps; ignored", "steps:只有扩散模型分步去噪;已忽略");
    if (speech && s.train_images)
        e.warnings.add("train_images: speech is sized by audio_seconds; ignored", "train_images:语音模型按 audio_seconds 计量;已忽略");
    if (!speech && s.audio_seconds) e.warnings.add("audio_seconds: only for speech models; ignored", "audio_seconds:仅用于语音模型;已忽略");
    if (a.kind == "vit" && s.image_size && a.image_size && static_cast<std::uint64_t>(*s.image_size) != a.image_size)
        e.warnings.add("image_size " + std::to_string(*s.image_size) + ": the model was trained at " + std::to_string(a.image_size) +
                           " px; position embeddings are interpolated (more patches, same parameters)",
                       "image_size " + std::to_string(*s.image_size) + ":模型训练时为 " + std::to_string(a.image_size) +
                           " px;位置编码经插值(patch 更多,参数量不变)");
    if (speech && train)
        e.warnings.add("training: 30 s windows with about 100 transcript tokens each (assumption)",
                       "训练:每个 30 s 窗口约含 100 个转写 token(假设)");

    Notes notes;
    e.params = count_params(a, s, &notes);
    e.model_bytes = model_bytes(a, s.weight_dtype, &notes);
    e.warnings.append(notes);
    std::uint64_t gpu_mem = 0;
    std::string gpu_id;
    const Accelerator* acc = nullptr;
    if (!s.gpu.empty()) {
        acc = catalog.find_accelerator(s.gpu);
        if (!acc)
            return Result<Estimate>::failure({"unknown_id", "gpu: unknown accelerator '" + s.gpu + "'", "gpu"}, e.warnings);
        gpu_mem = acc->memory_bytes;
        gpu_id = acc->id;
    }
    if (s.gpu_memory_gib) {
        gpu_mem = to_bytes(std::floor(*s.gpu_memory_gib * k_bytes_per_gib));
        if (gpu_id.empty()) gpu_id = "custom";
    }
    const KindMemory km = kind_memory(a, w, s, static_cast<double>(gpu_mem), options.explain);
    e.memory_per_gpu_bytes = km.gpu;
    e.host_memory_bytes = km.host;
    if (options.explain) {
        e.explanations = km.explanations;
        e.explanations.push_back({"params",
                                  "total " + std::to_string(e.params.total) + " (network " + num("%.0f", w.params) +
                                      (w.frozen > 0 ? num(", frozen text encoders + VAE %.0f", w.frozen) : "") + "), trainable " +
                                      std::to_string(e.params.trainable),
                                  "the architecture walked layer by layer (model/kinds.cpp; docs/other-kinds.md)"});
    }
    if (gpu_mem > 0) {
        GpuFit fit;
        fit.id = gpu_id;
        fit.memory_bytes = gpu_mem;
        const double total = static_cast<double>(km.gpu.total);
        fit.fits = total <= km.limit;
        fit.headroom_bytes = fit.fits ? to_bytes(km.limit - total) : 0;
        fit.shortfall_bytes = fit.fits ? 0 : to_bytes(total - km.limit);
        e.gpu = fit;
        if (options.solvers) {
            Scenario c = s;
            std::int64_t lo = 0, hi = 1;
            auto fits = [&](std::int64_t v) {
                c.batch_size = v;
                const KindMemory m = kind_memory(a, w, c, static_cast<double>(gpu_mem), false);
                return static_cast<double>(m.gpu.total) <= m.limit;
            };
            while (hi <= k_limit_batch_size.hi && fits(hi)) lo = hi, hi *= 2;
            if (hi > k_limit_batch_size.hi) hi = k_limit_batch_size.hi + 1;
            while (lo > 0 && hi - lo > 1) {
                const std::int64_t mid = lo + (hi - lo) / 2;
                (fits(mid) ? lo : hi) = mid;
            }
            e.max_batch_size = lo;
        }
    }
    if (!(options.explain || options.solvers)) return Result<Estimate>::success(std::move(e), {});
    if (!acc) {
        e.warnings.add("throughput" + std::string(train ? " and time are" : " is") +
                           " null: give a catalog `gpu` (speed needs its peak FLOP/s and memory bandwidth)",
                       std::string(train ? "吞吐量和时间" : "吞吐量") + "为空:请选择目录中的 `gpu`(速度需要其峰值 FLOP/s 和显存带宽)");
        return Result<Estimate>::success(std::move(e), {});
    }
    if (e.gpu && !e.gpu->fits)
        e.warnings.add("the job does not fit " + acc->id + ": throughput and time are for this layout as if it did",
                       "任务在 " + acc->id + " 上放不下:吞吐量和时间是假设放得下时此布局的数值");
    if (lacks_bf16(*acc, s))
        e.warnings.add(acc->id + " has no bf16 tensor cores: speed is for fp16", acc->id + " 没有 bf16 张量核心:速度按 fp16 计算");
    const KindSpeed v = kind_speed(a, w, s, *acc, s.num_gpus);
    Throughput t;
    if (a.kind == "whisper") t.realtime_factor = v.realtime_factor;
    else t.images_per_s = v.samples_per_s;
    if (v.seconds_per_image > 0) t.seconds_per_image = v.seconds_per_image;
    e.throughput = t;
    const std::optional<double> samples = job_samples(a, s);
    if (samples && v.samples_per_s > 0) {
        const double hours = *samples / v.samples_per_s / 3600;
        e.time = TimeEstimate{hours, hours * static_cast<double>(std::max<std::int64_t>(1, s.num_gpus))};
    } else if (train) {
        if (speech)
            e.warnings.add("time is null: give audio_seconds (audio in the training set) and epochs",
                           "时间为空:请给出 audio_seconds(训练集中的音频时长)和 epochs");
        else
            e.warnings.add("time is null: give train_images (images in the training set) and epochs",
                           "时间为空:请给出 train_images(训练集中的图像数)和 epochs");
    }
    if (options.explain)
        e.explanations.push_back({"throughput", v.why,
                                  "docs/other-kinds.md: FLOPs from the architecture at an efficiency fitted on published runs"});
    return Result<Estimate>::success(std::move(e), {});
}

}  // namespace gpusizer::kinds
