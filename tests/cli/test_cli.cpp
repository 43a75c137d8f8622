// The CLI in-process: exit codes, messages naming the key, JSON keys, link round trip.
#include <doctest/doctest.h>

#include "cli.hpp"
#include "format.hpp"
#include "gpusizer/export.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/scenario_limits.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>
#include <regex>

using gpusizer::cli::Io;

namespace {

int cli_run(std::vector<std::string> args, Io& io) { return gpusizer::cli::run(args, io); }

}  // namespace

TEST_CASE("cli: no arguments prints usage and exits 2; help exits 0") {
    Io io;
    CHECK(cli_run({}, io) == 2);
    CHECK(io.err.find("usage:") != std::string::npos);
    Io h;
    CHECK(cli_run({"help"}, h) == 0);
    CHECK(h.out.find("gpusizer estimate") != std::string::npos);
}

TEST_CASE("cli: bad input exits 2 with a message naming the key") {
    Io io;
    CHECK(cli_run({"estimate", "--batch_size", "0"}, io) == 2);
    CHECK(io.err == "gpusizer: batch_size: 0 is not a whole number in [1, 1000000]\n");
    Io u;
    CHECK(cli_run({"estimate", "--colour", "red"}, u) == 2);
    CHECK(u.err.find("unknown scenario key 'colour'") != std::string::npos);
    Io m;
    CHECK(cli_run({"estimate", "--model", "no-such-model", "--json"}, m) == 2);
    CHECK(m.err.find("model") != std::string::npos);
    Io f;
    CHECK(cli_run({"estimate", "--scenario", "/nonexistent/x.json"}, f) == 2);
    CHECK(f.err.find("cannot read '/nonexistent/x.json'") != std::string::npos);
    Io c;
    CHECK(cli_run({"frobnicate"}, c) == 2);
}

TEST_CASE("cli: estimate --json prints the spec's keys") {
    Io io;
    REQUIRE(cli_run({"estimate", "--model", "llama-3.1-8b", "--weight-dtype", "int8", "--json"}, io) == 0);
    for (const char* key : {"\"scenario\":", "\"warnings\":", "\"params\":", "\"memory_per_gpu_bytes\":",
                            "\"host_memory_bytes\":", "\"kv_bytes_per_token\":", "\"gpu\":",
                            "\"kv_capacity_tokens\":", "\"max_batch_size\":", "\"max_seq_len\":"})
        CHECK(io.out.find(key) != std::string::npos);
    CHECK(io.out.find("\"weight_dtype\":\"int8\"") != std::string::npos);
    CHECK(io.out.find("\"total\":8030261248") != std::string::npos);  // Llama-3.1-8B, exact
}

TEST_CASE("cli: --scenario - reads stdin; flags override it") {
    Io io;
    io.stdin_text = R"({"model":"qwen3-8b","batch_size":4})";
    REQUIRE(cli_run({"link", "--scenario", "-", "--seq_len", "4096"}, io) == 0);
    CHECK(io.out == "#v=1&m=qwen3-8b&b=4&s=4096\n");
}

TEST_CASE("cli: --link gives the same scenario as the flags") {
    Io a, b;
    REQUIRE(cli_run({"estimate", "--link", "https://x.example/#v=1&m=qwen3-8b&t=qlora&s=4096", "--json"}, a) == 0);
    REQUIRE(cli_run({"estimate", "--model", "qwen3-8b", "--task", "qlora", "--seq_len", "4096", "--json"}, b) == 0);
    CHECK(a.out == b.out);
    Io bad;
    CHECK(cli_run({"estimate", "--link", "not a link"}, bad) == 2);
}

TEST_CASE("cli: --hf_config reads a config.json file") {
    Io io;
    const std::string path = gpusizer_test::source_path("assets/src/hf_configs/llama-2-7b.json");
    REQUIRE(cli_run({"estimate", "--hf_config", path, "--json"}, io) == 0);
    CHECK(io.out.find("\"total\":6738415616") != std::string::npos);  // Llama-2-7B, exact
}

TEST_CASE("cli: a GPU that is too small exits 1") {
    Io io;
    CHECK(cli_run({"estimate", "--model", "llama-3.1-70b", "--gpu_memory_gib", "24"}, io) == 1);
    CHECK(io.out.find("does NOT fit") != std::string::npos);
}

TEST_CASE("cli: the human offer table keeps its columns in line, whatever the instance names' lengths") {
    Io io;
    REQUIRE(cli_run({"recommend", "--model", "llama-3.1-70b", "--task", "inference", "--batch_size", "20", "--top", "12"}, io) ==
            0);
    std::vector<std::string> table;  // the header row and the offer rows
    std::size_t at = io.out.find("\n#  ");
    REQUIRE(at != std::string::npos);
    for (std::size_t end = ++at; (end = io.out.find('\n', at)) != std::string::npos && end > at; at = end + 1)
        table.push_back(io.out.substr(at, end - at));
    REQUIRE(table.size() >= 13);  // 12 offers, and the cheapest / fastest after them when they rank lower
    // "×" is two bytes and one column: the display column where the plan ("plan", "tp8 pp1 …") starts.
    const std::regex plan_cell(R"(  (plan|tp\d+ pp\d+))");
    auto plan_column = [&](const std::string& line) {
        std::smatch m;
        REQUIRE(std::regex_search(line, m, plan_cell));
        return gpusizer::cli::display_width(line.substr(0, std::size_t(m.position(0))));
    };
    for (const auto& row : table) CHECK_MESSAGE(plan_column(row) == plan_column(table[0]), row);
}

TEST_CASE("cli: recommend ranks offers, and a budget that is too small exits 1 with the reason") {
    Io ok;
    REQUIRE(cli_run({"recommend", "--model", "qwen3-8b", "--task", "lora", "--train_tokens", "1e8", "--top", "3", "--json"},
                    ok) == 0);
    CHECK(ok.out.find("\"offers\":[{\"rank\":1,\"provider\":") != std::string::npos);
    CHECK(ok.out.find("\"summary\":\"For LoRA on ") != std::string::npos);
    Io poor;
    CHECK(cli_run({"recommend", "--model", "llama-3.1-70b", "--task", "full_ft", "--train_tokens", "1e10", "--budget", "1"},
                  poor) == 1);
    CHECK(poor.err.find("the scenario cannot be met") != std::string::npos);
    CHECK(poor.err.find("the cheapest plan costs $") != std::string::npos);  // the best figure and the miss
    CHECK(poor.err.find("over your $1.00 budget") != std::string::npos);
    Io bad;
    CHECK(cli_run({"recommend", "--top", "0"}, bad) == 2);
    CHECK(bad.err == "gpusizer: --top: expected a whole number in [1, 100000], got '0'\n");
}

TEST_CASE("cli: --format csv|markdown|json prints core's exports; --json is --format json") {
    using namespace gpusizer;
    const std::vector<std::string> scenario = {"--model", "qwen3-8b", "--task", "qlora", "--gpu", "l40s"};
    auto with = [&](std::string command, std::vector<std::string> extra) {
        std::vector<std::string> a = {std::move(command)};
        a.insert(a.end(), scenario.begin(), scenario.end());
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    Io io;
    std::vector<std::string> none;
    auto catalog = cli::load_catalog(none, io);
    REQUIRE(catalog);
    Scenario s;
    s.model = "qwen3-8b";
    s.task = Task::qlora;
    apply_dependent_defaults(s, GivenKeys{});  // nf4, spot allowed: what `--task qlora` resolves to
    s.gpu = "l40s";
    Result<Estimate> e = estimate(*catalog, s);
    REQUIRE(e.ok());

    Io csv;
    REQUIRE(cli_run(with("estimate", {"--format", "csv"}), csv) == 0);
    CHECK(csv.out == estimate_to_csv(*e));
    CHECK(csv.out.rfind("term,bytes,gib\r\nweights,", 0) == 0);

    Io md;
    REQUIRE(cli_run(with("estimate", {"--format", "markdown"}), md) == 0);
    CHECK(md.out.find("## Memory per GPU") != std::string::npos);
    CHECK(md.out.find("`#" + encode_link(s) + "`") != std::string::npos);
    CHECK(md.out.find("## Recommendation") == std::string::npos);  // estimate computes no offers

    Io j1, j2;
    REQUIRE(cli_run(with("estimate", {"--format", "json"}), j1) == 0);
    REQUIRE(cli_run(with("estimate", {"--json"}), j2) == 0);
    CHECK(j1.out == estimate_to_json(*e) + "\n");
    CHECK(j1.out == j2.out);

    s.train_tokens = 1e8;
    Result<Recommendation> r = recommend(*catalog, s, 3);
    REQUIRE(r.ok());
    Io rc;
    REQUIRE(cli_run(with("recommend", {"--train_tokens", "1e8", "--top", "3", "--format", "csv"}), rc) == 0);
    CHECK(rc.out == recommendation_to_csv(*r));
    Io rm;
    REQUIRE(cli_run(with("recommend", {"--train_tokens", "1e8", "--top", "3", "--format", "markdown"}), rm) == 0);
    CHECK(rm.out.find(r->summary) != std::string::npos);
    CHECK(rm.out.find("## Memory per GPU") != std::string::npos);  // recommend's summary carries the memory table
}

TEST_CASE("cli: a bad --format exits 2 naming the value and the choices") {
    Io io;
    CHECK(cli_run({"estimate", "--model", "qwen3-8b", "--format", "xml"}, io) == 2);
    CHECK(io.err == "gpusizer: --format: unknown format 'xml' (choices: text, json, csv, markdown)\n");
    CHECK(io.out.empty());
    Io r;
    CHECK(cli_run({"recommend", "--format", "CSV"}, r) == 2);
    CHECK(r.err.find("'CSV'") != std::string::npos);
    Io missing;
    CHECK(cli_run({"estimate", "--format"}, missing) == 2);
    CHECK(missing.err.find("--format needs a value") != std::string::npos);
    Io both;
    CHECK(cli_run({"estimate", "--json", "--format", "csv"}, both) == 2);
    Io same;
    CHECK(cli_run({"estimate", "--json", "--format", "json"}, same) == 0);
}

TEST_CASE("cli: exit codes hold in every format") {
    for (const char* f : {"text", "json", "csv", "markdown"}) {
        Io io;
        CHECK(cli_run({"estimate", "--model", "llama-3.1-70b", "--gpu_memory_gib", "24", "--format", f}, io) == 1);
    }
}

// [SECTION] Issue 13: the seed's own questions answered as an expert would (embedded catalog)

namespace {

nlohmann::json recommend_json(std::vector<std::string> args, int expect = 0) {
    args.insert(args.begin(), "recommend");
    args.push_back("--json");
    Io io;
    CHECK(cli_run(args, io) == expect);
    auto j = nlohmann::json::parse(io.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
}

bool check_ok(const nlohmann::json& offer, const char* id) {
    for (const auto& c : offer["checks"])
        if (c["id"] == id) return c["ok"].get<bool>();
    return true;  // absent: nothing to warn about
}

bool has_lever(const nlohmann::json& offer, const char* key) {
    for (const auto& l : offer["levers"])
        if (l["key"] == key) return true;
    return false;
}

}  // namespace

TEST_CASE("cli: 70B full fine-tuning on demand — one NVSwitch node or nodes on a fabric, never VMs without one") {
    const auto j = recommend_json({"--model", "llama-3.1-70b", "--task", "full_ft", "--train_tokens", "1e9", "--spot", "never",
                                   "--top", "15"});
    const auto& best = j["offers"][0];
    CHECK(best["gpu_count"].get<int>() >= 8);
    const std::string ic = best["interconnect"];
    CHECK((ic == "nvswitch" || ic == "nvlink"));
    CHECK(best["nodes"].get<int>() == 1);
    for (const auto& o : j["offers"]) {
        if (o["nodes"].get<int>() > 1) CHECK(check_ok(o, "fabric"));  // several nodes only over RDMA
        if (o["gpu"] == "tpu_v6e" || o["gpu"] == "tpu_v5e" || o["gpu"] == "tpu_v5p") CHECK(o["nodes"].get<int>() == 1);
        CHECK(check_ok(o, "headroom"));
    }
}

TEST_CASE("cli: a 7B LoRA goes on one GPU with gradient checkpointing when it is tight, not on 8 GPUs") {
    const auto none = recommend_json({"--model", "qwen2.5-7b", "--task", "lora", "--region", "global", "--top", "3"});
    const auto& a = none["offers"][0];
    CHECK(a["gpu_count"].get<int>() == 1);
    CHECK(none["reference_tokens"].get<double>() == doctest::Approx(1e8));
    CHECK(none["summary"].get<std::string>().find("100M-token run (assumed") != std::string::npos);
    const auto with = recommend_json({"--model", "qwen2.5-7b", "--task", "lora", "--train_tokens", "1e8", "--top", "5"});
    int tight_24gb = 0;
    for (const auto& o : with["offers"]) {
        if (o["rank"].get<int>() > 5) continue;  // the cheapest and fastest, kept after the top 5
        // 8 GPUs in the top 5 only as a spot node costing about as much as one GPU for the whole job
        if (o["gpu_count"].get<int>() > 2) CHECK(o["spot"].get<bool>());
        CHECK(o["plan"]["tensor_parallel"].get<int>() == 1);  // never TP over PCIe for training
        CHECK(check_ok(o, "headroom"));                      // ≥ 10% free, not 96% full
        if (o["gpu_memory_bytes"].get<double>() <= 24.0 * 1073741824.0) {
            ++tight_24gb;
            CHECK(has_lever(o, "activation_checkpointing"));
            CHECK(o["step"]["recompute_s"].get<double>() > 0);  // checkpointing costs time
        }
    }
    CHECK(tight_24gb > 0);  // a 24 GB card is among the five (RTX 4090 at ~$0.34/h)
    CHECK(with["offers"][0]["gpu_count"].get<int>() == 1);
}

TEST_CASE("cli: serving 70B to 20 users — one replica sized for 20, on demand, per hour and per million tokens") {
    const auto j = recommend_json({"--model", "llama-3.1-70b", "--batch_size", "20", "--top", "10"});
    CHECK(j["summary"].get<std::string>().find("to 20 concurrent users") != std::string::npos);
    CHECK(j["summary"].get<std::string>().find("checkpoint") == std::string::npos);
    for (const auto& o : j["offers"]) {
        CHECK_FALSE(o["spot"].get<bool>());
        CHECK(o["serving"]["users"].get<int>() == 20);
        CHECK(o["serving"]["replicas"].get<int>() == 1);
        const double tps = o["serving"]["tokens_per_s"].get<double>();
        CHECK(o["cost_per_million_tokens"].get<double>() == doctest::Approx(o["price_per_hour"].get<double>() / (tps * 3600) * 1e6));
    }
    // Asked for NVLink: a small NVLink box (or one big GPU), not a PCIe rig.
    const auto n = recommend_json({"--model", "llama-3.1-70b", "--batch_size", "20", "--region", "global", "--interconnect",
                                   "nvlink", "--top", "5"});
    const auto& best = n["offers"][0];
    CHECK(best["gpu_count"].get<int>() <= 4);
    CHECK(best["serving"]["replicas"].get<int>() == 1);
}

TEST_CASE("cli: --num_gpus 8 --tensor_parallel 8 is kept; rank_by hourly puts the cheapest hour first") {
    const auto j = recommend_json({"--model", "llama-3.1-70b", "--num_gpus", "8", "--tensor_parallel", "8", "--top", "20"});
    for (const auto& o : j["offers"]) {
        CHECK(o["plan"]["tensor_parallel"].get<int>() == 8);
        CHECK(o["gpu_count"].get<int>() == 8);
    }
    const auto h = recommend_json({"--task", "lora", "--rank_by", "hourly", "--region", "global", "--top", "10"});
    const auto& offers = h["offers"];
    for (std::size_t i = 1; i < offers.size(); ++i)
        if (offers[i - 1]["nodes"] == offers[i]["nodes"])
            CHECK(offers[i - 1]["price_per_hour"].get<double>() <= offers[i]["price_per_hour"].get<double>());
    CHECK(offers[0]["nodes"].get<int>() == 1);
}

TEST_CASE("cli: mainland China — export controls named with the alternatives; a budget miss by how much") {
    const auto h = recommend_json({"--region", "cn_mainland", "--gpu", "h100_sxm"}, 1);
    const std::string why = h["summary"];
    CHECK(why.find("export controls") != std::string::npos);
    CHECK(why.find("H20") != std::string::npos);
    CHECK(why.find("Ascend") != std::string::npos);
    CHECK(h["summary_zh"].get<std::string>().find("出口管制") != std::string::npos);
    const auto m = recommend_json({"--region", "cn_mainland", "--gpu", "mlu590"}, 1);
    CHECK(m["summary"].get<std::string>().find("no mainland China provider in the catalog rents") != std::string::npos);
    const auto b = recommend_json({"--region", "cn_mainland", "--currency", "CNY", "--model", "qwen2.5-32b", "--task", "lora",
                                   "--train_tokens", "1e9", "--budget", "50"},
                                  1);
    const std::string miss = b["summary"];
    CHECK(miss.find("the cheapest plan costs ¥") != std::string::npos);
    CHECK(miss.find("over your ¥50.0 budget") != std::string::npos);
}

TEST_CASE("cli: bf16 on a T4 is flagged; tiny totals keep 3 significant digits in the table") {
    const auto t = recommend_json({"--model", "llama-3.2-1b", "--gpu", "t4", "--top", "3"});
    REQUIRE_FALSE(t["offers"].empty());
    CHECK_FALSE(check_ok(t["offers"][0], "bf16"));
    Io io;
    REQUIRE(cli_run({"recommend", "--model", "llama-3.2-1b", "--task", "lora", "--train_tokens", "1e5", "--currency", "CNY", "--top",
                     "1"},
                    io) == 0);
    const auto line = io.out.substr(io.out.find("\n1 "));
    CHECK(line.find("¥0.0") != std::string::npos);  // e.g. ¥0.0819, never "0"
}

TEST_CASE("cli: estimate fills time and throughput for the scenario's own layout, also when it does not fit") {
    Io io;
    REQUIRE(cli_run({"estimate", "--model", "llama-3.1-8b", "--task", "full_ft", "--gpu", "h100_sxm", "--num_gpus", "8",
                     "--zero_stage", "3", "--train_tokens", "1e9", "--json"},
                    io) == 0);
    auto j = nlohmann::json::parse(io.out, nullptr, false);
    REQUIRE(j["time"].is_object());
    CHECK(j["time"]["hours"].get<double>() > 0);
    CHECK(j["time"]["gpu_hours"].get<double>() == doctest::Approx(8 * j["time"]["hours"].get<double>()));
    CHECK(j["throughput"]["tokens_per_s"].get<double>() > 0);
    Io big;
    CHECK(cli_run({"estimate", "--model", "llama-3.1-70b", "--task", "full_ft", "--gpu", "rtx4090", "--train_tokens", "1e8", "--json"},
                  big) == 1);
    auto b = nlohmann::json::parse(big.out, nullptr, false);
    CHECK_FALSE(b["gpu"]["fits"].get<bool>());
    CHECK(b["time"].is_object());  // filled anyway, with a warning
    bool warned = false;
    for (const auto& w : b["warnings"]) warned = warned || w.get<std::string>().find("does not fit") != std::string::npos;
    CHECK(warned);
    Io none;
    REQUIRE(cli_run({"estimate", "--model", "llama-3.1-8b", "--json"}, none) == 0);
    auto n = nlohmann::json::parse(none.out, nullptr, false);
    CHECK(n["throughput"].is_null());
    bool named = false;
    for (const auto& w : n["warnings"]) named = named || w.get<std::string>().find("give a catalog `gpu`") != std::string::npos;
    CHECK(named);
    // max_seq_len is capped by the model's positions (Llama 3.2 1B: 131072).
    Io cap;
    REQUIRE(cli_run({"estimate", "--model", "llama-3.2-1b", "--gpu", "b200", "--json"}, cap) == 0);
    auto c = nlohmann::json::parse(cap.out, nullptr, false);
    CHECK(c["max_seq_len"].get<std::int64_t>() <= 131072);
}

TEST_CASE("cli: vision, diffusion and speech (issue 16's done-when commands)") {
    // ResNet-50 pretraining on an A100: memory, images/s, and with train_images × epochs the time.
    Io r;
    REQUIRE(cli_run({"estimate", "--model", "resnet-50", "--task", "pretrain", "--batch_size", "256", "--gpu", "a100_80_sxm"}, r) == 0);
    CHECK(r.out.find("batch 256 images at the model's resolution") != std::string::npos);
    CHECK(r.out.find("images/s") != std::string::npos);
    CHECK(r.out.find("time is null: give train_images") != std::string::npos);
    Io rj;
    REQUIRE(cli_run({"estimate", "--model", "resnet-50", "--task", "pretrain", "--batch_size", "256", "--gpu", "a100_80_sxm",
                     "--train_images", "1281167", "--epochs", "90", "--json"}, rj) == 0);
    const auto j = nlohmann::json::parse(rj.out);
    CHECK(j["params"]["total"] == 25557032);  // torchvision's resnet50 num_params
    CHECK(j["model_kind"] == "cnn");
    const double ips = j["throughput"]["images_per_s"].get<double>();
    CHECK(ips == doctest::Approx(2470).epsilon(0.05));  // NVIDIA DeepLearningExamples RN50 v1.5, 1× A100 80GB AMP
    // NVIDIA's README gives ~14 h for 90 epochs on one A100; the run itself is 1,281,167 × 90 images / images/s.
    CHECK(j["time"]["hours"].get<double>() == doctest::Approx(1281167.0 * 90 / ips / 3600));
    CHECK(j["time"]["hours"].get<double>() == doctest::Approx(14).epsilon(0.15));

    // SDXL at 1024 px, 30 steps on an L4: fits, seconds per image.
    Io s;
    REQUIRE(cli_run({"estimate", "--model", "sdxl", "--task", "inference", "--image_size", "1024", "--steps", "30", "--gpu", "l4", "--json"}, s) == 0);
    const auto sj = nlohmann::json::parse(s.out);
    CHECK(sj["gpu"]["fits"] == true);
    CHECK(sj["throughput"]["seconds_per_image"].get<double>() > 1);
    CHECK(sj["scenario"]["steps"] == 30);
    CHECK(sj["scenario"]["image_size"] == 1024);

    // Whisper large-v3 on a T4: the real-time factor.
    Io w;
    REQUIRE(cli_run({"estimate", "--model", "whisper-large-v3", "--gpu", "t4"}, w) == 0);
    CHECK(w.out.find("real-time factor") != std::string::npos);
    CHECK(w.out.find("30 s audio windows") != std::string::npos);

    // recommend ranks offers for each, in the kind's units.
    Io rr, sr, wr;
    REQUIRE(cli_run({"recommend", "--model", "resnet-50", "--task", "pretrain", "--batch_size", "256", "--train_images", "1281167",
                     "--epochs", "90", "--top", "3"}, rr) == 0);
    CHECK(rr.out.find("for the whole job") != std::string::npos);
    REQUIRE(cli_run({"recommend", "--model", "sdxl", "--image_size", "1024", "--steps", "30", "--top", "3"}, sr) == 0);
    CHECK(sr.out.find("/M images") != std::string::npos);
    CHECK(sr.out.find("images per second") != std::string::npos);
    REQUIRE(cli_run({"recommend", "--model", "whisper-large-v3", "--top", "3"}, wr) == 0);
    CHECK(wr.out.find("× real time") != std::string::npos);

    // A pasted config of another kind works; a broken one exits 2 naming the key.
    Io p;
    REQUIRE(cli_run({"estimate", "--hf_config",
                     R"({"model_type":"convnext","depths":[3,3,27,3],"hidden_sizes":[128,256,512,1024],"num_labels":1000})", "--json"}, p) == 0);
    CHECK(nlohmann::json::parse(p.out)["params"]["total"] == 88591464);  // torchvision convnext_base
    Io bad;
    CHECK(cli_run({"estimate", "--hf_config", R"({"model_type":"whisper","d_model":1280})"}, bad) == 2);
    CHECK(bad.err.find("encoder_layers: required") != std::string::npos);
}
