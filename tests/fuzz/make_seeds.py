#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/<target>/ from real inputs: links from the
docs and tests, scenario JSONs (hand-written and in the printed form), the fixture configs in
assets/src/hf_configs and slices of assets/catalog.json. Re-run after the catalog or the
fixtures change: python3 tests/fuzz/make_seeds.py"""
import hashlib, json, os, pathlib

root = pathlib.Path(__file__).resolve().parents[2]
out = root / "tests/fuzz/corpus"

def write(target, name, text):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(text, encoding="utf-8")

# [SECTION] Links: the documented examples plus one per short key and per model-field key.
links = [
    "#v=1", "v=1", "#v=1&m=qwen3-8b&t=qlora", "v=1&m=qwen3-8b&t=qlora&s=4096&g=rtx4090&pr=aws,lambda",
    "https://example.org/gpusizer/#v=1&m=qwen3-8b&b=%34", "https://x.example/#v=1&m=qwen3-8b&t=qlora&s=4096",
    "#v=1&m=qwen3-8b&b=-3&t=bogus&zz=1&s=8192&g=%3Cscript%3E&w=%ZZ", "#v=1&n=6&tp=4",
    "v=1&cfg.mt=llama&cfg.V=32000&cfg.h=4096&cfg.L=32&cfg.a=32&cfg.k=32&cfg.d=128&cfg.i=11008",
    "v=1&cfg.mt=mixtral&cfg.V=32000&cfg.h=4096&cfg.L=32&cfg.a=32&cfg.k=8&cfg.d=128&cfg.i=14336&cfg.E=8&cfg.K=2&cfg.sw=4096",
    "v=1&cfg.mt=deepseek_v3&cfg.V=129280&cfg.h=7168&cfg.L=61&cfg.a=128&cfg.k=128&cfg.i=18432&cfg.E=256&cfg.K=8"
    "&cfg.mi=2048&cfg.S=1&cfg.fkd=3&cfg.qlr=1536&cfg.kvr=512&cfg.qn=128&cfg.qr=64&cfg.vd=128&cfg.mtp=1",
    "v=1&cfg.mt=bert&cfg.V=30522&cfg.h=768&cfg.L=12&cfg.a=12&cfg.i=3072&cfg.g=0&cfg.ln=1&cfg.lp=1&cfg.tv=2&cfg.enc=1&cfg.qb=1&cfg.ob=1&cfg.mb=1",
    "v=1&cfg.mt=vit&cfg.h=768&cfg.L=12&cfg.a=12&cfg.i=3072&cfg.img=224&cfg.ps=16&cfg.ch=3&cfg.enc=1",
    "v=1&p=70&t=full_ft&z=3&n=64&tp=8&pp=2&sp=1&ac=full&o=adamw_8bit&tt=1e12&mfu=0.4&g=h100_sxm",
    "v=1&m=llama-3.1-70b&t=lora&r=64&lt=q_proj,v_proj&b=8&s=8192&at=sdpa&do=1&oib=1&mw=0",
    "v=1&m=qwen3-32b&e=vllm&u=0.95&pt=2000&ot=500&b=64&kv=fp8&w=fp8&g=h20&rg=cn_mainland&cur=CNY&bud=1000&dl=24",
    "v=1&m=deepseek-v3&w=gguf_q4_k_m&e=llama_cpp&kv=q8_0&gm=24&spot=only&pr=runpod,vast&ep=8&n=8&off=optimizer_and_params",
    "v=1&p=9999&b=1000000&s=100000000&n=1000000&tt=1e17&bud=1e12&dl=1e6&gm=1000000",
    "v=1&p=0.001&b=1&s=1&t=pretrain&w=fp32&o=sgd_momentum&z=1&off=optimizer&spot=never&rg=global",
    "v=2&m=qwen3-8b&zz=1&&&=&%41=1", "javascript:alert(1)", "#v=1&m=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "v=1&t=qlora&w=int4_awq&lt=attention&ac=offload&o=paged_adamw_8bit", "v=1&t=inference&pt=0&ot=0",
]
for i, l in enumerate(links):
    write("fuzz_link", f"seed-{i:02d}", l)

# [SECTION] Scenario JSONs: hand-written, the printed (all keys) form, and real configs inside.
default_printed = {
    "model": "llama-3.1-8b", "hf_config": None, "params_b": None, "task": "inference", "weight_dtype": "bf16",
    "kv_cache_dtype": "auto", "batch_size": 1, "seq_len": 2048, "prompt_tokens": None, "output_tokens": None,
    "optimizer": "adamw", "master_weights": False, "optimizer_in_backward": False,
    "activation_checkpointing": "none", "attention": "flash", "dropout": False, "lora_rank": 16,
    "lora_targets": "all_linear", "zero_stage": 0, "offload": "none", "num_gpus": 1, "tensor_parallel": 1,
    "pipeline_parallel": 1, "expert_parallel": 1, "sequence_parallel": False, "engine": "hf",
    "gpu_memory_utilization": 0.9, "gpu": None, "gpu_memory_gib": None, "train_tokens": None, "mfu": None,
    "region": "any", "providers": [], "spot": "allow", "currency": "USD", "budget": None, "deadline_hours": None,
}
scenarios = [
    {}, default_printed,
    {"model": "qwen3-8b", "task": "qlora", "seq_len": 4096, "gpu": "rtx4090", "providers": ["aws", "lambda"]},
    {"params_b": 70, "task": "full_ft", "zero_stage": 3, "num_gpus": 64, "tensor_parallel": 8, "pipeline_parallel": 2,
     "activation_checkpointing": "full", "train_tokens": 1e12, "gpu": "h100_sxm", "mfu": 0.4},
    {"model": "qwen3-32b", "engine": "vllm", "prompt_tokens": 2000, "output_tokens": 500, "batch_size": 64,
     "kv_cache_dtype": "fp8", "gpu": "h20", "region": "cn_mainland", "currency": "CNY", "budget": 1000, "deadline_hours": 24},
    {"model": "llama-3.1-70b", "task": "lora", "lora_rank": 64, "lora_targets": ["q_proj", "v_proj"], "dropout": True,
     "optimizer_in_backward": True, "master_weights": False, "spot": "only"},
    {"params_b": 9999, "batch_size": 1000000, "seq_len": 100000000, "num_gpus": 1000000, "train_tokens": 1e17},
    {"batch_size": 2048.0, "seq_len": "4096", "task": "bogus", "unknown": {"a": [1, 2, {"b": None}]}},
    {"model": "x", "hf_config": {"model_type": "llama"}, "params_b": 7},
    {"gpu_memory_gib": 24, "weight_dtype": "gguf_q4_k_m", "engine": "llama_cpp", "offload": "optimizer_and_params"},
]
for i, s in enumerate(scenarios):
    write("fuzz_scenario_json", f"seed-{i:02d}.json", json.dumps(s))
    write("fuzz_estimate", f"seed-json-{i:02d}.json", json.dumps(s))
write("fuzz_scenario_json", "seed-dup-keys.json", '{"batch_size": 1, "batch_size": 2, "task": "lora", "task": "qlora"}')
write("fuzz_scenario_json", "seed-deep.json", "[" * 70 + "]" * 70)
for i, l in enumerate(links):
    write("fuzz_estimate", f"seed-link-{i:02d}", l)

cfg_dir = root / "assets/src/hf_configs"
for p in sorted(cfg_dir.glob("*.json")):
    text = p.read_text(encoding="utf-8")
    write("fuzz_hf_config", p.name, text)
    # Configs inside scenarios (compact, so the fuzzer works on the structure, not whitespace).
    cfg = json.loads(text)
    if p.stem in ("llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "qwen3-30b-a3b", "gpt-oss-20b", "phi-4"):
        s = {"hf_config": cfg, "task": "lora", "gpu": "a100_80_sxm"}
        write("fuzz_scenario_json", f"cfg-{p.stem}.json", json.dumps(s, separators=(",", ":")))
        write("fuzz_estimate", f"cfg-{p.stem}.json", json.dumps(s, separators=(",", ":")))
# Families the fixtures lack (spec: Gemma 2/3, GPT-2/NeoX, BERT, ViT), as their public configs are shaped.
extra_cfgs = {
    "gpt2": {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024, "vocab_size": 50257,
             "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5},
    "bert": {"model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
             "intermediate_size": 3072, "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2,
             "hidden_act": "gelu", "layer_norm_eps": 1e-12},
    "vit": {"model_type": "vit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
            "intermediate_size": 3072, "image_size": 224, "patch_size": 16, "num_channels": 3, "hidden_act": "gelu"},
    "gemma3": {"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
               "num_hidden_layers": 34, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
               "intermediate_size": 10240, "vocab_size": 262208, "sliding_window": 1024},
               "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "num_hidden_layers": 27,
               "num_attention_heads": 16, "intermediate_size": 4304, "image_size": 896, "patch_size": 14}},
    "neox": {"model_type": "gpt_neox", "hidden_size": 2560, "num_hidden_layers": 32, "num_attention_heads": 32,
             "intermediate_size": 10240, "vocab_size": 50432, "max_position_embeddings": 2048, "hidden_act": "gelu"},
    "bad-types": {"model_type": 7, "hidden_size": "4096", "num_hidden_layers": -1, "vocab_size": 1e300},
}
for name, cfg in extra_cfgs.items():
    write("fuzz_hf_config", f"family-{name}.json", json.dumps(cfg))

# [SECTION] Catalogs: small slices of the real asset (whole rows, consistent references).
catalog = json.loads((root / "assets/catalog.json").read_text(encoding="utf-8"))
def slice_catalog(gpus, n_models):
    c = {k: v for k, v in catalog.items() if not isinstance(v, list)}
    c["accelerators"] = [a for a in catalog["accelerators"] if a["id"] in gpus]
    inst = [i for i in catalog["instances"] if i["gpu"] in gpus][:6]
    provs = {i["provider"] for i in inst}
    c["providers"] = [p for p in catalog["providers"] if p["id"] in provs]
    c["instances"] = inst
    c["models"] = catalog["models"][:n_models]
    return c
slices = {
    "h100": slice_catalog({"h100_sxm"}, 1),
    "a100-4090": slice_catalog({"a100_80_sxm", "rtx4090"}, 0),
    "cn": slice_catalog({"h20", "ascend_910b"}, 0),
    "gpus-only": {"schema": 1, "version": "user", "accelerators": catalog["accelerators"][:2]},
}
for name, c in slices.items():
    write("fuzz_catalog", f"slice-{name}.json", json.dumps(c, ensure_ascii=False, separators=(",", ":")))
write("fuzz_catalog", "empty-object.json", "{}")
write("fuzz_catalog", "bad-row.json", json.dumps({"schema": 1, "version": "x", "accelerators": [
    {"id": "h100-sxn", "memory_gb": -80, "memory_bytes": 1e30}], "instances": [{"provider": "aws", "id": "p5", "gpu": "nope",
    "gpu_count": 0, "ondemand_per_hour": -1}]}))
# The planner target starts from the same scenarios as the estimate target.
import shutil
shutil.rmtree(out / "fuzz_recommend", ignore_errors=True)
shutil.copytree(out / "fuzz_estimate", out / "fuzz_recommend")
print("seeds written to", out)
