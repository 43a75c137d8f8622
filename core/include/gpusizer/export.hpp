#pragma once
// Exports of the results (issue 6): CSV tables, a Markdown summary and one combined JSON
// object, shared by the CLI (`--format csv|markdown|json`) and the page. Pure text out,
// deterministic (numbers are printed by the same code on every host); docs/scenario.md.
//
// "Not computed" vs "failed": a Result<T> that is not ok and whose error.code is empty
// (a default-constructed Result) means the host did not compute that part; it is left out
// of the Markdown and is `null` in results_to_json. A not-ok Result with a code is a failure:
// its message is shown (Markdown) or it becomes {"error": {code, message, path}, "warnings"}.

#include <string>
#include <string_view>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/result.hpp"
#include "gpusizer/scenario.hpp"

namespace gpusizer {

// One CSV field, RFC 4180: quoted when it holds a comma, a double quote, CR or LF; inner
// quotes doubled. Other text is returned as is.
std::string csv_field(std::string_view text);

// The ids of an offer's checks that did not pass, in order, joined by `sep` ("" when all passed):
// the CSV's failed_checks column, the Markdown's and the CLI's checks column.
std::string failed_checks(const Offer& o, std::string_view sep);

// Header `term,bytes,gib`, then one row per memory term per GPU (weights, gradients,
// optimizer, activations, kv_cache, overhead, total). bytes: exact integer; gib: bytes / 2^30
// with 4 decimals. Lines end with CRLF (RFC 4180).
std::string estimate_to_csv(const Estimate& e);

// Header, then one row per offer, best first (rank 1…). Columns: rank, provider, instance,
// region, gpu, gpu_count, nodes, interconnect, tensor_parallel, pipeline_parallel,
// data_parallel, zero_stage, vcpus, ram_gib, price_per_hour, currency, spot, price_is_estimate,
// tokens_per_s, hours, gpu_hours, total_cost, cost_per_million_tokens, memory_per_gpu_bytes,
// gpu_memory_bytes, pareto, failed_checks (ids of the checks that did not pass, joined by ';').
// A missing value is an empty field, never "nan": no price in the catalog, no hours without
// train_tokens, vCPUs / RAM the catalog does not list (0 in the JSON). CRLF line ends.
std::string recommendation_to_csv(const Recommendation& r);

struct MarkdownOptions {
    bool chinese = false;  // summary_zh and Chinese headings instead of English
    std::string page_url;  // e.g. "https://host/gpusizer/": the link becomes page_url + "#v=1&…";
                           // "" prints the fragment alone ("#v=1&…")
};

// A short Markdown summary: title (model, task, precision, batch × sequence), share link,
// memory table (term | GiB | how), the recommendation sentence, the top 5 offers, warnings
// (both results', each once), catalog version and price date. `|` in cells is escaped.
std::string results_to_markdown(const Scenario& s, const Catalog& catalog, const Result<Estimate>& e,
                                const Result<Recommendation>& r, const MarkdownOptions& options = {});

// {"estimate": …, "recommendation": …}: each is the object of estimate_to_json /
// recommendation_to_json, the error object when it failed, or null when not computed.
std::string results_to_json(const Result<Estimate>& e, const Result<Recommendation>& r);

}  // namespace gpusizer
