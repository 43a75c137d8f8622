// Hostile share links: script, javascript: and HTML in every kind of link value. Nothing may
// execute, nothing from the link may become DOM, and the page still opens what it understands.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cliEstimate, launchChromium, startServer, webDist } from './support.mjs';

let server, url, chromium;

before(async () => {
  assert.ok(fs.existsSync(path.join(webDist, 'gpusizer.wasm')), `no page built in ${webDist}`);
  ({ server, url } = await startServer(webDist));
  chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
  server?.close();
});

const hostile = [
  '#v=1&m=qwen3-8b&g=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E',
  '#v=1&m=qwen3-8b&pr=javascript:window.__pwned=1',
  '#v=1&m=qwen3-8b&cfg.mt=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E&b=2',
  '#v=1&m=qwen3-8b&%3Csvg%20onload%3Dwindow.__pwned%3D1%3E=1&zz=%22%3E%3Cscript%3Ewindow.__pwned%3D1%3C/script%3E',
  '#v=1&m=qwen3-8b&t=%00%FF%FE&s=4096&w=%E2%80%AE%3Cscript%3E',
  '#javascript:window.__pwned=1',
];

for (const hash of hostile) {
  test(`hostile link does nothing and the page still works: ${hash.slice(0, 60)}`, async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1000, height: 700 } });
    const dialogs = [];
    const errors = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + hash);
    await page.waitForFunction(() => window.__gpusizer && window.__gpusizer.page.firstFrameMs !== null, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const dom = await page.evaluate(() => ({
      pwned: window.__pwned === 1,
      scripts: [...document.scripts].map((s) => s.src.replace(location.origin, '')),
      injected: document.querySelectorAll('img, svg, iframe, object, embed, [onerror], [onload]').length,
      summary: document.querySelector('[aria-live]')?.textContent || '',
    }));
    assert.equal(dom.pwned, false, 'script from the link ran');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.equal(dom.injected, 0, 'an element from the link appeared in the DOM');
    assert.ok(dom.scripts.every((s) => s === '/page.js' || s === '/gpusizer.js'), `unexpected scripts: ${dom.scripts}`);
    // The page opened what it understood, like the CLI does for the same link (the page keeps
    // link warnings apart from the results; what is not a link at all opens the defaults).
    const results = await page.evaluate(() => window.__gpusizer.results());
    const cli = hash.startsWith('#v=') ? cliEstimate(['--link', hash]).json : cliEstimate([]).json;
    for (const key of ['warnings', 'warnings_zh']) {
      delete results[key];
      delete cli[key];
    }
    assert.ok(JSON.stringify(results) === JSON.stringify(cli), 'page results differ from the CLI for this link');
    await page.close();
  });
}

test('the page forbids eval: its CSP has wasm-unsafe-eval but no unsafe-eval or unsafe-inline scripts', () => {
  const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const csp = /Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] || '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /'unsafe-eval'|'unsafe-inline'/);
  for (const f of ['gpusizer.js', 'page.js']) {
    const js = fs.readFileSync(path.join(webDist, f), 'utf8');
    assert.doesNotMatch(js, /\beval\(|new Function\(/, `${f} contains eval or new Function`);
  }
});
