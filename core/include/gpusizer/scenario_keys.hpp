#pragma once
// Every scenario key, once, in spec order (docs/scenario.md). The JSON parser and printer,
// equality, the CLI's flag typing, the share link's short keys and the list of known keys are
// all made from this one table, so a new key is one line here plus its member in Scenario.
//
//   X(key, link, limit, how)
//   key    the JSON key, which is also the name of the Scenario member
//   link   the share link's short key; never reuse one, old links keep their meaning
//          ("" = not a link key of its own: hf_config travels as cfg.* architecture fields)
//   limit  the allowed range (k_limit_* of scenario_limits.hpp) of a number; k_no_limit otherwise
//   how    field   — read, printed, compared and typed from the member's C++ type: an enum by its
//                    spelling (enums.hpp), bool, a whole number, a number, std::optional = null
//                    when not given
//          text · config · number · targets · list — read and printed by hand in scenario.cpp
//                    (model sources, ids, lists); the word is how CLI and link text is typed
#include <bitset>
#include <cstddef>
#include <initializer_list>

#define GPUSIZER_SCENARIO_KEYS(X)                                             \
    /* The model (exactly one source) */                                      \
    X(model, "m", k_no_limit, text)                                           \
    X(hf_config, "", k_no_limit, config)                                      \
    X(params_b, "p", k_limit_params_b, number)                                \
    /* The work */                                                            \
    X(task, "t", k_no_limit, field)                                           \
    X(weight_dtype, "w", k_no_limit, field)                                   \
    X(kv_cache_dtype, "kv", k_no_limit, field)                                \
    X(batch_size, "b", k_limit_batch_size, field)                             \
    X(seq_len, "s", k_limit_seq_len, field)                                   \
    X(prompt_tokens, "pt", k_limit_tokens, field)                             \
    X(output_tokens, "ot", k_limit_tokens, field)                             \
    X(optimizer, "o", k_no_limit, field)                                      \
    X(master_weights, "mw", k_no_limit, field)                                \
    X(optimizer_in_backward, "oib", k_no_limit, field)                        \
    X(activation_checkpointing, "ac", k_no_limit, field)                      \
    X(attention, "at", k_no_limit, field)                                     \
    X(dropout, "do", k_no_limit, field)                                       \
    X(lora_rank, "r", k_limit_lora_rank, field)                               \
    X(lora_targets, "lt", k_no_limit, targets)                                \
    X(zero_stage, "z", k_limit_zero_stage, field)                             \
    X(offload, "off", k_no_limit, field)                                      \
    X(num_gpus, "n", k_limit_num_gpus, field)                                 \
    X(tensor_parallel, "tp", k_limit_parallel, field)                         \
    X(pipeline_parallel, "pp", k_limit_parallel, field)                       \
    X(expert_parallel, "ep", k_limit_parallel, field)                         \
    X(sequence_parallel, "sp", k_no_limit, field)                             \
    X(framework, "fw", k_no_limit, field)                                     \
    X(loss_impl, "li", k_no_limit, field)                                     \
    X(engine, "e", k_no_limit, field)                                         \
    X(engine_version, "ev", k_no_limit, field)                                \
    X(max_num_batched_tokens, "mbt", k_limit_seq_len, field)                  \
    X(max_num_seqs, "mns", k_limit_batch_size, field)                         \
    X(enforce_eager, "ee", k_no_limit, field)                                 \
    X(gpu_layers, "ngl", k_limit_gpu_layers, field)                           \
    X(gpu_memory_utilization, "u", k_limit_gpu_util, field)                   \
    X(gpu, "g", k_no_limit, text)                                             \
    X(gpu_memory_gib, "gm", k_limit_gpu_memory_gib, field)                    \
    X(train_tokens, "tt", k_limit_train_tokens, field)                        \
    X(mfu, "mfu", k_limit_mfu, field)                                         \
    /* Vision, diffusion and speech jobs (docs/scenario.md, other kinds) */   \
    X(image_size, "img", k_limit_image_size, field)                           \
    X(steps, "st", k_limit_steps, field)                                      \
    X(train_images, "ti", k_limit_train_images, field)                        \
    X(epochs, "epo", k_limit_epochs, field)                                   \
    X(audio_seconds, "as", k_limit_audio_seconds, field)                      \
    /* Where and how to rent */                                               \
    X(region, "rg", k_no_limit, field)                                        \
    X(providers, "pr", k_no_limit, list)                                      \
    X(spot, "spot", k_no_limit, field)                                        \
    X(currency, "cur", k_no_limit, field)                                     \
    X(budget, "bud", k_limit_budget, field)                                   \
    X(deadline_hours, "dl", k_limit_deadline_hours, field)                    \
    X(interconnect, "ic", k_no_limit, field)                                  \
    X(rank_by, "rb", k_no_limit, field)                                       \
    X(target_tokens_per_s, "tps", k_limit_tokens_per_s, field)                \
    X(max_tpot_ms, "tpot", k_limit_latency_ms, field)                         \
    X(max_ttft_ms, "ttft", k_limit_latency_ms, field)

namespace gpusizer {

// One enumerator per key, in table order.
enum class Key : int {
#define GPUSIZER_X(key, link, limit, how) key,
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
};
inline constexpr std::size_t k_key_count = 0
#define GPUSIZER_X(key, link, limit, how) +1
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
    ;

// The keys a user gave; the others take their defaults, some of which depend on given keys
// (apply_dependent_defaults in scenario_limits.hpp).
using GivenKeys = std::bitset<k_key_count>;
inline GivenKeys given_keys(std::initializer_list<Key> keys) {
    GivenKeys g;
    for (Key k : keys) g.set(static_cast<std::size_t>(k));
    return g;
}
inline bool is_given(const GivenKeys& g, Key k) { return g.test(static_cast<std::size_t>(k)); }

}  // namespace gpusizer
