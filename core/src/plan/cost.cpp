// Prices and the whole job's cost (docs/speed-and-cost.md "The whole job"): the machine's price
// on demand or on spot in the scenario's currency, and the job's hours part by part — boot, image
// pull and model download; the run; checkpoint writes; the expected rework after spot reclaims.
//
// Index
// [SECTION] Constants (each with its source, or marked as an assumption)
// [SECTION] Prices
// [SECTION] Time parts
// [SECTION] priced_offer (and the names of a kept offer)

#include <algorithm>
#include <cmath>

#include "gpusizer/memory.hpp"
#include "memory/kinds_memory.hpp"
#include "plan.hpp"

namespace gpusizer::plan {
namespace {

// [SECTION] Constants

// ASSUMPTION: a GPU VM boots and passes its health checks in about 5 minutes.
constexpr double k_boot_hours = 5.0 / 60.0;
// ASSUMPTION: a PyTorch + CUDA training/serving container image is ~15 GB to pull.
constexpr double k_image_bytes = 15e9;
// ASSUMPTION: model and image downloads reach ~250 MB/s (2 Gb/s) per node from the Hugging Face
// Hub or a registry, less when the node's own network is slower.
constexpr double k_download_bytes_per_s = 250e6;
// ASSUMPTION: on demand a training job checkpoints every 2 hours (spot: every 30 minutes,
// k_checkpoint_interval_hours), each node writing its shard at ~1 GB/s to local NVMe or a network
// file system, the training waiting for the save (torch.save / DeepSpeed save_checkpoint).
constexpr double k_checkpoint_every_hours_ondemand = 2.0;
constexpr double k_checkpoint_write_bytes_per_s = 1e9;
// Spot interruptions per hour by provider kind. ASSUMPTIONS: providers publish no rates for GPU
// spot capacity (AWS's Spot Instance Advisor gives monthly buckets only); one reclaim a day on
// clouds, two on marketplaces, is what we assume until measured.
double interruptions_per_hour(const Provider* p) {
    if (p && p->kind == "marketplace") return 1.0 / 12.0;
    return 1.0 / 24.0;
}

// [SECTION] Prices

double node_price(const Machine& m, PriceKind kind) {
    const Instance& i = *m.inst;
    const double listed = kind == PriceKind::spot ? *i.spot_per_hour : kind == PriceKind::ondemand ? *i.ondemand_per_hour : 0.0;
    return listed * m.scale;
}

// [SECTION] Time parts

double download_rate(const Machine& m) {
    const double network = m.links.network_gbps * 1e9 / 8;
    return std::min(k_download_bytes_per_s, network > 0 ? network : k_download_bytes_per_s);
}

double setup_hours(const Context& ctx, const Machine& m) {
    return k_boot_hours + ctx.download_bytes / download_rate(m) / 3600;
}

// The training state a checkpoint writes: every trainable parameter's weight, master copy and
// optimizer state (LoRA: the adapters only).
double checkpoint_bytes(Context& ctx, const Machine& m, const PlanChoice& p) {
    const Scenario& c = scratch_candidate(ctx, m, p.layout.tp * p.layout.pp * p.layout.dp, p.layout, p.levers, 1);
    const StateBytes b = state_bytes_per_param(c);
    return static_cast<double>(ctx.params.trainable) * (b.weight + b.master + b.optimizer);
}

// Young (1974): the checkpoint interval that minimises expected lost work is sqrt(2 · C · MTBF) for
// a save of C hours; clamped to [30 min, 4 h] (ASSUMPTION: nobody saves more often, or risks more).
constexpr double k_longest_interval_hours = 4.0;
double spot_interval(double save_hours, double rate) {
    if (rate <= 0) return k_checkpoint_every_hours_ondemand;
    const double young = std::sqrt(2 * save_hours / rate);
    return std::min(k_longest_interval_hours, std::max(k_checkpoint_interval_hours, young));
}

void training_time(Context& ctx, const Machine& m, const PlanChoice& p, bool spot, double tokens, Offer& o,
                   TimeParts& t) {
    const double rate = spot ? interruptions_per_hour(m.provider) : 0;
    const double save = checkpoint_bytes(ctx, m, p) / (static_cast<double>(p.nodes) * k_checkpoint_write_bytes_per_s) / 3600;
    const double interval = spot ? spot_interval(save, rate) : k_checkpoint_every_hours_ondemand;
    o.checkpoint_every_hours = interval;
    o.spot_overhead_fraction = rate * (interval / 2 + k_restart_hours);
    t.setup = setup_hours(ctx, m);
    t.compute = tokens / p.step.tokens_per_s / 3600;
    t.checkpoints = std::floor(t.compute / interval) * save;
    t.spot = (t.compute + t.checkpoints) * o.spot_overhead_fraction;
}

void serving_time(const Context& ctx, const Machine& m, const PlanChoice& p, bool spot, Offer& o) {
    // An online service loses no work to a reclaim, only the restart.
    o.spot_overhead_fraction = spot ? interruptions_per_hour(m.provider) * k_restart_hours : 0;
    if (!ctx.s.train_tokens || p.load.tokens_per_s <= 0) return;
    TimeParts& t = o.time_parts;
    t.setup = setup_hours(ctx, m);
    t.compute = *ctx.s.train_tokens / p.load.tokens_per_s / 3600;
    t.spot = t.compute * o.spot_overhead_fraction;
    o.hours = t.setup + t.compute + t.spot;
}

// What ranking and the checks read (the text — ids, names, levers — is added to the offers an
// answer keeps: add_names).
void identity(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const Instance& i = *m.inst;
    o.vcpus = i.vcpus * m.scale;
    o.ram_gib = i.ram_gib * m.scale;
    o.network_gbps = m.network_gbps;
    o.cn_mainland = i.cn_mainland;
    o.gpu_memory_bytes = m.gpu_memory;
    o.nodes = p.nodes;
    o.gpu_count = m.gpus * p.nodes;
    o.plan = Plan{p.layout.tp, p.layout.pp, p.layout.dp, ctx.training ? p.layout.zero : 0};
    o.memory_per_gpu_bytes = p.est ? p.est->per_gpu.total : 0;
    OfferFacts& f = o.facts;  // what the checks read (checks.cpp)
    if (p.est) f.headroom_bytes = p.est->headroom, f.host_bytes = p.est->host_bytes;
    f.roomy = p.roomy;
    f.gpus_per_node = m.gpus;
    f.intra_busbw = m.links.intra_busbw;
    f.network_gbps = m.links.network_gbps;
    f.network_listed = m.links.network_listed;
    f.rdma = m.links.rdma;
    f.nvlink_class = m.links.nvlink_class;
    f.priced_per_gpu = m.per_gpu_listing && m.scale != 1;
    f.tpu_slice = m.slice;
    f.export_restricted = m.acc->export_status == "restricted";
    f.lacks_bf16 = lacks_bf16(*m.acc, ctx.s);
    f.interruption_notice_s = m.provider ? m.provider->interruption_notice_s : 0;
    f.confidence = i.confidence;
    f.typical_spot_discount = i.spot_is_typical_discount;
}

}  // namespace

// Training without train_tokens is compared on a reference run: fine-tuning 1e8 tokens (ASSUMPTION:
// a typical instruction set, ~50k examples of ~2k tokens); pretraining 20 tokens per parameter
// (Chinchilla-optimal, Hoffmann et al. 2022).
double reference_tokens(const Context& ctx) {
    if (kinds::is_sample_kind(ctx.arch)) return kinds::reference_samples(ctx.arch, ctx.s);
    if (ctx.s.task == Task::pretrain) return 20.0 * static_cast<double>(ctx.params.total);
    return 1e8;
}

double job_download_bytes(const Context& ctx) {
    // Training downloads the 16-bit checkpoint (QLoRA quantizes it on load); serving the format it serves.
    const WeightDtype w = ctx.training && ctx.s.weight_dtype != WeightDtype::fp32 ? WeightDtype::bf16 : ctx.s.weight_dtype;
    return k_image_bytes + static_cast<double>(weights_bytes(ctx.arch, w));
}

Few<PriceKind, 2> price_kinds(const Scenario& s, const Instance& inst) {
    Few<PriceKind, 2> out;  // on demand and spot, or one unknown price
    if (s.spot != SpotPolicy::only && inst.ondemand_per_hour) out.push_back(PriceKind::ondemand);
    if (s.spot != SpotPolicy::never && inst.spot_per_hour) out.push_back(PriceKind::spot);
    if (s.spot != SpotPolicy::only && !inst.ondemand_per_hour && !inst.spot_per_hour) out.push_back(PriceKind::unknown);
    return out;
}

// [SECTION] priced_offer

Offer priced_offer(Context& ctx, const Machine& m, const PlanChoice& p, PriceKind kind) {
    Offer o;
    identity(ctx, m, p, o);
    const Instance& i = *m.inst;
    const bool spot = kind == PriceKind::spot;
    o.spot = spot;
    o.price_known = kind != PriceKind::unknown;
    // The row's price_basis says how its price is known (catalog.md); a user catalog without one
    // falls back to the row's confidence.
    const bool estimated = i.price_basis.empty() ? is_estimate(i.confidence) : i.price_basis == k_price_basis_estimate;
    o.price_is_estimate = estimated || (spot && i.spot_is_typical_discount);
    const double nodes = static_cast<double>(p.nodes);
    o.usd_per_hour = convert_currency(node_price(m, kind), i.currency, Currency::USD, ctx.catalog.usd_cny) * nodes;
    o.price_per_hour = convert_currency(node_price(m, kind), i.currency, ctx.s.currency, ctx.catalog.usd_cny) * nodes;
    if (ctx.training) {
        o.tokens_per_s = p.step.tokens_per_s;
        o.mfu = p.step.mfu;
        o.step = p.step;
        TimeParts t;
        const double tokens = ctx.s.train_tokens ? *ctx.s.train_tokens : reference_tokens(ctx);
        if (p.step.tokens_per_s > 0) {
            training_time(ctx, m, p, spot, tokens, o, t);
            const double hours = t.setup + t.compute + t.checkpoints + t.spot;
            if (ctx.s.train_tokens) o.time_parts = t, o.hours = hours;
            else o.reference_hours = hours;
        }
    } else {
        o.tokens_per_s = p.load.tokens_per_s;
        o.serving = p.load;
        serving_time(ctx, m, p, spot, o);
    }
    if (o.hours) o.gpu_hours = *o.hours * static_cast<double>(o.gpu_count);
    if (!o.price_known) return o;
    if (o.tokens_per_s > 0)
        o.cost_per_million_tokens = o.price_per_hour * (1 + o.spot_overhead_fraction) / (o.tokens_per_s * 3600.0) * 1e6;
    if (o.hours) o.total_cost = o.price_per_hour * *o.hours;
    if (o.reference_hours) o.reference_cost = o.price_per_hour * *o.reference_hours;
    return o;
}

void add_names(const Context& ctx, const Machine& m, const PlanChoice& p, Offer& o) {
    const Instance& i = *m.inst;
    o.provider = i.provider;
    o.instance = i.id;
    o.gpu = m.acc->id;
    o.price_basis = i.price_basis;
    o.facts.software = m.acc->software;
    o.provider_name = m.provider ? m.provider->name : i.provider;
    o.provider_name_zh = m.provider && !m.provider->name_zh.empty() ? m.provider->name_zh : o.provider_name;
    o.instance_zh = i.name_zh.empty() ? i.id : i.name_zh;
    o.region = i.price_region;
    o.gpu_name = gpu_label(*m.acc);
    o.gpu_name_zh = gpu_label_zh(*m.acc);
    o.interconnect = std::string(m.interconnect);
    o.currency = to_string(ctx.s.currency);
    o.levers = levers_of(p.levers);
}

}  // namespace gpusizer::plan
