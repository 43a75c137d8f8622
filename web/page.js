// Page glue, loaded before gpusizer.js: WebGL2 check, DOM messages, the Module object and,
// in test builds, window.__gpusizer. No inline scripts, no eval (the page has a strict CSP).
'use strict';

var gpusizerPage = (function () {
  var statusEl = document.getElementById('status');
  var errorEl = document.getElementById('error');
  var summaryEl = document.getElementById('summary');
  // Start-up marks in ms since navigation (performance.now()): 'page script', 'wasm compiled',
  // 'main', 'catalog parsed' (as it arrives: before or after the fonts), 'fonts loaded', 'fonts
  // built' (the atlas), 'ui built' (the first ImGui frame: results computed, widgets laid out),
  // 'first frame' (drawn). details: the ms of the step alone for 'fonts built', 'catalog parsed'
  // (the parse) and 'ui built'.
  var marks = {}, details = {};
  // catalog.json and the fonts are fetched now, while gpusizer.js and gpusizer.wasm download and
  // compile, not one after the other once main() runs (web/main.cpp js_start_downloads takes them).
  var downloads = {};
  function fetchBytes(name) {
    return fetch(name).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.arrayBuffer();
    });
  }
  var page = {
    firstFrameMs: null,  // ms since navigation to the first frame drawn with the catalog
    marks: marks,
    details: details,
    errors: [],
    mark: function (name, detail) {
      if (!(name in marks)) marks[name] = performance.now();
      if (detail) details[name] = detail;
      if (performance.mark) performance.mark('gpusizer: ' + name);
    },
    download: function (name) {
      if (!downloads[name]) downloads[name] = fetchBytes(name);
      return downloads[name];
    },
    prefetch: function (names) {
      names.forEach(function (name) {
        page.download(name).catch(function () { /* reported when the module takes it */ });
      });
    },
    showError: function (msg) {
      page.errors.push(msg);
      errorEl.textContent = msg;
      errorEl.hidden = false;
      statusEl.textContent = '';
    },
    setSummary: function (text) { summaryEl.textContent = text; },
    ready: function () {
      page.mark('first frame');
      page.firstFrameMs = marks['first frame'];
      statusEl.textContent = 'gpusizer is ready.';
      statusEl.className = 'done';
    },
  };
  page.mark('page script');
  return page;
})();

(function () {
  var canvas = document.getElementById('canvas');
  // WebGL2 or nothing: say so in the DOM instead of failing inside the module.
  var probe = document.createElement('canvas');
  if (!window.WebAssembly || !probe.getContext('webgl2')) {
    gpusizerPage.showError('gpusizer needs WebGL 2 and WebAssembly, which this browser does not provide ' +
                           '(or they are disabled). Try a current Chrome, Edge, Firefox or Safari.');
    return;
  }
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    gpusizerPage.showError('The graphics context was lost. Reload the page to continue.');
  });
  canvas.addEventListener('mousedown', function () { canvas.focus(); });

  gpusizerPage.prefetch(['catalog.json', 'fonts/ui.ttf', 'fonts/cjk.ttf', 'fonts/ui-bold.ttf']);
  // The module compiles while it downloads (compileStreaming) and while gpusizer.js loads; the
  // glue then only instantiates it (Module.instantiateWasm, emscripten's hook for this).
  var compiled = (WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch('gpusizer.wasm')).catch(function () {
        return fetch('gpusizer.wasm').then(function (r) { return r.arrayBuffer(); }).then(WebAssembly.compile);
      })
    : fetch('gpusizer.wasm').then(function (r) { return r.arrayBuffer(); }).then(WebAssembly.compile))
    .then(function (m) { gpusizerPage.mark('wasm compiled'); return m; });
  compiled.catch(function () { /* reported by instantiateWasm */ });

  window.Module = {
    canvas: canvas,
    instantiateWasm: function (imports, receive) {
      compiled.then(function (m) {
        return WebAssembly.instantiate(m, imports).then(function (instance) { receive(instance, m); });
      }).catch(function (e) {
        gpusizerPage.showError('gpusizer.wasm could not be loaded (' + e + '). Reload the page.');
      });
      return {};  // the exports come later, through receive
    },
    onRuntimeInitialized: function () { gpusizerPage.mark('main'); },
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    onAbort: function (what) { gpusizerPage.showError('gpusizer stopped with an internal error: ' + what); },
  };

  // Test hooks (present when the module was built with GPUSIZER_TEST_HOOKS).
  function call(name) {
    if (!Module.ccall || !Module['_gpusizer_test_' + name]) return null;
    return Module.ccall('gpusizer_test_' + name, 'string', [], []);
  }
  function json(name) { var s = call(name); return s ? JSON.parse(s) : null; }
  window.__gpusizer = {
    scenario: function () { return json('scenario'); },
    scenarioText: function () { return call('scenario'); },
    results: function () { return json('results'); },
    resultsText: function () { return call('results'); },
    recommendation: function () { return json('recommendation'); },
    recommendationText: function () { return call('recommendation'); },
    // Named widget rectangles in CSS pixels of the page (viewport coordinates).
    widgets: function () {
      var w = json('widgets');
      if (!w) return null;
      var r = canvas.getBoundingClientRect();
      for (var k in w) { w[k].x += r.left; w[k].y += r.top; }
      return w;
    },
    stats: function () { return json('stats'); },
    // Characters of `text` the UI font has no glyph for (drawn as '?').
    missingGlyphs: function (text) {
      return Module['_gpusizer_test_missing_glyphs'] ? Module.ccall('gpusizer_test_missing_glyphs', 'number', ['string'], [text]) : null;
    },
    frame: function () { var s = json('stats'); return s ? s.frames : 0; },
    page: gpusizerPage,
  };

  var script = document.createElement('script');
  script.src = 'gpusizer.js';
  script.onerror = function () { gpusizerPage.showError('gpusizer.js could not be downloaded. Reload the page.'); };
  document.body.appendChild(script);
})();

// Offline use: the service worker of web/sw.js.in (https or localhost only), registered once the
// first frame is drawn (or the page has failed): its install downloads every file again into its
// cache, which must not compete with the first visit's start-up. A page it already controls is
// controlled from navigation on, whenever this runs. A new build's worker waits until this page
// has its module running, then takes over.
(function () {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  var started = false, reg = null;
  function promote() { if (started && reg && reg.waiting) reg.waiting.postMessage('skip-waiting'); }
  function register() {
    navigator.serviceWorker.register('sw.js').then(function (r) {
      reg = r;
      promote();
      r.addEventListener('updatefound', function () {
        if (r.installing) r.installing.addEventListener('statechange', promote);
      });
    }).catch(function (e) { console.log('gpusizer: no offline use (' + e.message + ')'); });
  }
  ['ready', 'showError'].forEach(function (name) {
    var f = gpusizerPage[name];
    gpusizerPage[name] = function (x) {
      f(x);
      if (!started) setTimeout(register, 0);  // after this frame's work
      started = true;
      promote();
    };
  });
})();
