#!/usr/bin/env python3
"""Build assets/catalog.json from the sources in assets/src/ (Python 3 stdlib only).

    python3 scripts/gen_catalog.py            # writes assets/catalog.json, prints row counts and sizes
    python3 scripts/gen_catalog.py --check    # exit 1 when assets/catalog.json is not what the sources give
    python3 scripts/gen_catalog.py --import-shared ../shared   # refresh gpus.csv, README, hf_configs from the research folder
    python3 scripts/gen_catalog.py --stale    # also list every priced row older than STALE_DAYS as of CATALOG_DATE

Every build checks (exit 2 with the row named): a priced row has a price_basis; an 'official' or
'third-party' price has an ISO price_date (an undated price must say it is an 'estimate' and why);
every priced row has a price_region; spot is below on-demand; no two per-GPU listings of one
provider sell the same GPU in the same tier; multi-GPU sizes whose host share per GPU equals the
one-GPU size do not cost more per GPU; hub_repo is "owner/name"; at least MIN_DATED_SHARE of the priced
rows carry an ISO price_date and MIN_FRESH_SHARE one within STALE_DAYS of CATALOG_DATE. It prints how
many prices are dated and how many are older than STALE_DAYS days as of CATALOG_DATE, and how many spot
prices read on another day are (docs/catalog.md, refresh).

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
CATALOG_VERSION = "2026.12.04-1"
# The day this catalog's prices are judged against (staleness) and the age that counts as stale.
CATALOG_DATE = "2026-12-04"
STALE_DAYS = 180
# The build fails (exit 2) when fewer priced rows than these shares carry an ISO price_date, or a price_date within
# STALE_DAYS of CATALOG_DATE (issue 14: at least 90% dated, 80% fresh). Refresh prices, or withhold the old ones.
MIN_DATED_SHARE = 0.90
MIN_FRESH_SHARE = 0.80

# [SECTION] The USD<->CNY rate: the CFETS central parity of a stated day, as reported by a dated news page (the
# newest one found in the stored pages; the 7.2 used by the research to convert CNY rows was an undated assumption).
CURRENCY = {
    "cny_per_usd": 7.0197,
    "date": "2026-01-08",
    "confidence": "V-partial",
    "source": "menafn.com/1110571586/Chinese-Yuan-Edges-Down-Against-US-Dollar (2026-01-08): 'The central parity rate "
              "of the Chinese currency renminbi ... declined 10 pips to 7.0197 versus the U.S. dollar Thursday, the China "
              "Foreign Exchange Trade System reported'. One secondary report of the CFETS fixing; override it in a user "
              "catalog with the day's fixing",
}

# Rows of instances.csv that cannot be catalog rows, with the reason (listed in the catalog and in docs/catalog.md).
EXCLUDED_INSTANCES = {
    ("Huawei Cloud", "ai1s (Ascend 310 inference)"):
        "gpu_id is empty: the Ascend 310 has no row in gpus.csv, so the instance has no accelerator to point to",
    ("Alibaba Cloud", "ecs.gn8is (family)"):
        "a family placeholder, not an instance type (no size, vCPU or RAM); sold only outside mainland China per the "
        "ECI doc; no instance shape was found in the stored docs",
    ("Alibaba Cloud", "ecs.gn8v / ebmgn8v (family)"):
        "a family placeholder, not an instance type; GPU (H20) and shapes not confirmed by any stored doc",
    ("Tencent Cloud", "HCCPNV5 / HCCPNV5v"):
        "two families in one row, not an instance type; GPU (H800 / H20) and shapes not confirmed",
    ("Huawei Cloud", "ModelArts / ECS Ascend Snt9b (910B)"):
        "a product family (ModelArts and ECS), not an instance type; no Snt9b flavor with vCPU/RAM and price was found",
}

PRICE_BASES = ("official", "third-party", "estimate")

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
def export_status(raw, notes, gid):
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
    return status, *export_status_date(status, raw, notes, gid)


# The date of the export rule a status rests on, with its source (docs/catalog.md). Pages read for catalog II:
BIS_2023 = ("BIS interim final rules of 2023-10-17 (cset.georgetown.edu/article/bis-2023-update-explainer: 'On October "
            "17, 2023, the Bureau of Industry and Security ... issued ... updates to the October 7, 2022, export controls'; "
            "sanctionsnews.bakermckenzie.com/?p=3405)")
BIS_H200 = ("BIS final rule effective 2026-01-15 (changeflow.com/govping/federal-regulation/us-fed-2026-03-14-350: license "
            "policy for 'the Nvidia H200 and its equivalents' to China changes from presumption of denial to case-by-case)")


# Parts whose status changed after 2023-10-17 by a rule read for catalog II (still 'restricted': a licence is needed).
EXPORT_DATE_OVERRIDES = {"h200_sxm": ("2026-01-15", BIS_H200 + "; still restricted: exports need a licence")}


def export_status_date(status, raw, notes, gid):
    """(date, source). Domestic, legacy, not-sold and n/a parts rest on no export rule: their date is null and the
    source says so. Everything else rests on the rule set in force since 2023-10-17 unless the research names a
    later change (H20: Apr-2025; H200: 2026-01-15)."""
    if status in ("domestic", "legacy", "not-sold-in-china", "not-applicable"):
        return None, "no export rule applies (%s)" % status
    if "licence requirement imposed Apr-2025" in notes:
        return "2025-04", "gpus.csv notes: 'US licence requirement imposed Apr-2025, later partially lifted'"
    if gid in EXPORT_DATE_OVERRIDES:
        return EXPORT_DATE_OVERRIDES[gid]
    src = BIS_2023 + "; the status is the research's reading of that rule set"
    if "Oct-2023" in raw:
        src = "gpus.csv china_export_status: '%s'; %s" % (raw, BIS_2023)
    return "2023-10-17", src


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
        status, sdate, sdate_src = export_status(r["china_export_status"], r["notes"], r["id"])
        out.append({
            "id": r["id"], "vendor": r["vendor"], "name": r["name"], "name_zh": None, "architecture": r["architecture"],
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
        # CNY rows: price_native is CNY per GPU-hour (data README); the USD column is a conversion, not a fact.
        od = num(r["price_native"], w) if cny else num(r["ondemand_usd_per_hour"], w)
        spot = None if cny else num(r["spot_usd_per_hour"], w)
        if cny and num(r["spot_usd_per_hour"], w) is not None:
            fail("%s: CNY row with a spot price: no native spot column to read it from" % w)
        iso = iso_price_date(r["price_date"])
        basis = r["price_basis"] or None
        priced = od is not None or spot is not None
        # [SECTION] The dating rules (docs/catalog.md "Every price dated")
        if priced:
            if basis not in PRICE_BASES:
                fail("%s: a price needs price_basis %s, got %r" % (w, "/".join(PRICE_BASES), r["price_basis"]))
            if basis != "estimate" and not iso:
                fail("%s: undated %s price (price_date %r): give the day it was read, or mark it 'estimate' and say why"
                     % (w, basis, r["price_date"]))
            if basis == "estimate" and not iso and not r["price_date"].strip():
                fail("%s: an undated estimate must say in price_date why it has no day" % w)
            if not r["price_region"].strip():
                fail("%s: a price needs the price_region it is for" % w)
            if od is not None and spot is not None and spot >= od:
                fail("%s: spot %s is not below on-demand %s" % (w, spot, od))
        elif basis:
            fail("%s: price_basis %r on a row without a price" % (w, basis))
        out.append({
            "provider": pid, "id": r["instance_type"], "name_zh": None, "gpu": r["gpu_id"], "gpu_count": num(r["gpu_count"], w),
            "interconnect": r["gpu_interconnect"], "vcpus": num(r["vcpus"], w), "ram_gib": num(r["ram_gb"], w),
            "local_ssd_gb": num(r["local_ssd_gb"], w), "network_gbps": num(r["network_gbps"], w),
            "regions": [x.strip() for x in r["regions_example"].split(",") if x.strip()],
            "price_region": r["price_region"] or None, "cn_mainland": r["china_mainland"] == "yes",
            "currency": r["currency"], "ondemand_per_hour": od, "spot_per_hour": spot,
            "spot_is_typical_discount": False,
            "price_date": r["price_date"], "price_date_iso": iso, "price_basis": basis if priced else None,
            "spot_price_date": r["spot_price_date"] or None,
            "confidence": r["confidence"], "source": r["source"], "notes": r["notes"],
        })
    return out, excluded


def check_price_anomalies(insts):
    """Catalog II regressions, each one a rule: the same GPU sold twice by one per-GPU provider in one tier (RunPod
    A100 80GB PCIe Secure at two prices); a multi-GPU size whose host share per GPU (vCPU, RAM) equals a one-GPU size
    of the same provider, accelerator and region but costs more per GPU (Azure NC48ads A100 v4 at 2.6x its one-GPU
    size). Sizes with more host per GPU (AWS g5/g6e bigger sizes) may cost more per GPU and are not flagged."""
    tiers = {}
    for i in insts:
        if i["ondemand_per_hour"] is None or not i.get("scales_to_gpus"):
            continue
        low = i["id"].lower()
        tier = "secure" if "secure" in low else "community" if "community" in low else ""
        k = (i["provider"], i["gpu"], tier)
        if k in tiers:
            fail("instances %s and %s: provider %s lists %s (%s) twice" % (tiers[k], i["id"], i["provider"], i["gpu"], tier or "one tier"))
        tiers[k] = i["id"]
    singles = {}
    for i in insts:
        if i["ondemand_per_hour"] is not None and i["gpu_count"] == 1 and i["vcpus"] and i["ram_gib"]:
            singles.setdefault((i["provider"], i["gpu"], i["price_region"]), []).append(i)
    for i in insts:
        if i["ondemand_per_hour"] is None or i["gpu_count"] <= 1 or not i["vcpus"] or not i["ram_gib"]:
            continue
        n = i["gpu_count"]
        for s in singles.get((i["provider"], i["gpu"], i["price_region"]), []):
            same_share = abs(i["vcpus"] / n - s["vcpus"]) <= 0.1 * s["vcpus"] and abs(i["ram_gib"] / n - s["ram_gib"]) <= 0.1 * s["ram_gib"]
            if same_share and i["ondemand_per_hour"] / n > 1.10 * s["ondemand_per_hour"]:
                fail("%s/%s: %.4g per GPU is above the one-GPU size %s (%.4g) with the same vCPU/RAM per GPU"
                     % (i["provider"], i["id"], i["ondemand_per_hour"] / n, s["id"], s["ondemand_per_hour"]))


def days_between(a, b):
    import datetime
    return (datetime.date.fromisoformat(b) - datetime.date.fromisoformat(a)).days


def price_stats(insts):
    priced = [i for i in insts if i["ondemand_per_hour"] is not None or i["spot_per_hour"] is not None]
    dated = [i for i in priced if i["price_date_iso"]]
    stale = sorted((i for i in dated if days_between(i["price_date_iso"], CATALOG_DATE) > STALE_DAYS),
                   key=lambda i: i["price_date_iso"])
    return priced, dated, stale


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
        if not p.get("name_zh"):
            fail("providers.json %s: name_zh missing (the provider's name in Chinese: its Chinese brand, else as in English)" % p["id"])
        out.append({"id": p["id"], "name": p["name"], "name_zh": p["name_zh"], "kind": p["kind"], "spot_name": p["spot_name"],
                    "interruption_notice_s": p["interruption_notice_s"],
                    "billing_granularity_s": p["billing_granularity_s"], "regions": regions,
                    "cn_mainland": mainland, "confidence": conf, "sources": p["sources"], "notes": p["notes"]})
    return out, src["csv_names"]


# [SECTION] Model presets
# Curated order (the page groups presets by family in order of first appearance); others follow by id.
MODEL_ORDER = [
    "llama-3.1-8b", "llama-3.1-8b-instruct", "llama-3.1-70b", "llama-3.1-70b-instruct", "llama-3.1-405b",
    "llama-3.3-70b", "llama-4-scout-17b-16e-instruct", "llama-4-maverick-17b-128e-instruct", "llama-3.2-1b", "llama-3.2-3b", "llama-3.2-3b-instruct", "llama-3-8b", "llama-3-70b", "codellama-7b", "codellama-13b", "codellama-34b", "tinyllama-1.1b-chat-v1.0", "llama-2-7b", "llama-2-7b-chat", "llama-2-13b",
    "llama-2-70b",
    "qwen3-0.6b", "qwen3-1.7b", "qwen3-4b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
    "qwen3-coder-480b-a35b", "qwen3-embedding-0.6b", "qwen3-embedding-4b", "qwen3-embedding-8b", "qwen2.5-0.5b",
    "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-7b-instruct", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-32b-instruct",
    "qwen2.5-72b-instruct", "qwen2.5-vl-7b-instruct", "qwen3-vl-235b-a22b-thinking", "olmocr-2-7b-1025", "qwen2-7b", "qwen2-7b-instruct", "qwen2-72b",
    "qwen2-72b-instruct", "qwen2-57b-a14b", "qwen2-1.5b-instruct", "codeqwen1.5-7b", "qwen1.5-32b-chat", "qwen1.5-110b-chat", "qwen1.5-moe-a2.7b",
    "deepseek-v3", "deepseek-r1", "deepseek-v2-lite", "deepseek-llm-7b-base", "deepseek-llm-67b-chat",
    "deepseek-coder-1.3b-base", "deepseek-coder-7b-base-v1.5", "kimi-k2", "mistral-7b-v0.1", "mistral-7b-v0.3", "mistral-nemo-base-2407", "mixtral-8x7b",
    "mixtral-8x22b", "devstral-small-2-24b-instruct", "gemma-3-1b-it", "gemma-2-2b", "gemma-2-9b", "gemma-2-27b", "gpt-oss-20b", "gpt-oss-120b",
    "phi-4", "phi-3-mini-4k-instruct", "phi-3-medium-4k-instruct", "phi-2", "phi-1", "yi-1.5-6b", "yi-1.5-9b", "yi-1.5-34b", "yi-34b-chat",
    "olmo-3.1-32b-instruct", "exaone-4.0-32b", "allam-7b-instruct-preview", "internlm2.5-7b", "internlm3-8b-instruct", "chatglm-6b",
    "baichuan-13b-chat", "baichuan2-7b-chat-4bits", "baichuan2-13b-chat-4bits", "minicpm-2b-sft", "minicpm-moe-8x2b", "gpt2", "bert-base-uncased", "bert-large-uncased",
    "resnet-50", "resnet-18", "resnet-101", "resnet-152", "convnext-base-224", "vit-base-patch16-224", "vit-large-patch16-224", "clip-vit-large-patch14", "stable-diffusion-1.5", "sdxl", "flux.1-dev", "whisper-small", "whisper-large-v3"
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
        # hub_repo is "owner/name" or null (not confirmed; the notes say why) - never free text.
        if m.get("hub_repo") is not None and not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$", m["hub_repo"]):
            fail("%s: hub_repo %r is not 'owner/name' (use null when the repository is not confirmed)" % (fn, m.get("hub_repo")))
        hf = os.path.join(SRC, "hf_configs", fn)
        if os.path.exists(hf):  # presets made from shared/data/hf_configs must carry that file's content as is
            with open(hf, encoding="utf-8") as f:
                if json.load(f) != m["config"]:
                    fail("%s: config differs from hf_configs/%s" % (fn, fn))
        # Traceable = the source names repo@commit:path (docs/catalog.md); the others cite a stored-index id only.
        m["source_traceable"] = bool(re.match(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@[0-9a-f]{7,40}:\S", m["source"]))
        out.append(m)
    missing = [m["id"] for m in out if m["id"] not in MODEL_ORDER]
    if missing:
        fail("models not in MODEL_ORDER: %s" % ", ".join(missing))
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


def name_zh(name, notes_zh, where):
    """An instance id or accelerator name with its English notes in parentheses in Chinese ("H100 SXM
    (marketplace avg)" -> "H100 SXM (市场均价)") from notes_zh.json; None when it has none. A note without a
    translation fails: the Chinese answers name instances and accelerators."""
    def zh(m):
        note = m.group(1)
        if note not in notes_zh:
            fail("%s: note (%s) has no Chinese in assets/src/notes_zh.json" % (where, note))
        return " (%s)" % notes_zh[note]
    out = re.sub(r"\s*\(([^)]*)\)", zh, name)
    return out if out != name else None


def build():
    with open(os.path.join(SRC, "providers.json"), encoding="utf-8") as f:
        names = json.load(f)["csv_names"]
    with open(os.path.join(SRC, "notes_zh.json"), encoding="utf-8") as f:
        notes_zh = json.load(f)
    insts, excluded = instances(names)
    for i in insts:
        i["name_zh"] = name_zh(i["id"], notes_zh, "instances.csv %s/%s" % (i["provider"], i["id"]))
    accels = accelerators()
    for a in accels:
        a["name_zh"] = name_zh(a["name"], notes_zh, "gpus.csv %s" % a["id"])
    mark_per_gpu_listings(insts, accels)
    check_price_anomalies(insts)
    provs, _ = providers(insts)
    known = {p["id"] for p in provs}
    for i in insts:
        if i["provider"] not in known:
            fail("instance %s: provider %s has no providers.json row" % (i["id"], i["provider"]))
    check_price_dating(insts)
    dates = sorted(d for d in (i["price_date_iso"] for i in insts) if d)
    return {
        "schema": SCHEMA,
        "version": CATALOG_VERSION,
        "prices_as_of": dates[-1],
        "prices_oldest": dates[0],
        "prices_note": "prices_as_of is the newest dated price. price_basis says what each price is: 'official' (the "
                       "provider's list price, dated), 'third-party' (a dated marketplace median or index), 'estimate' "
                       "(undated or derived; price_date says why). Spot prices move hourly.",
        "catalog_date": CATALOG_DATE,
        "currency": CURRENCY,
        "accelerators": accels,
        "providers": provs,
        "instances": insts,
        "models": models(),
        "excluded_rows": excluded,
    }


def import_shared(shared):
    """gpus.csv, the data README and hf_configs come from the research folder as is. instances.csv is copied only
    when it carries the catalog II columns (price_basis, spot_price_date); otherwise assets/src/instances.csv, which
    the catalog now maintains, is kept (docs/catalog.md)."""
    data = os.path.join(shared, "data")
    shutil.copyfile(os.path.join(data, "gpus.csv"), os.path.join(SRC, "gpus.csv"))
    with open(os.path.join(data, "instances.csv"), encoding="utf-8", newline="") as f:
        header = next(csv.reader(f))
    if "price_basis" in header and "spot_price_date" in header:
        shutil.copyfile(os.path.join(data, "instances.csv"), os.path.join(SRC, "instances.csv"))
    else:
        sys.stderr.write("gen_catalog: shared instances.csv has no price_basis/spot_price_date columns: kept assets/src/instances.csv\n")
    shutil.copyfile(os.path.join(data, "README.md"), os.path.join(SRC, "data-README.md"))
    os.makedirs(os.path.join(SRC, "hf_configs"), exist_ok=True)
    for fn in os.listdir(os.path.join(data, "hf_configs")):
        shutil.copyfile(os.path.join(data, "hf_configs", fn), os.path.join(SRC, "hf_configs", fn))


def check_price_dating(insts):
    """The catalog's dating floor: a share of dated prices and of prices within STALE_DAYS (MIN_*_SHARE)."""
    priced, dated, stale = price_stats(insts)
    fresh = len(dated) - len(stale)
    if len(dated) < MIN_DATED_SHARE * len(priced):
        fail("only %d of %d priced rows carry an ISO price_date (the floor is %.0f%%): date the undated prices or "
             "withhold them" % (len(dated), len(priced), 100 * MIN_DATED_SHARE))
    if fresh < MIN_FRESH_SHARE * len(priced):
        fail("only %d of %d priced rows are within %d days of %s (the floor is %.0f%%): refresh the prices --stale lists"
             % (fresh, len(priced), STALE_DAYS, CATALOG_DATE, 100 * MIN_FRESH_SHARE))


def stale_spot(insts):
    """Rows whose spot price was read on another, ISO-dated day (spot_price_date) more than STALE_DAYS ago."""
    out = []
    for i in insts:
        d = iso_price_date(i["spot_price_date"] or "")
        if i["spot_per_hour"] is not None and d and days_between(d, CATALOG_DATE) > STALE_DAYS:
            out.append((d, i))
    return sorted(out, key=lambda x: x[0])


def report_prices(insts, list_stale):
    """How many prices are dated and fresh as of CATALOG_DATE; with --stale, every row older than STALE_DAYS."""
    priced, dated, stale = price_stats(insts)
    by_basis = {}
    for i in priced:
        by_basis[i["price_basis"]] = by_basis.get(i["price_basis"], 0) + 1
    print("prices: %d priced rows, %d with an ISO date (%.0f%%), %d within %d days of %s (%.0f%%); basis %s" % (
        len(priced), len(dated), 100.0 * len(dated) / max(1, len(priced)), len(dated) - len(stale), STALE_DAYS,
        CATALOG_DATE, 100.0 * (len(dated) - len(stale)) / max(1, len(priced)),
        ", ".join("%s %d" % kv for kv in sorted(by_basis.items()))))
    print("stale (older than %d days): %d rows%s" % (STALE_DAYS, len(stale), "" if list_stale else " (--stale lists them)"))
    if list_stale:
        for i in stale:
            print("  %s %s/%s (%d days)" % (i["price_date_iso"], i["provider"], i["id"], days_between(i["price_date_iso"], CATALOG_DATE)))
    spot = stale_spot(insts)
    print("spot read on another day and older than %d days: %d rows" % (STALE_DAYS, len(spot)))
    if list_stale:
        for d, i in spot:
            print("  spot %s %s/%s (%d days)" % (d, i["provider"], i["id"], days_between(d, CATALOG_DATE)))


def main(argv):
    if "--import-shared" in argv:
        import_shared(argv[argv.index("--import-shared") + 1])
    # ASCII only (non-ASCII as \uXXXX escapes): scripts/embed.cmake writes the bytes into a `const char[]`,
    # where bytes above 0x7F are narrowing errors; the escapes are the same JSON text to every parser.
    text = json.dumps(build(), ensure_ascii=True, separators=(",", ":"), allow_nan=False) + "\n"
    data = text.encode("utf-8")
    if "--check" in argv:
        report_prices(json.loads(text)["instances"], "--stale" in argv)
        with open(OUT, "rb") as f:
            if f.read() != data:
                sys.stderr.write("gen_catalog: assets/catalog.json is stale: run scripts/gen_catalog.py\n")
                return 1
        return 0
    with open(OUT, "wb") as f:
        f.write(data)
    c = json.loads(text)
    report_prices(c["instances"], "--stale" in argv)
    gz = len(gzip.compress(data, compresslevel=9, mtime=0))
    print("accelerators %d, providers %d, instances %d (%d excluded), models %d" % (
        len(c["accelerators"]), len(c["providers"]), len(c["instances"]), len(c["excluded_rows"]), len(c["models"])))
    print("assets/catalog.json: %d bytes, %d bytes gzip -9" % (len(data), gz))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
