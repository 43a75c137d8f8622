// Shared helpers for the browser and desktop tests: paths, the static server, Chromium via
// playwright-core (Debian's /usr/bin/chromium, never a downloaded browser), the native CLI and
// an ImageMagick-based "is this screenshot blank?" check.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const artifacts = path.join(root, 'test-artifacts');

function firstExisting(candidates) {
  return candidates.find((p) => p && fs.existsSync(p)) || candidates.filter(Boolean)[0];
}

// The built page: GPUSIZER_WEB_DIST, else $GPUSIZER_WASM_BUILD/web/dist, else build/wasm-release/web/dist.
export const webDist = process.env.GPUSIZER_WEB_DIST ||
  path.join(process.env.GPUSIZER_WASM_BUILD || path.join(root, 'build/wasm-release'), 'web/dist');

// The native CLI: GPUSIZER_CLI, else $GPUSIZER_NATIVE_BUILD/native/gpusizer, else the first built preset.
export const cli = process.env.GPUSIZER_CLI || firstExisting([
  process.env.GPUSIZER_NATIVE_BUILD && path.join(process.env.GPUSIZER_NATIVE_BUILD, 'native/gpusizer'),
  path.join(root, 'build/native-release/native/gpusizer'),
  path.join(root, 'build/native-debug/native/gpusizer'),
]);

// The desktop app: GPUSIZER_DESKTOP, else beside the CLI.
export const desktop = process.env.GPUSIZER_DESKTOP || path.join(path.dirname(cli), 'gpusizer_desktop');

// `gpusizer estimate ARGS --json`: the exact text and the parsed object.
export function cliEstimate(args) {
  const r = spawnSync(cli, ['estimate', ...args, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cli} estimate ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout.trim(), json: JSON.parse(r.stdout) };
}

// `gpusizer recommend ARGS --json`: the exact text and the parsed object (exit 1, nothing fits, is allowed).
export function cliRecommend(args) {
  const r = spawnSync(cli, ['recommend', ...args, '--json'], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cli} recommend ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout.trim(), json: r.stdout.trim() ? JSON.parse(r.stdout) : null, status: r.status };
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

export const chromiumArgs = [
  '--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-gpu-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

// Playwright's launch() gives every browser a fresh temporary profile (--user-data-dir in a new
// temp folder, removed on close).
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.GPUSIZER_CHROMIUM || '/usr/bin/chromium',
    headless: false,  // --headless=new is passed explicitly (toolchain.md, fact 10)
    args: chromiumArgs,
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

export function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}
