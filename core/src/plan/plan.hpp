#pragma once
// The planner's steps (internal to core/src/plan/), in the order recommend() calls them:
//   context.cpp     the model and what the user fixed (Context, Fixed)
//   machines.cpp    the machines the catalog rents: instance types, per-GPU listings grown to
//                   1–8 GPUs, TPU chips grouped into the slices Google sells
//   levers.cpp      memory levers, cheapest in time first
//   fit.cpp         memory estimates of candidate plans (cached: training by layout and levers, then
//                   held to each GPU memory; serving by GPU)
//   train_plan.cpp  the best training plan on one machine: node count, layout, levers, step time
//   serve_plan.cpp  the serving deployment on one machine: replica shape, concurrency, replicas
//   cost.cpp        prices, the whole job's hours (setup, checkpoints, spot) and cost
//   checks.cpp      the checks of an offer: outcomes from its figures and facts, messages when worded
//   offers.cpp      one machine's offers: plan → price → blocking checks (and the deadline)
//   rank.cpp        ordering by rank_by, one shape per listing, the Pareto front
//   words.cpp       an offer's words: its checks' messages and why (word_offer)
//   summary.cpp     an offer's why; the answer and the reasons a person can act on (export
//                   controls, misses)
//   text.cpp        numbers and words shared by the above
//   recommend.cpp   recommend(): the list of calls

#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gpusizer/memory.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/speed.hpp"

namespace gpusizer::plan {

// A few values without an allocation (the planner makes such lists for every machine, node count
// and replica shape); at most N, which each use bounds.
template <class T, int N = 8>
struct Few {
    T v[N] = {};
    int n = 0;
    Few() = default;
    Few(std::initializer_list<T> xs) {
        for (T x : xs) push_back(x);
    }
    void push_back(T x) {
        if (n < N) v[n++] = x;
    }
    const T* begin() const { return v; }
    const T* end() const { return v + n; }
    const T& operator[](std::size_t i) const { return v[i]; }
    T back() const { return v[n - 1]; }
    std::size_t size() const { return static_cast<std::size_t>(n); }
};

// [SECTION] Context (context.cpp)

// The memory of one candidate (fit.cpp): what the planner reads of an estimate.
struct Memory {
    ParamCounts params;
    MemoryBreakdown per_gpu;
    std::uint64_t host_bytes = 0;
    std::uint64_t kv_bytes_per_token = 0;                // per GPU, serving
    std::optional<std::uint64_t> kv_capacity_tokens;     // serving
    std::uint64_t gpu_memory = 0, headroom = 0;          // fits: per_gpu.total + headroom = the limit
};

// One machine's plan (train_plan.cpp, serve_plan.cpp).
struct PlanChoice {
    bool found = false;
    std::int64_t nodes = 1;
    JobLayout layout;
    int levers = 0;
    const Memory* est = nullptr;
    bool roomy = true;
    TrainingStep step;
    ServingLoad load;
    std::string fail;  // why nothing was found
};


// What the user fixed: a key they gave, or a value other than its default (a share link carries
// only non-default values). The planner fills in only what is left open.
struct Fixed {
    bool num_gpus = false, tp = false, pp = false, zero = false;
    bool checkpointing = false, optimizer = false, loss = false, offload = false;
    bool users = false;  // serving: batch_size is the number of concurrent users
};
Fixed fixed_keys(const Scenario& s);

// A serving candidate's memory reads the GPU's name and memory (vLLM's defaults): cached by the
// catalog's row (fractional shares differ in memory).
struct FitKey {
    const Accelerator* gpu;
    std::uint64_t memory;
    std::int64_t gpus, tp, pp, batch;
    int zero, levers;
    bool operator<(const FitKey& o) const {
        return std::tie(gpu, memory, gpus, tp, pp, batch, zero, levers) <
               std::tie(o.gpu, o.memory, o.gpus, o.tp, o.pp, o.batch, o.zero, o.levers);
    }
};
// A training candidate's memory does not depend on the GPU, only whether it fits does: it is made
// once per layout and levers (NeedKey), then held to each GPU memory's limit.
struct NeedKey {
    std::int64_t gpus, tp, pp;
    int zero, levers;
    bool operator==(const NeedKey& o) const {
        return gpus == o.gpus && tp == o.tp && pp == o.pp && zero == o.zero && levers == o.levers;
    }
};
struct TrainingNeed {
    NeedKey key;
    MemoryBreakdown gpu;
    std::uint64_t host_bytes = 0;
    struct Fit {
        std::uint64_t gpu_memory;
        bool given;          // not the catalog row's figure (gpu_memory_gib, a fractional share)
        const Memory* fit;   // in Context::training_fits; nullptr: does not fit
    };
    std::vector<Fit> fits;   // per GPU memory asked so far
};

// What a plan depends on (GPU, memory, GPUs per node, links, joinability, listed RAM): machines
// with equal keys get the same plans, so they are searched once. One-node plans do not depend on
// the network: the local key leaves it (and joinability) out.
struct ShapeKey {
    const Accelerator* gpu = nullptr;  // the catalog's row (a fractional share's copy has its id)
    std::string_view interconnect;  // the catalog row's
    std::uint64_t memory = 0;
    std::int64_t gpus = 0;
    std::int64_t share_milli = 0;    // the instance's GPU count × 1000 (fractional shares)
    bool ram_listed = false;
    std::int64_t network_milli = 0;  // Gbps × 1000; 0 in a local key
    bool multi_node = false;         // false in a local key
    bool operator<(const ShapeKey& o) const {  // the numbers first: cheaper to compare than the text
        return std::tie(memory, gpus, share_milli, network_milli, ram_listed, multi_node, gpu, interconnect) <
               std::tie(o.memory, o.gpus, o.share_milli, o.network_milli, o.ram_listed, o.multi_node, o.gpu, o.interconnect);
    }
};
// Which plans of a shape ctx.plans holds: the open search, the one-node plan (local key), the plan
// at exactly `nodes`, serving replicas inside one node (local key).
enum class PlanFor { search, one_node, at_nodes, in_node };
struct PlanKey {
    ShapeKey shape;
    PlanFor what = PlanFor::search;
    std::int64_t nodes = 0;
    bool operator<(const PlanKey& o) const {
        return std::tie(what, nodes, shape) < std::tie(o.what, o.nodes, o.shape);
    }
};

struct Context {
    const Catalog& catalog;
    const Scenario& s;
    ModelArch arch;
    Fixed fixed;
    bool training = false;
    ParamCounts params;                                     // of the scenario as given
    ParamDetail detail;                                     // param_detail(arch), for every candidate's memory
    double download_bytes = 0;                              // cost.cpp: container image + weights, per node
    std::map<FitKey, std::optional<Memory>> estimates;      // fit.cpp's cache, serving
    std::vector<TrainingNeed> training_needs;              // fit.cpp's cache, training
    std::vector<std::uint32_t> need_slots;                 // a hash index of training_needs (index + 1, 0 = empty)
    std::deque<Memory> training_fits;                       // TrainingNeed::Fit::fit points here
    std::map<PlanKey, std::vector<PlanChoice>> plans;       // per machine shape
    std::map<const Accelerator*, Efficiency> efficiency;   // training: per accelerator (machines.cpp)
    std::deque<Accelerator> shares;                        // fractional GPUs, scaled (Machine::acc points here)
    std::deque<PlanChoice> kind_plans;                     // kinds_plan.cpp's plans (Candidate::plan points here)
    Scenario scratch;                                      // fit.cpp's candidate, reused
    Scenario replica;                                      // serve_plan.cpp's replica being sized, reused
    std::array<double, 64> flops_with_levers{};            // train_plan.cpp: hardware FLOPs per token by lever set; 0 = not yet
};

// [SECTION] Machines (machines.cpp)

// One machine shape to rent: an instance as listed, a per-GPU listing grown to `gpus` GPUs at
// that many times the price, or a TPU slice of `gpus` chips.
struct Machine {
    const Instance* inst = nullptr;
    const Provider* provider = nullptr;
    const Accelerator* acc = nullptr;  // a fractional share's memory and speed already scaled (Context::shares)
    const Accelerator* row = nullptr;  // the catalog's row of acc
    ShapeKey key;                    // shape_key, made once
    ShapeKey local_key;              // the same without what only several nodes depend on (network, joinability)
    std::uint64_t gpu_memory = 0;    // what fit checks use (the scenario's gpu_memory_gib overrides)
    std::int64_t gpus = 1;           // per node
    double scale = 1;                // × the listed price, vCPUs and RAM
    std::string_view interconnect;   // the catalog row's (interconnect, or scaled_interconnect)
    double network_gbps = 0;         // per node; 0 = not listed
    bool multi_node = true;          // may be joined with more of the same
    bool fractional = false;
    bool per_gpu_listing = false;
    bool slice = false;              // TPU chips joined by ICI
    Links links;
    Efficiency efficiency;           // training: compute_efficiency of this accelerator (the same for every plan)
    Few<int> lever_sets;             // training: levers.cpp's sets for this machine
    // gpu_memory is not the catalog row's (the user's gpu_memory_gib, a fractional GPU's share):
    // fits take it as usable already, as estimate() takes a gpu_memory_gib.
    bool memory_given() const { return gpu_memory != row->memory_bytes; }
};
// The shapes in the catalog's order, each with what it is made of (listing, GPU, count, price
// scale); complete() adds what planning reads (links, shape keys, efficiency, lever sets) to the
// shapes a plan is searched for, false when `interconnect: nvlink` leaves the shape out.
std::vector<Machine> machines(Context& ctx, std::size_t& considered);
bool complete(Context& ctx, Machine& m);
ShapeKey shape_key(const Machine& m, bool local = false);

// [SECTION] Levers (levers.cpp)

enum LeverBit : int {
    k_fused_loss = 1,
    k_optimizer_8bit = 2,
    k_checkpointing = 4,
    k_offload_optimizer = 8,
    k_offload_params = 16,
    k_chunked_loss = 32,  // where Triton kernels do not run (TPU, Ascend, …): the plain-PyTorch chunked loss
};
inline constexpr int k_slow_levers = k_checkpointing | k_offload_optimizer | k_offload_params;
// Cumulative lever sets in the order an expert reaches for them (cheapest in time first),
// without the levers the user fixed or that do not apply: {0, fused, fused+8bit, …}.
Few<int> lever_sets(const Context& ctx, const Machine& m);
// The scenario with these levers on (offload raises ZeRO to 2 or 3, as DeepSpeed needs).
void apply_levers(Scenario& c, int levers);
std::vector<Lever> levers_of(int levers);

// [SECTION] Fit (fit.cpp)

// The memory of a candidate when it fits, else nullptr; owned by ctx (estimates, training_fits).
// Training: gpus = every GPU of the job; serving: one replica of tp × pp GPUs at `batch`.
const Memory* fit(Context& ctx, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers,
                    std::int64_t batch);
// Less than 10% of the GPU free: allocator spikes and a longer batch can run out of memory.
bool roomy(const Memory& e);
// The candidate's scenario in `c`, a copy of the scenario made once (ctx.scratch, ctx.replica): only
// the keys a candidate sets change.
void prepare_candidate(const Context& ctx, Scenario& c, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers,
                       std::int64_t batch);
// The same in ctx.scratch, valid until the next fit or scratch call.
const Scenario& scratch_candidate(Context& ctx, const Machine& m, std::int64_t gpus, const JobLayout& l, int levers,
                                  std::int64_t batch);

// [SECTION] Plans (train_plan.cpp, serve_plan.cpp)

// The best plans of a machine for training: at the fewest nodes that fit, and at the fewest that
// fit without CPU offload when that is different; `nodes` > 0 plans at exactly that many nodes.
// Both are held in ctx.plans (shared by machines of one shape); the serving plan is one deployment.
const std::vector<PlanChoice>& training_plans(Context& ctx, const Machine& m, std::int64_t nodes = 0);
const std::vector<PlanChoice>& serving_plan(Context& ctx, const Machine& m);

// [SECTION] Cost (cost.cpp)

enum class PriceKind { ondemand, spot, unknown };
Few<PriceKind, 2> price_kinds(const Scenario& s, const Instance& inst);
double reference_tokens(const Context& ctx);  // training without train_tokens: the run offers are compared on
double job_download_bytes(const Context& ctx);  // the container image and the weights each node pulls
// The offer's figures, price, time parts, cost and facts for one plan at one price: what ranking
// and the checks read.
Offer priced_offer(Context& ctx, const Machine& m, const PlanChoice& p, PriceKind kind);
// The ids and names (provider, instance, GPU, in English and Chinese), region, currency, price
// basis, software and levers of an offer the answer keeps.
void add_names(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o);

// [SECTION] Checks and words (checks.cpp, summary.cpp, words.cpp)

// A failed blocking check (host RAM for offload, budget, deadline, no price with a budget) as the
// reason the offer is left out, before any words are made; nullopt when none fails.
std::optional<std::string> blocking_reason(const Scenario& s, const Offer& o);
// Every check of an offer the answer keeps (from its figures and facts); their messages when `words`.
void add_checks(const Scenario& s, Offer& o, bool words);
// The offer's why ("8× H100 … with gradient checkpointing: needs 61.2 GiB per GPU, ~9.5 h at MFU 0.41").
void describe(const Scenario& s, const std::string& model_kind, Offer& o);
// An offer's words: its checks with their messages and its why (recommend() and word_offer).
void word(const Scenario& s, const std::string& model_kind, Offer& o);
std::string model_name(const Context& ctx);

// [SECTION] Offers, ranking, answer (offers.cpp, rank.cpp, summary.cpp)

struct Rejection {
    std::string reason;
    std::optional<double> over_budget_cost;  // the whole job's cost when the budget rejected it
    std::optional<double> over_deadline_hours;
};
// A priced offer with what it was made from, until the answer keeps it and words it.
struct Candidate {
    Candidate(Offer&& o, const Machine* m, const PlanChoice* p) : offer(std::move(o)), machine(m), plan(p) {}
    // Priced where it is stored (an Offer is large to move).
    Candidate(Context& ctx, const Machine& m, const PlanChoice& p, PriceKind kind)
        : offer(priced_offer(ctx, m, p, kind)), machine(&m), plan(&p) {}
    Offer offer;
    const Machine* machine = nullptr;
    const PlanChoice* plan = nullptr;  // in ctx.plans or ctx.kind_plans
};
void machine_offers(Context& ctx, const Machine& m, std::vector<Candidate>& offers, std::vector<Rejection>& rejected);
// Vision, diffusion and speech jobs (kinds_plan.cpp): data parallel over the machine's GPUs, its
// samples per second in place of tokens per second.
void kind_offers(Context& ctx, const Machine& m, std::vector<Candidate>& offers, std::vector<Rejection>& rejected);
// x before y by rank_by, two offers of one machine (rank.cpp); rank orders the offers (indices, one
// shape per listing: an Offer is large to move) and marks the Pareto front.
bool ranks_before(const Context& ctx, const Offer& x, const Offer& y);
std::vector<std::size_t> rank(const Context& ctx, std::vector<Candidate>& offers);
// rec.cheapest / rec.fastest (places in `ranked`; answer() writes their trade-offs).
void alternatives(const std::vector<Candidate>& offers, const std::vector<std::size_t>& ranked, Recommendation& rec);
void answer(const Context& ctx, const std::vector<Rejection>& rejected, Recommendation& rec);

// [SECTION] Text (text.cpp)

std::string fmt(const char* f, double v);
// The pieces joined in one allocation (checks and whys are made for every offer kept).
std::string cat(std::initializer_list<std::string_view> parts);
std::string hours_text(double h);
std::string hours_text_zh(double h);
std::string gib(std::uint64_t bytes);  // "61.2"
const char* task_title(Task t);
const char* task_title_zh(Task t);
std::string gpu_label(const Accelerator& a);
// "a fused cross-entropy loss and gradient checkpointing" (zh: joined by 、)
std::string lever_words(const std::vector<Lever>& levers, bool zh);
// What the job counts in: tokens, or a vision / diffusion / speech model's samples (images, 30 s
// audio windows) — the words the answer uses for tokens_per_s and the cost per million.
struct UnitWords {
    const char* many;  // "tokens", "images", "audio windows"
    const char* zh;    // "token", "张图像", "段 30 秒音频"
    bool samples;      // not tokens
};
UnitWords unit_words(const Context& ctx);
UnitWords unit_words(std::string_view model_kind);  // Recommendation::model_kind ("" = tokens)
std::string gpu_label_zh(const Accelerator& a);  // with its notes in Chinese (the catalog's name_zh)

}  // namespace gpusizer::plan
