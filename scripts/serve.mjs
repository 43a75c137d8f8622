// Minimal static file server for the built page (127.0.0.1 only), with the MIME types the
// page needs (application/wasm for streaming compilation). Used by scripts/run and tests.
//   node scripts/serve.mjs DIR [--port N]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf', '.png': 'image/png', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json',
  '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

export function serve(root, port = 0) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root + path.sep)) { res.writeHead(403).end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream',
                           'Cache-Control': 'no-cache' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const dir = args[0];
  const pi = args.indexOf('--port');
  const port = pi >= 0 ? Number(args[pi + 1]) : 8080;
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`serve: ${dir || '(no folder)'} has no index.html — build the page first (scripts/run does)`);
    process.exit(2);
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) { console.error('serve: --port needs 1..65535'); process.exit(2); }
  const server = await serve(dir, port);
  server.on('error', (e) => { console.error(`serve: ${e.message}`); process.exit(1); });
  console.log(`gpusizer is served at http://127.0.0.1:${server.address().port}/  (Ctrl+C stops)`);
}
