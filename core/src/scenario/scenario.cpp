// Scenario JSON: parse (validated, every problem named) and print (every key, defaults filled).
//
// Index
// [SECTION] Defaults and equality
// [SECTION] Limits (allowed ranges, also used by the share-link codec)
// [SECTION] Parsing
// [SECTION] Printing

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "gpusizer/scenario.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "scenario_internal.hpp"

namespace gpusizer {

using detail::json;
using detail::ojson;

// [SECTION] Defaults and equality

WeightDtype default_weight_dtype(Task t) { return t == Task::qlora ? WeightDtype::nf4 : WeightDtype::bf16; }

// Mixed-precision training keeps an fp32 master copy (ZeRO paper K = 12: master 4 + m 4 + v 4),
// except torchtune, whose recipes build the model in bf16 and train it as is ("pure bf16":
// `with training.set_default_dtype(self._dtype)`, recipes' _setup_model).
bool default_master_weights(Task t, WeightDtype w, Framework f) {
    if (f == Framework::torchtune) return false;
    return (t == Task::pretrain || t == Task::full_ft) && (w == WeightDtype::bf16 || w == WeightDtype::fp16);
}

// torchtune's full fine-tuning recipes (llama3_1/8B_full_single_device.yaml) use bitsandbytes
// PagedAdamW8bit with optimizer_in_bwd: True; Unsloth's notebook template sets optim = "adamw_8bit";
// everything else defaults to AdamW (HF Trainer adamw_torch, torchtune LoRA recipes AdamW).
Optimizer default_optimizer(Framework f, Task t) {
    const bool full = t == Task::full_ft || t == Task::pretrain;
    if (f == Framework::torchtune && full) return Optimizer::paged_adamw_8bit;
    if (f == Framework::unsloth && t != Task::inference) return Optimizer::adamw_8bit;
    return Optimizer::adamw;
}
bool default_optimizer_in_backward(Framework f, Task t) {
    return f == Framework::torchtune && (t == Task::full_ft || t == Task::pretrain);
}

// torchtune's recipes set enable_activation_checkpointing: True; Unsloth's examples use
// use_gradient_checkpointing="unsloth" (layer inputs offloaded to host memory); HF Trainer,
// DeepSpeed and Megatron default to no recompute (gradient_checkpointing=False,
// --recompute-granularity None).
Checkpointing default_checkpointing(Framework f) {
    switch (f) {
        case Framework::torchtune: return Checkpointing::full;
        case Framework::unsloth: return Checkpointing::offload;
        case Framework::hf:
        case Framework::deepspeed:
        case Framework::megatron: return Checkpointing::none;
    }
    return Checkpointing::none;
}

LossImpl default_loss_impl(Framework f) {
    // What each stack computes the loss with (docs/frameworks.md): torchtune's recipes use
    // CEWithChunkedOutputLoss, Unsloth its fused cross-entropy kernel, the others materialise
    // the logits (transformers ForCausalLMLoss upcasts them to fp32; Megatron's vocab-parallel
    // cross-entropy).
    switch (f) {
        case Framework::torchtune: return LossImpl::chunked;
        case Framework::unsloth: return LossImpl::fused;
        case Framework::hf:
        case Framework::deepspeed:
        case Framework::megatron: return LossImpl::full;
    }
    return LossImpl::full;
}

// An online service must not be reclaimed; a training job that checkpoints may be.
SpotPolicy default_spot(Task t) { return t == Task::inference ? SpotPolicy::never : SpotPolicy::allow; }

bool operator==(const Scenario& a, const Scenario& b) {
    return a.source == b.source && a.lora_modules == b.lora_modules
#define GPUSIZER_X(key, link, limit, how) && a.key == b.key
        GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
        ;
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

void apply_dependent_defaults(Scenario& s, const GivenKeys& given) {
    if (!is_given(given, Key::weight_dtype)) s.weight_dtype = default_weight_dtype(s.task);
    if (!is_given(given, Key::master_weights))
        s.master_weights = default_master_weights(s.task, s.weight_dtype, s.framework);
    if (!is_given(given, Key::loss_impl)) s.loss_impl = default_loss_impl(s.framework);
    if (!is_given(given, Key::optimizer)) s.optimizer = default_optimizer(s.framework, s.task);
    if (!is_given(given, Key::optimizer_in_backward))
        s.optimizer_in_backward = default_optimizer_in_backward(s.framework, s.task);
    if (!is_given(given, Key::activation_checkpointing)) s.activation_checkpointing = default_checkpointing(s.framework);
    if (!is_given(given, Key::spot)) s.spot = default_spot(s.task);
    if (s.prompt_tokens || s.output_tokens) s.seq_len = s.prompt_tokens.value_or(0) + s.output_tokens.value_or(0);
}

GivenKeys changed_keys(const Scenario& a, const Scenario& b) {
    GivenKeys g;
#define GPUSIZER_X(key, link, limit, how) \
    if (!(a.key == b.key)) g.set(static_cast<std::size_t>(Key::key));
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
    if (a.source != b.source) g.set(static_cast<std::size_t>(Key::model));
    if (a.lora_modules != b.lora_modules) g.set(static_cast<std::size_t>(Key::lora_targets));
    return g;
}

GivenKeys keys_off_default(const Scenario& s) {
    Scenario d;
    d.task = s.task;
    d.framework = s.framework;
    apply_dependent_defaults(d, GivenKeys{});
    d.master_weights = default_master_weights(s.task, s.weight_dtype, s.framework);
    GivenKeys g = changed_keys(s, d);
    // task and framework drive the other defaults: they are compared with the plain defaults.
    const Scenario plain;
    if (s.task != plain.task) g.set(static_cast<std::size_t>(Key::task));
    if (s.framework != plain.framework) g.set(static_cast<std::size_t>(Key::framework));
    return g;
}

void apply_edit(const Scenario& before, Scenario& after) {
    after.given |= changed_keys(before, after);
    apply_dependent_defaults(after, after.given);
}

// [SECTION] Parsing

namespace {

struct Reader {
    Scenario s;
    GivenKeys given;
    Notes warnings;
    std::optional<Error> error;

    void fail(const std::string& key, const std::string& code, const std::string& msg) {
        if (!error) error = Error{code, key + ": " + msg, key};
    }

    // [SECTION] Typed reads: one overload per member type of a `field` key (scenario_keys.hpp)
    template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
    void read(const json& v, const char* key, E& out, NoLimit) {
        if (!v.is_string()) return fail(key, "bad_type", "expected a string, got " + detail::show(v));
        const auto e = parse_enum<E>(v.get<std::string>());
        if (!e) return fail(key, "bad_value", "unknown value " + detail::show(v) + "; allowed: " + allowed_values<E>());
        out = *e;
    }

    void read(const json& v, const char* key, bool& out, NoLimit) {
        if (!v.is_boolean()) return fail(key, "bad_type", "expected true or false, got " + detail::show(v));
        out = v.get<bool>();
    }

    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    void read(const json& v, const char* key, T& out, const IntLimit& lim) {
        if (!v.is_number()) return fail(key, "bad_type", "expected a whole number, got " + detail::show(v));
        const auto i = detail::as_int(v, lim.lo, lim.hi);
        if (!i) return fail(key, "out_of_range", detail::show(v) + " is not a whole number in " + describe_range(lim));
        out = static_cast<T>(*i);
    }

    void read(const json& v, const char* key, double& out, const RealLimit& lim) {
        if (!v.is_number()) return fail(key, "bad_type", "expected a number, got " + detail::show(v));
        const double d = v.get<double>();
        if (!lim.contains(d)) return fail(key, "out_of_range", detail::show(v) + " is outside " + describe_range(lim));
        out = d;
    }

    template <class T, class Limit>
    void read(const json& v, const char* key, std::optional<T>& out, const Limit& lim) {
        if (v.is_null()) return out.reset();
        T value{};
        const bool had_error = error.has_value();
        read(v, key, value, lim);
        if (error.has_value() == had_error) out = value;
    }

    // A `field` key: absent keeps the default; present is read by its member's type.
    template <class T, class Limit>
    void field(const json& obj, Key k, const char* key, T& out, const Limit& lim) {
        if (!obj.contains(key)) return;
        given.set(static_cast<std::size_t>(k));
        read(obj[key], key, out, lim);
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

    // [SECTION] Keys read by hand (scenario_keys.hpp: how is not `field`), one function per key

    // The model: exactly one source; `model` wins when several are given.
    void model(const json& obj) {
        const bool has_model = obj.contains("model") && !obj["model"].is_null();
        const bool has_cfg = obj.contains("hf_config") && !obj["hf_config"].is_null();
        const bool has_size = obj.contains("params_b") && !obj["params_b"].is_null();
        if (int(has_model) + int(has_cfg) + int(has_size) > 1)
            warnings.add(std::string("several model sources given; using ") + (has_model ? "model" : "hf_config") +
                             " and ignoring the others",
                         std::string("给出了多个模型来源;使用 ") + (has_model ? "model" : "hf_config") + ",忽略其余");
        if (has_model) {
            const json& v = obj["model"];
            if (!v.is_string() || !is_valid_id(v.get<std::string>()))
                fail("model", "bad_value", "expected a model preset id such as \"llama-3.1-8b\", got " + detail::show(v));
            else {
                s.source = ModelSource::preset;
                s.model = v.get<std::string>();
            }
        } else if (has_cfg) {
            auto arch = arch_from_json_object(obj["hf_config"]);
            const Notes& n = arch.warnings;
            for (std::size_t i = 0; i < n.size(); ++i) warnings.add("hf_config: " + n.en()[i], "hf_config:" + n.zh()[i]);
            if (!arch.ok()) {
                Error e = arch.error;
                e.path = e.path.empty() ? "hf_config" : "hf_config." + e.path;
                if (e.message.rfind("hf_config: ", 0) != 0) e.message = "hf_config: " + e.message;  // prefix once
                if (!error) error = e;
            } else {
                s.source = ModelSource::hf_config;
                s.hf_config = *arch;
                s.model.clear();
            }
        } else if (has_size) {
            read(obj["params_b"], "params_b", s.params_b, k_limit_params_b);
            s.source = ModelSource::params_b;
            s.model.clear();
        }
    }
    void hf_config(const json&) {}  // read by model()
    void params_b(const json&) {}   // read by model()

    void lora_targets(const json& obj) {
        if (!obj.contains("lora_targets")) return;
        if (obj["lora_targets"].is_array()) {
            id_list_key(obj, "lora_targets", s.lora_modules);
            s.lora_targets = LoraTargets::custom;
            if (!error && s.lora_modules.empty())
                fail("lora_targets", "bad_value", "an empty module list trains nothing; give at least one name");
            return;
        }
        read(obj["lora_targets"], "lora_targets", s.lora_targets, k_no_limit);
        if (s.lora_targets == LoraTargets::custom)
            fail("lora_targets", "bad_value", "\"custom\" is written as a list of module names, e.g. [\"q_proj\",\"v_proj\"]");
    }

    void gpu(const json& obj) {
        if (!obj.contains("gpu") || obj["gpu"].is_null()) return;
        const json& v = obj["gpu"];
        if (!v.is_string() || !is_valid_id(v.get<std::string>()))
            fail("gpu", "bad_value", "expected an accelerator id such as \"h100_sxm\", got " + detail::show(v));
        else
            s.gpu = v.get<std::string>();
    }

    void providers(const json& obj) { id_list_key(obj, "providers", s.providers); }
};

bool is_known_key(std::string_view k) {
#define GPUSIZER_X(key, link, limit, how) \
    if (k == #key) return true;
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
    return false;
}

}  // namespace

Result<Scenario> parse_scenario_object(const json& obj) {
    Reader r;
    if (!obj.is_object())
        return Result<Scenario>::failure({"bad_type", "a scenario is a JSON object, got " + detail::show(obj), ""});

    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (!is_known_key(it.key()))
            r.warnings.add("unknown key '" + detail::printable(it.key()) + "' ignored",
                           "未知的键 '" + detail::printable(it.key()) + "',已忽略");

    // Every key in table order: `field` keys by their member's type, the others by hand.
#define GPUSIZER_READ_field(key, limit) r.field(obj, Key::key, #key, r.s.key, limit);
#define GPUSIZER_READ_by_hand(key, limit) r.key(obj);
#define GPUSIZER_READ_text GPUSIZER_READ_by_hand
#define GPUSIZER_READ_config GPUSIZER_READ_by_hand
#define GPUSIZER_READ_number GPUSIZER_READ_by_hand
#define GPUSIZER_READ_targets GPUSIZER_READ_by_hand
#define GPUSIZER_READ_list GPUSIZER_READ_by_hand
#define GPUSIZER_X(key, link, limit, how) GPUSIZER_READ_##how(key, limit)
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
#undef GPUSIZER_READ_field
#undef GPUSIZER_READ_by_hand
#undef GPUSIZER_READ_text
#undef GPUSIZER_READ_config
#undef GPUSIZER_READ_number
#undef GPUSIZER_READ_targets
#undef GPUSIZER_READ_list

    if (r.error) return Result<Scenario>::failure(*r.error, r.warnings);
    apply_dependent_defaults(r.s, r.given);
    r.s.given = r.given;
    if (auto e = check_consistency(r.s, r.warnings)) return Result<Scenario>::failure(*e, r.warnings);
    return Result<Scenario>::success(r.s, r.warnings);
}

std::optional<Error> check_layout(const Scenario& s) {
    if (s.tensor_parallel < 1 || s.pipeline_parallel < 1 || s.expert_parallel < 1 || s.num_gpus < 1)
        return Error{"out_of_range", "num_gpus, tensor_parallel, pipeline_parallel and expert_parallel must be ≥ 1",
                     "num_gpus"};
    const std::int64_t mp = s.tensor_parallel * s.pipeline_parallel;
    if (mp > s.num_gpus || s.num_gpus % mp != 0)
        return Error{"inconsistent",
                     "num_gpus: " + std::to_string(s.num_gpus) + " is not a multiple of tensor_parallel × pipeline_parallel = " +
                         std::to_string(mp),
                     "num_gpus"};
    return std::nullopt;
}

std::optional<Error> check_consistency(const Scenario& s, Notes& warnings) {
    if ((s.prompt_tokens || s.output_tokens) && s.seq_len < 1)
        return Error{"out_of_range", "prompt_tokens + output_tokens must be at least 1", "prompt_tokens"};
    if (s.seq_len > k_limit_seq_len.hi)
        return Error{"out_of_range",
                     "prompt_tokens + output_tokens = " + std::to_string(s.seq_len) + " is above the largest seq_len " +
                         std::to_string(k_limit_seq_len.hi),
                     "prompt_tokens"};
    if (auto e = check_layout(s)) return e;
    if (s.task != Task::inference && (s.prompt_tokens || s.output_tokens))
        warnings.add("prompt_tokens/output_tokens are for inference; seq_len is their sum for this training run",
                     "prompt_tokens/output_tokens 用于推理;本次训练的 seq_len 取二者之和");
    if (s.task == Task::qlora && s.weight_dtype != WeightDtype::nf4 && s.weight_dtype != WeightDtype::int4_gptq &&
        s.weight_dtype != WeightDtype::int4_awq && s.weight_dtype != WeightDtype::int8)
        warnings.add(std::string("qlora with weight_dtype ") + to_string(s.weight_dtype) +
                         " is not quantized; that is LoRA on a frozen base in that dtype",
                     std::string("qlora 搭配 weight_dtype ") + to_string(s.weight_dtype) +
                         " 并未量化;这相当于在该精度的冻结基座上做 LoRA");
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
    Notes notes;
    if (obj.is_object())
        for (const std::string& k : detail::duplicate_top_level_keys(text))
            notes.add("duplicate key '" + detail::printable(k) + "': the last value (" + detail::show(obj[k]) + ") is used",
                      "键 '" + detail::printable(k) + "' 重复:使用最后一个值(" + detail::show(obj[k]) + ")");
    r.warnings.prepend(notes);
    return r;
}

// [SECTION] Printing

std::string scenario_to_json(const Scenario& s) { return scenario_to_ojson(s).dump(); }

std::string scenario_given_to_json(const Scenario& s) {
    // `field` keys by s.given; the keys read by hand (model source, lora_targets, gpu, providers)
    // mark nothing given, so they are kept whenever they are set.
    constexpr bool by_hand[] = {
#define GPUSIZER_X(key, link, limit, how) std::string_view(#how) != "field",
        GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
    };
    const ojson all = scenario_to_ojson(s);
    ojson j = ojson::object();
    std::size_t index = 0;
    for (auto it = all.begin(); it != all.end(); ++it, ++index) {  // table order = Key order
        const bool keep = index < k_key_count && (by_hand[index] ? !it.value().is_null() : s.given.test(index));
        if (keep) j[it.key()] = it.value();
    }
    return j.dump();
}

namespace {

// A `field` key printed by its member's type.
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
ojson field_json(E v) {
    return to_string(v);
}
ojson field_json(bool v) { return v; }
ojson field_json(double v) { return v; }
template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
ojson field_json(T v) {
    return static_cast<std::int64_t>(v);
}
template <class T>
ojson field_json(const std::optional<T>& v) {
    return v ? field_json(*v) : ojson(nullptr);
}

}  // namespace

ojson scenario_to_ojson(const Scenario& s) {
    ojson j;
    // Every key in table order; the keys read by hand are printed by hand after the loop.
#define GPUSIZER_PRINT_field(key) field_json(s.key)
#define GPUSIZER_PRINT_text(key) nullptr
#define GPUSIZER_PRINT_config(key) nullptr
#define GPUSIZER_PRINT_number(key) nullptr
#define GPUSIZER_PRINT_targets(key) nullptr
#define GPUSIZER_PRINT_list(key) nullptr
#define GPUSIZER_X(key, link, limit, how) j[#key] = GPUSIZER_PRINT_##how(key);
    GPUSIZER_SCENARIO_KEYS(GPUSIZER_X)
#undef GPUSIZER_X
#undef GPUSIZER_PRINT_field
#undef GPUSIZER_PRINT_text
#undef GPUSIZER_PRINT_config
#undef GPUSIZER_PRINT_number
#undef GPUSIZER_PRINT_targets
#undef GPUSIZER_PRINT_list
    j["model"] = s.source == ModelSource::preset ? ojson(s.model) : ojson(nullptr);
    j["hf_config"] = s.source == ModelSource::hf_config ? arch_to_json_object(s.hf_config) : ojson(nullptr);
    j["params_b"] = s.source == ModelSource::params_b ? ojson(s.params_b) : ojson(nullptr);
    j["lora_targets"] = s.lora_targets == LoraTargets::custom ? ojson(s.lora_modules) : ojson(to_string(s.lora_targets));
    j["gpu"] = s.gpu.empty() ? ojson(nullptr) : ojson(s.gpu);
    j["providers"] = s.providers;
    return j;
}

}  // namespace gpusizer
