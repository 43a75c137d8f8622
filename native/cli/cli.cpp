// gpusizer CLI: dispatch, catalog loading and the scenario inputs every subcommand shares.
#include "cli.hpp"

#include <cstdio>

#include "embedded_catalog.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario_limits.hpp"

namespace gpusizer::cli {

namespace {

constexpr const char* k_usage =
    "usage:\n"
    "  gpusizer estimate  (--scenario FILE.json | --scenario - | --link 'URL-or-#fragment' | --KEY VALUE…) [--format F]\n"
    "  gpusizer recommend (same inputs) [--top N] [--format F]       ranked cloud offers\n"
    "  gpusizer link      (--scenario FILE.json | --KEY VALUE…)        prints the share link\n"
    "  gpusizer catalog   list (gpus|instances|models|providers) [--json] | validate FILE\n"
    "  --format text|json|csv|markdown: the table (default), JSON, CSV (memory terms / offers) or a\n"
    "    Markdown summary (recommend's includes the memory table); --json is --format json\n"
    "options for every command: --catalog FILE (instead of the built-in catalog)\n"
    "scenario keys (docs/scenario.md), e.g. --model qwen3-8b --task qlora --seq_len 4096 --gpu rtx4090\n"
    "  --hf_config FILE reads a Hugging Face config.json; lists are comma-separated (--providers aws,gcp)\n"
    "exit status: 0 done, 1 the scenario cannot be met, 2 bad input, 3 internal error\n";

constexpr const char* k_format_choices = "text, json, csv, markdown";

std::optional<OutputFormat> parse_format(const std::string& v) {
    if (v == "text") return OutputFormat::text;
    if (v == "json") return OutputFormat::json;
    if (v == "csv") return OutputFormat::csv;
    if (v == "markdown") return OutputFormat::markdown;
    return std::nullopt;
}

constexpr std::size_t k_max_input_file_bytes = 16u << 20;  // scenario, config.json, catalog files

}  // namespace

std::optional<std::string> read_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return std::nullopt;
    std::string out;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        out.append(buf, n);
        if (out.size() > k_max_input_file_bytes) break;  // the parsers then report the size limit
    }
    std::fclose(f);
    return out;
}

std::optional<Catalog> load_catalog(std::vector<std::string>& args, Io& io) {
    std::string path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--catalog") {
            if (i + 1 >= args.size()) {
                io.err += "gpusizer: --catalog needs a file name\n";
                return std::nullopt;
            }
            path = args[i + 1];
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
            break;
        }
    }
    std::string text;
    if (path.empty()) {
        text = std::string(embedded_catalog_json());
    } else if (auto t = read_file(path)) {
        text = std::move(*t);
    } else {
        io.err += "gpusizer: --catalog: cannot read '" + path + "'\n";
        return std::nullopt;
    }
    Result<Catalog> c = parse_catalog(text);
    for (const auto& w : c.warnings.en()) io.err += "warning: catalog: " + w + "\n";
    if (!c.ok()) {
        io.err += "gpusizer: catalog" + (path.empty() ? std::string(" (built-in)") : " '" + path + "'") + ": " +
                  format_error(c.error) + "\n";
        return std::nullopt;
    }
    return std::move(*c.value);
}

std::optional<ScenarioInput> parse_scenario_args(const std::vector<std::string>& args, Io& io,
                                                 const std::vector<std::string>& own_flags) {
    ScenarioInput in;
    std::string base = "{}";
    TextOverrides overrides;
    bool have_base = false;
    bool have_format = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        bool own = false;
        for (const auto& f : own_flags) own = own || a == f;
        if (own) {
            if (i + 1 >= args.size()) {
                io.err += "gpusizer: " + a + " needs a value\n";
                return std::nullopt;
            }
            in.flags.emplace_back(a, args[++i]);
            continue;
        }
        if (a == "--json" || a == "--format") {
            std::string value = "json";
            if (a == "--format") {
                if (i + 1 >= args.size()) {
                    io.err += "gpusizer: --format needs a value (" + std::string(k_format_choices) + ")\n";
                    return std::nullopt;
                }
                value = args[++i];
            }
            const auto f = parse_format(value);
            if (!f) {
                io.err += "gpusizer: --format: unknown format '" + value + "' (choices: " +
                          k_format_choices + ")\n";
                return std::nullopt;
            }
            if (have_format && *f != in.format) {
                io.err += "gpusizer: --json and --format, or two --format, disagree; give one\n";
                return std::nullopt;
            }
            have_format = true;
            in.format = *f;
            continue;
        }
        if (a.rfind("--", 0) != 0) {
            io.err += "gpusizer: unexpected argument '" + a + "'\n" + k_usage;
            return std::nullopt;
        }
        std::string key = a.substr(2);
        for (char& c : key)
            if (c == '-') c = '_';
        if (i + 1 >= args.size()) {
            io.err += "gpusizer: " + a + " needs a value\n";
            return std::nullopt;
        }
        const std::string& value = args[++i];
        if (key == "scenario" || key == "link") {
            if (have_base) {
                io.err += "gpusizer: give one of --scenario and --link, once\n";
                return std::nullopt;
            }
            have_base = true;
            if (key == "link") {
                Result<Scenario> l = decode_link(value);
                if (!l.ok()) {
                    io.err += "gpusizer: --link: " + format_error(l.error) + "\n";
                    return std::nullopt;
                }
                in.warnings.append(l.warnings);
                base = scenario_given_to_json(*l);
            } else if (value == "-") {
                base = std::string(io.stdin_text);
            } else if (auto t = read_file(value)) {
                base = std::move(*t);
            } else {
                io.err += "gpusizer: --scenario: cannot read '" + value + "'\n";
                return std::nullopt;
            }
            continue;
        }
        if (key == "hf_config" && !value.empty() && value[0] != '{') {
            auto t = read_file(value);
            if (!t) {
                io.err += "gpusizer: --hf_config: cannot read '" + value + "'\n";
                return std::nullopt;
            }
            overrides.emplace_back(key, std::move(*t));
            continue;
        }
        overrides.emplace_back(key, value);
    }
    Result<Scenario> s = parse_scenario_overrides(base, overrides);
    in.warnings.append(s.warnings);
    if (!s.ok()) {
        io.err += "gpusizer: " + s.error.message + "\n";
        return std::nullopt;
    }
    in.scenario = std::move(*s.value);
    return in;
}

int run(const std::vector<std::string>& args_in, Io& io) {
    std::vector<std::string> args = args_in;
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? io.err : io.out) += k_usage;
        return args.empty() ? k_exit_bad_input : k_exit_ok;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command != "estimate" && command != "recommend" && command != "link" && command != "catalog") {
        io.err += "gpusizer: unknown command '" + command + "'\n" + k_usage;
        return k_exit_bad_input;
    }
    // `catalog validate FILE` checks FILE itself; the built-in catalog must still load for the others.
    auto catalog = load_catalog(args, io);
    if (!catalog) return k_exit_bad_input;
    if (command == "estimate") return cmd_estimate(*catalog, args, io);
    if (command == "recommend") return cmd_recommend(*catalog, args, io);
    if (command == "link") return cmd_link(*catalog, args, io);
    return cmd_catalog(*catalog, args, io);
}

}  // namespace gpusizer::cli
