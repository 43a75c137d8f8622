#pragma once
// The gpusizer command line as a library function, so tests run it in-process (natively
// and in wasm) and main.cpp stays a two-liner. Exit codes (docs/scenario.md): 0 done,
// 1 the scenario cannot be met, 2 bad input (message on stderr naming the key), 3 internal.

#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer::cli {

enum Exit { k_exit_ok = 0, k_exit_unmet = 1, k_exit_bad_input = 2, k_exit_internal = 3 };

struct Io {
    std::string_view stdin_text;  // what `--scenario -` reads
    std::string out;              // stdout
    std::string err;              // stderr
};

// args excludes the program name: {"estimate", "--model", "qwen3-8b", "--json"}.
int run(const std::vector<std::string>& args, Io& io);

// The catalog the CLI uses: the embedded one, or `--catalog FILE` (removed from args).
// On failure writes the reason to io.err and returns nullopt.
std::optional<Catalog> load_catalog(std::vector<std::string>& args, Io& io);

// Subcommands (one file each: cmd_<name>.cpp). `args` starts after the subcommand name.
int cmd_estimate(const Catalog& catalog, const std::vector<std::string>& args, Io& io);
int cmd_recommend(const Catalog& catalog, const std::vector<std::string>& args, Io& io);
int cmd_link(const Catalog& catalog, const std::vector<std::string>& args, Io& io);
int cmd_catalog(const Catalog& catalog, const std::vector<std::string>& args, Io& io);

// How estimate and recommend print their results: the human table (default), or an export
// of core/include/gpusizer/export.hpp. `--json` is `--format json`.
enum class OutputFormat { text, json, csv, markdown };

// The scenario inputs every subcommand shares: --scenario FILE|-, --link, --KEY VALUE…,
// --format text|json|csv|markdown and --json. Flags listed in own_flags (each taking one
// value, e.g. "--top") are left to the subcommand in `flags`. On bad input (also an unknown
// --format, or --json with another --format) writes the message to io.err and returns nullopt.
struct ScenarioInput {
    Scenario scenario;
    Notes warnings;
    OutputFormat format = OutputFormat::text;
    std::vector<std::pair<std::string, std::string>> flags;
};
std::optional<ScenarioInput> parse_scenario_args(const std::vector<std::string>& args, Io& io,
                                                 const std::vector<std::string>& own_flags = {});

// Read a whole file (CLI only: core never touches files). nullopt when unreadable.
std::optional<std::string> read_file(const std::string& path);

}  // namespace gpusizer::cli
