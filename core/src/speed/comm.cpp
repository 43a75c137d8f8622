// Links and collectives (docs/speed-and-cost.md "Communication"; facts in docs/research/links.md):
// what bus bandwidth an NCCL-style collective reaches inside a node and across nodes, and the
// ring formulas of nccl-tests for all-reduce, reduce-scatter / all-gather and all-to-all.
//
// Index
// [SECTION] Constants (each with its source)
// [SECTION] One node's links
// [SECTION] Collectives

#include <algorithm>

#include "gpusizer/speed.hpp"
#include "speed_internal.hpp"

namespace gpusizer {

// [SECTION] Constants
namespace {

// NCCL reaches ~80% of the per-GPU unidirectional NVLink rate: 8× A100 all-reduce busbw 235 of
// 300 GB/s, 8× H100 ring 370 of 450 (links.md §2: stas00 case study; nccl-tests #212).
constexpr double k_nvlink_busbw_fraction = 0.80;
// An NVLink bridge joins two PCIe cards: 2× H100 PCIe busbw 115–116 GB/s against 300 GB/s
// unidirectional NVLink (NVIDIA/nccl #1161).
constexpr double k_bridge_busbw_fraction = 0.39;
// PCIe-only boxes are limited by the root complex: 8× RTX 5090 (PCIe 5, 64 GB/s) all-reduce busbw
// 28 GB/s (NVIDIA/nccl #1639); 4090s with a P2P driver 12.7 of 32 (tinygrad PR #22).
constexpr double k_pcie_busbw_fraction = 0.44;
// AMD xGMI is a full mesh of 64 GB/s peer links: busbw 47.7 GB/s on 2 MI300X, 312.9 on 8
// (stas00 network/README.md) = 0.72 of 64 × (GPUs − 1).
constexpr double k_xgmi_peer_bytes = 64e9;
constexpr double k_xgmi_fraction = 0.72;
// RDMA fabrics deliver ~92% of line rate: NDR 400 Gb/s 46–48 GB/s per NIC (nccl-tests #290),
// 100 Gb/s 12.2 of 12.5 (nccl-tests #29).
constexpr double k_rdma_efficiency = 0.92;
// ASSUMPTION: NCCL over TCP sockets on a plain VM network reaches half its line rate.
constexpr double k_ethernet_efficiency = 0.50;
// The slowest RDMA-class fabric in links.md is 100 Gb/s (InfiniBand EDR, 100G RoCE / EFA v1 class).
constexpr double k_rdma_min_gbps = 100;
// ASSUMPTION: a node whose network the catalog does not list sits on a plain 10 Gb/s VM network
// (AWS single-flow limit 5 Gb/s outside and 10 Gb/s inside a placement group, EC2 docs).
constexpr double k_unlisted_network_gbps = 10;
// One small collective: NVLink ~6 µs with CUDA graphs (nccl #1259), 8 µs taken; PCIe 42 µs for an
// 8-byte all-reduce on 8× 4090 (nccl #1530); across IB nodes 46–48 µs (nccl #1244);
// ASSUMPTION 100 µs over TCP and 10 µs over TPU ICI.
constexpr double k_latency_nvlink_s = 8e-6;
constexpr double k_latency_pcie_s = 42e-6;
constexpr double k_latency_rdma_s = 47e-6;
constexpr double k_latency_tcp_s = 100e-6;
constexpr double k_latency_ici_s = 10e-6;


bool is_nvlink_class(std::string_view ic) {
    return ic == "nvswitch" || ic == "nvlink" || ic == "ici" || ic == "hccs" || ic == "infinity-fabric" ||
           ic == "neuronlink";
}

}  // namespace

double pcie_bytes_per_s(int gen) {
    switch (gen) {
        case 4: return 32e9;
        case 5: return 64e9;
        case 6: return 128e9;
        default: return 16e9;
    }
}

// [SECTION] One node's links

Links node_links(const Accelerator& a, std::string_view interconnect, std::int64_t gpus_per_node, double network_gbps) {
    Links l;
    l.intra = interconnect;
    l.gpus_per_node = std::max<std::int64_t>(1, gpus_per_node);
    const double pcie = pcie_bytes_per_s(a.pcie_gen) * k_pcie_busbw_fraction;
    const double nvlink_uni = a.nvlink_bandwidth_gbps * 1e9 / 2;  // catalog: bidirectional per GPU
    l.nvlink_class = is_nvlink_class(interconnect) && a.nvlink_bandwidth_gbps > 0;
    l.mesh = interconnect == "infinity-fabric";
    if (l.mesh) {
        l.intra_busbw = k_xgmi_peer_bytes * k_xgmi_fraction * static_cast<double>(l.gpus_per_node - 1);
        l.pair_busbw = k_xgmi_peer_bytes * k_xgmi_fraction;
    } else if (l.nvlink_class) {
        l.intra_busbw = l.pair_busbw = nvlink_uni * k_nvlink_busbw_fraction;
    } else if (interconnect == "nvlink-bridge" && a.nvlink_bandwidth_gbps > 0) {
        l.pair_busbw = nvlink_uni * k_bridge_busbw_fraction;
        l.intra_busbw = l.gpus_per_node > 2 ? pcie : l.pair_busbw;
    } else {
        l.intra_busbw = l.pair_busbw = pcie;
    }
    l.intra_latency_s = interconnect == "ici" ? k_latency_ici_s : l.nvlink_class ? k_latency_nvlink_s : k_latency_pcie_s;
    l.network_listed = network_gbps > 0;
    l.network_gbps = l.network_listed ? network_gbps : k_unlisted_network_gbps;
    l.rdma = l.network_gbps >= k_rdma_min_gbps;
    l.node_network = l.network_gbps * 1e9 / 8 * (l.rdma ? k_rdma_efficiency : k_ethernet_efficiency);
    l.inter_latency_s = l.rdma ? k_latency_rdma_s : k_latency_tcp_s;
    return l;
}

// [SECTION] Collectives
namespace {

// Bus bandwidth among `local` GPUs of one node.
double intra_busbw(const Links& l, std::int64_t local) {
    if (local <= 2) return l.pair_busbw;
    if (l.mesh) return l.pair_busbw * static_cast<double>(local - 1);
    return l.intra_busbw;
}

double latency(const Links& l, std::int64_t group, std::int64_t local) {
    return group > local ? l.inter_latency_s : l.intra_latency_s;
}

}  // namespace

double group_busbw(const Links& l, std::int64_t group, std::int64_t local) {
    local = std::max<std::int64_t>(1, std::min(local, group));
    const double inside = intra_busbw(l, local);
    if (group <= local) return inside;
    // Hierarchical: each node's ranks of this group share the node's network with the node's other groups.
    const double share = l.node_network * static_cast<double>(local) / static_cast<double>(l.gpus_per_node);
    return local > 1 ? std::min(inside, share) : share;
}

double all_reduce_s(const Links& l, double bytes, std::int64_t group, std::int64_t local) {
    if (group <= 1 || bytes <= 0) return 0;
    const double n = static_cast<double>(group);
    // nccl-tests PERFORMANCE.md: t = (S / busbw) · 2(n−1)/n.
    return 2 * (n - 1) / n * bytes / group_busbw(l, group, local) + latency(l, group, local);
}

double reduce_scatter_s(const Links& l, double bytes, std::int64_t group, std::int64_t local) {
    if (group <= 1 || bytes <= 0) return 0;
    const double n = static_cast<double>(group);
    // nccl-tests PERFORMANCE.md: t = S·(n−1)/(n·busbw), S the whole array.
    return (n - 1) / n * bytes / group_busbw(l, group, local) + latency(l, group, local);
}

double all_to_all_s(const Links& l, double bytes, std::int64_t group, std::int64_t local) {
    return reduce_scatter_s(l, bytes, group, local);  // (n−1)/n of each rank's buffer leaves it
}

double send_s(const Links& l, double bytes, bool across_nodes) {
    if (bytes <= 0) return 0;
    if (across_nodes) return bytes / (l.node_network / static_cast<double>(l.gpus_per_node)) + l.inter_latency_s;
    return bytes / l.pair_busbw + l.intra_latency_s;
}

}  // namespace gpusizer
