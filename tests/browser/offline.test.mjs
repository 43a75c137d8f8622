// Offline use (web/sw.js.in): after one visit the page opens with no network and shows the same
// results; a rebuilt page (another sw.js stamp) replaces the cached build and its cache.
//   node --test tests/browser/offline.test.mjs      (GPUSIZER_WEB_DIST or GPUSIZER_WASM_BUILD)
// "No network" is both Playwright's offline emulation and the static server stopped, so nothing
// can come from the network even where the emulation does not reach the service worker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, servedDist, startServer, webDist } from './support.mjs';

const viewport = { width: 1000, height: 700 };
const timeout = 60000;  // per wait; a loaded 2-core machine with SwiftShader is slow, not stuck
let chromium, tmp;

before(async () => {
  assert.ok(fs.existsSync(path.join(webDist, 'sw.js')), `no sw.js in ${webDist} (build target gpusizer_web_test)`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpusizer-offline-'));
  chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const swVersion = (dir) => fs.readFileSync(path.join(dir, 'sw.js'), 'utf8').match(/const VERSION = '([^']+)'/)[1];

async function newPage() {
  const context = await chromium.browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`); });
  return { context, page, problems };
}

async function waitReady(page) {
  await page.waitForFunction(() => window.__gpusizer && window.__gpusizer.page.firstFrameMs !== null, null, { timeout });
}

// The page is controlled by an active worker whose cache is `gpusizer-<version>`, and no other
// gpusizer cache is left.
async function waitControlled(page, version) {
  const state = () => page.evaluate(async () => {
    const c = navigator.serviceWorker.controller;
    return { controller: c ? `${c.state} ${new URL(c.scriptURL).pathname}` : null,
             caches: (await caches.keys()).filter((k) => k.startsWith('gpusizer-')) };
  });
  const want = { controller: 'activated /sw.js', caches: [`gpusizer-${version}`] };
  const deadline = Date.now() + timeout;
  let s = await state();
  while (JSON.stringify(s) !== JSON.stringify(want) && Date.now() < deadline) {
    await page.waitForTimeout(250);
    s = await state();
  }
  assert.deepEqual(s, want, 'the service worker never took over with its cache alone');
}

async function stopServer(server) {
  await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
}

describe('offline use', () => {
  test('after one visit the page starts offline and shows the same results', async () => {
    const version = swVersion(webDist);
    const { server, url } = await startServer(webDist);
    const { context, page, problems } = await newPage();
    try {
      await page.goto(url + '#v=1&m=qwen3-8b&t=qlora');
      await waitReady(page);
      await waitControlled(page, version);
      const online = await page.evaluate(() => window.__gpusizer.resultsText());
      assert.ok(online && JSON.parse(online), 'no results online');
      const cached = await page.evaluate(async (v) => (await (await caches.open(`gpusizer-${v}`)).keys())
        .map((r) => new URL(r.url).pathname.slice(1)).sort(), version);
      for (const f of ['', 'index.html', 'page.js', 'style.css', 'gpusizer.js', 'gpusizer.wasm', 'catalog.json',
                       'manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png']) {
        assert.ok(cached.includes(f), `${f || './'} is not precached (${cached.join(', ')})`);
      }

      await stopServer(server);
      await context.setOffline(true);
      await page.reload();
      await waitReady(page);
      assert.equal(await page.evaluate(() => window.__gpusizer.resultsText()), online);
      assert.equal(await page.evaluate(() => window.__gpusizer.page.errors.length), 0);
      assert.equal(await page.evaluate(() => location.hash), '#v=1&m=qwen3-8b&t=qlora');
      const manifest = await page.evaluate(async () => (await fetch('manifest.webmanifest')).json());
      assert.equal(manifest.name, 'gpusizer');
      assert.deepEqual(problems.filter((p) => !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p)), []);
    } finally {
      await context.close();
      server.close();
    }
  });

  test('the served build (no test hooks) starts offline too, with the same answer', async () => {
    const version = swVersion(servedDist);
    const { server, url } = await startServer(servedDist);
    const { context, page, problems } = await newPage();
    try {
      await page.goto(url + '#v=1&m=qwen3-8b&t=qlora');
      await waitReady(page);
      await waitControlled(page, version);
      await page.waitForFunction(() => document.getElementById('summary').textContent !== '', null, { timeout });
      const online = await page.textContent('#summary');
      await stopServer(server);
      await context.setOffline(true);
      await page.reload();
      await waitReady(page);
      await page.waitForFunction(() => document.getElementById('summary').textContent !== '', null, { timeout });
      assert.equal(await page.textContent('#summary'), online);
      assert.equal(await page.evaluate(() => window.gpusizerPage.errors.length), 0);
      assert.deepEqual(problems.filter((p) => !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p)), []);
    } finally {
      await context.close();
      server.close();
    }
  });

  test('a rebuilt page replaces the cached build and deletes the old cache', async () => {
    // Two builds in two folders; the server's root is a symbolic link switched from one to the other.
    const a = path.join(tmp, 'a'), b = path.join(tmp, 'b'), site = path.join(tmp, 'site');
    fs.cpSync(webDist, a, { recursive: true });
    fs.cpSync(webDist, b, { recursive: true });
    const va = swVersion(a), vb = `${va.slice(0, 12)}beef`;
    assert.notEqual(va, vb);
    fs.appendFileSync(path.join(b, 'gpusizer.js'), '\n// rebuilt\n');
    const sw = path.join(b, 'sw.js');
    fs.writeFileSync(sw, fs.readFileSync(sw, 'utf8').replace(`const VERSION = '${va}'`, `const VERSION = '${vb}'`));
    fs.symlinkSync(a, site);
    const { server, url } = await startServer(site);
    const { context, page, problems } = await newPage();
    try {
      await page.goto(url);
      await waitReady(page);
      await waitControlled(page, va);
      const online = await page.evaluate(() => window.__gpusizer.resultsText());

      fs.symlinkSync(b, site + '.new');
      fs.renameSync(site + '.new', site);  // atomic switch to the new build
      await page.reload();                  // still build A (from its cache); finds the new sw.js
      await waitReady(page);
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
      await waitControlled(page, vb);       // B took over once A's page had its module running
      await page.reload();                  // now build B, from B's cache
      await waitReady(page);
      const js = await page.evaluate(async () => (await fetch('gpusizer.js')).text());
      assert.ok(js.endsWith('// rebuilt\n'), 'gpusizer.js is not the rebuilt one');
      assert.equal(await page.evaluate(() => window.__gpusizer.resultsText()), online);
      const keys = await page.evaluate(async () => caches.keys());
      assert.deepEqual(keys.filter((k) => k.startsWith('gpusizer-')), [`gpusizer-${vb}`]);

      await stopServer(server);             // and B works offline too
      await context.setOffline(true);
      await page.reload();
      await waitReady(page);
      assert.equal(await page.evaluate(() => window.__gpusizer.resultsText()), online);
      assert.deepEqual(problems.filter((p) => !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p)), []);
    } finally {
      await context.close();
      server.close();
    }
  });
});
