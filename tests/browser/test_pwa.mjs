// test_pwa.mjs: the web board installable and offline (issue 44, item 6)
// in headless Chromium against the real daemon on loopback, over a
// certificate Chromium trusts: the test makes a CA of its own with openssl
// (daemon.mjs), issues the daemon's certificate for 127.0.0.1 from it and
// starts Chromium WITHOUT --ignore-certificate-errors, with
// --ignore-certificate-errors-spki-list naming the certificate's key, so
// the page is a secure context and its service worker may run. Covered:
//   - trust: the page loads over that certificate as a secure context; a
//     Chromium without the flag refuses it (the flag is what trusts it);
//   - the worker: registered by app.js, activated, and controlling the
//     page after a reload, whose scripts then come from it;
//   - the manifest: Chromium parses it with no errors (CDP
//     Page.getAppManifest) to name, start_url /, display standalone,
//     colours and icons; each icon loads at its stated size; Chromium
//     finds the board installable (Page.getInstallabilityErrors is empty);
//   - the update path, as far as one binary allows (a test cannot serve a
//     second build): the cache is named after the build's hash (the
//     /s/<hash>/ of index.html's script), and a cache of another name,
//     made before the worker came as an old build's would be, is deleted
//     on activate; the page (/) is network first: a kept copy replaced by
//     a stale page is not what an online reload shows, and that reload's
//     answer is kept again; the hashed files are cache first: a kept file
//     replaced in the cache is what the page gets;
//   - offline (the daemon killed, its port refusing): a reload shows the
//     kept page with its note that the board needs the server, in English
//     and, after the language switch, in Chinese, each the served
//     catalog's text; with the daemon started again on the same port the
//     page connects and the note goes.
// Not covered here: a real second build replacing the first (the worker
// of a new build installing over an old one); it rests on the two halves
// above, and the C test (tests/daemon/test_gzip) checks that /sw.js is
// served with no-cache and names its build and files.
// Run by tests/browser/test_pwa.sh (BINDIR, CHROMIUM).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { killDaemon, makeCertificates, startDaemon } from './daemon.mjs';

const BINDIR = process.env.BINDIR || 'bin';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const T = 15000; // the longest any one wait may take
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

function ok(what) {
  console.log(`ok ${what}`);
}

const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'gomokud-pwa.'));
const certs = makeCertificates(dir);
const conf = join(dir, 'gomokud.conf');
writeFileSync(conf, `cert ${certs.cert}\nkey ${certs.key}\n`);
const stateDir = join(dir, 'state');
let daemon = await startDaemon({ bindir: BINDIR, conf, stateDir });
const port = daemon.port;
const base = `https://127.0.0.1:${port}`;
let browser = null;

async function run() {
  // ---- trust: the flag, and only the flag -------------------------------------
  const plain = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const p = await plain.newPage();
    await assert.rejects(p.goto(`${base}/`), /ERR_CERT_AUTHORITY_INVALID/);
  } finally {
    await plain.close();
  }
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, `--ignore-certificate-errors-spki-list=${certs.certSpki}`],
  });
  // the default context: Chromium installs nothing from an incognito one
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  // ---- an old build's cache, there before the worker ---------------------------
  // /sw.js as a document: same origin, a secure context, and no app.js to
  // register the worker yet
  await page.goto(`${base}/sw.js`);
  assert.equal(await page.evaluate(() => window.isSecureContext), true, 'not a secure context');
  await page.evaluate(async () => {
    const old = await caches.open('gomokud-0123456789abcdef');
    await old.put('/old', new Response('an old build'));
  });
  ok('Chromium trusts the daemon by --ignore-certificate-errors-spki-list alone (refused without it); a secure context');

  // ---- the worker ---------------------------------------------------------------
  await page.goto(`${base}/`);
  await page.waitForFunction(() => window.gomokud && window.gomokud.model.me, { timeout: T });
  const hash = await page.$eval('script[src^="/s/"]', (s) => /^\/s\/([0-9a-f]{16})\//.exec(s.getAttribute('src'))[1]);
  await page.waitForFunction(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return r && r.active && r.active.state === 'activated';
  }, { timeout: T, polling: 100 });
  const keys = await page.evaluate(() => caches.keys());
  assert.deepEqual(keys, [`gomokud-${hash}`], `caches after activate: ${keys}`);
  ok(`the worker activated; its cache is named after the build (gomokud-${hash}); the old build's cache is gone`);

  const fromWorker = [];
  page.on('response', (r) => {
    if (r.url().includes('/s/') && r.url().endsWith('.js')) fromWorker.push(r.fromServiceWorker());
  });
  await page.reload();
  await page.waitForFunction(() => window.gomokud && window.gomokud.model.me, { timeout: T });
  const controller = await page.evaluate(() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL);
  assert.equal(controller, `${base}/sw.js`);
  assert.ok(fromWorker.length >= 5 && fromWorker.every((w) => w), `scripts from the worker: ${fromWorker}`);
  const kept = await page.evaluate(async (h) => (await (await caches.open(`gomokud-${h}`)).keys()).map((r) => new URL(r.url).pathname), hash);
  for (const f of ['/', `/s/${hash}/app.js`, `/s/${hash}/model.js`, `/s/${hash}/i18n/en.json`, `/s/${hash}/i18n/zh_CN.json`, `/s/${hash}/icon-512.png`]) {
    assert.ok(kept.includes(f), `${f} is not kept: ${kept}`);
  }
  ok(`after a reload the worker controls the page and serves its ${fromWorker.length} scripts; the page and every hashed file are kept`);

  // ---- the manifest ---------------------------------------------------------------
  const cdp = await page.createCDPSession();
  const m = await cdp.send('Page.getAppManifest');
  assert.equal(m.url, `${base}/s/${hash}/manifest.webmanifest`);
  assert.deepEqual(m.errors, [], `manifest errors: ${JSON.stringify(m.errors)}`);
  const man = JSON.parse(m.data);
  assert.equal(man.name, 'gomokud');
  assert.equal(man.start_url, '/');
  assert.equal(man.display, 'standalone');
  assert.match(man.theme_color, /^#[0-9a-f]{6}$/);
  assert.match(man.background_color, /^#[0-9a-f]{6}$/);
  const sizes = await page.evaluate(async (icons, url) => Promise.all(icons.map((i) => new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(`${img.naturalWidth}x${img.naturalHeight}`);
    img.onerror = () => resolve('error');
    img.src = new URL(i.src, url).href;
  }))), man.icons, m.url);
  assert.deepEqual(sizes.slice(1), ['192x192', '512x512'], `icons: ${sizes}`);
  assert.notEqual(sizes[0], 'error', 'the SVG icon does not load');
  assert.deepEqual(man.icons.map((i) => i.sizes), ['any', '192x192', '512x512']);
  const inst = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(inst.installabilityErrors, [], `not installable: ${JSON.stringify(inst.installabilityErrors)}`);
  ok('the manifest parses without errors (standalone, start_url /, colours); its icons load at 192 and 512 px; Chromium finds the board installable');

  // ---- network first for the page, cache first for the files ------------------------
  await page.evaluate(async (h) => {
    const c = await caches.open(`gomokud-${h}`);
    await c.put('/', new Response('<!doctype html><title>stale</title><p id="stale">a stale page</p>', { headers: { 'Content-Type': 'text/html' } }));
    await c.put(`/s/${h}/favicon.svg`, new Response('<svg xmlns="http://www.w3.org/2000/svg" id="from-the-cache"/>', { headers: { 'Content-Type': 'image/svg+xml' } }));
  }, hash);
  await page.reload();
  await page.waitForFunction(() => window.gomokud && window.gomokud.model.me, { timeout: T });
  assert.equal(await page.$('#stale'), null, 'an online reload showed the kept page');
  const keptPage = await page.evaluate(async (h) => (await (await caches.open(`gomokud-${h}`)).match('/')).text(), hash);
  assert.ok(keptPage.includes('id="offline"') && !keptPage.includes('stale'), 'the online answer was not kept');
  const icon = await page.evaluate(async (h) => (await fetch(`/s/${h}/favicon.svg`)).text(), hash);
  assert.match(icon, /from-the-cache/, 'a hashed file came from the server, not the cache');
  ok('the page is network first (a stale kept copy is not shown online, the answer is kept again); hashed files are cache first');

  // ---- offline ------------------------------------------------------------------------
  const catalogs = await page.evaluate(async (h) => {
    const get = async (l) => (await (await fetch(`/s/${h}/i18n/${l}.json`)).json())['web.offline.shell'];
    return { en: await get('en'), zh: await get('zh_CN') };
  }, hash);
  assert.ok(catalogs.en && /[\u4e00-\u9fff]/.test(catalogs.zh), `catalogs: ${JSON.stringify(catalogs)}`);
  const note = () => page.evaluate(() => {
    const n = document.getElementById('offline');
    return n.hidden || !n.offsetParent ? null : n.textContent;
  });
  assert.equal(await note(), null, 'the offline note shows while online');

  const offlineReload = async (lang) => {
    await killDaemon(daemon, 'SIGKILL');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.lang && document.getElementById('offline').textContent, { timeout: T });
    await page.waitForFunction((want) => document.getElementById('offline').textContent === want, { timeout: T }, catalogs[lang]);
    assert.equal(await note(), catalogs[lang], `the offline note (${lang})`);
    assert.equal(await page.$eval('#lobby', (e) => e.hidden), true, 'the lobby shows offline');
    daemon = await startDaemon({ bindir: BINDIR, conf, stateDir, port });
    await page.waitForFunction(() => window.gomokud.model.me && document.getElementById('offline').hidden, { timeout: 2 * T });
  };
  await offlineReload('en');
  ok('offline, a reload shows the kept page and its note that the board needs the server; the server back, the page connects and the note goes');
  await page.select('#lang', 'zh_CN');
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'), { timeout: T });
  await offlineReload('zh');
  ok('the same in Chinese: the note is the zh_CN catalog\'s, from the kept catalog');

  assert.deepEqual(pageErrors, [], `page errors: ${pageErrors.join('; ')}`);
}

let failed = false;
try {
  await run();
} catch (e) {
  failed = true;
  console.log(`FAIL ${e.stack || e}`);
  console.log(`daemon log:\n${daemon.log.slice(-2000)}`);
} finally {
  if (browser) await browser.close();
  await killDaemon(daemon, 'SIGTERM');
  if (!failed) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
console.log(`test_pwa: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
