// The desktop app under Xvfb: it opens a GLFW + OpenGL window with the embedded catalog, real
// ImGui hit-testing of scripted clicks (the same widget tags as the page) picks int8, the
// results equal the CLI's, and the framebuffer read back is not blank.
//   node --test tests/browser/      (GPUSIZER_DESKTOP, GPUSIZER_CLI override the paths)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifact, cliEstimate, cliFormat, desktop, imageStats } from './support.mjs';

// One Xvfb server for every test of this file, on the first free display from :90. (xvfb-run
// starts one per run and, racing with others, sometimes fails while cleaning up after itself,
// exiting 5 whatever the app did.)
let xvfb, display;
before(async () => {
  for (let n = 90; n < 140 && !display; ++n) {
    if (fs.existsSync(`/tmp/.X${n}-lock`)) continue;
    const server = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    for (let i = 0; i < 50 && server.exitCode === null; ++i) {  // up to 5 s for its socket
      if (fs.existsSync(`/tmp/.X11-unix/X${n}`)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (server.exitCode === null && fs.existsSync(`/tmp/.X11-unix/X${n}`)) {
      xvfb = server;
      display = `:${n}`;
    } else {
      server.kill();
    }
  }
  assert.ok(display, 'could not start Xvfb on any display from :90 to :139');
});
after(() => xvfb?.kill());

function runDesktop(args) {
  // LeakSanitizer reports Mesa/X11 allocations in ASan builds; leaks are the core tests' job.
  const env = { ...process.env, DISPLAY: display, ASAN_OPTIONS: `${process.env.ASAN_OPTIONS || ''}:detect_leaks=0` };
  return spawnSync(desktop, args, { encoding: 'utf8', env, timeout: 60000 });
}

test('desktop: clicks pick int8, results equal the CLI, the screenshot is not blank', () => {
  assert.ok(fs.existsSync(desktop), `no desktop app at ${desktop} (build target gpusizer_desktop, or set GPUSIZER_DESKTOP)`);
  const shot = artifact('desktop-int8.png');
  fs.rmSync(shot, { force: true });
  const r = runDesktop(['--click', 'dtype_combo', '--click', 'dtype_item:int8', '--frames', '3',
                        '--screenshot', shot, '--print-results']);
  assert.equal(r.status, 0, `gpusizer_desktop exited ${r.status}: ${r.stderr}`);
  const [scenario, results] = r.stdout.trim().split('\n');
  assert.equal(JSON.parse(scenario).weight_dtype, 'int8', 'the scripted clicks did not select int8');
  assert.equal(results, cliEstimate(['--weight_dtype', 'int8']).text);
  const img = imageStats(shot);
  console.log(`# desktop screenshot ${path.relative(process.cwd(), shot)}: ${img.colours} colours, ` +
              `${(img.foreground * 100).toFixed(1)}% non-background`);
  assert.ok(img.colours >= 8, `screenshot looks blank (${img.colours} colours)`);
  assert.ok(img.foreground > 0.01, `screenshot is nearly all background (${img.foreground})`);
});

test('desktop: an unknown widget tag is an error, not a silent pass', () => {
  const r = runDesktop(['--click', 'no_such_widget', '--frames', '1']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /no widget tagged 'no_such_widget'/);
});

test('desktop: a bad scenario flag names the key', () => {
  const r = runDesktop(['--weight_dtype', 'int7', '--frames', '1']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /weight_dtype/);
});

test('desktop: a share link given on the command line opens the same scenario as the CLI', () => {
  const link = 'http://127.0.0.1:8080/#v=1&m=qwen3-8b&t=qlora&s=4096&b=2';
  const r = runDesktop(['--link', link, '--frames', '2', '--print-results']);
  assert.equal(r.status, 0, `gpusizer_desktop exited ${r.status}: ${r.stderr}`);
  const [scenario, results] = r.stdout.trim().split('\n');
  assert.equal(JSON.parse(scenario).task, 'qlora');
  assert.equal(results, cliEstimate(['--link', link]).text);
  const bad = runDesktop(['--link', '#v=1&m=qwen3-8b&b=-4', '--frames', '1', '--print-results']);
  assert.equal(bad.status, 0, bad.stderr);
  assert.match(bad.stderr, /warning: link: batch_size/);
  assert.equal(JSON.parse(bad.stdout.trim().split('\n')[0]).model, 'qwen3-8b');
});

test('desktop: the Export menu writes core\'s CSV and Markdown into --export-dir; Chinese is drawn', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpusizer-export-'));
  const shot = artifact('desktop-zh.png');
  const r = runDesktop(['--model', 'qwen3-8b', '--export-dir', dir, '--click', 'export_open', '--click', 'export_item:csv_offers',
                        '--click', 'export_open', '--click', 'export_item:markdown', '--click', 'language_toggle',
                        '--frames', '3', '--screenshot', shot]);
  assert.equal(r.status, 0, `gpusizer_desktop exited ${r.status}: ${r.stderr}`);
  assert.equal(fs.readFileSync(path.join(dir, 'gpusizer-offers.csv'), 'utf8'), cliFormat('recommend', ['--model', 'qwen3-8b'], 'csv'));
  assert.equal(fs.readFileSync(path.join(dir, 'gpusizer.md'), 'utf8'), cliFormat('recommend', ['--model', 'qwen3-8b'], 'markdown'));
  const img = imageStats(shot);
  assert.ok(img.colours >= 8 && img.foreground > 0.01, `screenshot looks blank (${img.colours} colours)`);
  const missing = runDesktop(['--export-dir', path.join(dir, 'no', 'such'), '--click', 'export_open', '--click', 'export_item:json',
                              '--frames', '2']);
  assert.equal(missing.status, 0, missing.stderr);
  assert.match(missing.stderr, /cannot write .*gpusizer\.json/);
  fs.rmSync(dir, { recursive: true, force: true });
});
