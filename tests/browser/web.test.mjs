// The page in real Chromium (Debian's, headless, SwiftShader WebGL2): it starts, shows core's
// numbers, and real mouse clicks at the rectangles the page exports for its widgets change the
// scenario; the results must equal the native CLI's for the same scenario, byte for byte.
//   node --test tests/browser/      (GPUSIZER_WEB_DIST, GPUSIZER_CLI override the paths)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  artifact, cliEstimate, cliLink, cliRecommend, clickWidget, findWidget, hooks, imageStats, launchChromium, openTestPage, startPageAndBrowser, stopPageAndBrowser, waitReady, waitScenario, widgets,
} from './support.mjs';

const viewport = { width: 1000, height: 700 };
const resultsPane = { x: 700, y: 560 };  // over the results pane (below the answer card)
let server, url, chromium;

before(async () => ({ server, url, chromium } = await startPageAndBrowser()));
after(() => stopPageAndBrowser({ server, chromium }));

const openPage = (opts = {}) => openTestPage(chromium.browser, url, { viewport, ...opts });

// The page's stats once its settle frames have run out: no frame drawn for 500 ms (slow machines
// draw the settle frames slowly; a page that never settles fails here after 10 s).
async function idle(page) {
  let a = await hooks(page, 'stats');
  for (let quiet = 0, i = 0; quiet < 5; ++i) {
    assert.ok(i < 100, 'the page never stopped drawing');
    await page.waitForTimeout(100);
    const s = await hooks(page, 'stats');
    quiet = s.frames === a.frames ? quiet + 1 : 0;
    a = s;
  }
  return a;
}

describe('web page', () => {
  test('first frame shows the defaults, with the same results as the CLI', async () => {
    const { page, problems, t0 } = await openPage();
    const firstFrameMs = await waitReady(page);
    console.log(`# first frame with the catalog: ${firstFrameMs.toFixed(0)} ms after navigation (performance.now()), ` +
                `${Date.now() - t0} ms from the test's goto (SwiftShader, headless; speed.test.mjs prints the marks)`);
    const stats = await hooks(page, 'stats');
    assert.equal(stats.catalog, true);
    assert.deepEqual(stats.framebuffer, [viewport.width, viewport.height]);
    // ImGui draws with neither a depth nor a stencil buffer: the browser must not allocate (and
    // clear every frame) either (web/main.cpp, the GLFW hints before glfwCreateWindow).
    const attributes = await page.evaluate(() => Module.ctx.getContextAttributes());
    assert.deepEqual([attributes.depth, attributes.stencil, attributes.alpha], [false, false, true]);
    const expected = cliEstimate([]);
    assert.equal(await hooks(page, 'resultsText'), expected.text, 'page results differ from `gpusizer estimate --json`');
    const weights = await findWidget(page, 'memory_value:weights', { scrollAt: resultsPane });
    assert.equal(weights.text, String(expected.json.memory_per_gpu_bytes.weights));
    const params = await findWidget(page, 'params_value', { scrollAt: resultsPane });
    assert.equal(params.text, String(expected.json.params.total));
    const rec = cliRecommend([]);
    assert.equal(await hooks(page, 'recommendationText'), rec.text, 'page offers differ from `gpusizer recommend --json`');
    assert.ok((await page.textContent('#summary')).includes(rec.json.summary), 'the aria-live summary names the recommendation');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('dtype combo → int8 by real clicks: weights memory becomes the CLI value', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const bf16 = cliEstimate(['--model', 'llama-3.1-8b', '--weight_dtype', 'bf16']).json.memory_per_gpu_bytes.weights;
    const int8 = cliEstimate(['--model', 'llama-3.1-8b', '--weight_dtype', 'int8']);
    assert.notEqual(int8.json.memory_per_gpu_bytes.weights, bf16, 'CLI gives the same weights for bf16 and int8');
    assert.equal((await hooks(page, 'results')).memory_per_gpu_bytes.weights, bf16);
    const before = await hooks(page, 'stats');

    await clickWidget(page, 'dtype_combo', { opens: 'dtype_item:' });
    await clickWidget(page, 'dtype_item:int8');
    await waitScenario(page, 'weight_dtype', 'int8');

    assert.equal(await hooks(page, 'resultsText'), int8.text);
    const w = await page.waitForFunction(() => window.__gpusizer.widgets()['memory_value:weights'], null, { timeout: 5000 });
    assert.equal((await w.jsonValue()).text, String(int8.json.memory_per_gpu_bytes.weights), 'the shown value');
    const afterStats = await hooks(page, 'stats');
    assert.equal(afterStats.estimates - before.estimates, 1, 'estimate() should run once per scenario change');

    // The share link and the text summary follow the scenario.
    assert.equal(await page.evaluate(() => location.hash), cliLink(['--weight_dtype', 'int8']));
    assert.equal(await page.getAttribute('#share', 'href'), url + cliLink(['--weight_dtype', 'int8']), 'the real link outside the canvas');
    const summary = await page.textContent('#summary');
    assert.ok(summary.includes(cliRecommend(['--weight_dtype', 'int8']).json.summary), summary);

    const shot = artifact('web-dtype-int8.png');
    await page.screenshot({ path: shot });
    const img = imageStats(shot);
    console.log(`# screenshot ${path.relative(process.cwd(), shot)}: ${img.colours} colours, ` +
                `${(img.foreground * 100).toFixed(1)}% non-background`);
    assert.ok(img.colours >= 8, `screenshot looks blank (${img.colours} colours)`);
    assert.ok(img.foreground > 0.01, `screenshot is nearly all background (${img.foreground})`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('model combo → mixtral-8x7b (scrolled into view) by real clicks: parameter count becomes the CLI value', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    const expected = cliEstimate(['--model', 'mixtral-8x7b']);
    await clickWidget(page, 'model_combo', { opens: 'model_item:' });
    await clickWidget(page, 'model_item:mixtral-8x7b', { scrollWithin: 'model_item:' });
    await waitScenario(page, 'model', 'mixtral-8x7b');
    assert.equal(await hooks(page, 'resultsText'), expected.text);
    assert.equal((await findWidget(page, 'params_value', { scrollAt: resultsPane })).text, String(expected.json.params.total));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('opened with a share link: the scenario and results are the CLI\'s for that link', async () => {
    const link = cliLink(['--model', 'qwen3-8b', '--weight_dtype', 'int4_awq']);
    const { page, problems } = await openPage({ hash: link });
    await waitReady(page);
    assert.equal((await hooks(page, 'scenario')).model, 'qwen3-8b');
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--link', link]).text);
    assert.equal((await widgets(page)).dtype_combo.text, 'int4_awq');
    assert.equal(await page.evaluate(() => location.hash), link, 'the page rewrote a canonical link');
    assert.equal((await hooks(page, 'stats')).link_warnings, 0);
    // Editing the fragment by hand (hashchange) opens the new scenario.
    const next = cliLink(['--model', 'phi-4']);
    await page.evaluate((h) => { location.hash = h; }, next);
    await waitScenario(page, 'model', 'phi-4');
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--link', next]).text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('"Copy share link" puts the page URL with the scenario\'s fragment on the clipboard', async () => {
    const link = cliLink(['--model', 'qwen3-14b', '--weight_dtype', 'fp8']);
    const { page, problems } = await openPage({ hash: link });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await waitReady(page);
    await clickWidget(page, 'copy_link');
    let text = '';
    for (let i = 0; i < 100 && !text.includes('#v='); ++i) {
      await page.waitForTimeout(100);
      text = await page.evaluate(() => navigator.clipboard.readText());
    }
    assert.equal(text, url + link);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a share link with a bad value keeps the default and warns, never fails', async () => {
    const { page, problems } = await openPage({ hash: '#v=1&m=qwen3-8b&w=int7' });
    await waitReady(page);
    const sc = await hooks(page, 'scenario');
    assert.equal(sc.model, 'qwen3-8b');
    assert.equal(sc.weight_dtype, 'bf16');
    assert.ok((await hooks(page, 'stats')).link_warnings >= 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('an idle page draws no frames (no redraw storm)', async () => {
    const { page } = await openPage();
    await waitReady(page);
    const a = await idle(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async (name) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name).value;
    const task0 = await metric('TaskDuration');
    await page.waitForTimeout(2000);
    const b = await hooks(page, 'stats');
    const busyMs = (await metric('TaskDuration') - task0) * 1000;
    console.log(`# idle 2 s: ${b.frames - a.frames} frames drawn, ${b.iterations - a.iterations} main-loop wake-ups, ` +
                `renderer main thread busy ${busyMs.toFixed(0)} ms (${(busyMs / 20).toFixed(1)}%)`);
    assert.ok(b.iterations - a.iterations > 10, 'the main loop should still be scheduled');
    assert.equal(b.frames - a.frames, 0, 'frames drawn while idle');
    // Moving the mouse wakes it up.
    await page.mouse.move(200, 200);
    await page.mouse.move(220, 230);
    await page.waitForFunction((f) => window.__gpusizer.stats().frames > f, b.frames, { timeout: 5000 });
    await page.close();
  });

  // ImGui dims the page behind a modal over ~0.17 s and undims it over 0.1 s, by time, while the
  // page draws only on input: the fade must still finish before the page goes idle. Frames
  // unthrottled (as on a high-refresh display, or faster): the frames an input wakes then pass
  // in a few ms.
  test('a modal dims the page fully and the dim goes when it closes, with no input after the click', async (t) => {
    const fast = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
    t.after(() => fast.close());
    const { page, problems } = await openTestPage(fast.browser, url, { viewport });
    await waitReady(page);
    await clickWidget(page, 'guided_open', { opens: 'guided_task:' });
    assert.equal((await idle(page)).dim, 1, 'the background behind the guided start is dimmed all the way');
    await clickWidget(page, 'guided_cancel', { until: async () => !(await widgets(page)).guided_cancel });
    assert.equal((await idle(page)).dim, 0, 'no dim left once the guided start is closed');
    assert.deepEqual(problems, []);
  });

  test('devicePixelRatio 2: backing store is 2× CSS and clicks by CSS rectangles still hit', async () => {
    const { page, problems } = await openPage({ deviceScaleFactor: 2 });
    await waitReady(page);
    const stats = await hooks(page, 'stats');
    assert.deepEqual(stats.framebuffer, [viewport.width * 2, viewport.height * 2]);
    assert.equal(stats.ratio, 2);
    const combo = await clickWidget(page, 'dtype_combo', { opens: 'dtype_item:' });
    assert.ok(combo.x + combo.w < viewport.width && combo.y + combo.h < viewport.height, 'rectangle not in CSS pixels');
    await clickWidget(page, 'dtype_item:fp8');
    await waitScenario(page, 'weight_dtype', 'fp8');
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--weight_dtype', 'fp8']).text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('touch (phone, DPR 2): taps open the dtype combo and pick an item', async () => {
    const phone = { width: 390, height: 800 };
    const { page, problems } = await openPage({ deviceScaleFactor: 2, options: { viewport: phone, hasTouch: true, isMobile: true } });
    await waitReady(page);
    const tap = async (name) => {
      // On screen (below the answer card: scrolled to) and no longer moving.
      const r = await findWidget(page, name, name.endsWith('_combo') ? { scrollAt: { x: 195, y: 600 } } : {});
      await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
    };
    await tap('dtype_combo');
    await tap('dtype_item:gguf_q4_k_m');
    await waitScenario(page, 'weight_dtype', 'gguf_q4_k_m');
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--weight_dtype', 'gguf_q4_k_m']).text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('catalog download fails: a clear DOM message', async () => {
    const { page } = await openPage({
      setup: (p) => p.route('**/catalog.json', (r) => r.fulfill({ status: 404, body: 'gone' })),
    });
    await page.waitForSelector('#error:not([hidden])', { timeout: 30000 });
    assert.match(await page.textContent('#error'), /catalog.*could not be downloaded/i);
    await page.close();
  });

  test('catalog is not JSON: a clear DOM message naming the problem', async () => {
    const { page } = await openPage({
      setup: (p) => p.route('**/catalog.json', (r) => r.fulfill({ status: 200, body: '{"schema": 1, "models": [' })),
    });
    await page.waitForSelector('#error:not([hidden])', { timeout: 30000 });
    assert.match(await page.textContent('#error'), /catalog.*invalid/i);
    await page.close();
  });

  test('UI font missing: the page still starts, with the built-in font', async () => {
    const { page, problems } = await openPage({
      setup: (p) => p.route('**/fonts/ui.ttf', (r) => r.fulfill({ status: 404, body: 'gone' })),
    });
    await waitReady(page);
    assert.equal((await hooks(page, 'stats')).catalog, true);
    assert.ok(problems.some((m) => /ui\.ttf could not be downloaded/.test(m)), problems.join('\n'));
    await page.close();
  });

  test('no WebGL2: a clear DOM message and the module is not started', async () => {
    const { page } = await openPage({
      setup: (p) => p.addInitScript(() => {
        const orig = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
          return type === 'webgl2' ? null : orig.call(this, type, ...rest);
        };
      }),
    });
    await page.waitForSelector('#error:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#error'), /WebGL 2/);
    assert.equal(await page.evaluate(() => !!document.querySelector('script[src="gpusizer.js"]')), false);
    await page.close();
  });
});
