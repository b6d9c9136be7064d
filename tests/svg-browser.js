// SPDX-License-Identifier: GPL-3.0-or-later
//
// An exported SVG in a real browser: headless Chromium, driven over the
// DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3,
// answers on fd 4, each a JSON message ended by a NUL byte). No packages.
//
//   node svg-browser.js EMBERS SRCDIR
//
// Exports SVGs with `embers --export`, opens each file as a page, clicks
// frames and the controls with real mouse events, answers the search
// prompt, and reads the DOM. The share a search reports is checked against
// `embers --top --format=tsv` (the function's total over the profile's).
// TAP output.
'use strict';

const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [embers, srcdir] = process.argv.slice(2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embers-svg-'));
let n = 0;
let failed = false;

function ok(cond, what) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} ${what}`);
  if (!cond) failed = true;
}

function findChromium() {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH || '').split(':')) {
      const p = path.join(dir, name);
      if (fs.existsSync(p)) return p;
    }
  }
  return null;
}

function exportSvg(out, args) {
  execFileSync(embers, ['--export', out, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

class Browser {
  constructor(binary) {
    this.proc = spawn(binary, [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--no-default-browser-check', '--disable-extensions', '--mute-audio',
      `--user-data-dir=${path.join(tmp, 'profile')}`,
      '--remote-debugging-pipe', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.proc.stderr.on('data', () => {});
    this.out = this.proc.stdio[3];
    this.id = 0;
    this.pending = new Map();
    this.listeners = [];
    let buffer = Buffer.alloc(0);
    this.proc.stdio[4].on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const message = JSON.parse(buffer.subarray(0, end).toString('utf8'));
        buffer = buffer.subarray(end + 1);
        this.dispatch(message);
      }
    });
  }

  dispatch(message) {
    if (message.id !== undefined && this.pending.has(message.id)) {
      const { resolve, reject } = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
      return;
    }
    for (const listener of this.listeners.slice()) listener(message);
  }

  send(method, params = {}, sessionId = undefined) {
    const id = ++this.id;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    this.out.write(JSON.stringify(message) + '\0');
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  // Resolves with the first event @method (of @sessionId) that @test accepts
  waitFor(method, sessionId, test = () => true) {
    return new Promise((resolve) => {
      const listener = (message) => {
        if (message.method === method && message.sessionId === sessionId && test(message.params)) {
          this.listeners.splice(this.listeners.indexOf(listener), 1);
          resolve(message.params);
        }
      };
      this.listeners.push(listener);
    });
  }

  async open(file, { scripts = true } = {}) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width: 1300, height: 900, deviceScaleFactor: 1, mobile: false });
    if (!scripts) await page.send('Emulation.setScriptExecutionDisabled', { value: true });
    const loaded = this.waitFor('Page.loadEventFired', sessionId);
    await page.send('Page.navigate', { url: 'file://' + file });
    await loaded;
    return page;
  }

  // Closes the browser and resolves once its process has ended
  close() {
    const ended = new Promise((resolve) => {
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) resolve();
      else this.proc.once('exit', resolve);
    });
    this.send('Browser.close').catch(() => this.proc.kill());
    return ended;
  }
}

class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
  }

  send(method, params) {
    return this.browser.send(method, params, this.sessionId);
  }

  async eval(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, returnByValue: true });
    if (exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(exceptionDetails)}`);
    return result.value;
  }

  // A real click (pressed and released) in the middle of the element
  async click(selector) {
    const box = await this.eval(`(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
                                          return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
      await this.send('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }
}

// The frame whose label is @name
function frame(name) {
  return `Array.from(document.querySelectorAll('g.f')).find(f => { const t = f.querySelector('text');
            return t && t.firstChild && t.firstChild.nodeValue === ${JSON.stringify(name)}; })`;
}

function topTotals(file) {
  const rows = execFileSync(embers, ['--top', '--format=tsv', file]).toString().trim().split('\n');
  const totals = new Map();
  for (const row of rows) {
    const [self, total, name] = row.split('\t');
    totals.set(name, Number(total));
  }
  return totals;
}

async function main() {
  const chromium = findChromium();
  if (!chromium) {
    console.log('1..0 # SKIP no chromium');
    return;
  }
  const browser = new Browser(chromium);
  const profile = path.join(srcdir, 'tests', 'fixtures', 'go', 'cpu-labels.pb.gz');
  const svg = exportSvg(path.join(tmp, 'cpu.svg'), [profile]);

  try {
    // Interactive
    const page = await browser.open(svg);
    ok(await page.eval(`document.documentElement.localName === 'svg' && !document.querySelector('parsererror')`),
       'the browser reads the SVG');
    ok(await page.eval(`document.documentElement.classList.contains('scripted')`), 'its script runs');
    const frames = await page.eval(`document.querySelectorAll('g.f').length`);
    ok(frames > 10, `${frames} frames, one <g> each`);
    ok(await page.eval(`Array.from(document.querySelectorAll('g.f')).every(f => f.querySelector('title') && f.querySelector('rect'))`),
       'every frame has a <title> and a <rect>');
    ok(await page.eval(`${frame('main.compress')}.querySelector('title').textContent.includes('% of total')`),
       'a title tells the value and the share');
    ok(await page.eval(`getComputedStyle(document.querySelector('#embers-reset')).display === 'none'`),
       'no Reset zoom before a zoom');

    // Click a frame: it fills the width, its ancestors stay, the rest goes
    const target = 'main.writeCPULabels.func5';
    await page.eval(`${frame(target)}.id = 'target'`);
    await page.click('#target > svg > rect');
    const zoomed = await page.eval(`(() => {
      const t = document.getElementById('target'), box = t.querySelector('svg');
      const n = +t.dataset.n, e = +t.dataset.e;
      const all = Array.from(document.querySelectorAll('g.f'));
      const root = all.find(f => f.dataset.n === '0');
      return { x: +box.getAttribute('x'), width: +box.getAttribute('width'),
               rootShown: !root.classList.contains('hid'), rootWidth: +root.querySelector('svg').getAttribute('width'),
               outsideHidden: all.filter(f => +f.dataset.n >= e || (+f.dataset.n < n && +f.dataset.e <= n)).every(f => f.classList.contains('hid')),
               insideShown: all.filter(f => +f.dataset.n >= n && +f.dataset.n < e).every(f => !f.classList.contains('hid')),
               reset: getComputedStyle(document.querySelector('#embers-reset')).display };
    })()`);
    ok(zoomed.x === 0 && zoomed.width > 1190, `the clicked frame fills the width (x ${zoomed.x}, width ${zoomed.width})`);
    ok(zoomed.rootShown && zoomed.rootWidth > 1190, 'the root stays as an ancestor');
    ok(zoomed.outsideHidden, 'frames outside the clicked one are hidden');
    ok(zoomed.insideShown, 'its callees are shown');
    ok(zoomed.reset !== 'none', 'Reset zoom is offered');
    const screen = await page.send('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(path.join(tmp, 'zoomed.png'), Buffer.from(screen.data, 'base64'));

    // Search through the prompt, as a person would
    const totals = topTotals(profile);
    const all = [...totals.values()].reduce((a, b) => Math.max(a, b), 0);
    const expect = 100 * totals.get('main.compress') / all;
    const dialog = browser.waitFor('Page.javascriptDialogOpening', page.sessionId);
    const clicked = page.click('#embers-search');
    const { type, message } = await dialog;
    ok(type === 'prompt' && message === 'Search for a regular expression', `Search asks (${type}: ${message})`);
    await page.send('Page.handleJavaScriptDialog', { accept: true, promptText: 'compress' });
    await clicked;
    const status = await page.eval(`document.querySelector('#embers-status').textContent`);
    const shown = parseFloat(status.replace(/^[^0-9]*/, ''));
    ok(status.startsWith('Matched: ') && Math.abs(shown - expect) < 0.01,
       `the match share "${status}" is main.compress's ${expect.toFixed(2)}% (embers --top)`);
    ok(await page.eval(`${frame('main.compress')}.classList.contains('match') &&
                        !${frame('main.burn')}.classList.contains('match')`),
       'matching frames are highlighted, others not');

    // Reset zoom, and Escape clears the search
    await page.click('#embers-reset');
    ok(await page.eval(`Array.from(document.querySelectorAll('g.f')).every(f => !f.classList.contains('hid') &&
                          Math.abs(+f.querySelector('svg').getAttribute('x') - +f.dataset.x) < 0.01)`),
       'Reset zoom puts every frame back');
    await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
    ok(await page.eval(`document.querySelectorAll('g.match').length === 0 && document.querySelector('#embers-status').textContent === ''`),
       'Escape clears the search');

    // Without scripts: the same picture, no controls
    const still = await browser.open(svg, { scripts: false });
    ok(await still.eval(`!document.documentElement.classList.contains('scripted')`), 'without scripts nothing runs');
    ok(await still.eval(`document.querySelectorAll('g.f').length`) === frames, 'the same frames');
    ok(await still.eval(`getComputedStyle(document.querySelector('#embers-search')).display === 'none'`),
       'no dead controls');
    ok(await still.eval(`getComputedStyle(${frame('main.compress')}.querySelector('text')).display !== 'none'`),
       'labels are shown');

    // Hostile names: text, never markup
    const hostile = path.join(tmp, 'hostile.folded');
    fs.writeFileSync(hostile, 'main;</text><script>document.title="owned"</script> 10\n' +
                              'main;a&b<!--x--> 20\nmain;"quoted\' ]]> 30\n');
    for (const [name, args] of [['hostile.svg', [hostile]],
                                ['hostile-names.svg', [path.join(srcdir, 'tests', 'fuzz', 'corpus', 'load', 'hostile-names.pb.gz')]]]) {
      const file = exportSvg(path.join(tmp, name), args);
      const p = await browser.open(file);
      ok(await p.eval(`!document.querySelector('parsererror') && document.querySelectorAll('script').length === 1 &&
                       document.title !== 'owned'`), `${name}: well-formed, one script, nothing injected`);
      if (name === 'hostile.svg')
        ok(await p.eval(`!!${frame('</text><script>document.title="owned"</script>')} && !!${frame('a&b<!--x-->')} &&
                         !!${frame('"quoted\' ]]>')}`), `${name}: names read back as they were`);
      else
        ok(await p.eval(`!!${frame('\\x1b[2J\\x1b[Hclear')} && !!${frame('two\\nrows\\r')}`),
           `${name}: control characters shown escaped`);
    }

    // A diff carries its legend
    const diff = exportSvg(path.join(tmp, 'diff.svg'), ['--diff',
      path.join(srcdir, 'tests', 'fixtures', 'go', 'cpu-before.pb.gz'),
      path.join(srcdir, 'tests', 'fixtures', 'go', 'cpu-after.pb.gz')]);
    const d = await browser.open(diff);
    const legend = await d.eval(`(() => { const g = document.querySelector('g.legend');
      return g ? { text: g.textContent, gradient: !!g.querySelector('rect[fill^="url(#embers-diff-scale"]'),
                   stops: document.querySelectorAll('linearGradient stop').length } : null; })()`);
    ok(legend && legend.text.includes('shrank') && legend.text.includes('grew') &&
       legend.text.includes('red/blue') && legend.gradient && legend.stops === 3,
       `a diff carries its legend (${legend && legend.text})`);
    ok(await d.eval(`document.querySelector('desc').textContent.includes('Bar widths')`), 'and says it in its <desc>');
  } finally {
    await browser.close();
    if (!process.env.EMBERS_SVG_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log('# kept ' + tmp);
  }
  console.log(`1..${n}`);
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.log(`not ok ${n + 1} ${err.stack.split('\n').join(' | ')}`);
  console.log(`1..${n + 1}`);
  process.exit(1);
});
