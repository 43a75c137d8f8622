#pragma once
// Allowed ranges of scenario values, enforced by the JSON parser, the share-link decoder and
// the CLI alike (and used by the UI for slider bounds). Values outside are errors naming the
// key and the range; absurd-but-legal values inside compute without overflow and may warn.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/result.hpp"
#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_keys.hpp"

namespace gpusizer {

struct IntLimit {
    std::int64_t lo, hi;
    bool contains(std::int64_t v) const { return v >= lo && v <= hi; }
};
struct RealLimit {
    double lo, hi;
    bool lo_open;  // (lo, hi] when true, else [lo, hi]
    bool contains(double v) const { return v == v && (lo_open ? v > lo : v >= lo) && v <= hi; }
};

inline constexpr IntLimit k_limit_batch_size{1, 1'000'000};
inline constexpr IntLimit k_limit_seq_len{1, 100'000'000};  // 100M tokens: beyond any released model
inline constexpr IntLimit k_limit_tokens{0, 100'000'000};   // prompt_tokens, output_tokens
inline constexpr IntLimit k_limit_lora_rank{1, 65'536};
inline constexpr IntLimit k_limit_zero_stage{0, 3};
inline constexpr IntLimit k_limit_num_gpus{1, 1'000'000};
inline constexpr IntLimit k_limit_parallel{1, 65'536};  // tensor, pipeline, expert parallel
inline constexpr RealLimit k_limit_params_b{0, 10'000, true};  // up to 1e13 parameters
inline constexpr RealLimit k_limit_gpu_util{0, 1, true};
inline constexpr RealLimit k_limit_gpu_memory_gib{0, 1'000'000, true};
inline constexpr RealLimit k_limit_train_tokens{0, 1e17, true};
inline constexpr RealLimit k_limit_mfu{0, 1, true};
inline constexpr RealLimit k_limit_budget{0, 1e12, true};
inline constexpr RealLimit k_limit_deadline_hours{0, 1e6, true};
inline constexpr IntLimit k_limit_gpu_layers{0, 1'000'000};        // llama.cpp -ngl (more than the model has = all)
inline constexpr RealLimit k_limit_tokens_per_s{0, 1e12, true};    // target_tokens_per_s
inline constexpr RealLimit k_limit_latency_ms{0, 1e9, true};       // max_tpot_ms, max_ttft_ms
inline constexpr IntLimit k_limit_image_size{16, 16'384};          // pixels per side
inline constexpr IntLimit k_limit_steps{1, 10'000};                 // denoising steps
inline constexpr RealLimit k_limit_train_images{0, 1e13, true};
inline constexpr IntLimit k_limit_epochs{1, 1'000'000};
inline constexpr RealLimit k_limit_audio_seconds{0, 1e12, true};
struct NoLimit {};
inline constexpr NoLimit k_no_limit{};  // keys whose values are not numbers (scenario_keys.hpp)

inline constexpr std::size_t k_max_scenario_bytes = 1 << 20;  // 1 MiB of scenario JSON (config.json pastes fit)
inline constexpr int k_max_json_depth = 64;                   // nesting levels accepted before parsing
inline constexpr std::size_t k_max_id_length = 128;
inline constexpr std::size_t k_max_list_items = 256;          // providers, lora module names

std::string describe_range(const IntLimit& l);   // "[1, 1000000]"
std::string describe_range(const RealLimit& l);  // "(0, 1]"
bool is_valid_id(std::string_view s);            // letters, digits, - _ . ; 1..128 chars

// Fill the defaults that depend on other keys for every key not in `given` (weight_dtype and
// master_weights from task, loss_impl from framework, spot from task), and seq_len from
// prompt + output.
void apply_dependent_defaults(Scenario& s, const GivenKeys& given);
// The keys whose values differ between two scenarios.
GivenKeys changed_keys(const Scenario& a, const Scenario& b);
// The keys of s that differ from the defaults its own task and framework give them — what a
// user must have set (a link or a file opened in an editor starts from these).
GivenKeys keys_off_default(const Scenario& s);
// An editor's change from `before` to `after`: the keys that changed join `after.given` (the user
// set them), and every default that depends on other keys is re-derived for the keys not given —
// the same scenario the CLI resolves from the same keys.
void apply_edit(const Scenario& before, Scenario& after);
// The parallel layout: every size ≥ 1 and tp × pp divides num_gpus (also for scenarios built in code).
std::optional<Error> check_layout(const Scenario& s);
// Cross-key checks (the layout, prompt + output, …): an error, or warnings appended.
std::optional<Error> check_consistency(const Scenario& s, Notes& warnings);

}  // namespace gpusizer
