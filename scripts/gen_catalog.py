#!/usr/bin/env python3
"""Build assets/catalog.json from the sources in assets/src/ (Python 3 stdlib only).

    python3 scripts/gen_catalog.py            # writes assets/catalog.json, prints row counts and sizes
    python3 scripts/gen_catalog.py --check    # exit 1 when assets/catalog.json is not what the sources give
    python3 scripts/gen_catalog.py --import-shared ../shared   # refresh assets/src from the research folder first

Sources (docs/catalog.md explains each one):
    assets/src/gpus.csv, assets/src/instances.csv   copies of shared/data/*.csv (researched rows, source + confidence)
    assets/src/providers.json                       provider facts (spot name, notice, billing) with their sources
    assets/src/models/<id>.json                     one model preset each: metadata + the config.json object
    assets/src/hf_configs/<id>.json                 byte copies of shared/data/hf_configs (checked against models/)

Deterministic: no clocks, no randomness; the same sources give the same bytes.
"""
import csv
import gzip
import json
import os
import re
import shutil
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SRC = os.path.join(ROOT, "assets", "src")
OUT = os.path.join(ROOT, "assets", "catalog.json")

# [SECTION] Catalog identity: bump CATALOG_VERSION whenever a source changes.
SCHEMA = 1
CATALOG_VERSION = "2026.12.02-1"

# [SECTION] The USD<->CNY rate. shared/data/README.md: "The USD column was converted at 7.2 CNY/USD (an
# assumption)". No dated market rate was available offline, so the rate is marked as an estimate (K) with no date.
CURRENCY = {
    "cny_per_usd": 7.2,
    "date": None,
    "confidence": "K",
    "source": "shared/data/README.md: the assumption used to convert the CNY rows of instances.csv; not a dated "
              "market rate (replace it with the PBOC central parity of a stated day, or override it in a user catalog)",
}

# Rows of instances.csv that cannot be catalog rows, with the reason (listed in the catalog and in docs/catalog.md).
EXCLUDED_INSTANCES = {
    ("Huawei Cloud", "ai1s (Ascend 310 inference)"):
        "gpu_id is empty: the Ascend 310 has no row in gpus.csv, so the instance has no accelerator to point to",
}

CONFIDENCE_TAGS = ("V", "V-partial", "V-draft", "K")

# Software stack by vendor (gpus.csv has no column for it).
SOFTWARE_BY_VENDOR = {"NVIDIA": "cuda", "AMD": "rocm", "Huawei": "cann", "Cambricon": "neuware", "Google": "xla",
                      "AWS": "neuron", "Intel": "synapse"}

INTERCONNECTS = ("nvswitch", "nvlink", "nvlink-bridge", "nvlink-c2c", "pcie", "none", "hccs", "neuronlink", "ici",
                 "infinity-fabric", "varies")


def fail(msg):
    sys.stderr.write("gen_catalog: " + msg + "\n")
    sys.exit(2)


def num(text, where):
    """CSV cell -> int/float, or None when empty."""
    t = text.strip()
    if t == "":
        return None
    try:
        v = float(t)
    except ValueError:
        fail("%s: not a number: %r" % (where, text))
    return int(v) if v.is_integer() and "." not in t else v


def read_csv(name):
    with open(os.path.join(SRC, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# [SECTION] Accelerators
def export_status(raw, notes):
    """gpus.csv china_export_status is free text; split it into a keyword, the text, and the date it took effect
    when the row says so (never guessed)."""
    low = raw.lower()
    if "now restricted" in low or low.startswith("restricted"):
        status = "restricted"
    elif low.startswith("china-compliant"):
        status = "china-compliant"
    elif low.startswith("china-available"):
        status = "china-available"
    elif low.startswith("domestic"):
        status = "domestic"
    elif low.startswith("legacy"):
        status = "legacy"
    elif low.startswith("not sold in china"):
        status = "not-sold-in-china"
    elif low.startswith("n/a"):
        status = "not-applicable"
    else:
        fail("unknown china_export_status %r" % raw)
    date, date_source = None, "not stated in shared/data"
    m = re.search(r"since (Oct)-(\d{4})", raw) or re.search(r"pre-(Oct)-(\d{4}) rules; now restricted", raw)
    if m:
        date = m.group(2) + "-10"
        date_source = "gpus.csv china_export_status: '%s'" % raw
        if "Oct-2023 BIS" in notes:
            date_source += "; notes: 'Banned for export after Oct-2023 BIS update'"
    return status, date, date_source


def memory_bytes(row):
    """The MiB figure from cloud catalogs when the row gives one (the smallest: what a VM can actually use), else
    memory_gb x 2^30 (vendor HBM/GDDR "GB" is GiB: H100 80GB = 81920 MiB in cloud GpuInfo, data README)."""
    text = row["notes"] + " " + row["source"]
    mibs = sorted({int(m) for m in re.findall(r"(\d{4,6}) MiB", text)})
    gb = num(row["memory_gb"], row["id"] + ".memory_gb")
    if mibs:
        return mibs[0] * 1024 * 1024, "cloud catalog GpuInfo %d MiB (smallest MiB figure in the row's notes/source)" % mibs[0]
    return int(round(gb * 1024 ** 3)), "memory_gb x 2^30 (vendor GB = GiB for HBM/GDDR parts; data README)"


def accelerators():
    out = []
    for r in read_csv("gpus.csv"):
        w = r["id"]
        if r["confidence"] not in CONFIDENCE_TAGS:
            fail("%s: confidence %r" % (w, r["confidence"]))
        mb, basis = memory_bytes(r)
        status, sdate, sdate_src = export_status(r["china_export_status"], r["notes"])
        out.append({
            "id": r["id"], "vendor": r["vendor"], "name": r["name"], "architecture": r["architecture"],
            "year": num(r["year"], w), "memory_gb": num(r["memory_gb"], w), "memory_bytes": mb,
            "memory_bytes_basis": basis, "memory_type": r["memory_type"],
            "memory_bandwidth_gbps": num(r["memory_bandwidth_gbps"], w),
            "tflops_fp32": num(r["fp32_tflops"], w), "tflops_tf32_dense": num(r["tf32_tflops"], w),
            "tflops_bf16_dense": num(r["bf16_tflops"], w), "tflops_fp16_dense": num(r["fp16_tflops"], w),
            "tflops_fp8_dense": num(r["fp8_tflops"], w), "tops_int8_dense": num(r["int8_tops"], w),
            "tops_int4_dense": num(r["int4_tops"], w), "nvlink_bandwidth_gbps": num(r["nvlink_bandwidth_gbps"], w),
            "pcie_gen": num(r["pcie_gen"], w), "tdp_w": num(r["tdp_w"], w), "form_factor": r["form_factor"],
            "software": SOFTWARE_BY_VENDOR[r["vendor"]],
            "export_status": status, "export_status_note": r["china_export_status"],
            "export_status_date": sdate, "export_status_date_source": sdate_src,
            "confidence": r["confidence"],
            "verified_fields": [f for f in r["verified_fields"].split(",") if f.strip()],
            "source": r["source"], "notes": r["notes"],
        })
    return out


# [SECTION] Providers and instances
def iso_price_date(text):
    """An ISO day when price_date is (or ends with) one; snapshot descriptions give None."""
    m = re.match(r"^(\d{4}-\d{2}-\d{2})", text) or re.search(r"; (\d{4}-\d{2}-\d{2})$", text)
    return m.group(1) if m else None


def instances(prov_ids):
    out, excluded, seen = [], [], set()
    for r in read_csv("instances.csv"):
        key = (r["provider"], r["instance_type"])
        if key in EXCLUDED_INSTANCES:
            excluded.append({"file": "instances.csv", "provider": key[0], "instance": key[1],
                             "reason": EXCLUDED_INSTANCES[key]})
            continue
        w = "%s/%s" % key
        pid = prov_ids.get(r["provider"]) or fail("%s: provider not in providers.json csv_names" % w)
        if (pid, r["instance_type"]) in seen:
            fail("%s: duplicate" % w)
        seen.add((pid, r["instance_type"]))
        if r["confidence"] not in CONFIDENCE_TAGS:
            fail("%s: confidence %r" % (w, r["confidence"]))
        if r["gpu_interconnect"] not in INTERCONNECTS:
            fail("%s: interconnect %r" % (w, r["gpu_interconnect"]))
        cny = r["currency"] == "CNY"
        # CNY rows: price_native is CNY per GPU-hour (data README); the USD column is a 7.2 conversion, not a fact.
        od = num(r["price_native"], w) if cny else num(r["ondemand_usd_per_hour"], w)
        spot = None if cny else num(r["spot_usd_per_hour"], w)
        if cny and num(r["spot_usd_per_hour"], w) is not None:
            fail("%s: CNY row with a spot price: no native spot column to read it from" % w)
        out.append({
            "provider": pid, "id": r["instance_type"], "gpu": r["gpu_id"], "gpu_count": num(r["gpu_count"], w),
            "interconnect": r["gpu_interconnect"], "vcpus": num(r["vcpus"], w), "ram_gib": num(r["ram_gb"], w),
            "local_ssd_gb": num(r["local_ssd_gb"], w), "network_gbps": num(r["network_gbps"], w),
            "regions": [x.strip() for x in r["regions_example"].split(",") if x.strip()],
            "price_region": r["price_region"] or None, "cn_mainland": r["china_mainland"] == "yes",
            "currency": r["currency"], "ondemand_per_hour": od, "spot_per_hour": spot,
            "spot_is_typical_discount": False,
            "price_date": r["price_date"], "price_date_iso": iso_price_date(r["price_date"]),
            "confidence": r["confidence"], "source": r["source"], "notes": r["notes"],
        })
    return out, excluded


def providers(insts):
    with open(os.path.join(SRC, "providers.json"), encoding="utf-8") as f:
        src = json.load(f)
    out = []
    for p in src["providers"]:
        facts = [k for k in ("spot_name", "interruption_notice_s", "billing_granularity_s") if p[k] is not None]
        secondary = any(v.startswith("secondary") for v in p["sources"].values())
        # V: all three facts from the provider's docs; V-partial: some; K: none found (all null).
        conf = "V" if len(facts) == 3 and not secondary else ("V-partial" if facts else "K")
        regions, mainland = [], False
        for i in insts:
            if i["provider"] == p["id"]:
                mainland = mainland or i["cn_mainland"]
                for reg in i["regions"] + ([i["price_region"]] if i["price_region"] else []):
                    if reg not in regions:
                        regions.append(reg)
        out.append({"id": p["id"], "name": p["name"], "kind": p["kind"], "spot_name": p["spot_name"],
                    "interruption_notice_s": p["interruption_notice_s"],
                    "billing_granularity_s": p["billing_granularity_s"], "regions": regions,
                    "cn_mainland": mainland, "confidence": conf, "sources": p["sources"], "notes": p["notes"]})
    return out, src["csv_names"]


# [SECTION] Model presets
# Curated order (the page groups presets by family in order of first appearance); others follow by id.
MODEL_ORDER = [
    "llama-3.1-8b", "llama-3.1-8b-instruct", "llama-3.1-70b", "llama-3.1-70b-instruct", "llama-3.1-405b",
    "llama-3.3-70b", "llama-3.2-1b", "llama-3.2-3b", "llama-3-8b", "llama-2-7b", "llama-2-7b-chat", "llama-2-13b",
    "llama-2-70b",
    "qwen3-0.6b", "qwen3-1.7b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
    "qwen3-coder-480b-a35b", "qwen3-embedding-8b", "qwen2.5-0.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-7b-instruct", "qwen2.5-14b",
    "qwen2.5-32b", "qwen2-7b", "qwen2-7b-instruct", "qwen2-72b", "qwen2-72b-instruct", "qwen1.5-110b",
    "deepseek-v3", "deepseek-r1", "deepseek-llm-7b-base", "kimi-k2", "mistral-7b-v0.1", "mixtral-8x7b",
    "mixtral-8x22b", "gemma-2-2b", "gemma-2-9b", "gpt-oss-20b", "gpt-oss-120b",
    "phi-4", "phi-3-mini-4k-instruct", "phi-3-medium-4k-instruct", "phi-2", "yi-1.5-6b", "yi-1.5-34b",
    "olmo-3.1-32b-instruct", "exaone-4.0-32b", "gpt2", "bert-base-uncased", "bert-large-uncased",
]


def models():
    out = []
    mdir = os.path.join(SRC, "models")
    for fn in sorted(os.listdir(mdir)):
        if not fn.endswith(".json"):
            continue
        with open(os.path.join(mdir, fn), encoding="utf-8") as f:
            m = json.load(f)
        if m["id"] + ".json" != fn:
            fail("%s: id %r differs from the file name" % (fn, m["id"]))
        hf = os.path.join(SRC, "hf_configs", fn)
        if os.path.exists(hf):  # presets made from shared/data/hf_configs must carry that file's content as is
            with open(hf, encoding="utf-8") as f:
                if json.load(f) != m["config"]:
                    fail("%s: config differs from hf_configs/%s" % (fn, fn))
        out.append(m)
    rank = {mid: i for i, mid in enumerate(MODEL_ORDER)}
    return sorted(out, key=lambda m: (rank.get(m["id"], len(rank)), m["id"]))


# Per-GPU listings (RunPod pods, Vast.ai and mainland marketplaces sell GPUs one at a time at a
# per-GPU price): one machine holds up to this many at that price. ASSUMPTION (RunPod's note:
# "multi-GPU pods scale linearly"; 8 is the common server size), documented in docs/catalog.md.
PER_GPU_MAX = 8
PER_GPU_PROVIDERS = ("runpod", "vastai")


def mark_per_gpu_listings(insts, accels):
    form = {a["id"]: a.get("form_factor") or "" for a in accels}
    for i in insts:
        per_gpu = i["gpu_count"] == 1 and (
            "per GPU" in i["id"] or "Per-GPU" in (i["notes"] or "") or i["provider"] in PER_GPU_PROVIDERS)
        if not per_gpu or form.get(i["gpu"], "").startswith("TPU"):
            continue
        i["scales_to_gpus"] = PER_GPU_MAX
        # SXM boards come on NVLink/NVSwitch baseboards; everything else is assumed to talk over PCIe.
        i["scaled_interconnect"] = "nvlink" if "SXM" in form.get(i["gpu"], "") else "pcie"


def build():
    with open(os.path.join(SRC, "providers.json"), encoding="utf-8") as f:
        names = json.load(f)["csv_names"]
    insts, excluded = instances(names)
    accels = accelerators()
    mark_per_gpu_listings(insts, accels)
    provs, _ = providers(insts)
    known = {p["id"] for p in provs}
    for i in insts:
        if i["provider"] not in known:
            fail("instance %s: provider %s has no providers.json row" % (i["id"], i["provider"]))
    dates = sorted(d for d in (i["price_date_iso"] for i in insts) if d)
    return {
        "schema": SCHEMA,
        "version": CATALOG_VERSION,
        "prices_as_of": dates[-1],
        "prices_oldest": dates[0],
        "prices_note": "prices_as_of is the newest dated price; many rows are catalog snapshots without a date "
                       "(see each row's price_date). Spot prices move hourly.",
        "currency": CURRENCY,
        "accelerators": accels,
        "providers": provs,
        "instances": insts,
        "models": models(),
        "excluded_rows": excluded,
    }


def import_shared(shared):
    data = os.path.join(shared, "data")
    shutil.copyfile(os.path.join(data, "gpus.csv"), os.path.join(SRC, "gpus.csv"))
    shutil.copyfile(os.path.join(data, "instances.csv"), os.path.join(SRC, "instances.csv"))
    shutil.copyfile(os.path.join(data, "README.md"), os.path.join(SRC, "data-README.md"))
    os.makedirs(os.path.join(SRC, "hf_configs"), exist_ok=True)
    for fn in os.listdir(os.path.join(data, "hf_configs")):
        shutil.copyfile(os.path.join(data, "hf_configs", fn), os.path.join(SRC, "hf_configs", fn))


def main(argv):
    if "--import-shared" in argv:
        import_shared(argv[argv.index("--import-shared") + 1])
    # ASCII only (non-ASCII as \uXXXX escapes): scripts/embed.cmake writes the bytes into a `const char[]`,
    # where bytes above 0x7F are narrowing errors; the escapes are the same JSON text to every parser.
    text = json.dumps(build(), ensure_ascii=True, separators=(",", ":"), allow_nan=False) + "\n"
    data = text.encode("utf-8")
    if "--check" in argv:
        with open(OUT, "rb") as f:
            if f.read() != data:
                sys.stderr.write("gen_catalog: assets/catalog.json is stale: run scripts/gen_catalog.py\n")
                return 1
        return 0
    with open(OUT, "wb") as f:
        f.write(data)
    c = json.loads(text)
    gz = len(gzip.compress(data, compresslevel=9, mtime=0))
    print("accelerators %d, providers %d, instances %d (%d excluded), models %d" % (
        len(c["accelerators"]), len(c["providers"]), len(c["instances"]), len(c["excluded_rows"]), len(c["models"])))
    print("assets/catalog.json: %d bytes, %d bytes gzip -9" % (len(data), gz))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
