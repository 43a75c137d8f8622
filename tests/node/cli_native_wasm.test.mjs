// The native CLI and the same CLI compiled to wasm print byte-identical JSON for the same
// scenarios (core is deterministic: no clocks, no platform-dependent arithmetic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nativeCli = path.join(process.env.GPUSIZER_NATIVE_BUILD || path.join(root, 'build/native-debug'), 'native/gpusizer');
const wasmCli = path.join(process.env.GPUSIZER_WASM_BUILD || path.join(root, 'build/wasm-release'), 'native/gpusizer.js');

function runNative(args) {
  return spawnSync(nativeCli, args, { encoding: 'utf8' });
}
function runWasm(args) {
  return spawnSync('node', ['--no-experimental-fetch', wasmCli, ...args], { encoding: 'utf8' });
}

const scenarios = [
  ['--model', 'llama-3.1-8b'],
  ['--model', 'llama-3.1-8b', '--weight_dtype', 'int8'],
  ['--model', 'qwen3-30b-a3b', '--task', 'qlora', '--seq_len', '4096', '--batch_size', '4'],
  ['--model', 'deepseek-v3', '--weight_dtype', 'fp8', '--num_gpus', '8', '--tensor_parallel', '8', '--seq_len', '32768'],
  ['--model', 'mixtral-8x7b', '--task', 'full_ft', '--zero_stage', '3', '--num_gpus', '16'],
  ['--params_b', '13', '--task', 'lora', '--activation_checkpointing', 'full'],
  ['--hf_config', path.join(root, 'assets/src/hf_configs/gpt-oss-20b.json'), '--engine', 'vllm', '--gpu', 'h100_sxm'],
  ['--link', '#v=1&m=qwen3-8b&t=pretrain&b=8&s=8192&z=2&n=8'],
];

test('native and wasm CLIs are built', () => {
  assert.ok(fs.existsSync(nativeCli), `missing ${nativeCli}`);
  assert.ok(fs.existsSync(wasmCli), `missing ${wasmCli}`);
});

for (const args of scenarios) {
  test(`identical JSON: ${args.join(' ').replace(root, '.')}`, () => {
    const a = runNative(['estimate', ...args, '--json']);
    const b = runWasm(['estimate', ...args, '--json']);
    assert.equal(a.status, b.status, `exit codes differ: ${a.stderr} | ${b.stderr}`);
    assert.ok(a.stdout.startsWith('{'), `native printed no JSON: ${a.stderr}`);
    assert.equal(b.stdout, a.stdout);
    const parsed = JSON.parse(a.stdout);
    assert.ok(parsed.memory_per_gpu_bytes.total > 0);
  });
}

const recommendations = [
  ['--model', 'qwen2.5-32b', '--task', 'lora', '--train_tokens', '1e8', '--region', 'cn_mainland', '--currency', 'CNY'],
  ['--model', 'llama-3.1-70b', '--engine', 'vllm', '--batch_size', '32', '--top', '20'],
  ['--model', 'qwen3-8b', '--task', 'full_ft', '--train_tokens', '2e9', '--spot', 'only', '--deadline_hours', '24'],
];
for (const args of recommendations) {
  test(`identical recommend JSON: ${args.join(' ')}`, () => {
    const a = runNative(['recommend', ...args, '--json']);
    const b = runWasm(['recommend', ...args, '--json']);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.stdout, a.stdout);
    const parsed = JSON.parse(a.stdout);
    assert.ok(parsed.offers.length > 0, 'no offers');
    assert.ok(parsed.summary.length > 0);
  });
}

test('link printed by native opens the same scenario in wasm', () => {
  const link = execFileSync(nativeCli, ['link', '--model', 'qwen3-14b', '--task', 'lora', '--lora_rank', '64'], { encoding: 'utf8' }).trim();
  assert.equal(link, '#v=1&m=qwen3-14b&t=lora&r=64');
  const a = runNative(['estimate', '--link', link, '--json']);
  const b = runWasm(['estimate', '--model', 'qwen3-14b', '--task', 'lora', '--lora_rank', '64', '--json']);
  assert.equal(b.stdout, a.stdout);
});

test('recommend from a link equals recommend from the same flags: the link marks only its own keys given', () => {
  // Re-reading a link as a full scenario once marked every default as the user's (num_gpus 1,
  // no levers): a 70B full fine-tune from its link had no offer at all.
  const flags = ['--model', 'llama-3.1-70b', '--task', 'full_ft', '--train_tokens', '1e9'];
  const link = execFileSync(nativeCli, ['link', ...flags], { encoding: 'utf8' }).trim();
  const fromLink = JSON.parse(runNative(['recommend', '--link', link, '--top', '3', '--json']).stdout);
  const fromFlags = JSON.parse(runNative(['recommend', ...flags, '--top', '3', '--json']).stdout);
  assert.ok(fromFlags.offers.length > 0);
  assert.deepEqual(fromLink.offers, fromFlags.offers);
  // More flags on top of a link keep working: the link's model stays, the flag is added.
  const more = JSON.parse(runNative(['recommend', '--link', link, '--num_gpus', '16', '--top', '1', '--json']).stdout);
  assert.equal(more.scenario.model, 'llama-3.1-70b');
  assert.equal(more.offers.every((o) => o.gpu_count === 16), true);
});
