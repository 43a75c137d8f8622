// Shared helpers for the browser and desktop tests: paths, the static server, Chromium via
// playwright-core (Debian's /usr/bin/chromium, never a downloaded browser), the native CLI and
// an ImageMagick-based "is this screenshot blank?" check.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifacts = path.join(root, 'test-artifacts');

function firstExisting(candidates) {
  return candidates.find((p) => p && fs.existsSync(p)) || candidates.filter(Boolean)[0];
}

// The page with test hooks (target gpusizer_web_test): GPUSIZER_WEB_DIST, else
// $GPUSIZER_WASM_BUILD/web/test-dist, else build/wasm-release/web/test-dist.
const wasmBuild = process.env.GPUSIZER_WASM_BUILD || path.join(root, 'build/wasm-release');
export const webDist = process.env.GPUSIZER_WEB_DIST || path.join(wasmBuild, 'web/test-dist');
// The served page (target gpusizer_web, what scripts/run serves): no test hooks.
export const servedDist = path.join(wasmBuild, 'web/dist');

// The native CLI: GPUSIZER_CLI, else $GPUSIZER_NATIVE_BUILD/native/gpusizer, else the first built preset.
export const cli = process.env.GPUSIZER_CLI || firstExisting([
  process.env.GPUSIZER_NATIVE_BUILD && path.join(process.env.GPUSIZER_NATIVE_BUILD, 'native/gpusizer'),
  path.join(root, 'build/native-release/native/gpusizer'),
  path.join(root, 'build/native-debug/native/gpusizer'),
]);

// The desktop app: GPUSIZER_DESKTOP, else beside the CLI.
export const desktop = process.env.GPUSIZER_DESKTOP || path.join(path.dirname(cli), 'gpusizer_desktop');

// `gpusizer estimate ARGS --json`: the exact text and the parsed object (exit 1, it does not fit the
// chosen GPU, still prints the estimate).
export function cliEstimate(args) {
  const r = spawnSync(cli, ['estimate', ...args, '--json'], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cli} estimate ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout.trim(), json: JSON.parse(r.stdout) };
}

// `gpusizer recommend ARGS --json`: the exact text and the parsed object (exit 1, nothing fits, is allowed).
export function cliRecommend(args) {
  const r = spawnSync(cli, ['recommend', ...args, '--json'], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cli} recommend ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout.trim(), json: r.stdout.trim() ? JSON.parse(r.stdout) : null, status: r.status };
}

// `gpusizer COMMAND ARGS --format FORMAT`: the exact output (exit 1, nothing fits, is allowed).
export function cliFormat(command, args, format) {
  const r = spawnSync(cli, [command, ...args, '--format', format], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cli} ${command} ${args.join(' ')} --format ${format} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// `gpusizer link ARGS`: the share-link fragment ("#v=1&…").
export function cliLink(args) {
  const r = spawnSync(cli, ['link', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cli} link ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

export async function startServer(dir = webDist) {
  const { serve } = await import(path.join(root, 'scripts/serve.mjs'));
  const server = await serve(dir, 0);  // port 0: the OS picks a free port
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// The test page served and Chromium started, for a test file's before() hook; after() hands the
// result to stopPageAndBrowser. Fails early, naming what is missing, when the page or the CLI
// the tests compare with was not built.
export async function startPageAndBrowser(dir = webDist) {
  assert.ok(fs.existsSync(path.join(dir, 'gpusizer.wasm')), `no page built in ${dir} (build target gpusizer_web_test)`);
  assert.ok(fs.existsSync(cli), `no native CLI at ${cli} (set GPUSIZER_CLI)`);
  const { server, url } = await startServer(dir);
  return { server, url, chromium: await launchChromium() };
}

export async function stopPageAndBrowser({ server, chromium }) {
  await chromium?.close();
  server?.close();
}

export const chromiumArgs = [
  '--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-gpu-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

// Playwright's launch() gives every browser a fresh temporary profile (--user-data-dir in a new
// temp folder, removed on close).
// `extraArgs`: more switches for this browser only.
export async function launchChromium(extraArgs = []) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.GPUSIZER_CHROMIUM || '/usr/bin/chromium',
    headless: false,  // --headless=new is passed explicitly (docs/research/toolchain.md, fact 10)
    args: [...chromiumArgs, ...extraArgs],
  });
  return { browser, close: () => browser.close() };
}

// Distinct colours, and the share of pixels that are not the most common (background) colour,
// from ImageMagick's histogram (Debian's imagemagick): a blank or single-colour image fails.
export function imageStats(file) {
  const hist = execFileSync('convert', [file, '-alpha', 'off', '-format', '%c', 'histogram:info:-'],
                            { encoding: 'utf8', maxBuffer: 64 << 20 });
  const counts = hist.split('\n').map((l) => Number((l.match(/^\s*(\d+):/) || [])[1])).filter((n) => n > 0);
  const total = counts.reduce((a, b) => a + b, 0);
  const background = Math.max(...counts);
  return { colours: counts.length, foreground: total ? 1 - background / total : 0 };
}

// A page with console/CSP problems collected; resolves once the first frame with the catalog is drawn.
export async function openTestPage(browser, url, { viewport, deviceScaleFactor = 1, setup, hash = '', options = {} } = {}) {
  const page = await browser.newPage({ viewport, deviceScaleFactor, ...options });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  if (setup) await setup(page);
  const t0 = Date.now();
  await page.goto(url + hash);
  return { page, problems, t0 };
}

export async function waitReady(page) {
  await page.waitForFunction(() => window.__gpusizer && window.__gpusizer.page.firstFrameMs !== null, null, { timeout: 30000 });
  return page.evaluate(() => window.__gpusizer.page.firstFrameMs);
}

export const hooks = (page, fn) => page.evaluate(`window.__gpusizer.${fn}()`);

// Wait until a tagged widget is on screen and stays put (a popup that just opened moves and
// resizes in its first frames), and return its rectangle in CSS pixels. Two reads are the same
// only when at least three main-loop iterations ran between them, not only 100 ms: on a loaded
// machine one frame can take longer, and a popup's first, hidden frame (its items 9 px wide) then
// passed for its settled layout (2026-12-05, 2 of 8 runs of the Export test).
// While it is not visible, the mouse wheel scrolls down (then back up) over
// `scrollWithin`: the first visible entry of a list by tag prefix (e.g. 'model_item:'), or
// `scrollAt`: a point {x, y} over a scrolling pane.
export async function findWidget(page, name, { scrollWithin, scrollAt } = {}) {
  const find = (n) => page.evaluate((k) => window.__gpusizer.widgets()[k] || null, n);
  const same = (a, b) => a && b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
  let last = null;
  for (let i = 0; i < 150; ++i) {  // up to ~15 s on a loaded machine
    const r = await find(name);
    if (r && same(r, last)) return r;
    last = r;
    if (!r && scrollWithin) {
      const w = await page.evaluate(() => window.__gpusizer.widgets());
      const entry = Object.keys(w).find((k) => k.startsWith(scrollWithin));
      if (entry) {
        await page.mouse.move(w[entry].x + w[entry].w / 2, w[entry].y + w[entry].h / 2);
        await page.mouse.wheel(0, i < 40 ? 120 : -120);
      }
    } else if (!r && scrollAt) {
      await page.mouse.move(scrollAt.x, scrollAt.y);
      await page.mouse.wheel(0, i < 40 ? 120 : -120);
    }
    const at = await iterations(page);
    await page.waitForTimeout(100);
    await iterationsReach(page, at + 3);
  }
  assert.fail(`widget ${name} never appeared (and stayed) on screen`);
}

// Click the centre of a tagged widget (found as findWidget does). Real mouse events.
// On a loaded machine a click now and then does not register (seen about once in 20 full runs:
// a combo stayed shut). Where a second click is harmless the caller says what the click does,
// and if that has not happened within 5 s the widget is found and clicked again (3 clicks at most):
// `opens`: the tag prefix of what opens (a combo's items, a popup's widgets);
// `selects`: true for a radio button (its tag's text is "on" once selected);
// `until`: an async predicate that is true once the click took effect (e.g. a table's new order).
// Not for steppers: a late second click would repeat the first.
export async function clickWidget(page, name, { opens, selects, until, ...options } = {}) {
  const done = until || (opens
    ? () => page.evaluate((p) => Object.keys(window.__gpusizer.widgets()).some((k) => k.startsWith(p)), opens)
    : () => page.evaluate((n) => (window.__gpusizer.widgets()[n] || {}).text === 'on', name));
  for (let attempt = 1; ; ++attempt) {
    const r = await findWidget(page, name, options);
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await framesSeen(page);
    if (!opens && !selects && !until) return r;
    for (let i = 0; i < 50; ++i) {
      if (await done()) return r;
      await page.waitForTimeout(100);
    }
    const what = opens ? `opened ${opens}*` : selects ? 'selected it' : 'had its effect';
    assert.ok(attempt < 3, `clicking ${name} ${attempt} times never ${what}`);
    console.log(`# clickWidget: clicking ${name} never ${what} (attempt ${attempt}); clicking again`);
  }
}

// ImGui 1.86 has no input queue: once a frame it reads the mouse buttons and keys as they are
// then, and a mouse press always counts as down for that frame. So an input is seen only if
// a frame begins while it holds: a click whose press lands in the frame gap right after another
// click's is, to ImGui, the first button held on and dragged (at ~4 ms a frame, frames drawn on
// input and then idle, a radio click and the Apply click after it merged in 4 of 12 tries,
// 2026-12-05). A person never clicks twice within one frame; a test driver does. Each input here
// waits, once delivered, until the page has begun two frames after it (2 s at most; every input
// wakes the page for several frames, web/main.cpp k_settle_frames).
export async function framesSeen(page, frames = 2) {
  const at = await page.evaluate(() => window.__gpusizer.frame());
  await page.waitForFunction(([n]) => window.__gpusizer.frame() >= n, [at + frames], { timeout: 2000, polling: 'raf' })
    .catch(() => {});
}

// A key press as a person makes it: held until the page has drawn two frames with it down, then
// released for two frames (framesSeen). `key` may carry modifiers: 'Shift+Tab'.
export async function pressKey(page, key) {
  const keys = key.split('+');
  for (const k of keys) await page.keyboard.down(k);
  await framesSeen(page);
  for (const k of keys.reverse()) await page.keyboard.up(k);
  await framesSeen(page);
}

// The tagged widgets of a settled frame: the frame that computes new results lays the answer card
// out at its old height and the next draws it at its new size (ui_parts.cpp box_end), so the tags
// are read three main-loop iterations after the call (an idle iteration draws nothing new).
export async function widgets(page) {
  await iterationsReach(page, await iterations(page) + 3);
  return hooks(page, 'widgets');
}

// The page's main-loop iterations so far (one per animation frame, drawn or idle), and a wait
// until they reach `n` (5 s at most).
const iterations = (page) => page.evaluate(() => window.__gpusizer.stats().iterations);
const iterationsReach = (page, n) =>
  page.waitForFunction((k) => window.__gpusizer.stats().iterations >= k, n, { timeout: 5000, polling: 'raf' });

// The tag of the widget with the keyboard focus once it is `name` (or once `name(tag)` is true
// when name is a function); after 5 s, whatever has the focus then (null: nothing).
export async function waitFocus(page, name) {
  const wanted = typeof name === 'function' ? name : (tag) => tag === name;
  const focused = () => page.evaluate(() => {
    const w = window.__gpusizer.widgets();
    return Object.keys(w).find((k) => w[k].focused) || null;
  });
  let now = null;
  for (let i = 0; i < 50; ++i) {
    now = await focused();
    if (wanted(now)) return now;
    await page.waitForTimeout(100);
  }
  return now;
}

// Wait until the scenario has key = value and the results shown are for it: a scenario set from
// outside a frame (hashchange, a link) is estimated in the next frame.
export async function waitScenario(page, key, value) {
  await page.waitForFunction(([k, v]) => {
    const g = window.__gpusizer;
    const r = g.results();
    return g.scenario()[k] === v && (r === null || r.scenario[k] === v);
  }, [key, value], { timeout: 20000 }).catch(async (e) => {
    const now = await page.evaluate((k) => window.__gpusizer.scenario()[k], key).catch(() => '(page gone)');
    throw new Error(`scenario ${key} never became ${JSON.stringify(value)} (it is ${JSON.stringify(now)}): ${e.message}`);
  });
}

export function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}
