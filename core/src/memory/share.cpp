// Weights and parameters on the most loaded GPU of a layout: linears ÷ tp, routed experts ÷ (tp · ep),
// norms and routers replicated, embedding and LM head vocab-parallel on the first / last pipeline
// stage (Megatron theoretical_memory_usage.py "most loaded shard"; vLLM get_num_kv_heads for KV
// projections replicated when tp > k). llama.cpp keeps the input embedding and the layers beyond
// -ngl in host memory (llama-model.cpp load_tensors).
#include <algorithm>
#include <cmath>

#include "steps.hpp"

namespace gpusizer::memory {

Share share_on_gpu(const Job& j, MemoryDetail& out) {
    const ModelArch& a = j.a;
    const ParamDetail& pd = j.pd;
    const double t = j.t, ep = j.ep;
    Share sh;
    const WeightBytesByPart wb = weight_bytes_by_part(a, j.pd, j.s.weight_dtype);

    // Attention per GPU: KV projections are replicated when tp > k (each rank keeps one whole KV head).
    const double k = static_cast<double>(a.num_kv_heads ? a.num_kv_heads : 1);
    double attn_gpu = wb.attention / t;
    if (a.kv_lora_rank == 0 && k < t && wb.attention > 0) {
        const double kv_share = 2 * k / (2 * k + 2 * static_cast<double>(a.num_heads));
        attn_gpu = wb.attention * (1 - kv_share) / t + wb.attention * kv_share / k;
    }
    const double dense_layer_w = attn_gpu + wb.layer_norms + wb.dense_mlp / t;
    const double moe_layer_w = attn_gpu + wb.layer_norms + wb.expert / (t * ep) + wb.shared / t + wb.router;

    // llama.cpp -ngl n: the last n repeating layers on the GPU; the output layer counts as layer
    // n_layer and moves only when n > n_layer; the input embedding always stays on the CPU ("very
    // little benefit to offloading the input layer"), a tied model still holds the table on the
    // GPU as its output matrix.
    const bool llama_cpp = !j.train && j.s.engine == Engine::llama_cpp;
    double gpu_layers = j.layers;
    bool output_on_gpu = true;
    if (llama_cpp && j.s.gpu_layers) {
        const double n = static_cast<double>(*j.s.gpu_layers);
        gpu_layers = std::fmin(n, j.layers);
        output_on_gpu = n > j.L;
        if (n > j.L + 1)
            out.warnings.add("gpu_layers: " + num(n) + " is more than the model's " + num(j.L) +
                                 " layers + output; every layer is on the GPU",
                             "gpu_layers:" + num(n) + " 多于模型的 " + num(j.L) + " 层加输出层;所有层都在 GPU 上");
    }
    sh.gpu_layers = gpu_layers;
    sh.kv_layer_fraction = j.layers > 0 ? gpu_layers / j.layers : 1;
    const double gpu_moe = std::fmin(j.moe_layers, gpu_layers), gpu_dense = gpu_layers - gpu_moe;
    const double layers_w = gpu_dense * dense_layer_w + gpu_moe * moe_layer_w;
    const double cpu_layers_w = (j.dense_layers - gpu_dense) * dense_layer_w + (j.moe_layers - gpu_moe) * moe_layer_w;

    const double embedding_gpu = llama_cpp && wb.lm_head > 0 ? 0 : wb.embedding / t;
    const double lm_head_gpu = output_on_gpu ? wb.lm_head / t + wb.final_norm : 0;
    const double first_extra = embedding_gpu + wb.extra + wb.head_extra;
    const double ends_w = j.l.pp == 1 ? first_extra + lm_head_gpu : std::fmax(first_extra, lm_head_gpu);
    sh.weights = layers_w + ends_w;
    if (llama_cpp) sh.host_weights = (wb.embedding - embedding_gpu * t) + cpu_layers_w + (output_on_gpu ? 0 : wb.lm_head + wb.final_norm);

    // The same split for parameter counts (training states are per parameter).
    const double f_attn = static_cast<double>(pd.attention) / t, f_norm = static_cast<double>(pd.layer_norms);
    const double dense_layer_p = f_attn + f_norm + static_cast<double>(pd.dense_mlp) / t;
    const double moe_dense_p = f_attn + f_norm + static_cast<double>(pd.shared) / t + static_cast<double>(pd.router);
    const double moe_expert_p = static_cast<double>(a.num_experts) * static_cast<double>(pd.expert) / (t * ep);
    const double first_p = static_cast<double>(pd.embedding + pd.extra + pd.head_extra) / t;
    const double last_p = static_cast<double>(pd.lm_head + pd.final_norm) / t;
    const double ends_p = j.l.pp == 1 ? first_p + last_p : std::fmax(first_p, last_p);
    sh.params_dense = j.dense_layers * dense_layer_p + j.moe_layers * moe_dense_p + ends_p;
    sh.params_expert = j.moe_layers * moe_expert_p;
    sh.decoder_layer = std::fmax(j.dense_layers > 0 ? dense_layer_p : 0, j.moe_layers > 0 ? moe_dense_p + moe_expert_p : 0);
    sh.largest_layer = std::fmax(sh.decoder_layer,
                                 std::fmax(static_cast<double>(pd.embedding), static_cast<double>(pd.lm_head)) / t);
    // The LM head sits on the last stage (tied: the embedding doubles as it, on the first).
    sh.lm_head_params = static_cast<double>(pd.lm_head > 0 ? pd.lm_head : pd.embedding) / t;
    sh.norm_params = j.layers * f_norm + static_cast<double>(pd.final_norm);
    sh.embedding_params = j.l.pp == 1 ? static_cast<double>(pd.embedding + pd.lm_head) / t
                                      : std::fmax(static_cast<double>(pd.embedding), static_cast<double>(pd.lm_head)) / t;
    return sh;
}

std::string weights_formula(const Job& j, const Share& sh) {
    const WeightDtype w = j.s.weight_dtype;
    const std::string note = stored_weights_note(j.a, w);
    const std::string stored =
        stored_quantization_applies(j.a, w)
            ? note
            : std::string(to_string(w)) + " (" + num(weight_bits(w)) + " bits per quantized weight; embeddings, LM head, " +
                  "norms kept 16-bit" + (w >= WeightDtype::gguf_q2_k ? ", llama.cpp per-tensor type mix" : "") + ")";
    return stored + ", ÷ tp " + num(j.t) + ", " + num(sh.gpu_layers) + " of " + num(j.L) + " layers on this GPU";
}

}  // namespace gpusizer::memory
