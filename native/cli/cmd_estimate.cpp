// `gpusizer estimate`: the memory breakdown for one scenario (human table, or --format json|csv|markdown).
#include "cli.hpp"
#include "format.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/export.hpp"
#include "gpusizer/link.hpp"

namespace gpusizer::cli {

namespace {

// What one element of the batch is: tokens of a sequence, or an image / a 30 s audio window.
std::string sample_text(const Estimate& e) {
    const Scenario& s = e.scenario;
    if (e.model_kind.empty()) return std::to_string(s.seq_len) + " tokens";
    if (e.model_kind == "whisper") return "30 s audio windows";
    std::string t = s.image_size ? "images of " + std::to_string(*s.image_size) + " px" : "images at the model's resolution";
    if ((e.model_kind == "unet" || e.model_kind == "dit") && s.task == Task::inference)
        t += s.steps ? ", " + std::to_string(*s.steps) + " steps" : ", the pipeline's default steps";
    return t;
}

// Speed and time in the kind's units (token models keep theirs in --json).
void print_kind_speed(const Estimate& e, Io& io) {
    if (e.model_kind.empty() || !e.throughput) return;
    const Throughput& t = *e.throughput;
    io.out += "\nspeed on " + e.scenario.gpu + " × " + std::to_string(e.scenario.num_gpus) + "\n";
    if (t.images_per_s) io.out += "  images/s            " + num("%.4g", *t.images_per_s) + "\n";
    if (t.seconds_per_image) io.out += "  seconds per image   " + num("%.3g", *t.seconds_per_image) + " (one GPU, batch included)\n";
    if (t.realtime_factor) io.out += "  real-time factor    " + num("%.4g", *t.realtime_factor) + "× (audio seconds per second)\n";
    if (e.time) io.out += "  time                " + num("%.3g", e.time->hours) + " h (" + num("%.3g", e.time->gpu_hours) + " GPU-hours)\n";
}

void print_human(const Catalog& catalog, const Estimate& e, Io& io) {
    const Scenario& s = e.scenario;
    std::string model = s.source == ModelSource::preset     ? s.model
                        : s.source == ModelSource::hf_config ? "config.json (" + s.hf_config.model_type + ")"
                                                             : "~" + std::to_string(s.params_b) + " B (inferred shape)";
    io.out += "gpusizer estimate — " + model + ", " + to_string(s.task) + ", " + to_string(s.weight_dtype) + ", batch " +
              std::to_string(s.batch_size) + (e.model_kind.empty() ? " × " : " ") + sample_text(e) + "\n";
    io.out += "catalog " + catalog.version + ", prices as of " + catalog.prices_as_of + "\n\n";
    io.out += "parameters  total " + format_billions(e.params.total) + ", active " + format_billions(e.params.active) +
              ", trainable " + format_billions(e.params.trainable) + ", embedding " + format_billions(e.params.embedding) + "\n\n";
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    io.out += "memory per GPU (GiB = 2^30 bytes)\n";
    const std::pair<const char*, std::uint64_t> rows[] = {
        {"weights", m.weights},         {"gradients", m.gradients}, {"optimizer", m.optimizer},
        {"activations", m.activations}, {"kv_cache", m.kv_cache},   {"overhead", m.overhead}};
    Table t;
    for (const auto& [name, bytes] : rows) t.add({name, format_gib(bytes)});
    t.add({"total", format_gib(m.total)});
    io.out += t.render("  ");
    if (e.host_memory_bytes) io.out += "host memory needed: " + format_gib(e.host_memory_bytes) + "\n";
    if (e.kv_bytes_per_token) io.out += "KV cache per token: " + std::to_string(e.kv_bytes_per_token) + " bytes\n";
    if (e.gpu) {
        io.out += "\nGPU " + e.gpu->id + " (" + format_gib(e.gpu->memory_bytes) + "): " +
                  (e.gpu->fits ? "fits, headroom " + format_gib(e.gpu->headroom_bytes)
                               : "does NOT fit, short by " + format_gib(e.gpu->shortfall_bytes)) +
                  "\n";
        if (e.kv_capacity_tokens) io.out += "  KV capacity: " + std::to_string(*e.kv_capacity_tokens) + " tokens\n";
        if (e.max_batch_size) io.out += "  largest batch that fits: " + std::to_string(*e.max_batch_size) + "\n";
        if (e.max_seq_len) io.out += "  longest sequence that fits: " + std::to_string(*e.max_seq_len) + "\n";
    }
    print_kind_speed(e, io);
    for (const auto& w : e.warnings.en()) io.out += "warning: " + w + "\n";
    io.out += "\nlink: #" + encode_link(s) + "\n";
}

}  // namespace

int cmd_estimate(const Catalog& catalog, const std::vector<std::string>& args, Io& io) {
    auto in = parse_scenario_args(args, io);
    if (!in) return k_exit_bad_input;
    Result<Estimate> e = estimate(catalog, in->scenario);
    if (!e.ok()) {
        io.err += "gpusizer: " + format_error(e.error) + "\n";
        return k_exit_bad_input;
    }
    Estimate est = std::move(*e.value);
    est.warnings.prepend(in->warnings);
    est.warnings.append(e.warnings);
    const int exit_code = (est.gpu && !est.gpu->fits) ? k_exit_unmet : k_exit_ok;
    switch (in->format) {
        case OutputFormat::json: io.out += estimate_to_json(est) + "\n"; break;
        case OutputFormat::csv: io.out += estimate_to_csv(est); break;
        case OutputFormat::markdown: {
            const Scenario s = est.scenario;
            io.out += results_to_markdown(s, catalog, Result<Estimate>::success(std::move(est)), Result<Recommendation>{});
            break;
        }
        case OutputFormat::text: print_human(catalog, est, io); break;
    }
    return exit_code;
}

}  // namespace gpusizer::cli
