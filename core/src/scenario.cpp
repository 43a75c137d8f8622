// Scenario JSON: parse (validated, every problem named) and print (every key, defaults filled).
//
// Index
// [SECTION] Defaults and equality
// [SECTION] Limits (allowed ranges, also used by the share-link codec)
// [SECTION] Parsing
// [SECTION] Printing

#include <cmath>
#include <cstdio>

#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "scenario_internal.hpp"

namespace gpusizer {

using detail::json;
using detail::ojson;

// [SECTION] Defaults and equality

WeightDtype default_weight_dtype(Task t) { return t == Task::qlora ? WeightDtype::nf4 : WeightDtype::bf16; }

// Mixed-precision training keeps an fp32 master copy (ZeRO paper K = 12: master 4 + m 4 + v 4).
bool default_master_weights(Task t, WeightDtype w) {
    return (t == Task::pretrain || t == Task::full_ft) && (w == WeightDtype::bf16 || w == WeightDtype::fp16);
}

bool operator==(const Scenario& a, const Scenario& b) {
    return a.source == b.source && a.model == b.model && a.hf_config == b.hf_config && a.params_b == b.params_b &&
           a.task == b.task && a.weight_dtype == b.weight_dtype && a.kv_cache_dtype == b.kv_cache_dtype &&
           a.batch_size == b.batch_size && a.seq_len == b.seq_len && a.prompt_tokens == b.prompt_tokens &&
           a.output_tokens == b.output_tokens && a.optimizer == b.optimizer &&
           a.master_weights == b.master_weights && a.optimizer_in_backward == b.optimizer_in_backward &&
           a.activation_checkpointing == b.activation_checkpointing && a.attention == b.attention &&
           a.dropout == b.dropout && a.lora_rank == b.lora_rank && a.lora_targets == b.lora_targets &&
           a.lora_modules == b.lora_modules && a.zero_stage == b.zero_stage && a.offload == b.offload &&
           a.num_gpus == b.num_gpus && a.tensor_parallel == b.tensor_parallel &&
           a.pipeline_parallel == b.pipeline_parallel && a.expert_parallel == b.expert_parallel &&
           a.sequence_parallel == b.sequence_parallel && a.engine == b.engine &&
           a.gpu_memory_utilization == b.gpu_memory_utilization && a.gpu == b.gpu &&
           a.gpu_memory_gib == b.gpu_memory_gib && a.train_tokens == b.train_tokens && a.mfu == b.mfu &&
           a.region == b.region && a.providers == b.providers && a.spot == b.spot && a.currency == b.currency &&
           a.budget == b.budget && a.deadline_hours == b.deadline_hours;
}

// [SECTION] Limits

namespace {

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
}

}  // namespace

std::string describe_range(const RealLimit& l) {
    return std::string(l.lo_open ? "(" : "[") + num(l.lo) + ", " + num(l.hi) + "]";
}
std::string describe_range(const IntLimit& l) { return "[" + num(double(l.lo)) + ", " + num(double(l.hi)) + "]"; }

bool is_valid_id(std::string_view s) {
    if (s.empty() || s.size() > k_max_id_length) return false;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.';
        if (!ok) return false;
    }
    return true;
}

void apply_dependent_defaults(Scenario& s, bool weight_dtype_given, bool master_given) {
    if (!weight_dtype_given) s.weight_dtype = default_weight_dtype(s.task);
    if (!master_given) s.master_weights = default_master_weights(s.task, s.weight_dtype);
    if (s.prompt_tokens || s.output_tokens) s.seq_len = s.prompt_tokens.value_or(0) + s.output_tokens.value_or(0);
}

// [SECTION] Parsing

namespace {

struct Reader {
    Scenario s;
    std::vector<std::string> warnings;
    std::optional<Error> error;

    void fail(const std::string& key, const std::string& code, const std::string& msg) {
        if (!error) error = Error{code, key + ": " + msg, key};
    }

    template <class E>
    void enum_key(const json& obj, const char* key, E& out, bool* given = nullptr) {
        if (!obj.contains(key)) return;
        const json& v = obj[key];
        if (!v.is_string()) return fail(key, "bad_type", "expected a string, got " + detail::show(v));
        const auto e = parse_enum<E>(v.get<std::string>());
        if (!e)
            return fail(key, "bad_value",
                        "unknown value " + detail::show(v) + "; allowed: " + allowed_values<E>());
        out = *e;
        if (given) *given = true;
    }

    void bool_key(const json& obj, const char* key, bool& out, bool* given = nullptr) {
        if (!obj.contains(key)) return;
        const json& v = obj[key];
        if (!v.is_boolean()) return fail(key, "bad_type", "expected true or false, got " + detail::show(v));
        out = v.get<bool>();
        if (given) *given = true;
    }

    template <class T>
    void int_key(const json& obj, const char* key, T& out, const IntLimit& lim) {
        if (!obj.contains(key)) return;
        const json& v = obj[key];
        if (!v.is_number()) return fail(key, "bad_type", "expected a whole number, got " + detail::show(v));
        const auto i = detail::as_int(v, lim.lo, lim.hi);
        if (!i)
            return fail(key, "out_of_range",
                        detail::show(v) + " is not a whole number in " + describe_range(lim));
        out = static_cast<T>(*i);
    }

    void opt_int_key(const json& obj, const char* key, std::optional<std::int64_t>& out, const IntLimit& lim) {
        if (!obj.contains(key) || obj[key].is_null()) return;
        std::int64_t v = 0;
        const bool had_error = error.has_value();
        int_key(obj, key, v, lim);
        if (error.has_value() == had_error) out = v;
    }

    void real_key(const json& obj, const char* key, double& out, const RealLimit& lim) {
        if (!obj.contains(key)) return;
        const json& v = obj[key];
        if (!v.is_number()) return fail(key, "bad_type", "expected a number, got " + detail::show(v));
        const double d = v.get<double>();
        if (!lim.contains(d)) return fail(key, "out_of_range", detail::show(v) + " is outside " + describe_range(lim));
        out = d;
    }

    void opt_real_key(const json& obj, const char* key, std::optional<double>& out, const RealLimit& lim) {
        if (!obj.contains(key) || obj[key].is_null()) return;
        double v = 0;
        const bool had_error = error.has_value();
        real_key(obj, key, v, lim);
        if (error.has_value() == had_error) out = v;
    }

    void id_list_key(const json& obj, const char* key, std::vector<std::string>& out) {
        if (!obj.contains(key)) return;
        const json& v = obj[key];
        if (!v.is_array()) return fail(key, "bad_type", "expected a list of names, got " + detail::show(v));
        if (v.size() > k_max_list_items)
            return fail(key, "out_of_range", "at most " + std::to_string(k_max_list_items) + " names");
        out.clear();
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string path = std::string(key) + "[" + std::to_string(i) + "]";
            if (!v[i].is_string() || !is_valid_id(v[i].get<std::string>()))
                return fail(path, "bad_value",
                            "expected a name of letters, digits, '-', '_' or '.', got " + detail::show(v[i]));
            out.push_back(v[i].get<std::string>());
        }
    }
};

// Keys the scenario knows; anything else is reported as a warning.
constexpr const char* k_known_keys[] = {
    "model", "hf_config", "params_b", "task", "weight_dtype", "kv_cache_dtype", "batch_size", "seq_len",
    "prompt_tokens", "output_tokens", "optimizer", "master_weights", "optimizer_in_backward",
    "activation_checkpointing", "attention", "dropout", "lora_rank", "lora_targets", "zero_stage", "offload",
    "num_gpus", "tensor_parallel", "pipeline_parallel", "expert_parallel", "sequence_parallel", "engine",
    "gpu_memory_utilization", "gpu", "gpu_memory_gib", "train_tokens", "mfu", "region", "providers", "spot",
    "currency", "budget", "deadline_hours"};

}  // namespace

Result<Scenario> parse_scenario_object(const json& obj) {
    Reader r;
    if (!obj.is_object())
        return Result<Scenario>::failure({"bad_type", "a scenario is a JSON object, got " + detail::show(obj), ""});

    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        for (const char* k : k_known_keys) known = known || it.key() == k;
        if (!known) r.warnings.push_back("unknown key '" + detail::printable(it.key()) + "' ignored");
    }

    // The model: exactly one source; `model` wins when several are given.
    const bool has_model = obj.contains("model") && !obj["model"].is_null();
    const bool has_cfg = obj.contains("hf_config") && !obj["hf_config"].is_null();
    const bool has_size = obj.contains("params_b") && !obj["params_b"].is_null();
    if (int(has_model) + int(has_cfg) + int(has_size) > 1)
        r.warnings.push_back(std::string("several model sources given; using ") +
                             (has_model ? "model" : "hf_config") + " and ignoring the others");
    if (has_model) {
        const json& v = obj["model"];
        if (!v.is_string() || !is_valid_id(v.get<std::string>()))
            r.fail("model", "bad_value", "expected a model preset id such as \"llama-3.1-8b\", got " + detail::show(v));
        else {
            r.s.source = ModelSource::preset;
            r.s.model = v.get<std::string>();
        }
    } else if (has_cfg) {
        auto arch = arch_from_json_object(obj["hf_config"]);
        for (auto& w : arch.warnings) r.warnings.push_back("hf_config: " + w);
        if (!arch.ok()) {
            Error e = arch.error;
            e.path = e.path.empty() ? "hf_config" : "hf_config." + e.path;
            if (e.message.rfind("hf_config: ", 0) != 0) e.message = "hf_config: " + e.message;  // prefix once
            if (!r.error) r.error = e;
        } else {
            r.s.source = ModelSource::hf_config;
            r.s.hf_config = *arch;
            r.s.model.clear();
        }
    } else if (has_size) {
        r.real_key(obj, "params_b", r.s.params_b, k_limit_params_b);
        r.s.source = ModelSource::params_b;
        r.s.model.clear();
    }

    bool wd_given = false, master_given = false;
    r.enum_key(obj, "task", r.s.task);
    r.enum_key(obj, "weight_dtype", r.s.weight_dtype, &wd_given);
    r.enum_key(obj, "kv_cache_dtype", r.s.kv_cache_dtype);
    r.int_key(obj, "batch_size", r.s.batch_size, k_limit_batch_size);
    r.int_key(obj, "seq_len", r.s.seq_len, k_limit_seq_len);
    r.opt_int_key(obj, "prompt_tokens", r.s.prompt_tokens, k_limit_tokens);
    r.opt_int_key(obj, "output_tokens", r.s.output_tokens, k_limit_tokens);
    r.enum_key(obj, "optimizer", r.s.optimizer);
    r.bool_key(obj, "master_weights", r.s.master_weights, &master_given);
    r.bool_key(obj, "optimizer_in_backward", r.s.optimizer_in_backward);
    r.enum_key(obj, "activation_checkpointing", r.s.activation_checkpointing);
    r.enum_key(obj, "attention", r.s.attention);
    r.bool_key(obj, "dropout", r.s.dropout);
    r.int_key(obj, "lora_rank", r.s.lora_rank, k_limit_lora_rank);
    if (obj.contains("lora_targets") && obj["lora_targets"].is_array()) {
        r.id_list_key(obj, "lora_targets", r.s.lora_modules);
        r.s.lora_targets = LoraTargets::custom;
        if (!r.error && r.s.lora_modules.empty())
            r.fail("lora_targets", "bad_value", "an empty module list trains nothing; give at least one name");
    } else {
        r.enum_key(obj, "lora_targets", r.s.lora_targets);
        if (r.s.lora_targets == LoraTargets::custom)
            r.fail("lora_targets", "bad_value", "\"custom\" is written as a list of module names, e.g. [\"q_proj\",\"v_proj\"]");
    }
    r.int_key(obj, "zero_stage", r.s.zero_stage, k_limit_zero_stage);
    r.enum_key(obj, "offload", r.s.offload);
    r.int_key(obj, "num_gpus", r.s.num_gpus, k_limit_num_gpus);
    r.int_key(obj, "tensor_parallel", r.s.tensor_parallel, k_limit_parallel);
    r.int_key(obj, "pipeline_parallel", r.s.pipeline_parallel, k_limit_parallel);
    r.int_key(obj, "expert_parallel", r.s.expert_parallel, k_limit_parallel);
    r.bool_key(obj, "sequence_parallel", r.s.sequence_parallel);
    r.enum_key(obj, "engine", r.s.engine);
    r.real_key(obj, "gpu_memory_utilization", r.s.gpu_memory_utilization, k_limit_gpu_util);
    if (obj.contains("gpu") && !obj["gpu"].is_null()) {
        const json& v = obj["gpu"];
        if (!v.is_string() || !is_valid_id(v.get<std::string>()))
            r.fail("gpu", "bad_value", "expected an accelerator id such as \"h100_sxm\", got " + detail::show(v));
        else
            r.s.gpu = v.get<std::string>();
    }
    r.opt_real_key(obj, "gpu_memory_gib", r.s.gpu_memory_gib, k_limit_gpu_memory_gib);
    r.opt_real_key(obj, "train_tokens", r.s.train_tokens, k_limit_train_tokens);
    r.opt_real_key(obj, "mfu", r.s.mfu, k_limit_mfu);
    r.enum_key(obj, "region", r.s.region);
    r.id_list_key(obj, "providers", r.s.providers);
    r.enum_key(obj, "spot", r.s.spot);
    r.enum_key(obj, "currency", r.s.currency);
    r.opt_real_key(obj, "budget", r.s.budget, k_limit_budget);
    r.opt_real_key(obj, "deadline_hours", r.s.deadline_hours, k_limit_deadline_hours);

    if (r.error) return Result<Scenario>::failure(*r.error, r.warnings);
    apply_dependent_defaults(r.s, wd_given, master_given);
    if (auto e = check_consistency(r.s, r.warnings)) return Result<Scenario>::failure(*e, r.warnings);
    return Result<Scenario>::success(r.s, r.warnings);
}

std::optional<Error> check_consistency(const Scenario& s, std::vector<std::string>& warnings) {
    if ((s.prompt_tokens || s.output_tokens) && s.seq_len < 1)
        return Error{"out_of_range", "prompt_tokens + output_tokens must be at least 1", "prompt_tokens"};
    if (s.seq_len > k_limit_seq_len.hi)
        return Error{"out_of_range",
                     "prompt_tokens + output_tokens = " + std::to_string(s.seq_len) + " is above the largest seq_len " +
                         std::to_string(k_limit_seq_len.hi),
                     "prompt_tokens"};
    const std::int64_t mp = s.tensor_parallel * s.pipeline_parallel;
    if (mp > s.num_gpus || s.num_gpus % mp != 0)
        return Error{"inconsistent",
                     "num_gpus: " + std::to_string(s.num_gpus) + " is not a multiple of tensor_parallel × pipeline_parallel = " +
                         std::to_string(mp),
                     "num_gpus"};
    if (s.task != Task::inference && (s.prompt_tokens || s.output_tokens))
        warnings.push_back("prompt_tokens/output_tokens are for inference; seq_len is their sum for this training run");
    if (s.task == Task::qlora && s.weight_dtype != WeightDtype::nf4 && s.weight_dtype != WeightDtype::int4_gptq &&
        s.weight_dtype != WeightDtype::int4_awq && s.weight_dtype != WeightDtype::int8)
        warnings.push_back(std::string("qlora with weight_dtype ") + to_string(s.weight_dtype) +
                           " is not quantized; that is LoRA on a frozen base in that dtype");
    return std::nullopt;
}

Result<Scenario> parse_scenario_json(std::string_view text) {
    if (text.size() > k_max_scenario_bytes)
        return Result<Scenario>::failure({"too_large",
                                          "scenario is " + std::to_string(text.size()) + " bytes; the limit is " +
                                              std::to_string(k_max_scenario_bytes),
                                          ""});
    if (!detail::nesting_within(text, k_max_json_depth))
        return Result<Scenario>::failure(
            {"too_deep", "scenario JSON nests deeper than " + std::to_string(k_max_json_depth) + " levels", ""});
    const json obj = json::parse(text, nullptr, false);
    if (obj.is_discarded()) {
        const std::string place = detail::syntax_error_place(text);
        return Result<Scenario>::failure(
            {"bad_json", "scenario is not valid JSON" + (place.empty() ? std::string() : ": " + place), ""});
    }
    Result<Scenario> r = parse_scenario_object(obj);
    // nlohmann keeps the last of duplicate keys silently; say so.
    std::vector<std::string> notes;
    if (obj.is_object())
        for (const std::string& k : detail::duplicate_top_level_keys(text))
            notes.push_back("duplicate key '" + detail::printable(k) + "': the last value (" + detail::show(obj[k]) +
                            ") is used");
    r.warnings.insert(r.warnings.begin(), notes.begin(), notes.end());
    return r;
}

// [SECTION] Printing

std::string scenario_to_json(const Scenario& s) { return scenario_to_ojson(s).dump(); }

ojson scenario_to_ojson(const Scenario& s) {
    auto opt = [](const auto& o) { return o ? ojson(*o) : ojson(nullptr); };
    ojson j;
    j["model"] = s.source == ModelSource::preset ? ojson(s.model) : ojson(nullptr);
    j["hf_config"] = s.source == ModelSource::hf_config ? arch_to_json_object(s.hf_config) : ojson(nullptr);
    j["params_b"] = s.source == ModelSource::params_b ? ojson(s.params_b) : ojson(nullptr);
    j["task"] = to_string(s.task);
    j["weight_dtype"] = to_string(s.weight_dtype);
    j["kv_cache_dtype"] = to_string(s.kv_cache_dtype);
    j["batch_size"] = s.batch_size;
    j["seq_len"] = s.seq_len;
    j["prompt_tokens"] = opt(s.prompt_tokens);
    j["output_tokens"] = opt(s.output_tokens);
    j["optimizer"] = to_string(s.optimizer);
    j["master_weights"] = s.master_weights;
    j["optimizer_in_backward"] = s.optimizer_in_backward;
    j["activation_checkpointing"] = to_string(s.activation_checkpointing);
    j["attention"] = to_string(s.attention);
    j["dropout"] = s.dropout;
    j["lora_rank"] = s.lora_rank;
    j["lora_targets"] = s.lora_targets == LoraTargets::custom ? ojson(s.lora_modules) : ojson(to_string(s.lora_targets));
    j["zero_stage"] = s.zero_stage;
    j["offload"] = to_string(s.offload);
    j["num_gpus"] = s.num_gpus;
    j["tensor_parallel"] = s.tensor_parallel;
    j["pipeline_parallel"] = s.pipeline_parallel;
    j["expert_parallel"] = s.expert_parallel;
    j["sequence_parallel"] = s.sequence_parallel;
    j["engine"] = to_string(s.engine);
    j["gpu_memory_utilization"] = s.gpu_memory_utilization;
    j["gpu"] = s.gpu.empty() ? ojson(nullptr) : ojson(s.gpu);
    j["gpu_memory_gib"] = opt(s.gpu_memory_gib);
    j["train_tokens"] = opt(s.train_tokens);
    j["mfu"] = opt(s.mfu);
    j["region"] = to_string(s.region);
    j["providers"] = s.providers;
    j["spot"] = to_string(s.spot);
    j["currency"] = to_string(s.currency);
    j["budget"] = opt(s.budget);
    j["deadline_hours"] = opt(s.deadline_hours);
    return j;
}

}  // namespace gpusizer
