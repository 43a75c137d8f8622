// The communication model (docs/speed-and-cost.md "Communication"): link bandwidths from the
// catalog's specs and NCCL's measured fractions, the ring formulas of nccl-tests, and what each
// layout moves in a training step, worked by hand.
#include <doctest/doctest.h>

#include "gpusizer/speed.hpp"

using namespace gpusizer;

namespace {

Accelerator gpu(double nvlink_bidir_gbps, int pcie_gen, double bf16 = 989.4, double bw = 3350) {
    Accelerator a;
    a.id = "test";
    a.year = 2022;
    a.software = "cuda";
    a.tflops_bf16_dense = bf16;
    a.memory_bandwidth_gbps = bw;
    a.nvlink_bandwidth_gbps = nvlink_bidir_gbps;
    a.pcie_gen = pcie_gen;
    return a;
}

ModelArch dense(std::uint64_t hidden, std::uint64_t layers) {
    ModelArch a;
    a.hidden_size = hidden;
    a.num_layers = layers;
    a.num_heads = hidden / 128;
    a.head_dim = 128;
    return a;
}

}  // namespace

TEST_CASE("comm: NVSwitch reaches 80% of the unidirectional NVLink rate; PCIe 44% of x16") {
    const Links h = node_links(gpu(900, 5), "nvswitch", 8, 3200);
    CHECK(h.nvlink_class);
    CHECK(h.intra_busbw == doctest::Approx(450e9 * 0.8));  // 360 GB/s (8× H100 ring measured 370)
    CHECK(h.intra_latency_s == doctest::Approx(8e-6));
    CHECK(h.rdma);
    CHECK(h.node_network == doctest::Approx(3200e9 / 8 * 0.92));  // 368 GB/s per node
    const Links p4 = node_links(gpu(0, 4), "pcie", 8, 100);
    CHECK_FALSE(p4.nvlink_class);
    CHECK(p4.intra_busbw == doctest::Approx(32e9 * 0.44));  // 14.1 GB/s (4090s with P2P: 12.7)
    CHECK(p4.intra_latency_s == doctest::Approx(42e-6));
    const Links p5 = node_links(gpu(0, 5), "pcie", 8, 100);
    CHECK(p5.intra_busbw == doctest::Approx(64e9 * 0.44));  // 28.2 GB/s (8× RTX 5090 measured 28)
}

TEST_CASE("comm: an NVLink bridge joins pairs only; xGMI grows with the group") {
    const Links b = node_links(gpu(600, 4), "nvlink-bridge", 4, 80);
    CHECK(b.pair_busbw == doctest::Approx(300e9 * 0.39));  // 117 GB/s (2× H100 PCIe bridged: 116)
    CHECK(b.intra_busbw == doctest::Approx(32e9 * 0.44));  // four GPUs: the pairs meet over PCIe
    CHECK(group_busbw(b, 2, 2) == doctest::Approx(300e9 * 0.39));
    CHECK(group_busbw(b, 4, 4) == doctest::Approx(32e9 * 0.44));
    const Links x = node_links(gpu(896, 5), "infinity-fabric", 8, 3200);
    CHECK(group_busbw(x, 2, 2) == doctest::Approx(64e9 * 0.72));      // 46 GB/s (measured 47.7)
    CHECK(group_busbw(x, 8, 8) == doctest::Approx(64e9 * 0.72 * 7));  // 323 GB/s (measured 312.9)
}

TEST_CASE("comm: a node without a listed network is on an assumed 10 Gb/s plain network") {
    const Links l = node_links(gpu(0, 5), "none", 1, 0);
    CHECK_FALSE(l.network_listed);
    CHECK_FALSE(l.rdma);
    CHECK(l.network_gbps == doctest::Approx(10));
    CHECK(l.node_network == doctest::Approx(10e9 / 8 * 0.5));  // TCP at half its line rate
    CHECK(l.inter_latency_s == doctest::Approx(100e-6));
    CHECK_FALSE(node_links(gpu(0, 5), "none", 1, 50).rdma);
    CHECK(node_links(gpu(0, 5), "none", 1, 100).rdma);
}

TEST_CASE("comm: ring formulas — all-reduce 2(n−1)/n, reduce-scatter (n−1)/n, plus one latency") {
    const Links h = node_links(gpu(900, 5), "nvswitch", 8, 3200);
    const double S = 1e9;
    CHECK(all_reduce_s(h, S, 8, 8) == doctest::Approx(2.0 * 7 / 8 * S / 360e9 + 8e-6));
    CHECK(reduce_scatter_s(h, S, 8, 8) == doctest::Approx(7.0 / 8 * S / 360e9 + 8e-6));
    CHECK(all_reduce_s(h, S, 1, 1) == 0);
    // Across 2 nodes with every GPU of the node in the group: the node's 368 GB/s network is above
    // NVLink's 360, so NVLink bounds it; the cross-node latency applies.
    CHECK(all_reduce_s(h, S, 16, 8) == doctest::Approx(2.0 * 15 / 16 * S / 360e9 + 47e-6));
    // One GPU per node in the group (TP 8 inside): it gets one NIC, 368/8 = 46 GB/s (NDR: 46–48 per NIC).
    CHECK(group_busbw(h, 16, 1) == doctest::Approx(368e9 / 8));
}

TEST_CASE("comm: data parallel over a plain network is slowed by it; ZeRO-3 moves 1.5× DDP's bytes") {
    ModelArch a = dense(4096, 32);
    Scenario s;
    s.task = Task::full_ft;
    s.seq_len = 2048;
    ParamCounts p;
    p.total = p.active = p.trainable = 8000000000ull;
    const Accelerator g = gpu(0, 5);
    JobLayout l;
    l.dp = 2;
    l.nodes = 2;
    l.gpus_per_node = 1;
    const Links slow = node_links(g, "none", 1, 10);  // two single-GPU VMs on 10 Gb/s
    l.zero = 0;
    const TrainingStep ddp = training_step(s, a, p, g, slow, l);
    // DDP: one all-reduce of 2 bytes × 8e9 gradients per step over 10 Gb/s × 0.5 = 0.625 GB/s.
    CHECK(ddp.dp_s == doctest::Approx(2.0 * 1 / 2 * 16e9 / 0.625e9 + 100e-6));
    l.zero = 3;
    const TrainingStep z3 = training_step(s, a, p, g, slow, l);
    // ZeRO-3: every micro-batch gathers the parameters twice and scatters the gradients: 3 × 16 GB × 1/2.
    const double per_micro = 3 * (1.0 / 2 * 16e9 / 0.625e9 + 100e-6);
    CHECK(z3.dp_s == doctest::Approx(z3.micro_batches * per_micro));
    CHECK(z3.dp_exposed_s > 0.9 * z3.dp_s - z3.compute_s);  // the network, not the GPUs, sets the pace
    // Over NVSwitch the same ZeRO-3 traffic hides behind compute: only the 10% floor shows.
    const Links fast = node_links(gpu(900, 5), "nvswitch", 2, 0);
    l.nodes = 1;
    l.gpus_per_node = 2;
    const TrainingStep near = training_step(s, a, p, gpu(900, 5), fast, l);
    CHECK(near.dp_exposed_s == doctest::Approx(0.1 * near.dp_s));
}

TEST_CASE("comm: tensor parallel all-reduces per layer — 4 without recompute, 6 with full recompute") {
    ModelArch a = dense(8192, 80);
    Scenario s;
    s.task = Task::pretrain;
    s.seq_len = 4096;
    ParamCounts p;
    p.total = p.active = p.trainable = 70000000000ull;
    const Accelerator g = gpu(900, 5);
    const Links h = node_links(g, "nvswitch", 8, 3200);
    JobLayout l;
    l.tp = 8;
    l.gpus_per_node = 8;
    l.global_batch_tokens = 4096;  // one micro-batch per step
    const double one = all_reduce_s(h, 4096.0 * 8192 * 2, 8, 8);
    CHECK(training_step(s, a, p, g, h, l).tp_s == doctest::Approx(80 * 4 * one));
    s.activation_checkpointing = Checkpointing::full;
    CHECK(training_step(s, a, p, g, h, l).tp_s == doctest::Approx(80 * 6 * one));
}

TEST_CASE("comm: pipeline bubble — DeepSpeed 1F1B (pp−1) slots, Megatron interleaved ÷ v, HF naive (pp−1)·m") {
    ModelArch a = dense(4096, 32);
    Scenario s;
    s.task = Task::pretrain;
    s.seq_len = 2048;
    ParamCounts p;
    p.total = p.active = p.trainable = 8000000000ull;
    const Accelerator g = gpu(900, 5);
    const Links h = node_links(g, "nvswitch", 4, 0);
    JobLayout l;
    l.pp = 4;
    l.gpus_per_node = 4;
    l.global_batch_tokens = 16 * 2048;  // 16 micro-batches
    s.framework = Framework::deepspeed;
    const TrainingStep ds = training_step(s, a, p, g, h, l);
    const double slot = ds.compute_s / 16;
    CHECK(ds.micro_batches == doctest::Approx(16));
    CHECK(ds.pp_bubble_s == doctest::Approx(3 * slot));
    s.framework = Framework::megatron;  // 32 layers / 4 stages: v = 8
    CHECK(training_step(s, a, p, g, h, l).pp_bubble_s == doctest::Approx(3 * slot / 8));
    s.framework = Framework::hf;  // device_map: one stage at a time
    CHECK(training_step(s, a, p, g, h, l).pp_bubble_s == doctest::Approx(3 * slot * 16));
}
