// Models that are not a transformer over tokens (kinds.hpp): their config.json and one walk over
// the architecture for parameters, FLOPs and activations (docs/other-kinds.md).
//
// Index
//   [SECTION] Lists in text fields
//   [SECTION] Frozen parts of a diffusion pipeline (text encoders, VAE)
//   [SECTION] CNN: ResNet, ConvNeXt
//   [SECTION] ViT / CLIP vision
//   [SECTION] Diffusion: UNet2DConditionModel, FluxTransformer2DModel
//   [SECTION] Whisper
//   [SECTION] walk
//   [SECTION] parse_kind_config
//
// Shapes: transformers modeling_resnet.py, modeling_convnext.py, modeling_vit.py,
// modeling_clip.py, modeling_whisper.py, modeling_t5.py; diffusers unet_2d_condition.py,
// unet_2d_blocks.py, resnet.py, attention.py, transformer_flux.py, autoencoder_kl.py, vae.py.
// Each count is checked against the published one in tests/core/test_kinds.cpp.
#include "kinds.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace gpusizer::kinds {

using detail::json;

bool is_sample_kind(const ModelArch& a) {
    if (a.kind.empty()) return false;  // a transformer over tokens (called in inner loops)
    return a.kind == "cnn" || a.kind == "vit" || a.kind == "unet" || a.kind == "dit" || a.kind == "whisper";
}

const char* unit_of(const ModelArch& a) { return a.kind == "whisper" ? "audio windows" : "images"; }

namespace {

// [SECTION] Lists in text fields

// "3,4,6,3" → {3,4,6,3}; empty on a malformed list.
std::vector<double> list_of(const std::string& t) {
    std::vector<double> out;
    double v = 0;
    bool digit = false;
    for (char c : t) {
        if (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            digit = true;
            if (v > 4294967295.0) return {};
        } else if (c == ',' && digit) {
            out.push_back(v);
            v = 0;
            digit = false;
        } else {
            return {};
        }
    }
    if (!digit) return {};
    out.push_back(v);
    return out;
}

// [SECTION] Frozen parts of a diffusion pipeline

// CLIP text transformer (CLIPTextModel): token + 77 position embeddings, pre-LN blocks with
// biases, final LN; `proj` > 0 adds CLIPTextModelWithProjection's h → proj (no bias).
double clip_text_params(double V, double h, double L, double ffn, double proj) {
    const double layer = 4 * (h * h + h) + (h * ffn + ffn) + (ffn * h + h) + 4 * h;
    return V * h + 77 * h + L * layer + 2 * h + proj * h;
}
// T5EncoderModel (v1.1: gated GELU, no biases, RMSNorm weights, relative bias in layer 0).
double t5_encoder_params(double V, double d, double L, double ff, double heads, double inner) {
    const double layer = 4 * d * inner + d + 3 * d * ff + d;
    return V * d + L * layer + 32 * heads + d;
}
// AutoencoderKL of Stable Diffusion (block_out_channels 128,256,512,512, two resnets per block,
// one attention in each mid block): encoder + decoder (+ quant convs).
double vae_resnet(double i, double o) { return 2 * i + 9 * i * o + o + 2 * o + 9 * o * o + o + (i != o ? i * o + o : 0); }
double vae_params(double latent, bool quant_convs) {
    const double ch[4] = {128, 256, 512, 512};
    const double mid = 2 * vae_resnet(512, 512) + 2 * 512 + 4 * (512 * 512 + 512);
    double p = 3 * 9 * 128 + 128, prev = 128;  // encoder conv_in
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 2; ++j) p += vae_resnet(j == 0 ? prev : ch[i], ch[i]);
        prev = ch[i];
        if (i < 3) p += 9 * ch[i] * ch[i] + ch[i];
    }
    p += mid + 2 * 512 + 9 * 512 * 2 * latent + 2 * latent;  // norm_out, conv_out to mean + logvar
    p += 9 * latent * 512 + 512 + mid;                        // decoder conv_in, mid
    prev = 512;
    for (int i = 3; i >= 0; --i) {
        for (int j = 0; j < 3; ++j) p += vae_resnet(j == 0 ? prev : ch[i], ch[i]);
        prev = ch[i];
        if (i > 0) p += 9 * ch[i] * ch[i] + ch[i];
    }
    p += 2 * 128 + 9 * 128 * 3 + 3;
    if (quant_convs) p += 2 * latent * 2 * latent + 2 * latent + latent * latent + latent;
    return p;
}
// The VAE decoder's FLOPs for one image of side `px` (the convs at each resolution; the mid
// attention at 1/8 adds 4·T²·512).
double vae_decode_flops(double px) {
    const double ch[4] = {128, 256, 512, 512};
    double f = 0;
    const double t8 = (px / 8) * (px / 8);
    f += 2 * t8 * (2 * 2 * 9 * 512 * 512) * 2 + 4 * t8 * t8 * 512;  // mid block: 2 resnets + attention
    for (int i = 3; i >= 0; --i) {
        double side = px;
        for (int k = 0; k < i; ++k) side /= 2;  // exact halvings (no pow: native and wasm agree bit for bit)
        const double hw = side * side;
        f += 2 * hw * 3 * (2 * 9 * ch[i] * ch[i]);  // 3 resnets of 2 convs
        if (i > 0) f += 2 * (hw * 4) * 9 * ch[i] * ch[i];  // upsample conv at twice the side
    }
    return f;
}

// The VAE decoder's largest moment: its last up block at full resolution, a 256-channel input
// (upsampled) beside two 128-channel tensors of the resnet it feeds.
double vae_decode_peak(double px) { return (256 + 2 * 128) * px * px; }

// [SECTION] CNN

struct Acc {  // one walk's sums
    double params = 0, macs = 0, saved = 0, block_in = 0, largest_block = 0, live = 0;
};

void conv(Acc& w, double cin, double cout, double k, double hw_out, bool bias, bool bn, double hw_in) {
    w.params += k * k * cin * cout + (bias ? cout : 0) + (bn ? 2 * cout : 0);
    w.macs += k * k * cin * cout * hw_out;
    // Backward keeps the conv's input and, for BatchNorm, its input (the conv's output); the ReLU
    // output is the next conv's input.
    w.saved += cin * hw_in + (bn ? cout * hw_out : 0);
    w.live = std::max(w.live, cin * hw_in + cout * hw_out);
}

Walk resnet(const ModelArch& a, double px) {
    Walk out;
    const std::vector<double> depths = list_of(a.stage_depths), widths = list_of(a.stage_widths);
    if (depths.empty() || depths.size() != widths.size()) {
        out.error = "depths and hidden_sizes: need one width per stage";
        return out;
    }
    Acc w;
    const double c = a.num_channels ? double(a.num_channels) : 3.0, e = double(a.hidden_size);
    double side = std::ceil(px / 2);
    conv(w, c, e, 7, side * side, false, true, px * px);
    w.saved += e * side * side;  // max pool input
    side = std::ceil(side / 2);
    double in = e;
    for (std::size_t st = 0; st < depths.size(); ++st) {
        const double o = widths[st];
        for (double l = 0; l < depths[st]; ++l) {
            const bool first = l == 0;
            const double stride = first && st > 0 ? 2 : 1;
            const double side_in = side, side_out = first && st > 0 ? std::ceil(side / 2) : side;
            const double hin = side_in * side_in, hout = side_out * side_out;
            const double before = w.saved;
            w.block_in += in * hin;
            if (in != o || stride != 1) conv(w, in, o, 1, hout, false, true, hin);
            if (a.bottleneck) {
                const double r = o / 4;
                conv(w, in, r, 1, hin, false, true, hin);
                conv(w, r, r, 3, hout, false, true, hin);
                conv(w, r, o, 1, hout, false, true, hout);
            } else {
                conv(w, in, o, 3, hout, false, true, hin);
                conv(w, o, o, 3, hout, false, true, hout);
            }
            w.largest_block = std::max(w.largest_block, w.saved - before);
            in = o;
            side = side_out;
        }
    }
    w.params += a.num_labels ? in * a.num_labels + a.num_labels : 0;
    w.macs += in * a.num_labels;
    out.params = w.params;
    out.fwd_flops = 2 * w.macs;
    out.saved = w.saved;
    out.saved_ckpt = w.block_in + w.largest_block;
    out.infer_peak = w.live;
    return out;
}

Walk convnext(const ModelArch& a, double px) {
    Walk out;
    const std::vector<double> depths = list_of(a.stage_depths), widths = list_of(a.stage_widths);
    if (depths.empty() || depths.size() != widths.size()) {
        out.error = "depths and hidden_sizes: need one width per stage";
        return out;
    }
    Acc w;
    const double c = a.num_channels ? double(a.num_channels) : 3.0;
    double side = std::floor(px / 4);
    double hw = side * side, in = widths[0];
    w.params += 16 * c * in + in + 2 * in;  // patchify conv 4×4 + LayerNorm
    w.macs += 16 * c * in * hw;
    w.saved += c * px * px + 2 * in * hw;
    for (std::size_t st = 0; st < depths.size(); ++st) {
        const double d = widths[st];
        if (st > 0) {  // LayerNorm + 2×2 stride-2 conv
            const double hw_in = hw;
            side = std::floor(side / 2);
            hw = side * side;
            w.params += 2 * in + 4 * in * d + d;
            w.macs += 4 * in * d * hw;
            w.saved += 2 * in * hw_in;
        }
        for (double l = 0; l < depths[st]; ++l) {
            // dwconv 7×7, LayerNorm, Linear d→4d, GELU, Linear 4d→d, layer scale.
            w.params += 49 * d + d + 2 * d + 4 * d * d + 4 * d + 4 * d * d + d + d;
            w.macs += (49 * d + 8 * d * d) * hw;
            const double kept = (4 * d + 2 * 4 * d) * hw;  // dwconv, LN, pw1, scale inputs; GELU and pw2 inputs (4d)
            w.saved += kept;
            w.block_in += d * hw;
            w.largest_block = std::max(w.largest_block, kept);
            w.live = std::max(w.live, 6 * d * hw);
        }
        in = d;
    }
    w.params += 2 * in + (a.num_labels ? in * a.num_labels + a.num_labels : 0);
    out.params = w.params;
    out.fwd_flops = 2 * w.macs;
    out.saved = w.saved;
    out.saved_ckpt = w.block_in + w.largest_block;
    out.infer_peak = w.live;
    return out;
}

// [SECTION] ViT / CLIP vision

// A pre-LN transformer block keeps per token 9h + 2i elements for backward (LN inputs, q/k/v,
// the flash output, o input, fc1 input, GELU input and fc2 input: Korthikanti et al. 2022 Table
// 2's 34·s·h bytes for i = 4h without the s² term, dropout off).
double block_saved(double h, double i) { return 9 * h + 2 * i; }

Walk vit(const ModelArch& a, double px) {
    Walk out;
    const double h = a.hidden_size, L = a.num_layers, i = a.intermediate_size, p = a.patch_size;
    const double c = a.num_channels ? double(a.num_channels) : 3.0;
    const double n_own = std::floor(double(a.image_size) / p);
    const bool clip = a.model_type == "clip" || a.model_type == "clip_vision_model";
    // Embeddings: patch conv (ViT with bias; CLIP without), [CLS], positions of the model's own size.
    out.params = c * p * p * h + (clip ? 0 : h) + h + (n_own * n_own + 1) * h + (clip ? 2 * h : 0);  // CLIP pre_layrnorm
    const double layer = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h;
    out.params += L * layer + 2 * h;  // final / post LayerNorm
    if (a.num_labels) out.params += h * a.num_labels + a.num_labels;  // classifier
    out.params += h * a.add_embed_dim;                                // CLIP visual projection
    const double n = std::floor(px / p);
    const double T = n * n + 1;
    out.fwd_flops = 2 * c * p * p * h * (T - 1) + L * (2 * (layer - 4 * h) * T + 4 * T * T * h) +
                    2 * h * double(a.num_labels + a.add_embed_dim);
    out.saved = T * (L * block_saved(h, i) + h);
    out.saved_ckpt = T * (L * h + block_saved(h, i));
    out.infer_peak = T * (2 * h + i);
    out.lora_dims = L * 4 * (h + h);
    if (px != double(a.image_size) && a.image_size > 0)
        out.error.clear();  // positions are interpolated (interpolate_pos_encoding); params stay the model's
    return out;
}

// [SECTION] Diffusion

double unet_resnet(double i, double o, double t) { return 2 * i + 9 * i * o + o + t * o + o + 2 * o + 9 * o * o + o + (i != o ? i * o + o : 0); }
// Transformer2DModel: GroupNorm, proj_in, n BasicTransformerBlocks (self-attn without q/k/v
// biases, cross-attn from `ctx`, GEGLU feed-forward 4c), proj_out.
double unet_transformer(double c, double n, double ctx) {
    const double blk = 2 * c + 3 * c * c + c * c + c + 2 * c + c * c + 2 * ctx * c + c * c + c + 2 * c + c * 8 * c + 8 * c + 4 * c * c + c;
    return 2 * c + c * c + c + n * blk + c * c + c;
}

Walk unet(const ModelArch& a, double px) {
    Walk out;
    const std::vector<double> ch = list_of(a.stage_widths), td = list_of(a.stage_depths);
    if (ch.empty() || td.size() != ch.size() + 1 || a.layers_per_block == 0) {
        out.error = "block_out_channels, transformer_layers_per_block and layers_per_block: need one entry per block";
        return out;
    }
    const double L = a.layers_per_block, ctx = a.context_dim, inc = a.num_channels ? double(a.num_channels) : 4.0;
    const double c0 = ch[0], t = 4 * c0;
    const double side0 = std::floor(px / 8);  // the VAE's 8× smaller latent
    const double ctx_tokens = 77;
    double macs = 0, saved = 0, block_in = 0, largest = 0, skips = 0, live = 0;
    auto res = [&](double i, double o, double hw) {
        out.params += unet_resnet(i, o, t);
        macs += 9 * i * o * hw + 9 * o * o * hw + (i != o ? i * o * hw : 0);
        const double kept = 3 * i * hw + 3 * o * hw;  // GroupNorm, SiLU, conv inputs of both halves
        saved += kept;
        block_in += i * hw;
        largest = std::max(largest, kept);
        live = std::max(live, skips + 3 * std::max(i, o) * hw);
    };
    auto attn = [&](double c, double n, double hw) {
        if (n == 0) return;
        out.params += unet_transformer(c, n, ctx);
        out.lora_dims += n * (4 * (c + c) + (c + c) + 2 * (ctx + c) + (c + c));  // attn1 q,k,v,out; attn2 q, k, v, out
        // proj_in/out and per block: attn1 q,k,v,o (4c²), attn2 q,o (2c²) + k,v over the text, GEGLU 8c² + 4c².
        macs += 2 * c * c * hw + n * ((4 * c * c + 2 * c * c + 12 * c * c) * hw + 2 * ctx * c * ctx_tokens) +
                n * (2 * hw * hw * c + 2 * hw * ctx_tokens * c);  // attention scores and values
        const double kept = n * 30 * c * hw + 3 * c * hw;
        saved += kept;
        block_in += c * hw;
        largest = std::max(largest, 30 * c * hw);
        live = std::max(live, skips + 12 * c * hw);
    };
    out.params += 9 * inc * c0 + c0 + c0 * t + t + t * t + t;  // conv_in, time embedding
    if (a.add_embed_dim) out.params += a.add_embed_dim * t + t + t * t + t;  // SDXL add_embedding
    double side = side0, prev = c0;
    macs += 9 * inc * c0 * side * side;
    std::vector<double> skip{c0};
    skips = c0 * side * side;
    for (std::size_t b = 0; b < ch.size(); ++b) {
        const double hw = side * side;
        for (double j = 0; j < L; ++j) {
            res(j == 0 ? prev : ch[b], ch[b], hw);
            attn(ch[b], td[b], hw);
            skip.push_back(ch[b]);
            skips += ch[b] * hw;
        }
        prev = ch[b];
        if (b + 1 < ch.size()) {
            side = std::floor(side / 2);
            out.params += 9 * ch[b] * ch[b] + ch[b];
            macs += 9 * ch[b] * ch[b] * side * side;
            skip.push_back(ch[b]);
            skips += ch[b] * side * side;
        }
    }
    const double cm = ch.back(), hwm = side * side;
    res(cm, cm, hwm);
    attn(cm, td.back(), hwm);
    res(cm, cm, hwm);
    for (std::size_t r = ch.size(); r-- > 0;) {
        const double hw = side * side;
        for (double j = 0; j <= L; ++j) {
            const double s = skip.back();
            skip.pop_back();
            res((j == 0 ? prev : ch[r]) + s, ch[r], hw);
            attn(ch[r], td[r], hw);
        }
        prev = ch[r];
        if (r > 0) {
            out.params += 9 * ch[r] * ch[r] + ch[r];
            side = side * 2;
            macs += 9 * ch[r] * ch[r] * side * side;
        }
    }
    out.params += 2 * c0 + 9 * c0 * inc + inc;
    macs += 9 * c0 * inc * side * side;
    out.frozen = a.frozen_params;
    out.cfg = 2;  // classifier-free guidance: a conditional and an unconditional pass per step
    out.fwd_flops = out.cfg * 2 * macs;
    out.saved = saved;
    out.saved_ckpt = block_in + largest;
    out.infer_peak = out.cfg * live;
    out.vae_decode_flops = vae_decode_flops(px);
    out.vae_decode_peak = vae_decode_peak(px);
    out.vae_fp32 = a.context_dim == 2048;  // SDXL: its VAE config sets force_upcast (the pipeline upcasts it)
    return out;
}

Walk flux(const ModelArch& a, double px) {
    Walk out;
    const double d = a.hidden_size, hd = a.head_dim, inc = a.num_channels ? double(a.num_channels) : 64.0;
    const double j = a.context_dim, pool = a.add_embed_dim;
    out.params = (a.guidance_embeds ? 2 : 1) * (256 * d + d + d * d + d) + pool * d + d + d * d + d + j * d + d + inc * d + d;
    const double stream = d * 6 * d + 6 * d + 3 * (d * d + d) + 2 * hd + (d * d + d) + (d * 4 * d + 4 * d + 4 * d * d + d);
    const double dbl = 2 * stream;
    const double sgl = d * 3 * d + 3 * d + d * 4 * d + 4 * d + 5 * d * d + d + 3 * (d * d + d) + 2 * hd;
    const double Ld = a.num_layers, Ls = a.single_layers;
    out.params += Ld * dbl + Ls * sgl + d * 2 * d + 2 * d + d * inc + inc;
    out.frozen = a.frozen_params;
    // Latent 1/8 of the image, packed 2×2 into tokens; 512 T5 tokens (FluxPipeline max_sequence_length).
    const double side = std::floor(px / 16);
    const double Ti = side * side, Tt = 512, T = Ti + Tt;
    const double stream_linear = 3 * d * d + d * d + 8 * d * d;  // q,k,v, out, MLP (the modulation is per image, not per token)
    out.fwd_flops = 2 * Ld * stream_linear * T + 2 * Ls * (3 * d * d + 4 * d * d + 5 * d * d) * T + 4 * (Ld + Ls) * T * T * d +
                    2 * (j * d * Tt + inc * d * Ti + d * inc * Ti);
    out.saved = T * (Ld + Ls) * block_saved(d, 4 * d);
    out.saved_ckpt = T * ((Ld + Ls) * d + block_saved(d, 4 * d));
    out.infer_peak = T * (3 * d + 4 * d);
    out.lora_dims = Ld * 2 * 4 * (2 * d) + Ls * 3 * (2 * d);
    out.vae_decode_flops = vae_decode_flops(px);
    out.vae_decode_peak = vae_decode_peak(px);
    return out;
}

// [SECTION] Whisper

Walk whisper(const ModelArch& a) {
    Walk out;
    const double d = a.hidden_size, ffn = a.intermediate_size, Le = a.encoder_layers, Ld = a.num_layers;
    const double mel = a.num_mel_bins, src = a.source_positions, V = a.vocab_size, tgt = a.max_position_embeddings;
    const double attn = 4 * d * d + 3 * d;  // q, v, o with bias; k without
    const double mlp = d * ffn + ffn + ffn * d + d;
    const double enc_layer = attn + 2 * d + mlp + 2 * d;
    const double dec_layer = 2 * attn + 3 * 2 * d + mlp;
    const double conv = mel * 3 * d + d + d * 3 * d + d;
    out.params = conv + src * d + Le * enc_layer + 2 * d + V * d + tgt * d + Ld * dec_layer + 2 * d;
    // One 30 s window: 3000 mel frames, conv stride 2 → 1500 encoder tokens.
    const double T = src;
    // The encoder, then every decoder layer's cross-attention K and V of its output (made once per window).
    out.encode_flops = 2 * (mel * 3 * d * 2 * T + 3 * d * d * T) + Le * (2 * (4 * d * d + 2 * d * ffn) * T + 4 * T * T * d) +
                       Ld * 2 * 2 * d * d * T;
    const double O = k_whisper_tokens_per_window;
    // Per generated token: self-attn, cross-attn q and o (their k,v of the encoder are made once), MLP,
    // the output projection (tied to the embedding), attention over the window and the context so far.
    out.decode_flops_per_token = 2 * (Ld * (4 * d * d + 2 * d * d + 2 * d * ffn) + V * d) + Ld * 4 * d * (T + O / 2);
    out.fwd_flops = out.encode_flops + O * out.decode_flops_per_token;
    out.decode_params = Ld * (4 * d * d + 2 * d * d + 2 * d * ffn) + V * d;
    out.kv_per_token = Ld * 2 * d;
    out.cross_kv = Ld * 2 * d * T;
    // Training (fine-tuning on 30 s windows with their transcripts): encoder blocks over 1500 tokens,
    // decoder blocks over the transcript.
    out.saved = T * (Le * block_saved(d, ffn) + 2 * d) + O * Ld * (block_saved(d, ffn) + 6 * d);
    out.saved_ckpt = T * (Le * d + block_saved(d, ffn)) + O * Ld * d;
    out.infer_peak = T * (2 * d + ffn);
    out.lora_dims = (Le + 2 * Ld) * 4 * (2 * d);
    return out;
}

}  // namespace

// [SECTION] walk

namespace {

// The walks loop over blocks: bound what a hand-made architecture (a share link's cfg.* fields)
// can ask for, far above any released model (ResNet-1001 has 333 blocks; SDXL 10 layers per block).
constexpr double k_max_blocks = 10'000, k_max_layers_per_block = 64;

std::string too_large(const ModelArch& a) {
    double blocks = 0;
    for (double d : list_of(a.stage_depths)) blocks += d;
    if (blocks > k_max_blocks) return "depths: more than 10000 blocks in all";
    if (static_cast<double>(a.layers_per_block) > k_max_layers_per_block) return "layers_per_block: more than 64";
    if (static_cast<double>(a.image_size) > 16384) return "image_size: more than 16384 px";
    return {};
}

}  // namespace

Walk walk(const ModelArch& a, std::int64_t image_size) {
    if (std::string e = too_large(a); !e.empty()) {
        Walk w;
        w.error = e;
        return w;
    }
    int native = static_cast<int>(a.image_size);
    if (native == 0) native = a.kind == "whisper" ? 0 : 224;
    const double px = image_size > 0 ? double(image_size) : double(native);
    Walk w;
    if (a.kind == "cnn") w = a.model_type == "convnext" ? convnext(a, px) : resnet(a, px);
    else if (a.kind == "vit") w = vit(a, px);
    else if (a.kind == "unet") w = unet(a, px);
    else if (a.kind == "dit") w = flux(a, px);
    else if (a.kind == "whisper") w = whisper(a);
    else w.error = "not a sample kind";
    w.frozen = a.frozen_params;
    w.native_image_size = native;
    return w;
}

// [SECTION] parse_kind_config

namespace {

struct Keys {
    const json& obj;
    std::string error_key, error;
    const json* find(const char* k) const {
        auto it = obj.find(k);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }
    bool fail(const char* k, const std::string& msg) {
        if (error.empty()) error_key = k, error = std::string(k) + ": " + msg;
        return false;
    }
    // A whole number in [lo, 2^32); `required` fails when absent.
    bool u64(const char* k, std::uint64_t& out, bool required, std::uint64_t lo = 1) {
        const json* v = find(k);
        if (!v) return required ? fail(k, "required (a whole number)") : true;
        const auto i = detail::as_int(*v, static_cast<std::int64_t>(lo), 4294967295LL);
        if (!i) return fail(k, "expected a whole number ≥ " + std::to_string(lo) + ", got " + detail::show(*v));
        out = static_cast<std::uint64_t>(*i);
        return true;
    }
    // A list of whole numbers as "a,b,c" (an integer alone is repeated `repeat` times).
    bool list(const char* k, std::string& out, bool required, std::size_t repeat = 0, std::uint64_t lo = 1) {
        const json* v = find(k);
        if (!v) return required ? fail(k, "required (a list of whole numbers)") : true;
        std::vector<std::int64_t> xs;
        if (v->is_array()) {
            if (v->empty() || v->size() > 8) return fail(k, "expected a list of 1 to 8 whole numbers, got " + detail::show(*v));
            for (const json& x : *v) {
                const auto i = detail::as_int(x, static_cast<std::int64_t>(lo), 1'000'000);
                if (!i) return fail(k, "expected whole numbers ≥ " + std::to_string(lo) + ", got " + detail::show(*v));
                xs.push_back(*i);
            }
        } else if (repeat > 0) {
            const auto i = detail::as_int(*v, static_cast<std::int64_t>(lo), 1'000'000);
            if (!i) return fail(k, "expected a whole number or a list, got " + detail::show(*v));
            xs.assign(repeat, *i);
        } else {
            return fail(k, "expected a list of whole numbers, got " + detail::show(*v));
        }
        out.clear();
        for (std::size_t n = 0; n < xs.size(); ++n) out += (n ? "," : "") + std::to_string(xs[n]);
        return true;
    }
    std::uint64_t labels() const {
        if (const json* l = find("id2label"); l && l->is_object()) return l->size();
        if (const json* n = find("num_labels"); n) {
            const auto i = detail::as_int(*n, 0, 1'000'000);
            if (i) return static_cast<std::uint64_t>(*i);
        }
        return 0;
    }
};

Result<ModelArch> finish(const Keys& k, ModelArch a, Notes warnings) {
    if (!k.error.empty()) return Result<ModelArch>::failure({"bad_model", "hf_config: " + k.error, k.error_key}, warnings);
    const Walk w = walk(a, 0);
    if (!w.error.empty()) return Result<ModelArch>::failure({"bad_model", "hf_config: " + w.error, ""}, warnings);
    return Result<ModelArch>::success(a, warnings);
}

std::size_t list_size(const std::string& t) { return t.empty() ? 0 : static_cast<std::size_t>(std::count(t.begin(), t.end(), ',')) + 1; }

Result<ModelArch> parse_cnn(const json& root, const std::string& mt) {
    Keys k{root, {}, {}};
    ModelArch a;
    Notes warnings;
    a.model_type = mt;
    a.kind = "cnn";
    a.num_channels = 3;
    a.image_size = 224;
    k.u64("num_channels", a.num_channels, false);
    k.u64("image_size", a.image_size, false, 16);
    k.list("depths", a.stage_depths, true);
    k.list("hidden_sizes", a.stage_widths, true);
    if (mt == "resnet") {
        a.hidden_size = 64;
        k.u64("embedding_size", a.hidden_size, false);
        std::string layer = "bottleneck";
        if (const json* t = k.find("layer_type"); t && t->is_string()) layer = t->get<std::string>();
        if (layer != "bottleneck" && layer != "basic") k.fail("layer_type", "expected \"bottleneck\" or \"basic\"");
        a.bottleneck = layer == "bottleneck";
        if (const json* f = k.find("downsample_in_first_stage"); f && f->is_boolean() && f->get<bool>())
            warnings.add("hf_config: downsample_in_first_stage true: activations sized as without it",
                         "hf_config:downsample_in_first_stage 为 true:激活按未设置时计算");
    } else {
        a.hidden_size = 0;  // the stem's width, set below
        a.patch_size = 4;
        k.u64("patch_size", a.patch_size, false);
        if (a.patch_size != 4) k.fail("patch_size", "only ConvNeXt's 4×4 stem is modelled");
    }
    if (k.error.empty() && list_size(a.stage_depths) != list_size(a.stage_widths))
        k.fail("hidden_sizes", "needs as many entries as depths (" + a.stage_depths + ")");
    if (a.hidden_size == 0 && !list_of(a.stage_widths).empty()) a.hidden_size = static_cast<std::uint64_t>(list_of(a.stage_widths).front());
    a.num_labels = k.labels();
    if (a.num_labels == 0)
        warnings.add("hf_config: no id2label / num_labels: counted without a classifier head",
                     "hf_config:没有 id2label / num_labels:不计分类头");
    a.num_layers = 1;  // not a transformer: kept non-zero for the callers that check it
    return finish(k, a, warnings);
}

Result<ModelArch> parse_whisper(const json& root) {
    Keys k{root, {}, {}};
    ModelArch a;
    Notes warnings;
    a.model_type = "whisper";
    a.kind = "whisper";
    a.encoder = false;
    a.layer_norm = true;
    k.u64("d_model", a.hidden_size, true);
    k.u64("encoder_layers", a.encoder_layers, true);
    k.u64("decoder_layers", a.num_layers, true);
    k.u64("decoder_attention_heads", a.num_heads, true);
    k.u64("decoder_ffn_dim", a.intermediate_size, true);
    std::uint64_t enc_ffn = a.intermediate_size;
    k.u64("encoder_ffn_dim", enc_ffn, false);
    if (k.error.empty() && enc_ffn != a.intermediate_size)
        k.fail("encoder_ffn_dim", "must equal decoder_ffn_dim (every Whisper size has one MLP width)");
    k.u64("vocab_size", a.vocab_size, true);
    a.num_mel_bins = 80;
    a.source_positions = 1500;
    a.max_position_embeddings = 448;
    k.u64("num_mel_bins", a.num_mel_bins, false);
    k.u64("max_source_positions", a.source_positions, false);
    k.u64("max_target_positions", a.max_position_embeddings, false);
    if (k.error.empty() && a.hidden_size % a.num_heads != 0) k.fail("decoder_attention_heads", "must divide d_model");
    if (k.error.empty()) {
        a.num_kv_heads = a.num_heads;
        a.head_dim = a.hidden_size / a.num_heads;
    }
    return finish(k, a, warnings);
}

// Text encoders and VAE the pipeline loads beside its denoiser, known from the width the denoiser
// reads the text at (the diffusers pipelines of SD 1.x, SD 2.x, SDXL and Flux).
std::uint64_t frozen_for(const std::string& cls, std::uint64_t ctx, Notes& warnings) {
    const double clip_l = clip_text_params(49408, 768, 12, 3072, 0);
    double p = 0;
    std::string what, what_zh;
    if (cls == "FluxTransformer2DModel") {
        p = clip_l + t5_encoder_params(32128, 4096, 24, 10240, 64, 4096) + vae_params(16, false);
        what = "CLIP ViT-L/14 text + T5-XXL encoder + 16-channel VAE (FLUX.1)";
        what_zh = "CLIP ViT-L/14 文本编码器 + T5-XXL 编码器 + 16 通道 VAE(FLUX.1)";
    } else if (ctx == 768) {
        p = clip_l + vae_params(4, true);
        what = "CLIP ViT-L/14 text + VAE (Stable Diffusion 1.x)";
        what_zh = "CLIP ViT-L/14 文本编码器 + VAE(Stable Diffusion 1.x)";
    } else if (ctx == 1024) {
        p = clip_text_params(49408, 1024, 23, 4096, 0) + vae_params(4, true);
        what = "OpenCLIP ViT-H text + VAE (Stable Diffusion 2.x)";
        what_zh = "OpenCLIP ViT-H 文本编码器 + VAE(Stable Diffusion 2.x)";
    } else if (ctx == 2048) {
        p = clip_l + clip_text_params(49408, 1280, 32, 5120, 1280) + vae_params(4, true);
        what = "CLIP ViT-L/14 text + OpenCLIP ViT-bigG text + VAE (SDXL)";
        what_zh = "CLIP ViT-L/14 文本编码器 + OpenCLIP ViT-bigG 文本编码器 + VAE(SDXL)";
    } else {
        warnings.add("hf_config: cross_attention_dim " + std::to_string(ctx) +
                         " matches no known pipeline: text encoders and VAE not counted",
                     "hf_config:cross_attention_dim " + std::to_string(ctx) + " 不对应任何已知流水线:不计文本编码器和 VAE");
        return 0;
    }
    const std::string n = std::to_string(static_cast<std::uint64_t>(p));
    warnings.add("hf_config: the pipeline's " + what + " counted as " + n + " frozen parameters",
                 "hf_config:流水线的 " + what_zh + " 计为 " + n + " 个冻结参数");
    return static_cast<std::uint64_t>(p);
}

Result<ModelArch> parse_unet(const json& root) {
    Keys k{root, {}, {}};
    ModelArch a;
    Notes warnings;
    a.model_type = "unet_2d_condition";
    a.kind = "unet";
    a.num_channels = 4;
    k.u64("in_channels", a.num_channels, false);
    k.list("block_out_channels", a.stage_widths, true);
    a.layers_per_block = 2;
    k.u64("layers_per_block", a.layers_per_block, false);
    k.u64("cross_attention_dim", a.context_dim, true);
    std::uint64_t sample = 64;
    k.u64("sample_size", sample, false);
    a.image_size = sample * 8;
    const std::size_t blocks = list_size(a.stage_widths);
    std::string tl = "1";
    for (std::size_t i = 1; i < blocks; ++i) tl += ",1";
    k.list("transformer_layers_per_block", tl, false, blocks);
    // Down blocks without attention (DownBlock2D) have no transformer.
    std::vector<bool> cross(blocks, true);
    if (const json* types = k.find("down_block_types")) {
        if (!types->is_array() || types->size() != blocks) k.fail("down_block_types", "needs one entry per block_out_channels");
        else
            for (std::size_t i = 0; i < blocks; ++i)
                cross[i] = (*types)[i].is_string() && (*types)[i].get<std::string>().find("CrossAttn") != std::string::npos;
    }
    std::vector<double> layers = list_of(tl);
    if (k.error.empty() && layers.size() != blocks) k.fail("transformer_layers_per_block", "needs one entry per block_out_channels");
    if (k.error.empty()) {
        std::string depths;
        for (std::size_t i = 0; i < blocks; ++i) depths += std::to_string(cross[i] ? static_cast<std::uint64_t>(layers[i]) : 0) + ",";
        depths += std::to_string(static_cast<std::uint64_t>(layers.back()));  // UNetMidBlock2DCrossAttn
        a.stage_depths = depths;
    }
    if (const json* add = k.find("addition_embed_type"); add && add->is_string()) {
        if (add->get<std::string>() != "text_time") k.fail("addition_embed_type", "only SDXL's \"text_time\" is modelled");
        k.u64("projection_class_embeddings_input_dim", a.add_embed_dim, true);
    }
    if (const json* mid = k.find("mid_block_type"); mid && mid->is_string() && mid->get<std::string>() != "UNetMidBlock2DCrossAttn")
        k.fail("mid_block_type", "only UNetMidBlock2DCrossAttn is modelled");
    if (k.error.empty()) a.frozen_params = frozen_for("UNet2DConditionModel", a.context_dim, warnings);
    a.hidden_size = blocks ? static_cast<std::uint64_t>(list_of(a.stage_widths).front()) : 0;
    a.num_layers = 1;
    return finish(k, a, warnings);
}

Result<ModelArch> parse_flux(const json& root) {
    Keys k{root, {}, {}};
    ModelArch a;
    Notes warnings;
    a.model_type = "flux";
    a.kind = "dit";
    a.num_channels = 64;
    a.image_size = 1024;
    k.u64("in_channels", a.num_channels, false);
    std::uint64_t patch = 1;
    k.u64("patch_size", patch, false);
    if (k.error.empty() && patch != 1) k.fail("patch_size", "only FLUX's patch_size 1 (2×2 packing in the pipeline) is modelled");
    if (const json* out = k.find("out_channels"); out && !(out->is_number_integer() && out->get<std::int64_t>() == static_cast<std::int64_t>(a.num_channels)))
        k.fail("out_channels", "must equal in_channels");
    k.u64("num_layers", a.num_layers, true);
    k.u64("num_single_layers", a.single_layers, true, 0);
    k.u64("attention_head_dim", a.head_dim, true);
    k.u64("num_attention_heads", a.num_heads, true);
    k.u64("joint_attention_dim", a.context_dim, true);
    k.u64("pooled_projection_dim", a.add_embed_dim, true);
    if (const json* g = k.find("guidance_embeds"); g && g->is_boolean()) a.guidance_embeds = g->get<bool>();
    a.hidden_size = a.head_dim * a.num_heads;
    a.num_kv_heads = a.num_heads;
    if (k.error.empty()) a.frozen_params = frozen_for("FluxTransformer2DModel", a.context_dim, warnings);
    return finish(k, a, warnings);
}

}  // namespace

bool parse_kind_config(const json& root, const std::string& model_type, Result<ModelArch>& out) {
    std::string cls;
    if (auto it = root.find("_class_name"); it != root.end() && it->is_string()) cls = it->get<std::string>();
    if (model_type == "resnet" || model_type == "convnext") out = parse_cnn(root, model_type);
    else if (model_type == "whisper") out = parse_whisper(root);
    else if (cls == "UNet2DConditionModel") out = parse_unet(root);
    else if (cls == "FluxTransformer2DModel") out = parse_flux(root);
    else if (!cls.empty())
        out = Result<ModelArch>::failure({"unsupported", "hf_config: diffusers " + cls.substr(0, 64) +
                                                             " is not modelled (UNet2DConditionModel and FluxTransformer2DModel are)",
                                          "_class_name"});
    else return false;
    return true;
}

}  // namespace gpusizer::kinds
