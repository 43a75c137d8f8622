// The page's controls, driven like a person would (real clicks, wheel and keys at the rectangles
// the page exports for its widgets) in Debian's Chromium. After every change the numbers on
// screen, the results behind them and the offers equal the native CLI's for the same scenario.
//   node --test tests/browser/ui.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  artifact, cliEstimate, cliFormat, cliLink, cliRecommend, clickWidget, findWidget, hooks, imageStats, openTestPage, root, startPageAndBrowser, stopPageAndBrowser, waitReady, waitScenario, widgets,
} from './support.mjs';

const viewport = { width: 1280, height: 800 };
const leftPane = { x: 120, y: 560 };   // over the workload pane (left column at 1280 px)
const rightPane = { x: 900, y: 560 };  // over the results pane
let server, url, chromium;

before(async () => ({ server, url, chromium } = await startPageAndBrowser()));
after(() => stopPageAndBrowser({ server, chromium }));

const openPage = (opts = {}) => openTestPage(chromium.browser, url, { viewport, ...opts });

// Pick `value` in the combo tagged `tag` (its list scrolled when needed).
async function pick(page, tag, value, pane = leftPane) {
  await clickWidget(page, `${tag}_combo`, { scrollAt: pane, opens: `${tag}_item:` });
  await clickWidget(page, `${tag}_item:${value}`, { scrollWithin: `${tag}_item:` });
}

// The page shows what the CLI computes for `args`: estimate and recommend JSON byte for byte,
// the total on screen and the recommendation sentence at the top of the results.
async function assertMatchesCli(page, args, what) {
  const est = cliEstimate(args);
  const rec = cliRecommend(args);
  assert.equal(await hooks(page, 'resultsText'), est.text, `${what}: estimate differs from the CLI (${args.join(' ')})`);
  assert.equal(await hooks(page, 'recommendationText'), rec.text, `${what}: offers differ from the CLI (${args.join(' ')})`);
  let w = await widgets(page);
  for (let i = 0; i < 40 && !w.total_value; ++i) {  // the results pane was scrolled down to a filter
    await page.mouse.move(rightPane.x, rightPane.y);
    await page.mouse.wheel(0, -240);
    await page.waitForTimeout(100);
    w = await widgets(page);
  }
  assert.equal(w.total_value.text, String(est.json.memory_per_gpu_bytes.total), `${what}: total on screen`);
  const sentence = (await hooks(page, 'stats')).language === 'zh' ? rec.json.summary_zh : rec.json.summary;
  assert.equal(w.recommendation.text, sentence, `${what}: the recommendation sentence`);
  return { est, rec };
}

// ImGui 1.86 polls key state once a frame: a shortcut must stay down for a frame, as a person's
// does (Playwright's press() releases it before the next frame).
async function chord(page, key) {
  await page.keyboard.down('Control');
  await page.keyboard.down(key);
  await page.waitForTimeout(150);
  await page.keyboard.up(key);
  await page.keyboard.up('Control');
}

// Replace the text of the box tagged `tag` with `text` by Ctrl+A, Ctrl+V: Chromium fires a DOM
// paste event with the system clipboard, the page hands it to ImGui. The box's tag text is its
// length in bytes, so this waits until all of it arrived. Needs clipboard permissions.
async function pasteInto(page, tag, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await clickWidget(page, tag);
  await page.waitForTimeout(200);  // the click's frames (a mouse drag there would redo the selection)
  await chord(page, 'a');
  await chord(page, 'v');
  await page.waitForFunction(([k, n]) => window.__gpusizer.widgets()[k]?.text === n, [tag, String(Buffer.byteLength(text))],
                             { timeout: 10000 });
}

describe('the page, driven by its controls', () => {
  test('a dozen scenarios set through the UI give the CLI\'s numbers', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const defaults = await hooks(page, 'scenario');
    const args = [];
    const step = async (what, key, value, cliArgs, act) => {
      await act();
      await waitScenario(page, key, value);
      args.push(...cliArgs);
      await assertMatchesCli(page, args, what);
    };
    await step('LoRA', 'task', 'lora', ['--task', 'lora'], () => pick(page, 'task', 'lora'));
    await step('model typed into the picker\'s filter', 'model', 'qwen3-14b', ['--model', 'qwen3-14b'], async () => {
      await clickWidget(page, 'model_combo', { scrollAt: leftPane, opens: 'model_item:' });
      await clickWidget(page, 'model_filter');
      await page.keyboard.type('qwen3-14');
      await clickWidget(page, 'model_item:qwen3-14b', { scrollWithin: 'model_item:' });
    });
    await step('sequence ×2', 'seq_len', defaults.seq_len * 2, ['--seq_len', String(defaults.seq_len * 2)],
      () => clickWidget(page, 'seq_plus', { scrollAt: leftPane }));
    await step('batch ×4', 'batch_size', defaults.batch_size * 4, ['--batch_size', String(defaults.batch_size * 4)], async () => {
      await clickWidget(page, 'batch_plus', { scrollAt: leftPane });
      await waitScenario(page, 'batch_size', defaults.batch_size * 2);
      await clickWidget(page, 'batch_plus', { scrollAt: leftPane });
    });
    await step('LoRA rank ×2', 'lora_rank', defaults.lora_rank * 2, ['--lora_rank', String(defaults.lora_rank * 2)],
      () => clickWidget(page, 'rank_plus', { scrollAt: leftPane }));
    await step('full checkpointing', 'activation_checkpointing', 'full', ['--activation_checkpointing', 'full'],
      () => pick(page, 'checkpointing', 'full'));
    await step('QLoRA', 'task', 'qlora', ['--task', 'qlora'], () => pick(page, 'task', 'qlora'));
    await step('on an RTX 4090', 'gpu', 'rtx4090', ['--gpu', 'rtx4090'], () => pick(page, 'gpu', 'rtx4090'));
    await step('full fine-tune', 'task', 'full_ft', ['--task', 'full_ft'], () => pick(page, 'task', 'full_ft'));
    await step('8-bit AdamW', 'optimizer', 'adamw_8bit', ['--optimizer', 'adamw_8bit'], () => pick(page, 'optimizer', 'adamw_8bit'));
    await step('ZeRO-3', 'zero_stage', 3, ['--zero_stage', '3'], () => pick(page, 'zero', '3'));
    await step('8 GPUs', 'num_gpus', 8, ['--num_gpus', '8'], async () => {
      for (const n of [2, 4, 8]) {
        await clickWidget(page, 'gpus_plus', { scrollAt: leftPane });
        await waitScenario(page, 'num_gpus', n);
      }
    });
    await step('1 B tokens to train', 'train_tokens', 1e9, ['--train_tokens', '1e9'],
      () => clickWidget(page, 'train_tokens_check', { scrollAt: leftPane }));
    await step('× 3 epochs', 'train_tokens', 3e9, ['--train_tokens', '3e9'], async () => {
      await clickWidget(page, 'epochs_plus', { scrollAt: leftPane });
      await waitScenario(page, 'train_tokens', 2e9);
      await clickWidget(page, 'epochs_plus', { scrollAt: leftPane });
    });
    assert.equal(Number((await widgets(page)).dataset_input.text), 1e9, 'the dataset stays 1 B tokens');
    await step('serving', 'task', 'inference', ['--task', 'inference'], () => pick(page, 'task', 'inference'));
    await step('vLLM', 'engine', 'vllm', ['--engine', 'vllm'], () => pick(page, 'engine', 'vllm'));
    await step('AWQ int4 weights', 'weight_dtype', 'int4_awq', ['--weight_dtype', 'int4_awq'], () => pick(page, 'dtype', 'int4_awq'));
    await step('fp8 KV cache', 'kv_cache_dtype', 'fp8', ['--kv_cache_dtype', 'fp8'], () => pick(page, 'kv', 'fp8'));
    await step('mainland China', 'region', 'cn_mainland', ['--region', 'cn_mainland'], () => pick(page, 'region', 'cn_mainland', rightPane));
    await step('in yuan', 'currency', 'CNY', ['--currency', 'CNY'], () => pick(page, 'currency', 'CNY', rightPane));
    await step('on-demand only', 'spot', 'never', ['--spot', 'never'], () => pick(page, 'spot', 'never', rightPane));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('framework, loss, vLLM and llama.cpp knobs set through the UI give the CLI\'s numbers', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const args = [];
    const step = async (what, key, value, cliArgs, act) => {
      await act();
      await waitScenario(page, key, value);
      args.push(...cliArgs);
      await assertMatchesCli(page, args, what);
    };
    await step('full fine-tune', 'task', 'full_ft', ['--task', 'full_ft'], () => pick(page, 'task', 'full_ft'));
    // torchtune's defaults follow: PagedAdamW8bit stepped in backward, checkpointing, chunked loss, no master copy.
    await step('torchtune', 'framework', 'torchtune', ['--framework', 'torchtune'], () => pick(page, 'framework', 'torchtune'));
    const tt = await hooks(page, 'scenario');
    assert.deepEqual([tt.optimizer, tt.optimizer_in_backward, tt.activation_checkpointing, tt.loss_impl, tt.master_weights],
                     ['paged_adamw_8bit', true, 'full', 'chunked', false]);
    await step('fused loss', 'loss_impl', 'fused', ['--loss_impl', 'fused'], () => pick(page, 'loss', 'fused'));
    await step('serving', 'task', 'inference', ['--task', 'inference'], () => pick(page, 'task', 'inference'));
    await step('vLLM', 'engine', 'vllm', ['--engine', 'vllm'], () => pick(page, 'engine', 'vllm'));
    await step('vLLM V0', 'engine_version', 'v0', ['--engine_version', 'v0'], () => pick(page, 'engine_version', 'v0'));
    const v0 = await hooks(page, 'scenario');
    // Ticking max_num_batched_tokens starts from V0's default for this max_model_len: max(seq_len, 2048).
    await step('max_num_batched_tokens', 'max_num_batched_tokens', Math.max(v0.seq_len, 2048),
      ['--max_num_batched_tokens', String(Math.max(v0.seq_len, 2048))], () => clickWidget(page, 'mbt_check', { scrollAt: leftPane }));
    await step('enforce_eager', 'enforce_eager', true, ['--enforce_eager', 'true'], () => clickWidget(page, 'eager_check', { scrollAt: leftPane }));
    await step('llama.cpp', 'engine', 'llama_cpp', ['--engine', 'llama_cpp'], () => pick(page, 'engine', 'llama_cpp'));
    await step('16 GPU layers', 'gpu_layers', 16, ['--gpu_layers', '16'], () => clickWidget(page, 'ngl_check', { scrollAt: leftPane }));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('sorting and filtering the offers table', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const rec = cliRecommend([]).json;
    const rows = async () => {
      const w = await widgets(page);
      return Object.keys(w).filter((k) => k.startsWith('offer_row:'))
        .sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1])).map((k) => w[k].text);
    };
    const id = (o) => `${o.provider}/${o.instance}${o.spot ? '/spot' : ''}`;
    await findWidget(page, 'offer_row:5', { scrollAt: rightPane });  // scrolls the table into view
    let shown = await rows();
    assert.ok(shown.length >= 3, `only ${shown.length} offer rows on screen`);
    assert.deepEqual(shown, rec.offers.slice(0, shown.length).map(id), 'rank order is the CLI\'s');

    // Price, ascending then descending (a stable sort of the CLI's ranking; unpriced last).
    const byPrice = (desc) => rec.offers.map((o, i) => ({ o, i, p: o.price_known ? o.price_per_hour : Infinity }))
      .sort((a, b) => (desc ? b.p - a.p : a.p - b.p) || a.i - b.i).map((x) => id(x.o));
    const sortedBy = (desc) => async () => {
      const now = await rows();
      return now.length > 0 && now.every((s, i) => s === byPrice(desc)[i]);
    };
    await clickWidget(page, 'offer_sort:price', { until: sortedBy(false) });
    shown = await rows();
    assert.deepEqual(shown, byPrice(false).slice(0, shown.length), 'sorted by price ↑');
    await clickWidget(page, 'offer_sort:price', { until: sortedBy(true) });
    shown = await rows();
    assert.deepEqual(shown, byPrice(true).slice(0, shown.length), 'sorted by price ↓');

    // A text filter: only offers naming it, in the current order.
    await clickWidget(page, 'offer_filter');
    await page.keyboard.type('lambda');
    await page.waitForTimeout(300);
    shown = await rows();
    const lambda = byPrice(true).filter((s) => s.toLowerCase().includes('lambda'));
    assert.ok(lambda.length > 0, 'the catalog has Lambda offers');
    assert.deepEqual(shown, lambda.slice(0, shown.length));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a pasted config.json becomes the model (and a broken one is refused with the reason)', async () => {
    const { page, problems } = await openPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await waitReady(page);
    const file = path.join(root, 'assets/src/hf_configs/gpt-oss-20b.json');
    const paste = async (text) => {
      await pasteInto(page, 'paste_text', text);
      await clickWidget(page, 'paste_use');
    };
    await clickWidget(page, 'model_combo', { opens: 'model_item:' });
    await clickWidget(page, 'model_item:__paste', { scrollWithin: 'model_item:' });
    await paste('{"model_type": "llama", "hidden_size": "big"}');
    const err = await page.waitForFunction(() => window.__gpusizer.widgets().paste_error, null, { timeout: 10000 });
    assert.match((await err.jsonValue()).text, /hidden_size/, 'the error names the key');
    assert.equal((await hooks(page, 'scenario')).model, 'llama-3.1-8b', 'a refused config changes nothing');
    await paste(fs.readFileSync(file, 'utf8'));
    await page.waitForFunction(() => window.__gpusizer.scenario().hf_config !== null, null, { timeout: 10000 })
      .catch(async (e) => { throw new Error(`the pasted config was not taken: ${JSON.stringify((await widgets(page)).paste_error)}`); });
    await assertMatchesCli(page, ['--hf_config', file], 'pasted gpt-oss-20b config.json');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('"Open link…" opens a pasted share link (and lists what a bad one gets wrong)', async () => {
    const { page, problems } = await openPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await waitReady(page);
    const openLink = async (text) => {
      await clickWidget(page, 'open_link');
      await pasteInto(page, 'link_text', text);
      await clickWidget(page, 'link_open');
    };
    const args = ['--model', 'mixtral-8x7b', '--task', 'qlora', '--seq_len', '4096'];
    await openLink(`https://example.org/gpusizer/${cliLink(args)}`);
    await waitScenario(page, 'model', 'mixtral-8x7b');
    await assertMatchesCli(page, args, 'opened link');
    assert.equal(await page.evaluate(() => location.hash), cliLink(args), 'the address bar follows');
    await openLink('#v=1&m=qwen3-8b&b=-4');
    await waitScenario(page, 'model', 'qwen3-8b');
    assert.ok((await hooks(page, 'stats')).link_warnings >= 1, 'the bad batch size is listed');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('dragging the vLLM memory slider: the value follows the mouse, results stay the CLI\'s; frame cost printed', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    await pick(page, 'engine', 'vllm');
    await waitScenario(page, 'engine', 'vllm');
    const r = await findWidget(page, 'util_slider', { scrollAt: leftPane });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
    const before = await hooks(page, 'stats');
    const t0 = await busy();
    const start = Date.now();
    await page.mouse.move(r.x + r.w * 0.5, r.y + r.h / 2);
    await page.mouse.down();
    for (let i = 1; i <= 20; ++i) {  // ~1 s drag to the left end
      await page.mouse.move(r.x + r.w * (0.5 - 0.5 * i / 20) + 1, r.y + r.h / 2);
      await page.waitForTimeout(50);
    }
    await page.mouse.up();
    const wall = Date.now() - start;
    const after = await hooks(page, 'stats');
    const frames = after.frames - before.frames;
    const busyMs = (await busy() - t0) * 1000;
    console.log(`# dragging the slider ${wall} ms: ${frames} frames, ${after.estimates - before.estimates} recomputes, ` +
                `renderer main thread ${(busyMs / Math.max(frames, 1)).toFixed(1)} ms per frame (SwiftShader, headless)`);
    await waitScenario(page, 'gpu_memory_utilization', 0.5);
    assert.ok(frames >= 10, `only ${frames} frames while dragging`);
    await assertMatchesCli(page, ['--engine', 'vllm', '--gpu_memory_utilization', '0.5'], 'slider at 0.5');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the guided start fills in the scenario from its answers', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    await clickWidget(page, 'guided_open', { opens: 'guided_task:' });
    for (const t of ['guided_task:1', 'guided_size:4', 'guided_gpus:2', 'guided_interrupt:1', 'guided_where:1', 'guided_apply'])
      await clickWidget(page, t, { selects: t !== 'guided_apply' });
    await waitScenario(page, 'region', 'cn_mainland');
    const s = await hooks(page, 'scenario');
    assert.deepEqual([s.task, s.model, s.num_gpus, s.tensor_parallel, s.spot, s.currency, s.interconnect],
                     ['lora', 'llama-3.1-70b', 8, 8, 'never', 'CNY', 'nvlink']);
    // The answers are keys the user gave: the CLI given the same flags plans the same.
    await assertMatchesCli(page, ['--task', 'lora', '--model', 'llama-3.1-70b', '--num_gpus', '8', '--tensor_parallel', '8',
      '--pipeline_parallel', '1', '--spot', 'never', '--region', 'cn_mainland', '--currency', 'CNY', '--interconnect', 'nvlink',
      '--rank_by', 'cost'], 'guided LoRA 70B in China');
    assert.deepEqual(problems, []);
    await page.close();
  });

  // Issue 13: "model split, needs NVLink" and "one GPU" are different answers with different offers.
  test('the guided start: "model split over NVLink" keeps TP 8 on NVLink; "one GPU" keeps one GPU', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const answer = async (gpus, rank) => {
      await clickWidget(page, 'guided_open', { opens: 'guided_task:' });
      for (const t of ['guided_task:0', 'guided_size:4', `guided_gpus:${gpus}`, 'guided_interrupt:1', 'guided_where:0',
                       `guided_rank:${rank}`, 'guided_apply'])
        await clickWidget(page, t, { selects: t !== 'guided_apply' });
    };
    await answer(2, 0);
    await waitScenario(page, 'interconnect', 'nvlink');
    const split = await assertMatchesCli(page, ['--model', 'llama-3.1-70b', '--num_gpus', '8', '--tensor_parallel', '8',
      '--pipeline_parallel', '1', '--spot', 'never', '--region', 'global', '--currency', 'USD', '--interconnect', 'nvlink',
      '--rank_by', 'cost'], 'guided: model split');
    assert.ok(split.rec.json.offers.length > 0);
    for (const o of split.rec.json.offers) {
      assert.equal(o.plan.tensor_parallel, 8, `${o.instance}: TP 8 kept`);
      assert.ok(['nvswitch', 'nvlink', 'ici', 'hccs', 'infinity-fabric', 'neuronlink'].includes(o.interconnect), `${o.instance}: ${o.interconnect}`);
    }
    await answer(0, 1);
    await waitScenario(page, 'num_gpus', 1);
    const one = await assertMatchesCli(page, ['--model', 'llama-3.1-70b', '--num_gpus', '1', '--tensor_parallel', '1',
      '--pipeline_parallel', '1', '--spot', 'never', '--region', 'global', '--currency', 'USD', '--rank_by', 'hourly'],
    'guided: one GPU, cheapest hour');
    assert.ok(one.rec.json.offers.length > 0);
    for (const o of one.rec.json.offers) assert.equal(o.gpu_count, 1, `${o.instance}: one GPU`);
    const prices = one.rec.json.offers.filter((o) => o.price_known).map((o) => o.price_per_hour);
    assert.deepEqual(prices, [...prices].sort((a, b) => a - b), 'rank_by hourly: the cheapest hour first');
    assert.notDeepEqual(one.rec.json.offers.map((o) => o.instance), split.rec.json.offers.map((o) => o.instance));
    assert.deepEqual(problems, []);
    await page.close();
  });

  // Issue 13: serving 70B to 20 users is one replica sized for 20, on demand, never told to checkpoint;
  // a 7B LoRA goes on one GPU; export controls are named for mainland China.
  test('the answers of issue 13: serving sized for its load, a 7B LoRA on one GPU, export controls named', async () => {
    const serve = ['--model', 'llama-3.1-70b', '--batch_size', '20'];
    let { page, problems } = await openPage({ hash: cliLink(serve) });
    await waitReady(page);
    const s = await assertMatchesCli(page, serve, 'serving 70B to 20 users');
    assert.match(s.rec.json.summary, /to 20 concurrent users/);
    assert.doesNotMatch(s.rec.json.summary, /checkpoint/);
    for (const o of s.rec.json.offers) {
      assert.equal(o.spot, false);
      assert.equal(o.serving.replicas, 1);
      assert.equal(o.serving.users, 20);
    }
    assert.deepEqual(problems, []);
    await page.close();
    const lora = ['--model', 'qwen2.5-7b', '--task', 'lora', '--train_tokens', '100000000'];
    ({ page, problems } = await openPage({ hash: cliLink(lora) }));
    await waitReady(page);
    const l = await assertMatchesCli(page, lora, '7B LoRA');
    assert.equal(l.rec.json.offers[0].gpu_count, 1);
    assert.equal(l.rec.json.offers[0].plan.tensor_parallel, 1);
    await page.close();
    const china = ['--region', 'cn_mainland', '--gpu', 'h100_sxm'];
    ({ page, problems } = await openPage({ hash: cliLink(china) }));
    await waitReady(page);
    const c = await assertMatchesCli(page, china, 'H100 in mainland China');
    assert.match(c.rec.json.summary, /export controls/);
    assert.match(c.rec.json.summary, /H20/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the Export menu downloads core\'s JSON, CSV and Markdown, the same as the CLI\'s --format', async () => {
    const args = ['--model', 'qwen3-8b', '--task', 'lora'];
    const { page, problems } = await openPage({ hash: cliLink(args), options: { acceptDownloads: true } });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await waitReady(page);
    const download = async (item) => {
      await clickWidget(page, 'export_open', { opens: 'export_item:' });
      const [d] = await Promise.all([page.waitForEvent('download', { timeout: 10000 }), clickWidget(page, `export_item:${item}`)]);
      return { name: d.suggestedFilename(), text: fs.readFileSync(await d.path(), 'utf8') };
    };
    const json = await download('json');
    assert.equal(json.name, 'gpusizer.json');
    assert.deepEqual(JSON.parse(json.text), { estimate: cliEstimate(args).json, recommendation: cliRecommend(args).json });
    const memory = await download('csv_memory');
    assert.equal(memory.name, 'gpusizer-memory.csv');
    assert.equal(memory.text, cliFormat('estimate', args, 'csv'));
    const offers = await download('csv_offers');
    assert.equal(offers.name, 'gpusizer-offers.csv');
    assert.equal(offers.text, cliFormat('recommend', args, 'csv'));
    // The page's Markdown links to itself; the CLI, with no page, prints the fragment.
    const md = await download('markdown');
    assert.equal(md.name, 'gpusizer.md');
    const fragment = cliLink(args);
    const local = md.text.replace(`<${url}${fragment}>`, `\`${fragment}\``);
    assert.notEqual(local, md.text, 'the Markdown has the page\'s share URL');
    assert.equal(local, cliFormat('recommend', args, 'markdown'));
    await clickWidget(page, 'export_open', { opens: 'export_item:' });
    await clickWidget(page, 'export_item:markdown_copy');
    await page.waitForFunction(() => window.__gpusizer.widgets().export_message?.text.includes('Markdown'));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), md.text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('language switch, themes (chosen and from the system), resize and the phone layout', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const rec = cliRecommend([]).json;
    assert.equal((await hooks(page, 'stats')).language, 'en');
    await clickWidget(page, 'language_toggle');
    await page.waitForFunction(() => window.__gpusizer.stats().language === 'zh');
    await page.waitForTimeout(200);
    assert.equal((await widgets(page)).recommendation.text, rec.summary_zh);
    assert.ok((await page.textContent('#summary')).includes(rec.summary_zh), 'the aria-live summary is in Chinese too');
    assert.equal(await page.evaluate((t) => window.__gpusizer.missingGlyphs(t), rec.summary_zh), 0, 'a Chinese glyph is missing');

    await pick(page, 'theme', 'light', leftPane);
    await page.waitForFunction(() => window.__gpusizer.stats().theme === 'light');
    await pick(page, 'theme', 'system', leftPane);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => window.__gpusizer.stats().theme === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });  // the system switches: the page follows
    await page.waitForFunction(() => window.__gpusizer.stats().theme === 'light', null, { timeout: 10000 });

    // Narrow: one column, the answer first, then the inputs.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => window.__gpusizer.stats().css[0] === 390, null, { timeout: 10000 });
    await page.waitForTimeout(300);
    const w = await widgets(page);
    assert.ok(w.recommendation.y < w.task_combo.y, 'the phone layout starts with the answer');
    assert.ok(w.task_combo.x + w.task_combo.w <= 390, 'the task combo fits the phone screen');
    assert.deepEqual((await hooks(page, 'stats')).framebuffer, [390, 844]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('screenshots at 1280×800 and 390×844 in both languages draw real text', async () => {
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      for (const lang of ['en', 'zh']) {
        const { page, problems } = await openPage({ viewport: { width: w, height: h }, options: { locale: lang === 'zh' ? 'zh-CN' : 'en-US' } });
        await waitReady(page);
        const stats = await hooks(page, 'stats');
        assert.equal(stats.language, lang, 'the language follows navigator.language');
        assert.match(stats.font, /UI font \+ CJK/, 'the UI font with Chinese is loaded (not ProggyClean)');
        // Every character of the strings the page shows can be drawn (no '?' boxes).
        const texts = Object.values(await widgets(page)).map((r) => r.text).join('') + await page.textContent('#summary');
        assert.equal(await page.evaluate((t) => window.__gpusizer.missingGlyphs(t), texts), 0);
        await page.waitForTimeout(300);
        const shot = artifact(`page-${w}x${h}-${lang}.png`);
        await page.screenshot({ path: shot });
        const img = imageStats(shot);
        console.log(`# ${path.relative(process.cwd(), shot)}: ${img.colours} colours, ${(img.foreground * 100).toFixed(1)}% non-background`);
        assert.ok(img.colours >= 16 && img.foreground > 0.05, `screenshot looks blank (${img.colours} colours, ${img.foreground})`);
        assert.deepEqual(problems, []);
        await page.close();
      }
    }
  });
});
