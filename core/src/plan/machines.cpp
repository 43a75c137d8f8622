// The machines the catalog rents (docs/speed-and-cost.md "Machines"): an instance type as
// listed; a per-GPU listing grown to one machine of 1, 2, 4 … GPUs at that many times the price
// (only its largest machine joins others); a TPU per-chip listing as the slices Google sells,
// whose chips all talk over ICI. Instances sold as single GPUs are one node each. Filters:
// gpu, region, providers and `interconnect: nvlink`.
#include <algorithm>

#include "gpusizer/units.hpp"
#include "plan.hpp"

namespace gpusizer::plan {
namespace {


// TPU slice sizes in chips. v5e: 1, 4, 8, 16, 32, 64, 128, 256 (cloud.google.com/tpu/docs/v5e);
// v5p: 4 … 6144 (docs/v5p slice table); v6e: ASSUMPTION the same shapes as v5e (a 2D torus pod
// of 256, docs/v6e); v4: ASSUMPTION powers of two from 4 to 4096 (3D mesh in multiples of 4, docs/v4).
std::vector<std::int64_t> tpu_slices(const std::string& id) {
    if (id == "tpu_v5e" || id == "tpu_v6e") return {1, 4, 8, 16, 32, 64, 128, 256};
    if (id == "tpu_v5p") return {4, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096, 6144};
    if (id == "tpu_v4") return {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    return {};
}

bool region_ok(const Scenario& s, const Instance& inst) {
    if (s.region == Region::global && inst.cn_mainland) return false;
    if (s.region == Region::cn_mainland && !inst.cn_mainland) return false;
    return s.providers.empty() || std::find(s.providers.begin(), s.providers.end(), inst.provider) != s.providers.end();
}

// `interconnect: nvlink`: the job's GPUs talk over NVLink/NVSwitch/ICI-class links, across nodes
// only over an RDMA-class fabric.
bool nvlink_ok(Machine& m) {
    const bool bridged_pair = m.interconnect == "nvlink-bridge" && m.gpus <= 2;
    if (m.gpus > 1 && !m.links.nvlink_class && !bridged_pair) return false;
    if (!m.links.rdma) m.multi_node = false;
    return true;
}

Machine base_machine(Context& ctx, const Instance& inst, const Accelerator& a0) {
    Machine m;
    m.inst = &inst;
    m.provider = ctx.catalog.find_provider(inst.provider);
    m.acc = m.row = &a0;
    m.fractional = inst.gpu_count < 1;
    if (m.fractional) {  // a share of one GPU (e.g. 1/3 of an A10): that share of memory and speed
        const double f = inst.gpu_count;
        Accelerator a = a0;
        a.memory_bytes = static_cast<std::uint64_t>(static_cast<double>(a0.memory_bytes) * f);
        a.memory_bandwidth_gbps *= f;
        a.tflops_bf16_dense *= f, a.tflops_fp16_dense *= f, a.tflops_fp8_dense *= f, a.tflops_tf32 *= f, a.tflops_fp32 *= f;
        ctx.shares.push_back(std::move(a));
        m.acc = &ctx.shares.back();
        m.multi_node = false;
    }
    m.gpu_memory = m.acc->memory_bytes;
    if (ctx.s.gpu_memory_gib && !ctx.s.gpu.empty()) m.gpu_memory = static_cast<std::uint64_t>(*ctx.s.gpu_memory_gib * k_bytes_per_gib);
    m.gpus = m.fractional ? 1 : static_cast<std::int64_t>(inst.gpu_count);
    m.interconnect = inst.interconnect;
    m.network_gbps = inst.network_gbps;
    return m;
}

// Training: the accelerator's compute efficiency, the same for every machine of it.
const Efficiency& efficiency(Context& ctx, const Accelerator& a) {
    auto it = ctx.efficiency.find(&a);
    if (it == ctx.efficiency.end()) it = ctx.efficiency.emplace(&a, compute_efficiency(ctx.s, ctx.arch, a, /*explain=*/false)).first;
    return it->second;
}

}  // namespace

bool complete(Context& ctx, Machine& m) {
    m.links = node_links(*m.acc, m.interconnect, m.gpus, m.network_gbps);
    if (ctx.s.interconnect == InterconnectNeed::nvlink && !nvlink_ok(m)) return false;
    m.key = shape_key(m);
    m.local_key = shape_key(m, true);
    if (ctx.training) m.efficiency = efficiency(ctx, *m.acc);
    m.lever_sets = lever_sets(ctx, m);
    return true;
}

ShapeKey shape_key(const Machine& m, bool local) {
    ShapeKey k;
    k.gpu = m.row;
    k.interconnect = m.interconnect;
    k.memory = m.gpu_memory;
    k.gpus = m.gpus;
    k.share_milli = static_cast<std::int64_t>(m.inst->gpu_count * 1000);
    k.ram_listed = m.inst->ram_gib > 0;
    if (!local) {
        k.network_milli = static_cast<std::int64_t>(m.network_gbps * 1000);
        k.multi_node = m.multi_node;
    }
    return k;
}

std::vector<Machine> machines(Context& ctx, std::size_t& considered) {
    std::vector<Machine> out;
    out.reserve(ctx.catalog.instances.size() * 2);
    for (const Instance& inst : ctx.catalog.instances) {
        if (!ctx.s.gpu.empty() && inst.gpu != ctx.s.gpu) continue;
        if (!region_ok(ctx.s, inst)) continue;
        const Accelerator* a = ctx.catalog.find_accelerator(inst.gpu);
        if (!a || inst.gpu_count <= 0) continue;
        ++considered;
        Machine m = base_machine(ctx, inst, *a);
        // A TPU per-chip listing (one chip over ICI) only: the others skip the id comparisons.
        const std::vector<std::int64_t> slices =
            inst.gpu_count == 1 && inst.interconnect == "ici" ? tpu_slices(a->id) : std::vector<std::int64_t>();
        if (!slices.empty()) {
            for (std::int64_t chips : slices) {
                Machine t = m;
                t.gpus = chips;
                t.scale = static_cast<double>(chips);
                t.slice = true;
                t.multi_node = false;  // multislice over the data-centre network is not planned
                out.push_back(std::move(t));
            }
        } else if (!m.fractional && inst.scales_to_gpus > inst.gpu_count) {
            const auto most = static_cast<std::int64_t>(inst.scales_to_gpus);
            for (std::int64_t k = m.gpus; k <= most; k *= 2) {
                Machine g = m;
                g.gpus = k;
                g.scale = static_cast<double>(k) / inst.gpu_count;
                g.interconnect = k > 1 ? inst.scaled_interconnect : inst.interconnect;
                g.per_gpu_listing = true;
                g.multi_node = k * 2 > most;
                out.push_back(std::move(g));
            }
        } else {
            out.push_back(std::move(m));
        }
    }
    return out;
}

}  // namespace gpusizer::plan
