// The page II (issue 15): the answer card, the labelled charts, the offers table at laptop width,
// compare with its share link, in English and Chinese, at 1280×800 and 390×844 — driven by real
// clicks at the rectangles the page exports, every number checked against the native CLI.
// Screenshots go to test-artifacts/answer-*.png.
//   node --test tests/browser/answer.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  artifact, cliEstimate, cliLink, cliRecommend, clickWidget, findWidget, framesSeen, hooks, imageStats, openTestPage, startPageAndBrowser, stopPageAndBrowser, waitReady, waitScenario, widgets,
} from './support.mjs';

const wide = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const leftPane = { x: 120, y: 600 };
const rightPane = { x: 900, y: 600 };
const lora7b = ['--model', 'qwen2.5-7b', '--task', 'lora', '--train_tokens', '100000000'];
let server, url, chromium;

before(async () => ({ server, url, chromium } = await startPageAndBrowser()));
after(() => stopPageAndBrowser({ server, chromium }));

const openPage = (opts = {}) => openTestPage(chromium.browser, url, { viewport: wide, ...opts });
const id = (o) => `${o.provider}/${o.instance}${o.spot ? '/spot' : ''}`;
// The number behind a figure on screen is the CLI's, exactly (both print the shortest round trip).
const same = (text, value) => Number(text) === value;

// Waits until `names` are all on screen (scrolling the pane under `at` when needed) and returns the widgets.
async function onScreen(page, names, at) {
  for (const n of names) await findWidget(page, n, at ? { scrollAt: at } : {});
  return widgets(page);
}

async function shot(page, name) {
  await page.waitForTimeout(300);
  const file = artifact(name);
  await page.screenshot({ path: file });
  const img = imageStats(file);
  console.log(`# ${path.relative(process.cwd(), file)}: ${img.colours} colours, ${(img.foreground * 100).toFixed(1)}% non-background`);
  assert.ok(img.colours >= 16 && img.foreground > 0.05, `screenshot looks blank (${img.colours} colours, ${img.foreground})`);
}

describe('the page II: the answer at a glance', () => {
  test('the card shows the CLI\'s pick, cheapest and fastest with their trade-offs, in English and then in Chinese', async () => {
    const { page, problems } = await openPage({ hash: cliLink(lora7b) });
    await waitReady(page);
    const rec = cliRecommend(lora7b).json;
    assert.equal(await hooks(page, 'recommendationText'), cliRecommend(lora7b).text, 'the page recommends what the CLI does');
    const pick = rec.offers[0];
    let w = await onScreen(page, ['card_pick', 'card_cheapest', 'card_fastest']);
    assert.equal(w.card_pick.text, id(pick));
    assert.equal(Number(w.card_gpus.text), pick.gpu_count);
    assert.ok(same(w.card_price.text, pick.price_per_hour), `price ${w.card_price.text} vs ${pick.price_per_hour}`);
    assert.ok(same(w.card_time.text, pick.hours), `hours ${w.card_time.text} vs ${pick.hours}`);
    assert.ok(same(w.card_cost.text, pick.total_cost), `total ${w.card_cost.text} vs ${pick.total_cost}`);
    assert.equal(Number(w.card_memory.text), pick.memory_per_gpu_bytes);
    assert.ok(rec.cheapest && rec.fastest, 'the CLI names a cheapest and a fastest offer');
    assert.equal(w.card_cheapest.text, id(rec.offers[rec.cheapest.index]));
    assert.equal(w.card_fastest.text, id(rec.offers[rec.fastest.index]));
    assert.equal(w.card_cheapest_trade_off.text, rec.cheapest.trade_off);
    assert.equal(w.card_fastest_trade_off.text, rec.fastest.trade_off);
    assert.ok(rec.fastest.index > 0 && /sooner/.test(rec.fastest.trade_off), `the fastest trades money for time: ${rec.fastest.trade_off}`);
    assert.ok(w.card_pick.y < w.section_model.y, 'the card is above the inputs');
    await shot(page, 'answer-1280x800-en.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => window.__gpusizer.stats().theme === 'dark');
    await shot(page, 'answer-1280x800-en-dark.png');

    await clickWidget(page, 'language_toggle');
    await page.waitForFunction(() => window.__gpusizer.stats().language === 'zh');
    await page.waitForTimeout(300);
    w = await onScreen(page, ['card_where', 'card_fastest_trade_off']);
    assert.equal(w.card_where.text, `${pick.provider_name_zh} · ${pick.instance_zh}`);
    assert.equal(w.card_fastest_trade_off.text, rec.fastest.trade_off_zh);
    assert.equal(w.recommendation.text, rec.summary_zh);
    // Entirely in Chinese: no English planner words in the card, every glyph drawable.
    const card = [w.card_where.text, w.card_fastest_trade_off.text, w.card_cheapest_trade_off.text, rec.summary_zh].join(' ');
    for (const english of ['per GPU', 'marketplace', 'sooner', 'more', 'less', 'longer', 'on demand', 'spot'])
      assert.ok(!card.includes(english), `English "${english}" in the Chinese card: ${card}`);
    const texts = Object.values(w).map((r) => r.text).join('');
    assert.equal(await page.evaluate((t) => window.__gpusizer.missingGlyphs(t), texts), 0, 'a glyph is missing');
    await shot(page, 'answer-1280x800-zh.png');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('serving 70B to 32 users: the card shows time per token and cost per million tokens, the CLI\'s', async () => {
    const serve = ['--model', 'llama-3.1-70b', '--batch_size', '32'];
    const { page, problems } = await openPage({ hash: cliLink(serve) });
    await waitReady(page);
    const rec = cliRecommend(serve).json;
    const pick = rec.offers[0];
    const w = await onScreen(page, ['card_pick', 'card_time', 'card_cost']);
    assert.equal(w.card_pick.text, id(pick));
    assert.ok(same(w.card_time.text, pick.serving.tpot_ms), `time per token ${w.card_time.text} vs ${pick.serving.tpot_ms}`);
    assert.ok(same(w.card_cost.text, pick.cost_per_million_tokens), `per 1M ${w.card_cost.text} vs ${pick.cost_per_million_tokens}`);
    assert.equal(w.card_fastest.text, id(rec.offers[rec.fastest.index]));
    assert.equal(w.card_fastest_trade_off.text, rec.fastest.trade_off);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('guided start in Chinese for mainland China: the card is in Chinese and in yuan', async () => {
    const { page, problems } = await openPage({ options: { locale: 'zh-CN' } });
    await waitReady(page);
    await clickWidget(page, 'guided_open', { opens: 'guided_task:' });
    for (const t of ['guided_task:1', 'guided_size:1', 'guided_gpus:0', 'guided_interrupt:1', 'guided_where:1', 'guided_rank:0',
                     'guided_apply'])
      await clickWidget(page, t, { selects: t !== 'guided_apply' });
    await waitScenario(page, 'region', 'cn_mainland');
    const rec = await hooks(page, 'recommendation');
    const pick = rec.offers[0];
    assert.equal(pick.currency, 'CNY');
    assert.ok(pick.cn_mainland, 'a mainland China offer');
    const w = await onScreen(page, ['card_pick', 'card_where', 'card_price']);
    assert.equal(w.card_pick.text, id(pick));
    assert.equal(w.card_where.text, `${pick.provider_name_zh} · ${pick.instance_zh}`);
    assert.ok(same(w.card_price.text, pick.price_per_hour));
    assert.equal(w.recommendation.text, rec.summary_zh);
    assert.ok(!/per GPU|marketplace|on demand/.test(w.card_where.text + rec.summary_zh), 'no English planner words');
    await page.mouse.move(wide.width - 4, wide.height - 4);  // where Apply was clicked, a tooltip shows
    await framesSeen(page);
    await shot(page, 'answer-1280x800-zh-guided.png');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('charts: axis titles with units, a legend, the card\'s three offers labelled, hover names the offer', async () => {
    const { page, problems } = await openPage({ hash: cliLink(lora7b) });
    await waitReady(page);
    const rec = cliRecommend(lora7b).json;
    let w = await onScreen(page, ['memory_bar_legend']);
    assert.match(w.memory_bar_legend.text, /^Weights \| .*Activations/, 'the stacked bar has a legend');
    w = await onScreen(page, ['memory_chart_legend', 'memory_chart_axis:x', 'memory_chart_axis:y'], rightPane);
    assert.equal(w['memory_chart_axis:x'].text, 'Sequence length (tokens, log scale)');
    assert.equal(w['memory_chart_axis:y'].text, 'Memory per GPU (GiB)');
    assert.match(w['memory_chart_legend'].text, /^Weights \| .*Activations.* \| Total per GPU/);
    w = await onScreen(page, ['pareto_chart_legend', 'pareto_chart_axis:x', 'pareto_point:recommended', 'pareto_point:cheapest',
                              'pareto_point:fastest', 'pareto_chart_axis:y'], rightPane);
    assert.equal(w['pareto_chart_axis:x'].text, 'Time for the whole job (log scale)');
    assert.equal(w['pareto_chart_axis:y'].text, 'Total cost (USD, log scale)');
    assert.match(w['pareto_chart_legend'].text, /^Recommended \| Cheapest \| Fastest \| Pareto front/);
    assert.equal(w['pareto_point:recommended'].text, id(rec.offers[0]));
    assert.equal(w['pareto_point:cheapest'].text, id(rec.offers[rec.cheapest.index]));
    assert.equal(w['pareto_point:fastest'].text, id(rec.offers[rec.fastest.index]));
    // Hovering a point names its offer.
    const f = w['pareto_point:fastest'];
    await page.mouse.move(f.x + f.w / 2, f.y + f.h / 2);
    await page.waitForFunction((want) => window.__gpusizer.widgets().pareto_hover?.text === want, id(rec.offers[rec.fastest.index]),
                               { timeout: 10000 });
    await shot(page, 'answer-1280x800-charts.png');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the offers table keeps its key columns inside the pane at 1280 px; a click opens the details row', async () => {
    const { page, problems } = await openPage({ hash: cliLink(lora7b) });
    await waitReady(page);
    const rec = cliRecommend(lora7b).json;
    const w = await onScreen(page, ['offer_row:2', 'offer_sort:checks'], rightPane);
    const pane = w.section_offers;  // the section header spans the results pane
    for (const c of ['rank', 'gpus', 'provider', 'price', 'hours', 'total', 'checks']) {
      const h = w[`offer_sort:${c}`];
      assert.ok(h, `column ${c} is on screen`);
      assert.ok(h.x >= pane.x - 1 && h.x + h.w <= pane.x + pane.w + 1, `column ${c} (${h.x}+${h.w}) inside the pane (${pane.x}+${pane.w})`);
    }
    assert.equal(w['offer_row:0'].text, id(rec.offers[0]));
    await clickWidget(page, 'offer_row:1');
    const d = await page.waitForFunction(() => window.__gpusizer.widgets().offer_detail, null, { timeout: 10000 });
    assert.equal((await d.jsonValue()).text, id(rec.offers[1]));
    // The page words an offer when it is opened: the same why as the CLI's.
    assert.equal((await page.evaluate(() => window.__gpusizer.widgets().offer_why)).text, rec.offers[1].why);
    for (let i = 0; i < 3; ++i) {  // the details row in full view for the screenshot
      await page.mouse.move(rightPane.x, rightPane.y);
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(150);
    }
    // ...and says where its price comes from: that instance's row of the catalog.
    const catalog = JSON.parse(fs.readFileSync(new URL('../../assets/catalog.json', import.meta.url), 'utf8'));
    const row = catalog.instances.find((i) => i.provider === rec.offers[1].provider && i.id === rec.offers[1].instance);
    assert.ok(row && row.source, `a sourced catalog row for ${id(rec.offers[1])}`);
    const source = await page.waitForFunction(() => window.__gpusizer.widgets().offer_source, null, { timeout: 10000 });
    assert.equal((await source.jsonValue()).text, row.source);
    await shot(page, 'answer-1280x800-table.png');
    await onScreen(page, ['offer_row:1'], rightPane);
    await clickWidget(page, 'offer_row:1');
    await page.waitForFunction(() => !window.__gpusizer.widgets().offer_detail, null, { timeout: 10000 });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('compare: pin, change the task, both answers side by side; the link carries both and reopens them', async () => {
    const { page, problems } = await openPage({ hash: cliLink(lora7b) });
    await waitReady(page);
    await clickWidget(page, 'card_pin');
    await findWidget(page, 'compare_unpin');
    await clickWidget(page, 'task_combo', { scrollAt: leftPane, opens: 'task_item:' });
    await clickWidget(page, 'task_item:qlora', { scrollWithin: 'task_item:' });
    await waitScenario(page, 'task', 'qlora');
    const qlora = ['--model', 'qwen2.5-7b', '--task', 'qlora', '--train_tokens', '100000000'];
    const check = async (p, what) => {
      const w = await onScreen(p, ['compare_pinned_pick', 'compare_now_pick', 'compare_pinned_memory', 'compare_now_memory',
                                      'compare_pinned_cost', 'compare_now_cost']);
      const [a, b] = [cliRecommend(lora7b).json.offers[0], cliRecommend(qlora).json.offers[0]];
      assert.equal(w.compare_pinned_pick.text, id(a), `${what}: the pinned pick`);
      assert.equal(w.compare_now_pick.text, id(b), `${what}: the current pick`);
      assert.equal(Number(w.compare_pinned_memory.text), cliEstimate(lora7b).json.memory_per_gpu_bytes.total, `${what}: pinned memory`);
      assert.equal(Number(w.compare_now_memory.text), cliEstimate(qlora).json.memory_per_gpu_bytes.total, `${what}: current memory`);
      assert.ok(same(w.compare_pinned_cost.text, a.total_cost) && same(w.compare_now_cost.text, b.total_cost), `${what}: the costs`);
      assert.match(w.compare_changes.text, /task:lora>qlora;/);
      return w;
    };
    await check(page, 'after the edit');
    // The link: the current scenario as the CLI links it, then pin=1 and the pinned one's keys under pin.
    const now = cliLink(qlora), pinned = cliLink(lora7b);
    const expected = `${now}&pin=1${pinned.slice('#v=1'.length).replace(/&/g, '&pin.')}`;
    await page.waitForFunction((h) => location.hash === h, expected, { timeout: 10000 });
    await shot(page, 'answer-1280x800-compare.png');
    const opened = await openPage({ hash: expected });
    await waitReady(opened.page);
    await check(opened.page, 'reopened from the link');
    assert.deepEqual(opened.problems, []);
    await opened.page.close();

    await clickWidget(page, 'compare_unpin');
    await page.waitForFunction((h) => location.hash === h, now, { timeout: 10000 });
    assert.equal((await widgets(page)).compare_now_pick, undefined, 'the compare strip is gone');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('phone 390×844: the card comes first, fits the screen, in both languages', async () => {
    for (const lang of ['en', 'zh']) {
      const { page, problems } = await openPage({ viewport: phone, hash: cliLink(lora7b), options: { locale: lang === 'zh' ? 'zh-CN' : 'en-US' } });
      await waitReady(page);
      assert.equal((await hooks(page, 'stats')).language, lang);
      const w = await onScreen(page, ['card_pick', 'card_price']);
      assert.ok(w.card_pick.y < (w.task_combo?.y ?? Infinity), 'the card is above the inputs');
      for (const k of ['card_gpus', 'card_price', 'card_cost', 'card_pin'])
        assert.ok(w[k].x >= 0 && w[k].x + w[k].w <= phone.width, `${k} fits the phone's width`);
      await shot(page, `answer-390x844-${lang}.png`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});
