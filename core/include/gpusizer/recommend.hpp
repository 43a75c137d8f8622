#pragma once
// The planner: from a scenario to ranked, explained cloud offers (docs/speed-and-cost.md).
// For each machine the catalog rents (an instance type, a per-GPU listing grown to a machine of
// 1–8 GPUs, a TPU slice) it finds the node count, parallel layout and memory levers an expert
// would use — each candidate re-estimated with the memory model and timed with the speed and
// communication model — then prices the whole job on demand and on spot, checks it, ranks it
// (rank_by) and says why. The steps are in core/src/plan/ (recommend.cpp lists them).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/scenario.hpp"
#include "gpusizer/speed.hpp"

namespace gpusizer {

struct Plan {
    std::int64_t tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1;  // data_parallel: replicas for serving
    int zero_stage = 0;
};

struct Check {
    std::string_view id;  // memory_fit, headroom, levers, pcie_model_parallel, fabric, host_ram, vcpus, export,
                          // software, bf16, spot, price_estimate, latency, budget, deadline, per_gpu_listing, price
                          // (the planner's static text: valid for the whole program)
    bool ok = true;       // false: a warning or a failure (see `blocking`)
    bool blocking = false;  // a failed blocking check removes the offer
    std::string message;     // "" until the offer is worded (word_offer)
    std::string message_zh;  // the same in Chinese
};

// A memory lever the plan turns on (never one the user fixed): the scenario key, its value in
// this plan and the words the offer uses. A closed set of words: views of the planner's static
// text (valid for the whole program), so an offer's levers are copied without allocating.
struct Lever {
    std::string_view key;      // activation_checkpointing · optimizer · loss_impl · offload
    std::string_view value;    // full · adamw_8bit · fused · optimizer · optimizer_and_params
    std::string_view text;     // "gradient checkpointing"
    std::string_view text_zh;  // "梯度检查点"
};

// The whole job's hours, part by part (they add up to Offer::hours).
struct TimeParts {
    double setup = 0;        // boot, container image pull, model download
    double compute = 0;      // the training run (serving: the tokens to serve)
    double checkpoints = 0;  // writing checkpoints (blocking saves)
    double spot = 0;         // expected rework and restarts after spot reclaims
};

// Serving: the deployment sized for its load.
struct ServingLoad {
    std::int64_t users = 0;        // concurrent sequences served (batch_size, or what the target needs)
    std::int64_t replicas = 0;     // copies of the model, each tp × pp GPUs
    std::int64_t per_replica = 0;  // sequences in flight on one replica
    std::int64_t max_per_replica = 0;  // what one replica could hold (KV cache, engine, latency targets)
    double tokens_per_s = 0;       // output tokens/s of the deployment at that load
    double tpot_ms = 0;            // time per output token per user at that load
    double ttft_ms = 0;            // one prompt's prefill, no queueing
};

// What an offer's checks read besides its figures, so that word_offer words them from the offer
// alone: the plan's memory, the machine's links and the catalog rows' facts.
struct OfferFacts {
    std::uint64_t headroom_bytes = 0;   // per GPU: what is left below the limit the estimate fits against
    std::uint64_t host_bytes = 0;       // the job's host memory (offload), all nodes
    bool roomy = true;                  // >= 10% of the GPU free (a tight plan ranks after the roomy ones)
    std::int64_t gpus_per_node = 1;
    double intra_busbw = 0;             // B/s, the node's all-reduce bus bandwidth (Links)
    double network_gbps = 0;            // between nodes, as listed or assumed (Links)
    bool network_listed = false, rdma = false, nvlink_class = false;
    bool priced_per_gpu = false;        // a per-GPU listing grown to gpus_per_node GPUs at that many times its price
    bool tpu_slice = false;
    std::string software;               // the accelerator's stack ("" or "cuda": CUDA)
    bool export_restricted = false;
    bool lacks_bf16 = false;            // runs in fp16 (speed.hpp lacks_bf16)
    double interruption_notice_s = 0;   // the provider's spot notice; 0 = not known
    Confidence confidence = Confidence::recalled;  // the row's, said when it states no price_basis
    bool typical_spot_discount = false; // its spot price is a typical discount off on demand
};

struct Offer {
    std::size_t rank = 0;  // 1-based place in the whole ranking (with `top`, the list may skip places)
    std::string provider, provider_name, instance, region, gpu, gpu_name, interconnect;
    std::string provider_name_zh, instance_zh, gpu_name_zh;  // the catalog's Chinese names (name_zh), else as above
    std::int64_t gpu_count = 0;  // all GPUs of all nodes
    std::int64_t nodes = 1;
    Plan plan;
    std::vector<Lever> levers;   // memory levers this plan assumes
    std::uint64_t memory_per_gpu_bytes = 0;
    std::uint64_t gpu_memory_bytes = 0;
    double vcpus = 0, ram_gib = 0;   // per node
    double network_gbps = 0;         // per node as listed (0 = not listed)
    bool spot = false;
    bool cn_mainland = false;
    double usd_per_hour = 0;         // all nodes
    double price_per_hour = 0;       // all nodes, in `currency`
    std::string currency;
    bool price_known = true;         // false: the catalog lists the instance without a price
    bool price_is_estimate = false;  // the row's price_basis is "estimate" (or, without one, its confidence
                                     // V-draft/K), or spot from a typical discount
    std::string price_basis;         // official · third-party · estimate (catalog row; "" = not stated)
    double tokens_per_s = 0;         // training: trained tokens/s; serving: output tokens/s at the load
    std::optional<double> hours;     // the whole job (time_parts); training with train_tokens, serving with train_tokens
    std::optional<double> gpu_hours;
    TimeParts time_parts;
    std::optional<double> total_cost;               // in `currency`; the whole job
    std::optional<double> cost_per_million_tokens;  // in `currency`; serving at the load, training per trained token
    // Training without train_tokens: the hours and cost of a reference run of
    // Recommendation::reference_tokens, what rank_by cost and time compare (the job's own are unknown).
    std::optional<double> reference_hours, reference_cost;
    double spot_overhead_fraction = 0;              // expected extra time from interruptions
    double checkpoint_every_hours = 0;              // training: the save interval the time assumes
    double mfu = 0;
    std::optional<TrainingStep> step;  // training: one optimizer step, part by part
    std::optional<ServingLoad> serving;
    OfferFacts facts;
    std::vector<Check> checks;  // every check's outcome; the messages once worded
    std::string why;            // "" until worded (word_offer)
    std::string why_zh;
    bool pareto = false;  // on the cost–time Pareto front
};

// Beside the pick (offers[0]): the cheapest or the fastest offer, with one line on what it trades
// against the pick ("$41.2 less (-35%), 9.5 h longer; spot: can be reclaimed").
struct Alternative {
    std::size_t index = 0;       // into Recommendation::offers; 0 when the pick is itself the cheapest/fastest
    std::string trade_off;       // "" when index is 0
    std::string trade_off_zh;
};

struct Recommendation {
    Scenario scenario;
    Notes warnings;  // in English and Chinese
    std::vector<Offer> offers;  // best first by rank_by: whole-job cost (serving: per million tokens), hourly price or time
    // Among priced offers that leave room (>= 10% free when training; any priced offer when none
    // does): the lowest whole-job cost (serving: per million tokens; without a token count the
    // reference run, else the hour) and the shortest whole-job time (serving: time per token).
    std::optional<Alternative> cheapest, fastest;
    std::string summary;        // the answer, with the release reminder for jobs that end
    std::string summary_zh;     // the same in Chinese
    std::size_t considered = 0;  // machine shapes looked at
    std::vector<std::string> rejected_reasons;  // why the best rejected candidates failed (budget, deadline…)
    std::vector<std::string> notes;             // what a person can act on: export controls and alternatives, misses
    std::optional<double> reference_tokens;     // training without train_tokens: the run offers are compared on
    // "" for a transformer over tokens; else the kind (Estimate::model_kind) whose samples — images, or
    // 30 s audio windows for whisper — take the place of tokens in tokens_per_s, cost per million and
    // reference_tokens.
    std::string model_kind;
};

// Spot interruption model (assumptions, not published rates: docs/speed-and-cost.md). On spot a job
// checkpoints at Young's optimal interval sqrt(2 × save time × mean time between reclaims), at
// least every 30 minutes' worth of saves; a restart costs a new instance, image and checkpoint load.
inline constexpr double k_checkpoint_interval_hours = 0.5;  // the shortest spot interval planned
inline constexpr double k_restart_hours = 0.25;

// recommend() words every offer it returns (its checks' messages and why, in English and Chinese)
// unless told `none`: the page words only the offers it shows, with word_offer.
enum class OfferWords { all, none };
Result<Recommendation> recommend(const Catalog& catalog, const Scenario& s, std::size_t top = 0,
                                 OfferWords words = OfferWords::all);
// Words `o`, an offer of `rec` or a copy of one, from the offer alone (nothing when it has its
// words): the same text recommend() writes.
void word_offer(const Recommendation& rec, Offer& o);
std::string recommendation_to_json(const Recommendation& r);

// Price conversion with the catalog's dated rate.
double convert_currency(double amount, const std::string& from, Currency to, const CurrencyRate& rate);
// Money as the answers print it: at least 3 significant digits, never "0" for a positive amount
// ("$727", "$12.3", "¥0.350", "$0.00412").
std::string format_money_sig(double amount, Currency c);

}  // namespace gpusizer
