#pragma once
// Internal: models that are not a transformer over tokens (ModelArch::kind): CNNs (ResNet,
// ConvNeXt), vision transformers (ViT/DeiT, CLIP vision), diffusion UNets (diffusers
// UNet2DConditionModel) and DiTs (FluxTransformer2DModel) with their text encoders and VAE, and
// Whisper (encoder-decoder). One walk over each architecture gives its exact parameter count,
// the FLOPs of one sample and the activations a sample keeps (docs/other-kinds.md).
#include <cstdint>
#include <string>
#include <vector>

#include "gpusizer/model.hpp"
#include "json_util.hpp"

namespace gpusizer::kinds {

// The kinds with their own memory and speed model (sample = one image, one denoising step of one
// image, one 30 s audio window); "" is the token pipeline (decoders, BERT).
bool is_sample_kind(const ModelArch& a);
// "images", "images" (diffusion), "audio windows"
const char* unit_of(const ModelArch& a);

// The architecture walked at one input size.
struct Walk {
    double params = 0;          // the trained network (CNN, ViT, UNet / DiT, Whisper): exact
    double frozen = 0;          // diffusion: text encoders + VAE (a.frozen_params)
    double fwd_flops = 0;       // one forward of one sample (diffusion: one denoising step of one image, CFG included)
    double saved = 0;           // training: elements one sample keeps for backward (compute dtype)
    double saved_ckpt = 0;      // the same with full activation checkpointing (block inputs + one block)
    double infer_peak = 0;      // inference: elements live at the forward's peak, per sample
    double lora_dims = 0;       // Σ (d_in + d_out) of the attention projections LoRA adapts (× rank = adapter params)
    double decode_params = 0;   // Whisper: decoder parameters read per generated token
    double kv_per_token = 0;    // Whisper: decoder self-attention K+V elements per generated token
    double cross_kv = 0;        // Whisper: cross-attention K+V elements per window (encoder states)
    double decode_flops_per_token = 0;  // Whisper: decoder FLOPs per generated token
    double encode_flops = 0;    // Whisper: encoder + cross-attention K/V FLOPs per window (also in fwd_flops)
    double vae_decode_flops = 0;  // diffusion: the VAE decoder's FLOPs for one image (once per image)
    double vae_decode_peak = 0;   // diffusion: elements live while the VAE decodes one image
    bool vae_fp32 = false;        // SDXL's VAE decodes in fp32 (force_upcast: it overflows in fp16)
    int cfg = 1;                // diffusion: UNet evaluations per step (2 with classifier-free guidance)
    int native_image_size = 0;  // the model's own resolution
    std::string error;          // a malformed architecture (empty lists, a width of 0)
};
// image_size 0 = the model's own resolution.
Walk walk(const ModelArch& a, std::int64_t image_size);

// Config.json of another kind → ModelArch; false when `root` is not one of them (the caller
// reads it as a transformer). Errors name the key.
bool parse_kind_config(const detail::json& root, const std::string& model_type, Result<ModelArch>& out);

// Whisper: tokens the decoder writes per 30 s window (ASSUMPTION, docs/other-kinds.md).
inline constexpr double k_whisper_tokens_per_window = 100;
inline constexpr double k_whisper_window_s = 30;

}  // namespace gpusizer::kinds
