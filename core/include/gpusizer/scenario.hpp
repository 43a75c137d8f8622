#pragma once
// The scenario: everything a user tells gpusizer about one job (docs/scenario.md).
// A Scenario value is always *resolved*: task-dependent defaults (weight dtype, master
// weights, seq_len from prompt+output) are already filled in by the parsers, so two equal
// Scenarios give identical results on every host.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusizer/enums.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/result.hpp"
#include "gpusizer/scenario_keys.hpp"

namespace gpusizer {

enum class ModelSource { preset, hf_config, params_b };

struct Scenario {
    // [SECTION] The model (exactly one source)
    ModelSource source = ModelSource::preset;
    std::string model = "llama-3.1-8b";  // preset id, when source == preset
    ModelArch hf_config;                 // when source == hf_config (architecture fields only)
    double params_b = 0;                 // when source == params_b

    // [SECTION] The work
    Task task = Task::inference;
    WeightDtype weight_dtype = WeightDtype::bf16;  // default nf4 for qlora
    KvDtype kv_cache_dtype = KvDtype::auto_;
    std::int64_t batch_size = 1;
    std::int64_t seq_len = 2048;
    std::optional<std::int64_t> prompt_tokens;  // inference: seq_len = prompt + output
    std::optional<std::int64_t> output_tokens;
    Optimizer optimizer = Optimizer::adamw;
    bool master_weights = false;  // default true for pretrain/full_ft in bf16/fp16
    bool optimizer_in_backward = false;
    Checkpointing activation_checkpointing = Checkpointing::none;
    Attention attention = Attention::flash;
    bool dropout = false;
    std::int64_t lora_rank = 16;
    LoraTargets lora_targets = LoraTargets::all_linear;
    std::vector<std::string> lora_modules;  // when lora_targets == custom, e.g. {"q_proj","v_proj"}
    int zero_stage = 0;
    Offload offload = Offload::none;
    std::int64_t num_gpus = 1;
    std::int64_t tensor_parallel = 1;
    std::int64_t pipeline_parallel = 1;
    std::int64_t expert_parallel = 1;
    bool sequence_parallel = false;
    Framework framework = Framework::hf;   // the training stack (docs/scenario.md: what each one does)
    LossImpl loss_impl = LossImpl::full;   // default set by framework
    Engine engine = Engine::hf;
    EngineVersion engine_version = EngineVersion::v1;        // vLLM
    std::optional<std::int64_t> max_num_batched_tokens;      // vLLM; none = the version's default
    std::optional<std::int64_t> max_num_seqs;                // vLLM; none = the version's default
    bool enforce_eager = false;                              // vLLM: no CUDA graphs
    std::optional<std::int64_t> gpu_layers;                  // llama.cpp -ngl; none = every layer
    double gpu_memory_utilization = 0.9;
    std::string gpu;                        // accelerator id; "" = none
    std::optional<double> gpu_memory_gib;   // custom GPU memory (alone or overriding gpu's)
    std::optional<double> train_tokens;
    std::optional<double> mfu;

    // [SECTION] Where and how to rent
    Region region = Region::any;
    std::vector<std::string> providers;  // empty = all
    SpotPolicy spot = SpotPolicy::never;  // default allow for training, never for inference (an online service)
    Currency currency = Currency::USD;
    std::optional<double> budget;
    std::optional<double> deadline_hours;
    InterconnectNeed interconnect = InterconnectNeed::any;
    RankBy rank_by = RankBy::cost;
    std::optional<double> target_tokens_per_s;  // serving: aggregate output tokens/s to sustain
    std::optional<double> max_tpot_ms;          // serving: time per output token, per user
    std::optional<double> max_ttft_ms;          // serving: time to first token, per user

    // [SECTION] How the scenario was stated (not a key; not compared by operator==)
    // The keys the user gave, filled by the parsers (JSON, CLI flags, share link) and by the
    // page's guided start. The planner keeps a layout key or a memory lever the user gave, even
    // at its default value (docs/speed-and-cost.md "The user's layout"); a share link carries only
    // non-default values, so a given default does not survive a link.
    GivenKeys given;
};

bool operator==(const Scenario& a, const Scenario& b);
inline bool operator!=(const Scenario& a, const Scenario& b) { return !(a == b); }

// Defaults that depend on other keys.
// The framework defaults follow what each stack's own recipes and examples set (docs/scenario.md
// has the table with sources; docs/frameworks.md the code behind it).
WeightDtype default_weight_dtype(Task t);
bool default_master_weights(Task t, WeightDtype w, Framework f = Framework::hf);
LossImpl default_loss_impl(Framework f);
Optimizer default_optimizer(Framework f, Task t);
bool default_optimizer_in_backward(Framework f, Task t);
Checkpointing default_checkpointing(Framework f);
SpotPolicy default_spot(Task t);

// Scenario JSON (CLI --scenario, exports). Unknown keys are warnings; a wrong type or an
// out-of-range value is an error naming the key, the value and the allowed range.
Result<Scenario> parse_scenario_json(std::string_view json_text);
// Every key, defaults filled in, as one JSON object (compact, keys in spec order).
std::string scenario_to_json(const Scenario& s);
// Only the keys the user gave (s.given), so that parsing it gives the same scenario with the same
// keys given: a share link opened by the CLI or the desktop as base for more flags (the page
// keeps the decoded scenario itself). Parsing scenario_to_json would mark every key given, and
// the planner would keep every default as a user's choice (one GPU, no levers).
std::string scenario_given_to_json(const Scenario& s);

// A base scenario JSON ("{}" for defaults) with key=value overrides given as text, as the CLI
// flags give them (`--batch_size 8`, `--providers aws,gcp`, `--hf_config '{…}'`). Values are
// typed by key; the same validation as parse_scenario_json applies, errors name the key.
using TextOverrides = std::vector<std::pair<std::string, std::string>>;
Result<Scenario> parse_scenario_overrides(std::string_view base_json, const TextOverrides& overrides);

// Every scenario key in spec order (the JSON keys of docs/scenario.md).
const std::vector<std::string>& scenario_keys();

}  // namespace gpusizer
