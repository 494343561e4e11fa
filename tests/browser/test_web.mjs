// test_web.mjs: the web board in headless Chromium against the real daemon
// on loopback (issue 24). One browser, a context per player:
//   - dead links at phone size (#join= refused, cut short, #watch= and
//     #replay= to nothing): a page saying why, one click to the lobby; the
//     header's name leads home from every view;
//   - a private room and its share link with its invite code beside it,
//     played to five with clicks, chat, an undo offered and accepted, a
//     reload that resumes the seat, the daemon killed (SIGKILL) and started
//     again with the pages reconnecting, and two spectators (one by the
//     link, one from the lobby's list) watching on across it;
//   - a game against a bot to the end, its thinking preview shown;
//   - bots marked (issue 49, botMarks): a game against the server's bot
//     marks its seat BOT (named for a screen reader), not the player's; a
//     page in Chinese lists it marked "机器人" in WHO and the rooms list,
//     and watching sees its seat and its profile marked;
//   - a bot account (issue 49, botAccountGame): our brain through
//     gomoku-bot, made a bot by its config's token, challenged rated from
//     the online list and played to its end; its seat marked, the
//     player's rating change half the bot's (rate-bot-accounts half);
//   - a browser player against a `bin/gomoku --script` player;
//   - renju: the forbidden points the server names are marked, and a click
//     on one is refused with the reason;
//   - a swap2 opening: three stones put by clicks, a colour by a button;
//   - the analysis board (issue 47): a renju position set up by clicks
//     from the lobby, the server's forbidden point marked and refused, a
//     stone on a stone refused, the engine's candidates and reason, its
//     line stepped, undo and clear, in English and Chinese, its contrast;
//     fair play: a player seated in a game analysing a replay's position
//     is refused (452) in words;
//   - the review (issue 47): a crafted game played to its end, Review
//     pressed, its progress, the graph and the marks (the known missed
//     win and blunder), a mark's better line played stone by stone and
//     back, the graph clicked; a reload shows the stored review at once;
//     the other player sees it in Chinese, a stranger is refused (454);
//   - puzzles (issue 47): a public game with a missed VCF, played and
//     reviewed by protocol clients, becomes a puzzle; one account opens
//     it from the lobby and solves it with its kept first move (g8), the
//     defence's reply on the board, its rating after it; a reload opens it
//     again by its address; a second account at phone size solves it with
//     the other winning first move (k8), retries it and fails with a
//     quiet move, unrated, the solution stepped on the board; a guest
//     reads it in Chinese; a renju puzzle marks black's forbidden point
//     as the server names it, and a click there is refused in words;
//   - tournaments (issue 48, tourneyBoard): an account's line client
//     creates a casual Swiss of one round starting in 10 s, a guest's
//     lobby lists it with its countdown, its page (header, countdown,
//     Join, the standings with the Swiss's tie-breaks and a shared rank)
//     survives a reload; the round's pairing is said, the board opens by
//     its START, the line-client opponent resigns, Back to the tournament
//     shows the point (halved) and the result; the page in Chinese at
//     phone size, no horizontal overflow; an account's create form makes
//     an arena and a third event is refused (453) in words; Leave asks
//     on the page first (Stay in keeps the player; Leave before the start
//     takes it out), and in a Swiss under way says it means no more
//     pairings, then withdraws the player;
//   - the engine league (issue 49, leagueTable): a daemon of its own with
//     two leagues; the lobby's card opens the view, both leagues listed,
//     the empty table and the other's countdown; the league's round robin
//     opened from it and the table again from there, the event followed,
//     so its end asks the table: three bots marked BOT with Elo and error
//     bars, games, the points halved; #league and a dead #league=nosuch;
//     the view in Chinese on a 360 px phone;
//   - the opening rules (issue 46): a whole renju game under each of RIF,
//     Yamaguchi, Soosõrv-8 and Taraguchi-10 (both branches) between two
//     browsers, every stage by clicks and buttons, its words, its area
//     shaded, the offers marked and chosen (one after a reload), D1 Kansei
//     named; freestyle under pro and long pro; the lobby's choosers offer
//     what each rule takes;
//   - a cluster of two nodes on a Redis of the test's own: a page of node b
//     whose saved seat is in a room of node a follows * MOVED there over a
//     new WebSocket, takes the seat back with its token and plays;
//   - the page in Chinese (a browser asking for zh-CN) beside one in
//     English: lobby, game, a refusal, the result, a replay; the language
//     switch kept across reloads;
//   - moderation: a web guest kicked by gomokuctl sees why and is not back
//     under a new name; "Come back" starts a fresh guest; banned, its
//     reload is refused at HELLO with the reason (issue 43);
//   - offers answered (declined, withdrawn, accepted with its count,
//     expired; a bot's undo of two) in both game logs, the chat kept across
//     a reload, and a flag on a 1 s clock shown at 0:00 (issue 43);
//   - an account stays signed in (issue 43): at phone size a reload and a
//     second tab are the account (its login token kept, AUTH), Log out
//     makes a guest that a reload keeps; a mistyped password leaves a
//     seeking guest as it was; LOGIN on a second device during a game
//     opens its board there while the first says it continues elsewhere;
//   - accessibility, measured (issue 44): the WCAG 2.1 AA contrast of the
//     rendered colours of the lobby, 15x15 and 19x19 games and a replay,
//     light and dark; Chromium's accessibility tree of each (the board a
//     grid of named points, its cursor aria-activedescendant, the clocks
//     timers with their time), and the live region saying the bot's move;
//   - screenshots of the lobby, a game and a replay at desktop and phone
//     sizes into $SHOTS (build/browser by default), and of each in English
//     and Chinese into $SHOTS/en and $SHOTS/zh_CN.
// Run by tests/browser/test_browser.sh (BINDIR, CHROMIUM).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const BINDIR = process.env.BINDIR || 'bin';
const SHOTS = process.env.SHOTS || 'build/browser';
const T = 15000; // the longest any one wait may take
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
mkdirSync(SHOTS, { recursive: true });

let failures = 0;
function ok(what) {
  console.log(`ok ${what}`);
}

// ---- the daemon -------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'gomokud-web.'));
const conf = join(dir, 'gomokud.conf');
// with a hosted engine: our own brain, sandboxed, as the admin would name Rapfi
// (rate-bot-accounts half: botAccountGame's bot account; no other case has one)
writeFileSync(conf, 'bot-threads 1\nbot-think-ms 100\nbot-preview-ms 0\ngrace 30\nrate-burst 200\nbot-fallback 4\nanalysis-ms 300\nreview-ms 100\nrate-bot-accounts half\n'
  + `engine ours ${BINDIR}/pbrain-gomoku turn-ms=300\n`);
let daemon = null;

function startDaemon(port) {
  return new Promise((resolve, reject) => {
    const p = spawn(`${BINDIR}/gomokud`, ['--config', conf, '--state-dir', join(dir, 'state'), '--listen', `127.0.0.1:${port}`, '--log-level', 'info'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    p.log = () => log; // its log so far (the puzzles made, by their ids)
    const timer = setTimeout(() => reject(new Error(`daemon did not start: ${log}`)), T);
    p.stderr.on('data', (b) => {
      log += b;
      const m = /listening on 127\.0\.0\.1:([0-9]+)/.exec(log);
      if (m && !p.port) {
        p.port = Number(m[1]);
        clearTimeout(timer);
        resolve(p);
      }
    });
    p.on('exit', (code, sig) => { p.dead = true; p.status = sig ? `signal ${sig}` : code; });
  });
}

function killDaemon(sig) {
  const p = daemon;
  return new Promise((resolve) => {
    if (p.dead) { resolve(); return; }
    p.on('exit', () => resolve());
    p.kill(sig);
  });
}

// ---- pages ------------------------------------------------------------------

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  acceptInsecureCerts: true, // the daemon's self-signed certificate
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--ignore-certificate-errors'],
});

const pageErrors = [];
// A new page of a context, with no service worker: the worker is
// test_pwa's. Here, with a worker registered in each context, a
// createBrowserContext after some twenty contexts had come and gone failed
// with "Session with given id not found" (puppeteer-core 23.11, Debian's
// Chromium 156); so navigator.serviceWorker is hidden before the page's scripts
// run, and app.js registers none.
async function newPage(ctx) {
  const p = await ctx.newPage();
  await p.evaluateOnNewDocument(() => Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: () => undefined }));
  return p;
}
// A page in a context of its own; langs: the browser's languages
// (navigator.languages and Accept-Language), English (en-US) by default.
async function open(url, viewport = DESKTOP, langs = ['en-US', 'en']) {
  const ctx = await browser.createBrowserContext();
  const page = await newPage(ctx);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.evaluateOnNewDocument((l) => {
    Object.defineProperty(navigator, 'languages', { get: () => l });
    Object.defineProperty(navigator, 'language', { get: () => l[0] });
  }, langs);
  await page.setExtraHTTPHeaders({ 'Accept-Language': langs.join(',') });
  await page.setViewport(viewport);
  await page.goto(url || `https://127.0.0.1:${daemon.port}/`);
  await named(page);
  return page;
}

// Signed in: the model has a name and the page shows it (in any language).
async function named(page) {
  await page.waitForFunction(() => window.gomokud && window.gomokud.model.me && document.getElementById('me').textContent !== '', { timeout: T });
  return page.evaluate(() => window.gomokud.model.me.name);
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);

async function stoneCount(page) {
  return page.$$eval('[data-stone]', (s) => s.length);
}

// Clicks a point and waits for its stone.
async function play(page, mv, yourMove = 'Your move') {
  await page.waitForFunction((y) => document.getElementById('turn').textContent === y, { timeout: T }, yourMove);
  await pick(page, mv);
  await page.waitForSelector(`[data-stone="${mv}"]`, { timeout: T });
}

// Clicks a point; on a touch screen the first tap previews (tap to confirm,
// on there by default) and a second one plays it.
async function pick(page, mv) {
  await page.click(`[data-mv="${mv}"]`);
  if (await page.$(`[data-preview="${mv}"]`)) await page.click(`[data-mv="${mv}"]`);
}

async function waitStone(page, mv) {
  await page.waitForSelector(`[data-stone="${mv}"]`, { timeout: T });
}

// On a timeout the error says what the element and the page's toast held.
async function waitText(page, sel, re) {
  try {
    await page.waitForFunction((s, src) => new RegExp(src).test(document.querySelector(s).textContent), { timeout: T }, sel, re.source);
  } catch (e) {
    const held = await page.evaluate((s) => [s, '#toast'].map((q) => `${q}: "${document.querySelector(q)?.textContent ?? ''}"`).join(', '), sel).catch(() => '');
    e.message += ` (waiting for ${re} in ${sel}; ${held})`;
    throw e;
  }
}

// From a game: back to the lobby, the history, the newest game's replay.
async function replayNewest(page) {
  await page.click('#leave');
  await page.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await page.click('#history-go');
  await page.waitForSelector('[data-replay]', { timeout: T });
  await page.click('[data-replay]');
  await page.waitForSelector('#replay:not([hidden])', { timeout: T });
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

// ---- 1: a friend by share link, reload, SIGKILL, a spectator, undo, chat ---

async function friendGame() {
  const a = await open();
  await shot(a, 'lobby-desktop');
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const link = await a.$eval('#share-link', (e) => e.value);
  assert.match(link, /^https:\/\/127\.0\.0\.1:[0-9]+\/#join=[A-Za-z0-9]{6,32}$/);
  // the code beside the link, for a terminal client
  assert.equal(await text(a, '#share-code'), link.split('#join=')[1]);
  assert.ok(await a.$eval('#share-code', (e) => e.offsetParent !== null && e.getBoundingClientRect().width > 0), 'the code is not shown');
  assert.ok(await a.$('#copy-code'), 'no button copies the code');
  ok('a private room: the page shows its link and, beside it, its invite code');
  const b = await open(link);
  await waitText(a, '#turn', /^Your move$/);
  await waitText(b, '#turn', /to move$/);
  await play(a, 'h8');
  await play(b, 'h9');
  await play(a, 'i8');
  await play(b, 'i9');
  ok('share link: the friend opens it straight into the free seat; moves by clicks');

  await b.reload();
  await named(b);
  await waitStone(b, 'i9');
  assert.equal(await stoneCount(b), 4);
  await play(a, 'j8');
  await waitStone(b, 'j8');
  ok('a reload mid-game resumes the seat (the token in localStorage)');

  const c = await open(link); // both seats taken: the link makes a spectator
  await waitStone(c, 'j8');
  const p = await open(); // a spectator of a public game, from the lobby's list
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  const botRoom = await p.evaluate(() => window.gomokud.model.game.room);
  const w = await open();
  await w.waitForSelector(`[data-watch="${botRoom}"]`, { timeout: T });
  await w.click(`[data-watch="${botRoom}"]`);
  await w.waitForSelector('#game:not([hidden])', { timeout: T });

  const port = daemon.port;
  await killDaemon('SIGKILL');
  await waitText(a, '#status', /Connection lost/);
  daemon = await startDaemon(port);
  for (const q of [a, b, c, w]) await waitText(q, '#status', /^Connected$/);
  await waitStone(a, 'j8');
  await waitStone(b, 'j8');
  await play(b, 'j9');
  await waitStone(a, 'j9');
  ok('daemon killed with SIGKILL and started again: both pages reconnect, resume, play on');
  // the spectators watch on: the link's page joins again by its code, the
  // lobby's watches again; neither is sent to the lobby
  await waitStone(c, 'j9');
  assert.equal(await stoneCount(c), 6);
  assert.equal(await c.$eval('#game', (e) => e.hidden), false);
  await play(p, 'h8');
  await waitStone(w, 'h8');
  assert.equal(await w.$eval('#game', (e) => e.hidden), false);
  assert.equal(await w.$eval('#lobby', (e) => e.hidden), true);
  ok('spectators across the restart: each watches again (JOIN by the link\'s code, WATCH from the lobby) and sees the next move');
  for (const q of [p, w]) await q.browserContext().close();

  await a.type('#say input', 'good luck');
  await a.click('#say button');
  await waitText(b, '#chat', /good luck/);
  await waitText(c, '#chat', /good luck/);

  await b.click('#offer-undo');
  await a.waitForSelector('[data-offer="accept-undo"]', { timeout: T });
  await a.click('[data-offer="accept-undo"]');
  await b.waitForFunction(() => !document.querySelector('[data-stone="j9"]'), { timeout: T });
  await c.waitForFunction(() => !document.querySelector('[data-stone="j9"]'), { timeout: T });
  ok('chat reaches player and spectator; an undo offered and accepted takes the stone back');

  await play(b, 'a1');
  await play(a, 'k8');
  await shot(a, 'game-desktop');
  const ph = await open(link, PHONE);
  await waitStone(ph, 'k8');
  await shot(ph, 'game-phone');
  await ph.browserContext().close();
  await play(b, 'a2');
  await play(a, 'l8');
  for (const p of [a, b, c]) {
    await waitText(p, '#turn', /^Black wins \(five\)$/);
    assert.equal(await p.$$eval('[data-win]', (w) => w.map((x) => x.dataset.win).sort().join(',')), 'h8,i8,j8,k8,l8');
  }
  assert.equal(await text(c, '#turn'), 'Black wins (five)');
  ok('played to five: the winning line marked for both players and the spectator');

  // the game in the history, replayed step by step, exported
  await replayNewest(a);
  await waitText(a, '#r-pos', /^9 \/ 9$/);
  await a.click('#r-prev');
  await waitText(a, '#r-pos', /^8 \/ 9$/);
  assert.equal(await a.$$eval('#rboard [data-stone]', (s) => s.length), 8);
  await a.click('#r-first');
  assert.equal(await a.$$eval('#rboard [data-stone]', (s) => s.length), 0);
  await a.click('#r-last');
  await shot(a, 'replay-desktop');
  const dl = join(dir, 'dl');
  mkdirSync(dl);
  const cdp = await a.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl, browserContextId: a.browserContext().id });
  await a.click('#r-psq');
  const { readdirSync, readFileSync } = await import('node:fs');
  for (let i = 0; i < 100 && !readdirSync(dl).some((f) => f.endsWith('.psq')); i++) await new Promise((r) => setTimeout(r, 100));
  const psq = readdirSync(dl).find((f) => f.endsWith('.psq'));
  assert.ok(psq, 'no .psq downloaded');
  assert.match(readFileSync(join(dl, psq), 'utf8'), /^Piskvorky 15x15/);
  await a.setViewport(PHONE);
  await shot(a, 'replay-phone');
  ok('history: the game replayed (step, jump) and downloaded as .psq');
  for (const p of [a, b, c]) await p.browserContext().close();
}

// ---- 2: a bot to the end, its preview shown ------------------------------------

// Plays a game against a bot or engine to its end as a poor player: on
// each turn the first free point around the centre, so the bot wins. The
// moves played; fails when the game does not end within 120 of them.
async function playPoorly(p, what) {
  const order = [];
  for (let r = 0; r < 8; r++) for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (Math.max(Math.abs(dx), Math.abs(dy)) === r) order.push([7 + dx, 7 + dy]);
  let moves = 0;
  for (;;) {
    await p.waitForFunction(() => /Your move|wins|Draw|No result/.test(document.getElementById('turn').textContent), { timeout: T });
    if (!/Your move/.test(await text(p, '#turn'))) return moves;
    const free = await p.$$eval('[data-mv]', (cells) => cells.filter((c) => !document.querySelector(`[data-stone="${c.dataset.mv}"]`)).map((c) => c.dataset.mv));
    const mv = order.map(([x, y]) => String.fromCharCode(97 + x) + String(15 - y)).find((m) => free.includes(m));
    await pick(p, mv);
    await waitStone(p, mv);
    assert.ok(++moves < 120, `${what} does not end`);
  }
}

async function botGame() {
  const p = await open();
  await p.evaluate(() => {
    window.sawThink = 0;
    new MutationObserver(() => {
      if (document.querySelector('[data-cand]')) window.sawThink++;
    }).observe(document.getElementById('board'), { childList: true, subtree: true });
  });
  await p.select('#bot select[name=level]', '3');
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  const moves = await playPoorly(p, 'the bot game');
  const result = await text(p, '#turn');
  assert.match(result, /wins|Draw/);
  const sawThink = await p.evaluate(() => window.sawThink);
  assert.ok(sawThink > 0, 'no thinking preview on the board');
  const reasons = await p.$$eval('#moves td', (l) => l.map((x) => x.textContent).filter((t) => t.includes('(')).length);
  assert.ok(reasons > 0, 'no move reasons in the move list');
  // the move list, a row a pair, scrolled to the latest move: its cell in view
  const last = await p.$$eval('#moves td', (l) => l.length);
  assert.equal(last, await stoneCount(p), 'the move list does not hold every move');
  assert.ok(await p.$eval('#moves-box', (box) => {
    const cell = [...box.querySelectorAll('td')].pop().getBoundingClientRect();
    const r = box.getBoundingClientRect();
    return cell.top >= r.top - 1 && cell.bottom <= r.bottom + 1 && cell.right <= r.right + 1;
  }), 'the latest move is not in view in the move list');
  ok(`a bot game to the end (${result}, ${moves} moves of ours); its candidates shown while it thought, its reasons listed`);
  await p.browserContext().close();
}

// Issue 49: a hosted engine plays a browser game. The greeting's engines=
// puts it in the bot's level; picked, the opening is none alone; the game
// is played to its end, the engine's seat named bot-ours and marked a bot;
// the leaderboard offers the bots' own, and a signed-in player's account
// card whether bots' challenges reach them.
async function engineGame() {
  const p = await open();
  const names = await p.$$eval('#bot select[name=level] optgroup[data-engines] option', (l) => l.map((o) => o.value));
  assert.deepEqual(names, ['ours'], 'the engines in the bot\'s level');
  await p.select('#bot select[name=level]', 'ours');
  assert.ok(await p.$eval('#bot select[name=opening]', (s) => s.closest('label').hidden && s.value === 'none'),
    'an engine picked: no opening rule offered');
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await p.waitForFunction(() => /bot-ours/.test(document.getElementById('game').textContent), { timeout: T });
  const moves = await playPoorly(p, 'the engine\'s game');
  const result = await text(p, '#turn');
  assert.match(result, /wins|Draw/);
  assert.ok(await p.evaluate(() => document.querySelectorAll('#game .botmark').length > 0), 'the engine\'s seat is not marked a bot');
  ok(`a hosted engine (our brain, sandboxed) played a browser game to its end (${result}, ${moves} moves of ours)`);
  await p.browserContext().close();
}

// Issue 49: our brain through gomoku-bot plays a rated game against a
// browser player. An account registered by a line client gets a bot
// token from gomokuctl, which gomoku-bot sends itself (its config's
// bot-token); a player registered on the page challenges it from the
// online list with the quick match's settings (rated, black); the game is
// played to its end, the bot's seat marked BOT; the daemon has
// rate-bot-accounts half, so the player's change is half the bot's (both
// 1500 with the same deviation), shown on the page and as STATS says.
// gomoku-bot is stopped by its pid, exit 0. A casual challenge to a
// line client's guest, declined, is said on the page.
async function botAccountGame() {
  const id = process.pid % 10000;
  const botName = `wbot${id}`;
  const me = `wper${id}`;
  (await lineSignIn(botName, 'wbot-s3cret')).close();
  const token = ctl('bot', 'token', botName).split('\n').find((l) => /^[0-9a-f]{32}$/.test(l));
  assert.ok(token, 'gomokuctl issued no bot token');
  const botConf = join(dir, 'gomoku-bot.conf');
  writeFileSync(botConf, `server 127.0.0.1:${daemon.port}\nca ${join(dir, 'state', 'cert.pem')}\nname ${botName}\npassword wbot-s3cret\n`
    + `bot-token ${token}\nbrain ${BINDIR}/pbrain-gomoku\nbrain-memory 512\nturn-ms 200\nrules freestyle\nsizes 15\n`);
  const bot = await startProc(`${BINDIR}/gomoku-bot`, ['-c', botConf], / is a bot account from now/, 'gomoku-bot');
  const p = await open();
  try {
    await register(p, me);
    await waitText(p, '#stats', /freestyle 1500/);
    if (!(await p.$eval('#seek input[name=rated]', (e) => e.checked))) await p.click('#seek input[name=rated]');
    await p.select('#seek select[name=colour]', 'black');
    // the online list: the bot marked, a Challenge button beside it, none beside me
    await p.waitForSelector(`#who [data-challenge="${botName}"]`, { timeout: T });
    assert.ok(await p.$eval(`#who [data-challenge="${botName}"]`, (b) => !!b.parentElement.querySelector('.botmark')), 'the bot is not marked in the online list');
    assert.equal(await p.$(`#who [data-challenge="${me}"]`), null, 'a Challenge button beside my own name');
    await p.click(`#who [data-challenge="${botName}"]`);
    await p.waitForSelector('#game:not([hidden])', { timeout: T });
    await waitText(p, '#gameinfo', /^rated · freestyle 15×15 · 5 min \+ 5 s$/);
    assert.equal(await p.$eval('#p-white .name', (e) => e.dataset.user), botName);
    await p.waitForSelector('#p-white .botmark', { timeout: T });
    assert.equal(await p.$('#p-black .botmark'), null, 'the player\'s own seat is marked a bot');
    const moves = await playPoorly(p, 'the bot account\'s game');
    const result = await text(p, '#turn');
    assert.match(result, /^White wins \(five\)$/);
    // the changes as the page shows them (* RATED): the player's half the bot's
    await waitText(p, '#p-black .rating', /^1[0-4][0-9]{2} \(−[0-9]+\)$/);
    await waitText(p, '#p-white .rating', /^1[5-9][0-9]{2} \(\+[0-9]+\)$/);
    const lost = Number(/−([0-9]+)/.exec(await text(p, '#p-black .rating'))[1]);
    const won = Number(/\+([0-9]+)/.exec(await text(p, '#p-white .rating'))[1]);
    assert.ok(Math.abs(2 * lost - won) <= 2, `the player lost ${lost}, the bot won ${won}: not half`);
    const after = 1500 - lost;
    await waitText(p, '#result-rating', new RegExp(`^Your rating: ${after} \\(−${lost}\\)$`));
    // as the daemon has it
    const s = await lineSignIn(`wsee${id}`);
    s.send(`STATS ${me}`);
    const stat = await s.expect(new RegExp(`^= STAT ${me} freestyle `));
    s.close();
    assert.equal(Number(stat.split(' ')[4]), after, `STATS says ${stat}`);
    // a challenge from the online list declined: said on the page
    const g = await lineSignIn(`wdec${id}`);
    await p.click('#leave');
    await p.waitForSelector('#lobby:not([hidden])', { timeout: T });
    await p.click('#seek input[name=rated]'); // a guest plays casual
    await p.waitForSelector(`#who [data-challenge="wdec${id}"]`, { timeout: T });
    await p.click(`#who [data-challenge="wdec${id}"]`);
    await waitText(p, '#toast', new RegExp(`^Challenge sent to wdec${id}$`));
    const ch = await g.expect(new RegExp(`^\\* CHALLENGE [0-9]+ ${me} wdec${id} freestyle 15 300\\+5 black casual none$`));
    g.send(`ANSWER ${ch.split(' ')[2]} decline`);
    await waitText(p, '#toast', new RegExp(`^wdec${id} declined your challenge$`));
    g.close();
    ok(`our brain through gomoku-bot (a bot account by its config's token) played a rated game to its end against a browser player who challenged it from the online list (${result}, ${moves} moves of ours): its seat marked BOT, the player's change −${lost} half the bot's +${won} (rate-bot-accounts half), as STATS says; a challenge declined said in words`);
  } finally {
    await stopProc(bot);
    await p.browserContext().close();
  }
  assert.equal(bot.status, 0, `gomoku-bot's exit on SIGTERM: ${bot.status}`);
}

// Elements with the hidden attribute that the page still displays (a
// stylesheet's display beats the attribute unless a rule says otherwise).
// Found and measured in one evaluation: $$eval finds them first, and a
// reply in between (the replay's MARKS) may show one on purpose.
const shownHidden = (page) => page.evaluate(() => [...document.querySelectorAll('[hidden]')]
  .filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.id || e.className || e.tagName));

// Issue 44's first parts: no [hidden] element is displayed in the lobby,
// a game and a replay (one global rule, where each display rule once needed
// its own [hidden] twin: the swap2 buttons showed in every game); an SVG
// favicon and no 404 on load; the tab's title says whose turn it is.
async function boardBasics() {
  const ctx = await browser.createBrowserContext();
  const p = await newPage(ctx);
  p.on('pageerror', (e) => pageErrors.push(String(e)));
  const missing = [];
  p.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  await p.setViewport(PHONE);
  await p.goto(`https://127.0.0.1:${daemon.port}/`);
  await named(p);
  assert.deepEqual(missing, [], `404 on load: ${missing}`);
  const icon = await p.$eval('link[rel=icon]', (l) => l.href);
  const got = await p.evaluate(async (u) => { const r = await fetch(u); return [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 4)]; }, icon);
  assert.deepEqual(got, [200, 'image/svg+xml', '<svg']);
  assert.equal(await p.title(), 'gomokud');
  assert.deepEqual(await shownHidden(p), [], 'hidden elements shown in the lobby');
  await p.select('#bot select[name=level]', '1');
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await p.waitForFunction(() => document.title === '● Your move', { timeout: T });
  assert.deepEqual(await shownHidden(p), [], 'hidden elements shown in a game');
  assert.equal(await p.$eval('#swap2', (e) => getComputedStyle(e).display), 'none', 'the swap2 buttons show in a game without swap2');
  await pick(p, 'h8');
  await p.waitForFunction(() => / to move$/.test(document.title) || document.title === '● Your move', { timeout: T });
  await p.waitForFunction(() => document.title === '● Your move' && document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  ok('the tab\'s title says whose turn it is (● Your move); an SVG favicon, no 404 on load');
  await p.click('#resign');
  await p.click('#confirm-yes');
  await p.waitForFunction(() => document.title === 'Game over', { timeout: T });
  await p.click('#leave');
  await p.waitForSelector('#lobby:not([hidden])', { timeout: T });
  assert.equal(await p.title(), 'gomokud');
  await p.click('#history-go');
  await p.waitForSelector('[data-replay]', { timeout: T });
  await p.click('[data-replay]');
  await p.waitForSelector('#replay:not([hidden])', { timeout: T });
  assert.deepEqual(await shownHidden(p), [], 'hidden elements shown in a replay');
  // the arrow keys step the replay; Home and End go to its ends
  const pos = () => text(p, '#r-pos');
  const end = await pos();
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction((e) => document.getElementById('r-pos').textContent !== e, { timeout: T }, end);
  await p.keyboard.press('Home');
  await waitText(p, '#r-pos', /^0 \//);
  await p.keyboard.press('ArrowRight');
  await waitText(p, '#r-pos', /^1 \//);
  await p.keyboard.press('End');
  await p.waitForFunction((e) => document.getElementById('r-pos').textContent === e, { timeout: T }, end);
  ok('the arrow keys step a replay, Home and End go to its ends');
  ok('[hidden] hides every element it is on, in the lobby, a game and a replay, by one global rule (the swap2 buttons not displayed in a game without swap2)');
  await ctx.close();
}

// ---- quick match: a bot after the counted-down wait; a listed seek taken --

// The search line while it counts down: its seconds, or null.
const countdown = (page) => page.$eval('#seek-info', (e) => {
  const m = /within ([0-9]+) s, a bot takes the seat \(a casual game\)/.exec(e.textContent);
  return m ? Number(m[1]) : null;
});

async function quickBot() {
  const p = await open(null, PHONE);
  // opting out of the bot: a plain search, no countdown, stopped by hand
  await p.click('#seek-bot');
  await p.click('#seek-go');
  await waitText(p, '#seek-info', /^Looking for an opponent…$/);
  assert.equal(await countdown(p), null);
  await p.click('#seek-cancel');
  await p.waitForFunction(() => document.getElementById('seek-info').textContent === '' && document.getElementById('seek-cancel').hidden, { timeout: T });
  // the default: a bot may take the seat, after the server's 4 s, counted down
  await p.click('#seek-bot');
  assert.equal(await p.$eval('#seek-bot', (e) => e.checked), true);
  await p.click('#seek-go');
  await p.waitForFunction(() => /within [0-9]+ s/.test(document.getElementById('seek-info').textContent), { timeout: T });
  const first = await countdown(p);
  assert.ok(first >= 3 && first <= 4, `the countdown starts at ${first}, not the server's 4 s`);
  await shot(p, 'quick-countdown-phone');
  await p.waitForFunction((f) => {
    const m = /within ([0-9]+) s/.exec(document.getElementById('seek-info').textContent);
    return m && Number(m[1]) < f;
  }, { timeout: T }, first);
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  const names = await p.$$eval('#players .name', (l) => l.map((x) => x.textContent));
  assert.ok(names.some((n) => /^bot[0-9]+/.test(n)), `no bot seated: ${names}`);
  const g = await p.evaluate(() => ({ rated: window.gomokud.model.game.rated, seek: window.gomokud.model.seek, cancel: document.getElementById('seek-cancel').hidden, info: document.getElementById('seek-info').textContent }));
  assert.deepEqual(g, { rated: 'casual', seek: null, cancel: true, info: '' });
  await p.click('#resign');
  await p.click('#confirm-yes');
  await waitText(p, '#turn', /wins/);
  ok(`a lone quick match on a phone: the wait counted down from ${first} s, then a bot took the seat in a casual game; the search indicator gone with START; opting out searches without a countdown`);
  await p.browserContext().close();
}

async function takeSeek() {
  const a = await open();
  const aName = await named(a);
  await a.click('#seek-bot'); // people only: no bot comes while b looks
  await a.select('#seek select[name=colour]', 'black');
  await a.click('#seek-go');
  await waitText(a, '#seek-info', /Looking for an opponent/);
  // a lists its own seek without a button to take it
  await a.waitForFunction((n) => [...document.querySelectorAll('#seeks li')].some((li) => li.textContent.startsWith(n)), { timeout: T }, aName);
  assert.equal(await a.$$eval('#seeks [data-take]', (l) => l.length), 0, 'a page offers to take its own seek');
  const b = await open(null, PHONE);
  const bName = await named(b);
  await b.waitForFunction((n) => [...document.querySelectorAll('#seeks li')].some((li) => li.textContent.startsWith(n) && li.querySelector('[data-take]')), { timeout: T }, aName);
  await shot(b, 'seeks-phone');
  const id = await b.evaluate((n) => [...document.querySelectorAll('#seeks li')].find((li) => li.textContent.startsWith(n)).querySelector('[data-take]').dataset.take, aName);
  await b.click(`[data-take="${id}"]`);
  for (const p of [a, b]) await p.waitForSelector('#game:not([hidden])', { timeout: T });
  assert.ok((await text(a, '#p-black .name')).startsWith(aName), 'the seeker is not black as it asked');
  assert.ok((await text(b, '#p-white .name')).startsWith(bName), 'the taker is not white');
  assert.deepEqual(await a.evaluate(() => [document.getElementById('seek-cancel').hidden, document.getElementById('seek-info').textContent, window.gomokud.model.seek]), [true, '', null],
    'the search indicator outlived the game\'s START');
  await a.click('#resign');
  await a.click('#confirm-yes');
  await waitText(b, '#turn', /wins/);
  ok('a listed seek taken with a click on a phone: both pages in the game, the seeker black as it asked, its search indicator gone; no button for your own seek');
  await a.browserContext().close();
  await b.browserContext().close();
}

// A seek the session keeps when a login on another device takes it over:
// the new page shows the search (SEEKS lists it under the name) and stops
// it; the old page, taken over, shows none.
async function seekTakeover() {
  const a = await open();
  const name = `seeker${process.pid % 10000}`;
  await a.type('#account input[name=name]', name);
  await a.type('#account input[name=password]', 'secret-pw');
  await a.click('#register-go');
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  await a.click('#seek-bot'); // people only
  await a.click('#seek-go');
  await waitText(a, '#seek-info', /Looking for an opponent/);
  const b = await open(null, PHONE);
  await b.type('#account input[name=name]', name);
  await b.type('#account input[name=password]', 'secret-pw');
  await b.click('#login-go');
  await waitText(b, '#me', new RegExp(`^You are ${name}$`));
  await waitText(b, '#seek-info', /^Looking for an opponent…$/);
  assert.equal(await b.$eval('#seek-cancel', (e) => e.hidden), false);
  await a.waitForFunction(() => document.getElementById('seek-cancel').hidden && document.getElementById('seek-info').textContent === '', { timeout: T });
  await b.click('#seek-cancel');
  await b.waitForFunction(() => document.getElementById('seek-cancel').hidden && window.gomokud.model.seek === null, { timeout: T });
  const lines = await lineClient(daemon.port);
  lines.send('HELLO 1');
  await lines.expect(/^OK HELLO/);
  lines.send('SEEKS 1');
  const first = await lines.expect(new RegExp(`^= SEEK [0-9]+ ${name} |^OK SEEKS`));
  assert.match(first, /^OK SEEKS/, 'the seek was not cancelled');
  lines.close();
  ok('a seek kept by a login that took the session over on a phone: the new page shows the search and stops it; the old page shows none');
  await a.browserContext().close();
  await b.browserContext().close();
}

// A phone switches apps to send the link: its page is gone (the tab
// killed), the room waits; the friend opens the link meanwhile and is told
// the creator is away; the creator's page comes back (the same browser,
// localStorage kept) to the room and the game starts for both. A search
// outlives a reload the same way (RESUME <token> -). Issue 43, item 1.
async function phoneAway() {
  let a = await open(null, PHONE);
  const ctx = a.browserContext();
  const aName = await named(a);
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const link = await a.$eval('#share-link', (e) => e.value);
  await a.close(); // switched away: the phone killed the tab
  const b = await open(link, PHONE);
  await b.waitForSelector('#game:not([hidden])', { timeout: T });
  await waitText(b, '#turn', new RegExp(`^Waiting for ${aName} to come back \\([0-9]+:[0-9]{2}\\); the game starts then\\.$`));
  assert.match(await text(b, '#p-black .name'), new RegExp(`^${aName} \\(away\\)$`));
  await shot(b, 'friend-waits-phone');
  ok('the creator\'s tab gone: the friend opens the link, takes the seat and is told whom the game waits for, counted down');
  a = await newPage(ctx);
  a.on('pageerror', (e) => pageErrors.push(String(e)));
  await a.setViewport(PHONE);
  await a.goto(`https://127.0.0.1:${daemon.port}/`);
  assert.equal(await named(a), aName, 'the creator came back under another name');
  await waitText(a, '#turn', /^Your move$/);
  await waitText(b, '#turn', /to move$/);
  await play(a, 'h8');
  await waitStone(b, 'h8');
  ok('the creator back on the phone: the same name, the room, and the game starts for both');
  await a.click('#resign');
  await a.click('#confirm-yes');
  await waitText(b, '#turn', /wins/);

  // a search outlives a reload: the indicator follows the server's seek
  await a.click('#leave');
  await a.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await a.click('#seek-bot'); // people only: no bot comes meanwhile
  await a.click('#seek-go');
  await waitText(a, '#seek-info', /^Looking for an opponent…$/);
  await a.reload();
  assert.equal(await named(a), aName);
  await waitText(a, '#seek-info', /^Looking for an opponent…$/);
  assert.equal(await a.$eval('#seek-cancel', (e) => e.hidden), false);
  ok('a reload while searching: the same name, the search still shown');
  // switched away while searching: the hidden page parks, and its seek is
  // not paired with one that comes meanwhile; shown again, it is
  await setHidden(a, true);
  await waitText(a, '#status', /^Away: your room and your search wait for you\.$/);
  await b.click('#leave');
  await b.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await b.click('#seek-bot'); // people only
  await b.click('#seek-go');
  await waitText(b, '#seek-info', /^Looking for an opponent…$/);
  await sleep(500);
  assert.equal(await b.$eval('#game', (e) => e.hidden), true, 'paired with a player away');
  await setHidden(a, false);
  for (const p of [a, b]) await p.waitForSelector('#game:not([hidden])', { timeout: T });
  ok('a search on a hidden page waits: not paired while away, paired when the page is shown again');
  await a.click('#resign');
  await a.click('#confirm-yes');
  await waitText(b, '#turn', /wins/);
  // a guest that holds nothing keeps its name across a reload
  const bName = await named(b);
  assert.match(bName, /^guest[0-9]+$/);
  await b.reload();
  assert.equal(await named(b), bName, 'a guest lost its name in a reload');
  ok('a guest reloading keeps its made-up name (guestN)');
  await ctx.close();
  await b.browserContext().close();
}

// Issue 43's walk, at phone size: two accounts; the creator makes a rated
// private room, sends the link and switches away (the tab killed); the
// friend opens the link and waits; the creator comes back (the login token
// signs in, * SEATED opens the room), the game starts with the ratings in
// view; the friend reloads mid-game; the game is played to its end and the
// rating change shown. (How long the creator stays away does not matter
// below away-keep: WALK_AWAY_S=180 walks it with three minutes away.)
async function friendWalk() {
  const id = process.pid % 10000;
  const aName = `walka${id}`;
  const bName = `walkb${id}`;
  let a = await open(null, PHONE);
  const actx = a.browserContext();
  const b = await open(null, PHONE);
  // a guest's private room cannot be rated: the note says so
  assert.equal(await a.$eval('#create-rated-note', (e) => e.hidden), false);
  await register(a, aName);
  assert.equal(await a.$eval('#create-rated-note', (e) => e.hidden), true);
  await register(b, bName);
  await a.click('#create-rated');
  await a.select('#create select[name=colour]', 'black');
  await a.select('#create select[name=tc]', '300+5');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const link = await a.$eval('#share-link', (e) => e.value);
  // switched away to send it: the hidden page closes its connection itself
  // (a phone may keep a frozen page's socket open for minutes)
  await setHidden(a, true);
  await waitText(a, '#status', /^Away: your room and your search wait for you\.$/);
  // WALK_AWAY_S: how long the creator stays away before the friend comes
  // (0 in make test; the walk by hand: 180)
  await sleep(Number(process.env.WALK_AWAY_S || 0) * 1000);
  await b.goto(link);
  await b.waitForSelector('#game:not([hidden])', { timeout: T });
  await waitText(b, '#turn', new RegExp(`^Waiting for ${aName} to come back`));
  await sleep(Number(process.env.WALK_AWAY_S || 0) * 100);
  await setHidden(a, false); // back: the page connects again, its room's game starts
  assert.equal(await named(a), aName, 'the creator came back as someone else');
  await waitText(a, '#turn', /^Your move$/);
  for (const p of [a, b]) {
    await waitText(p, '#gameinfo', /^rated · freestyle 15×15 · 5 min \+ 5 s$/);
    await waitText(p, '#p-black .rating', /^1500\?$/);
    await waitText(p, '#p-white .rating', /^1500\?$/);
  }
  ok('the walk: a rated private room from a phone, its creator away (the page hidden) while the friend opens the link, back when it is shown: the game starts, rated, ratings beside both names');
  for (const [p, mv] of [[a, 'h8'], [b, 'a1'], [a, 'i8'], [b, 'a2']]) await play(p, mv);
  await b.reload();
  assert.equal(await named(b), bName);
  await waitStone(b, 'a2');
  await waitText(b, '#p-white .rating', /^1500\?$/);
  for (const [p, mv] of [[a, 'j8'], [b, 'a3'], [a, 'k8'], [b, 'a4'], [a, 'l8']]) await play(p, mv);
  await waitText(a, '#turn', /^Black wins \(five\)$/);
  await waitText(a, '#p-black .rating', /^1[5-9][0-9]{2} \(\+[0-9]+\)$/);
  await waitText(b, '#p-white .rating', /^1[0-4][0-9]{2} \(−[0-9]+\)$/);
  await shot(b, 'walk-end-phone');
  ok('the walk: the friend reloads mid-game and plays on as the account; the game ends with each rating change shown');
  await a.close(); // the tab killed: the account is back in a new one (login token)
  a = await newPage(actx);
  a.on('pageerror', (e) => pageErrors.push(String(e)));
  await a.setViewport(PHONE);
  await a.goto(`https://127.0.0.1:${daemon.port}/`);
  assert.equal(await named(a), aName);
  await actx.close();
  await b.browserContext().close();
}

// The page hidden (the player switched apps) or shown again, as the
// browser says it: document.hidden and a visibilitychange event.
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

// ---- 3: a browser against the terminal client -------------------------------

async function terminalGame() {
  const a = await open();
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const code = (await a.$eval('#share-link', (e) => e.value)).split('#join=')[1];
  const cli = spawn(`${BINDIR}/gomoku`, ['--script', '--insecure', '--name', 'termy', `127.0.0.1:${daemon.port}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise((r) => cli.on('exit', r));
  let out = '';
  const white = ['a1', 'a2', 'a3', 'a4'];
  let room = null;
  let wi = 0;
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`terminal player: ${out}`)), T * 2);
    cli.stdout.on('data', (b) => {
      out += b;
      for (;;) {
        const nl = out.indexOf('\n');
        if (nl < 0) break;
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (process.env.TC_VERBOSE) console.log(`  termy< ${line}`);
        let m;
        if ((m = /^OK JOIN ([a-z0-9]+)/.exec(line))) room = m[1];
        if ((m = /^\* MOVE ([a-z0-9]+) [0-9]+ black /.exec(line)) && wi < white.length) cli.stdin.write(`MOVE ${m[1]} ${white[wi++]}\n`);
        if (/^\* OVER /.exec(line)) {
          clearTimeout(timer);
          cli.stdin.end();
          resolve(line);
        }
      }
    });
  });
  cli.stdin.write(`JOIN ${code}\n`);
  await waitText(a, '#turn', /^Your move$/);
  for (const mv of ['h8', 'i8', 'j8', 'k8']) {
    await play(a, mv);
  }
  await waitStone(a, 'a4');
  await play(a, 'l8');
  const over = await done;
  assert.match(over, /^\* OVER [a-z0-9]+ [0-9]+ black five h8,i8,j8,k8,l8$/);
  assert.ok(room, 'the terminal client never joined');
  await waitText(a, '#turn', /^Black wins/);
  assert.equal(await exited, 0, 'the terminal client did not end cleanly');
  ok('a browser player and a bin/gomoku --script player finish a game together');
  await a.browserContext().close();
}

// ---- 4: renju forbidden points -------------------------------------------------

async function renjuGame() {
  const a = await open();
  await a.select('#create select[name=rule]', 'renju');
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const b = await open(await a.$eval('#share-link', (e) => e.value));
  // black h8 j8 and h10 j10 around i9: i9 is a double-three for black
  for (const [bm, wm] of [['h8', 'a1'], ['j8', 'a3'], ['h10', 'o1'], ['j10', 'o3']]) {
    await play(a, bm);
    await play(b, wm);
  }
  await a.waitForSelector('[data-forbidden="i9"]', { timeout: T });
  const label = await a.$eval('[data-mv="i9"]', (e) => e.getAttribute('aria-label'));
  assert.match(label, /forbidden for black/);
  await shot(a, 'renju-desktop');
  await pick(a, 'i9');
  await waitText(a, '#toast', /double three/);
  assert.equal(await a.$('[data-stone="i9"]'), null);
  ok('renju: the forbidden point the server names is marked; a click on it is refused with the reason');
  for (const p of [a, b]) await p.browserContext().close();
}

// ---- 5: a swap2 opening by clicks and buttons ------------------------------------

async function swap2Game() {
  const a = await open();
  await a.select('#create select[name=opening]', 'swap2');
  await a.select('#create select[name=colour]', 'black'); // the opener
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const b = await open(await a.$eval('#share-link', (e) => e.value));
  await waitText(a, '#turn', /^Swap2: place 3 more stones/);
  for (const mv of ['h8', 'h9', 'i9']) {
    await pick(a, mv);
    await a.waitForSelector(`[data-stone="${mv}"]`, { timeout: T });
  }
  await waitStone(b, 'i9');
  await waitText(b, '#turn', /^Swap2: choose your colour$/);
  assert.equal(await b.$eval('#swap2-put', (e) => e.hidden), false);
  await b.click('#swap2-white');
  await waitText(b, '#turn', /^Your move$/);
  await waitText(a, '#turn', /to move$/);
  assert.equal(await a.$eval('#p-black .name', (e) => e.textContent.endsWith('(you)')), true);
  await play(b, 'j10');
  await waitStone(a, 'j10');
  await play(a, 'g7');
  ok('swap2: the opener puts three stones by clicks, the other takes white by a button and moves');
  for (const p of [a, b]) await p.browserContext().close();
}

// ---- 5b: the opening rules (issue 46), a whole renju game under each -------------

// Each renju rule's opening as its acts, in the order the server asks for
// them (PROTOCOL.md 5.16): [stage, argument, area]. Whoever's stage it is
// acts; the first three stones make D1 Kansei (h8, h9, h10), white's 4th
// (k5) leaves the board without a symmetry, so no two offers are the same.
const TEN = ['c13', 'm3', 'n13', 'b3', 'c2', 'm14', 'd14', 'l2', 'b12', 'n4'];
const OPENING_SCRIPTS = {
  rif: [['place', 'h8', 'centre'], ['place', 'h9', 'in3'], ['place', 'h10', 'in5'], ['swap', 'white'],
    ['place', 'k5', 'any'], ['offer', ['c13', 'm3']], ['choose', 'm3', 'offers']],
  yamaguchi: [['place', 'h8', 'centre'], ['place', 'h9', 'in3'], ['place', 'h10', 'in5'], ['declare', 3], ['swap', 'black'],
    ['place', 'k5', 'any'], ['offer', ['c13', 'm3', 'n13']], ['choose', 'c13', 'offers']],
  soosorv8: [['place', 'h8', 'centre'], ['place', 'h9', 'in3'], ['place', 'h10', 'in5'], ['swap', 'white'],
    ['place', 'k5', 'any'], ['declare', 2], ['swap', 'white'], ['offer', ['c13', 'm3']], ['choose', 'm3', 'offers']],
  taraguchi10: [['place', 'h8', 'centre'], ['swap', 'white'], ['place', 'h9', 'in3'], ['swap', 'black'], ['place', 'h10', 'in5'],
    ['swap', 'white'], ['place', 'k5', 'in7'], ['branch', 'ten'], ['offer', TEN], ['choose', 'n4', 'offers']],
  'taraguchi10 one': [['place', 'h8', 'centre'], ['swap', 'white'], ['place', 'h9', 'in3'], ['swap', 'black'], ['place', 'h10', 'in5'],
    ['swap', 'white'], ['place', 'k5', 'in7'], ['branch', 'one'], ['swap', 'black'], ['place', 'd4', 'in9'], ['swap', 'white']],
  // and freestyle's: black's second away from the centre
  pro: [['place', 'h8', 'centre'], ['place', 'o14', 'any'], ['place', 'n2', 'out5']],
  longpro: [['place', 'h8', 'centre'], ['place', 'o14', 'any'], ['place', 'n2', 'out7']],
};
// the points an area token names on 15x15 (what the board shades), for a count
const AREA_POINTS = { centre: 1, in3: 9, in5: 25, in7: 49, in9: 81, out5: 225 - 25, out7: 225 - 49 };

// The opening stage a page shows: the model's, with the stones on the board.
const stageOf = (page) => page.evaluate(() => {
  const m = window.gomokud.model;
  const o = m.opening();
  return o && { stage: o.stage, mine: o.mine, area: o.area, count: o.count, offers: o.offers, seq: m.game.seq, plies: m.game.moves.length };
});

// The page whose stage it is, once both pages are at the same event and
// hold no act unanswered (OK OPENING follows the act's events).
async function actor(pages) {
  await pages[0].waitForFunction(() => window.gomokud.model.game && window.gomokud.model.opening(), { timeout: T });
  const seqOf = (p) => p.evaluate(() => window.gomokud.model.game.seq);
  const seq = await seqOf(pages[0]);
  await Promise.all(pages.map((p) => p.waitForFunction((s) => {
    const m = window.gomokud.model;
    return m.game && m.game.seq === s && m.opening() && !m.sentQ.some((r) => r.name === 'OPENING');
  }, { timeout: T }, seq)));
  for (const p of pages) {
    const o = await stageOf(p);
    if (o && o.mine) return [p, o];
  }
  throw new Error('no page is to act in the opening');
}

async function openingGame(rule) {
  const [token] = rule.split(' ');
  const renju = !['pro', 'longpro'].includes(token);
  const a = await open();
  // the chooser: what a renju 15x15 game takes, the freestyle ones, the bots' (all)
  assert.ok(await a.evaluate(() => window.gomokud.model.caps.includes('openings')), 'the server does not list openings');
  await a.select('#create select[name=rule]', 'renju');
  assert.deepEqual(await a.$$eval('#create select[name=opening] option', (os) => os.map((o) => o.value)), ['none', 'rif', 'yamaguchi', 'soosorv8', 'taraguchi10']);
  assert.match(await a.$eval('#create select[name=opening]', (s) => s.options[4].textContent), /^Taraguchi-10$/);
  await a.select('#bot select[name=rule]', 'renju');
  assert.deepEqual(await a.$$eval('#bot select[name=opening] option', (os) => os.map((o) => o.value)), ['none', 'rif', 'yamaguchi', 'soosorv8', 'taraguchi10']);
  await a.select('#seek select[name=rule]', 'freestyle');
  assert.deepEqual(await a.$$eval('#seek select[name=opening] option', (os) => os.map((o) => o.value)), ['none', 'swap2', 'swap', 'pro', 'longpro']);
  if (!renju) await a.select('#create select[name=rule]', 'freestyle');
  await a.select('#create select[name=opening]', token);
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  // the friend on a phone (taps, a first tap previewing) under Yamaguchi
  const b = await open(await a.$eval('#share-link', (e) => e.value), token === 'yamaguchi' ? PHONE : DESKTOP);
  const pages = [a, b];
  for (const [stage, arg, area] of OPENING_SCRIPTS[rule]) {
    const [p, o] = await actor(pages);
    const other = pages.find((x) => x !== p);
    assert.equal(o.stage, stage, `${rule}: the stage at seq ${o.seq}`);
    if (area) assert.equal(o.area, area, `${rule}: the area of ${stage} ${arg}`);
    const words = await text(p, '#turn');
    if (!words) { // said with what the page holds, to tell a page not rendered from one rendered empty
      assert.fail(`${rule}: ${stage} ${arg}: #turn empty; the page: ${await p.evaluate(() => JSON.stringify({ view: window.gomokud.view,
        status: window.gomokud.model.game.status, o: window.gomokud.model.opening(), hidden: document.getElementById('game').hidden }))}`);
    }
    // the stage's buttons shown, each one a finger can hit (44 CSS px)
    const sizes = await p.$$eval('#opening button', (bs) => bs.filter((x) => x.offsetParent !== null).map((x) => { const r = x.getBoundingClientRect(); return { width: r.width, height: r.height }; }));
    assert.equal(sizes.length > 0, stage !== 'place', `${rule}: ${stage}'s buttons`);
    assert.ok(sizes.every((r) => r.width >= 44 && r.height >= 44), `${rule}: an opening button under 44 px at ${stage}: ${JSON.stringify(sizes)}`);
    if (stage === 'place') {
      assert.match(words, /^Place the [1-5](st|nd|rd|th) stone (anywhere|on the centre point|(in|outside) the central [3-9]×[3-9])$/, `${rule}: ${stage} ${arg}`);
      assert.match(await text(other, '#turn'), / places the [1-5](st|nd|rd|th) stone$/);
      // the area shaded on both boards, where it restricts the stone
      if (AREA_POINTS[area]) for (const x of pages) assert.equal(await x.$$eval('[data-area]', (r) => r.length), AREA_POINTS[area], `${rule}: ${area} shaded`);
      // and said: the point's label, for a screen reader (the shade is not all)
      if (AREA_POINTS[area]) assert.match(await p.$eval(`[data-mv="${arg}"]`, (e) => e.getAttribute('aria-label')), new RegExp(`^${arg} empty, allowed now$`));
      await pick(p, arg);
      await waitStone(other, arg);
    } else if (stage === 'swap') {
      assert.match(words, /^Choose your colour \(you hold (black|white) now\)$/);
      await p.click(`#open-${arg}`);
    } else if (stage === 'declare') {
      assert.match(words, /^Declare how many fifth moves you will offer \(1–(8|10)\)$/);
      assert.equal(await p.$$eval('#open-declare [data-declare]', (bs) => bs.length), o.count);
      await p.click(`[data-declare="${arg}"]`);
    } else if (stage === 'branch') {
      assert.equal(words, 'Taraguchi: one fifth move in the centre 9×9, or ten offers');
      await p.click(`#open-${arg}`);
    } else if (stage === 'offer') {
      assert.equal(o.count, arg.length, `${rule}: the offers to make`);
      assert.match(words, new RegExp(`^Offer ${arg.length} fifth moves: tap them, then confirm \\(0 picked\\)$`));
      for (const mv of arg) await pick(p, mv);
      await p.waitForFunction((n) => document.querySelectorAll('[data-picked]').length === n, { timeout: T }, arg.length);
      await p.click('#open-confirm');
    } else if (stage === 'choose') {
      assert.equal(words, 'Choose one of the offered fifth moves');
      // the offers on both boards, numbered, and a button for each
      for (const x of pages) assert.equal(await x.$$eval('[data-fifth]', (f) => f.length), o.offers.length, `${rule}: offers marked`);
      assert.equal(await p.$eval(`[data-mv="${o.offers[0]}"]`, (e) => e.getAttribute('aria-label')), `${o.offers[0]} empty, offered fifth move 1`);
      if (rule === 'rif') { // a reload at the choice: the snapshot's = OPENING shows it again
        await p.reload();
        await named(p);
        await p.waitForFunction((n) => document.querySelectorAll('#open-choose [data-choose]').length === n, { timeout: T }, o.offers.length);
      }
      await p.click(`[data-choose="${arg}"]`);
      await waitStone(other, arg);
    }
    // answered: its events came before its OK (the next stage, or * COLOURS)
    await p.waitForFunction((s) => window.gomokud.model.game.seq > s && !window.gomokud.model.sentQ.some((r) => r.name === 'OPENING'), { timeout: T }, o.seq);
    await other.waitForFunction((s) => window.gomokud.model.game.seq > s, { timeout: T }, o.seq);
  }
  // the opening done (* COLOURS): play to five, black on row 1, white on row 15
  for (const x of pages) await x.waitForFunction(() => window.gomokud.model.game.status === 'playing', { timeout: T });
  // the renju opening's name, shown to both (the reloaded page's from its snapshot)
  if (renju) for (const x of pages) await waitText(x, '#opening-name', /: (RIF|Yamaguchi|Soosõrv-8|Taraguchi-10) · D1 Kansei 寒星$/);
  else for (const x of pages) assert.match(await text(x, '#opening-name'), /^Opening: (pro|long pro)$/);
  const blackPage = (await a.evaluate(() => window.gomokud.model.mySide())) === 'black' ? a : b;
  const whitePage = blackPage === a ? b : a;
  const plies = await a.evaluate(() => window.gomokud.model.game.moves.length);
  assert.equal(plies, renju ? 5 : 3, `${rule}: the stones when the opening ends`);
  const blackMoves = ['a1', 'b1', 'c1', 'd1', 'e1'];
  for (const [i, w] of ['a15', 'c15', 'e15', 'g15', 'j15'].entries()) {
    await play(whitePage, w);
    await waitStone(blackPage, w);
    await play(blackPage, blackMoves[i]);
    await waitStone(whitePage, blackMoves[i]);
  }
  for (const x of pages) await waitText(x, '#turn', /^Black wins \(five\)$/);
  await shot(blackPage, `opening-${rule.replace(' ', '-')}`);
  ok(`${rule}: its opening played between two browsers${token === 'yamaguchi' ? ' (one on a phone)' : ''} (each stage's words, area shaded, offers marked and chosen, buttons of 44 px)${renju ? ', D1 Kansei named' : ''}, the game to five`);
  for (const p of [a, b]) await p.browserContext().close();
}

async function openingGames() {
  // OPENING_RULES=pro,rif: only those (a branch too: "taraguchi10 one")
  const only = process.env.OPENING_RULES;
  for (const rule of Object.keys(OPENING_SCRIPTS)) if (!only || only.split(',').includes(rule)) await openingGame(rule);
}

// ---- 5c: the analysis board (issue 47; PROTOCOL.md 5.17, 5.18) -------------------

const aStones = (page) => page.$$eval('#aboard [data-stone]', (s) => s.length);

// A stone placed on the analysis board: its point clicked, then the
// server's word awaited, the stone on the board or the refusal said.
async function aPlace(page, mv) {
  const n = await aStones(page);
  await page.click(`#aboard [data-mv="${mv}"]`);
  await page.waitForFunction((m, k) => document.querySelector(`#aboard [data-stone="${m}"]`) && document.querySelectorAll('#aboard [data-stone]').length === k + 1
    || document.getElementById('a-refusal').textContent !== '', { timeout: T }, mv, n);
}

// The engine asked about the position shown: its candidates on the board
// and listed, its reason said.
async function aEngine(page) {
  await page.waitForFunction(() => !document.getElementById('a-engine').disabled, { timeout: T });
  await page.click('#a-engine');
  await page.waitForFunction(() => document.querySelector('#a-cands li') || /[0-9]{3}|[A-Za-z]/.test(document.getElementById('a-reason').textContent)
    && !document.getElementById('a-engine').disabled, { timeout: T });
}

// The position of PROTOCOL.md 5.17: black's j8 is a double three.
const RENJU_J8 = ['h8', 'a1', 'i8', 'a3', 'j9', 'a5', 'j10', 'a7'];

// Set up from the lobby: renju, the stones of both sides in turn by clicks
// (each judged by POSITION), the forbidden point the server names marked
// and a click on it refused with the reason, as a stone on a stone; the
// engine's candidates on the board with their scores, its reason, its line
// stepped stone by stone; undo and clear. In English and Chinese, with
// screenshots. Then fair play: a player seated in a game (a bot's, not
// over) opens a finished game's replay by its link, analyses it from
// there, and the engine is refused in words (452).
async function analysisBoard() {
  const started = Date.now();
  const a = await open();
  await a.waitForSelector('#analysis-card:not([hidden])', { timeout: T });
  await a.select('#analyse select[name=rule]', 'renju');
  await a.click('#analyse-go');
  await a.waitForSelector('#analysis:not([hidden])', { timeout: T });
  await waitText(a, '#a-turn', /^Black to move$/);
  assert.equal(await text(a, '#a-info'), 'renju 15×15');
  for (const mv of RENJU_J8) await aPlace(a, mv);
  assert.equal(await aStones(a), 8);
  assert.equal(await text(a, '#a-refusal'), '');
  await a.waitForSelector('#aboard [data-forbidden="j8"]', { timeout: T });
  assert.deepEqual(await a.$$eval('#aboard [data-forbidden]', (l) => l.map((x) => x.dataset.forbidden)), ['j8']);
  assert.match(await a.$eval('#aboard [data-mv="j8"]', (e) => e.getAttribute('aria-label')), /forbidden for black/);
  await waitText(a, '#a-turn', /^Black to move$/);
  await aPlace(a, 'j8');
  assert.equal(await text(a, '#a-refusal'), 'j8: Forbidden for black under renju: a double three');
  assert.equal(await a.$('#aboard [data-stone="j8"]'), null);
  await aPlace(a, 'h8');
  assert.equal(await text(a, '#a-refusal'), 'h8: That point is already taken');
  assert.equal(await aStones(a), 8);
  // its address holds the position: a reload sets it up again
  assert.equal(await a.evaluate(() => location.hash), `#analysis=renju/15/${RENJU_J8.join(',')}`);
  await a.reload();
  await named(a);
  await a.waitForSelector('#analysis:not([hidden])', { timeout: T });
  await a.waitForSelector('#aboard [data-forbidden="j8"]', { timeout: T });
  assert.equal(await aStones(a), 8);
  ok('the analysis board: a renju position set up by clicks, the server\'s forbidden point marked, a stone there or on a stone refused in words; a reload sets it up again');

  await aEngine(a);
  const cands = await a.$$eval('#a-cands li', (l) => l.map((x) => x.dataset.cand));
  assert.ok(cands.length >= 1 && cands.length <= 5, `candidates: ${cands}`);
  assert.deepEqual(await a.$$eval('#aboard [data-cand]', (l) => l.map((x) => x.dataset.cand)), cands);
  assert.ok(!cands.includes('j8'), 'the engine proposes the forbidden point');
  const reason = await text(a, '#a-reason');
  assert.match(reason, /^(black|Black).*: [a-o][0-9]+.*\(depth [0-9]+\)$/, reason);
  assert.match(await text(a, '#a-cands'), /black/);
  await langShot(a, 'en', 'analysis');
  const pv = Number((await text(a, '#a-line-pos')).split(' / ')[1]);
  assert.ok(pv >= 1, 'no line');
  await a.click('#a-line-next');
  await a.waitForSelector('#aboard [data-line]', { timeout: T });
  assert.equal(await a.$eval('#aboard [data-line]', (e) => e.textContent), '1');
  assert.equal(await a.$$eval('#aboard [data-cand]', (l) => l.length), 0, 'candidates drawn over the line');
  await a.click('#a-line-last');
  assert.equal(await a.$$eval('#aboard [data-line]', (l) => l.length), pv);
  assert.equal(await aStones(a), 8 + pv);
  assert.equal(await text(a, '#a-line-pos'), `${pv} / ${pv}`);
  await contrastThemes(a, 'the analysis board with the engine\'s line', 40);
  await a.click('#a-line-first');
  await contrastThemes(a, 'the analysis board with the engine\'s candidates', 40);
  assert.equal(await aStones(a), 8);
  ok(`the engine: ${cands.length} candidates with scores on the board and listed, "${reason}", its line of ${pv} stepped stone by stone`);

  await a.click('#a-undo');
  await waitText(a, '#a-turn', /^White to move$/);
  assert.equal(await aStones(a), 7);
  assert.equal(await a.$$eval('#aboard [data-forbidden]', (l) => l.length), 0);
  assert.equal(await a.$('#a-engine-box:not([hidden])'), null, 'the engine\'s answer outlived its position');
  await a.click('#a-clear');
  await waitText(a, '#a-turn', /^Black to move$/);
  assert.equal(await aStones(a), 0);
  // a five: the result and its line as the server says them; no engine
  for (const mv of ['h8', 'a1', 'i8', 'a3', 'j8', 'a5', 'k8', 'a7', 'l8']) await aPlace(a, mv);
  await waitText(a, '#a-turn', /^Black wins \(five\)$/);
  assert.equal(await a.$$eval('#aboard [data-win]', (w) => w.map((x) => x.dataset.win).sort().join(',')), 'h8,i8,j8,k8,l8');
  assert.equal(await a.$eval('#a-engine', (e) => e.disabled), true);
  await aPlace(a, 'a9');
  assert.equal(await text(a, '#a-refusal'), 'a9: The game is over in this position');
  await a.click('#a-clear');
  await waitText(a, '#a-turn', /^Black to move$/);
  await a.click('#a-back');
  await a.waitForSelector('#lobby:not([hidden])', { timeout: T });
  ok('undo asks the position again (white to move, no forbidden point), clear empties the board; a five said as the server says it, a stone after it refused; back to the lobby');

  // the same in Chinese: the words, the refusal, the engine's reason
  const z = await open(null, DESKTOP, ZH);
  await z.waitForSelector('#analysis-card:not([hidden])', { timeout: T });
  assert.equal(await text(z, '#analyse-go'), '打开研究棋盘');
  await z.select('#analyse select[name=rule]', 'renju');
  await z.click('#analyse-go');
  await waitText(z, '#a-turn', /^轮到黑棋$/);
  for (const mv of RENJU_J8) await aPlace(z, mv);
  await z.waitForSelector('#aboard [data-forbidden="j8"]', { timeout: T });
  await aPlace(z, 'j8');
  assert.equal(await text(z, '#a-refusal'), 'j8：连珠规则下黑棋禁手：三三');
  await aEngine(z);
  assert.match(await text(z, '#a-reason'), /^黑棋.*（深度 [0-9]+）$/);
  const side = await z.$eval('#analysis aside', (e) => e.innerText);
  assert.doesNotMatch(side, ENGLISH, `English beside the Chinese analysis board: ${side}`);
  await langShot(z, 'zh_CN', 'analysis');
  ok('the analysis board in Chinese: its words, the refusal and the engine\'s reason');
  await z.browserContext().close();

  // fair play: seated in a bot's game, the replay of a finished game (its
  // link) analysed: the engine refused, in words
  await a.select('#bot select[name=level]', '1');
  await a.select('#bot select[name=colour]', 'black');
  await a.click('#bot-go');
  await play(a, 'h8');
  await a.waitForFunction(() => document.querySelectorAll('#board [data-stone]').length === 2, { timeout: T });
  await a.click('#resign');
  await a.click('#confirm-yes');
  await waitText(a, '#turn', /^White wins/);
  await a.click('#leave');
  await a.click('#history-go');
  await a.waitForSelector('[data-replay]', { timeout: T });
  const id = await a.$eval('[data-replay]', (e) => e.dataset.replay);
  await a.click('#bot-go');
  await waitText(a, '#turn', /^Your move$/);
  await a.evaluate((i) => { location.hash = `#replay=${i}`; }, id);
  await a.waitForSelector('#replay:not([hidden])', { timeout: T });
  await waitText(a, '#r-pos', /^2 \/ 2$/);
  // the game's snapshot answered now (a STATE sent before the link was
  // followed, as the bot game's own can be) updates the game: the replay stays
  await a.evaluate(() => {
    const app = window.gomokud;
    app.model.sent('STATE', [app.model.game.room], '#late');
    app.ws.send(`#late STATE ${app.model.game.room}`);
  });
  await a.waitForFunction(() => !window.gomokud.model.sentQ.some((r) => r.tag === '#late'), { timeout: T });
  assert.equal(await a.evaluate(() => window.gomokud.view), 'replay', 'a late snapshot took the page back to the game');
  await a.click('#r-analyse');
  await a.waitForSelector('#analysis:not([hidden])', { timeout: T });
  await waitText(a, '#a-turn', /^Black to move$/);
  assert.equal(await aStones(a), 2);
  assert.equal(await text(a, '#a-info'), `freestyle 15×15 · from game ${id}, move 2`);
  await aEngine(a);
  assert.equal(await text(a, '#a-reason'), 'No analysis while you play a game, nor of a game being played');
  assert.equal(await a.$$eval('#aboard [data-cand]', (l) => l.length), 0);
  await a.click('#a-back');
  await a.waitForSelector('#replay:not([hidden])', { timeout: T });
  ok('fair play: seated in an unfinished game, a finished game\'s position analysed from its replay is refused in words (452)');
  await a.browserContext().close();
  ok(`the analysis board's cases took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- 5d: the review (issue 47; PROTOCOL.md 5.19) ---------------------------------

// A crafted game between two pages: white answers black's open three
// h8 i8 j8 with its own, c3 d3 e3 (move 6, a blunder), black plays o15
// instead of the open four (move 7, a missed win: white's open four f3
// wins at once, so no deeper search finds black a win after o15), black
// blocks g3 and white's b3 makes five. Its marks hold for a review-ms of
// up to 500 ms (a much longer search finds black's win a move earlier,
// and white's move 6 then loses nothing).
const CRAFTED = ['h8', 'c3', 'i8', 'd3', 'j8', 'e3', 'o15', 'f3', 'g3', 'b3'];

// The review's marks as the page lists them.
const markTexts = (page) => page.$$eval('#review-marks [data-mark]', (l) => l.map((x) => x.textContent));

// The crafted game played to its end, replayed; Review pressed, its
// progress said, then the graph and the marks (its known missed win and
// blunders); a mark's line played on the board and back; the graph
// clicked to a position; the page reloaded: the stored review at once.
// The other player sees it in Chinese; a stranger is refused it (454:
// a private room's game).
async function reviewGame() {
  const started = Date.now();
  const a = await open();
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const b = await open(await a.$eval('#share-link', (e) => e.value));
  for (let i = 0; i < CRAFTED.length; i++) await play(i % 2 ? b : a, CRAFTED[i]);
  await waitText(a, '#turn', /^White wins \(five\)$/);
  await replayNewest(a);
  await waitText(a, '#r-pos', /^10 \/ 10$/);
  const id = await a.evaluate(() => window.gomokud.model.replay.rec.id);
  assert.equal(await a.evaluate(() => location.hash), `#replay=${id}`);
  await a.waitForSelector('#review-go:not([hidden])', { timeout: T });
  assert.equal(await text(a, '#review-state'), 'The engine has not reviewed this game yet.');
  await a.evaluate(() => {
    window.reviewSaid = [];
    new MutationObserver((recs) => {
      for (const r of recs) for (const n of r.addedNodes) window.reviewSaid.push([n.textContent, document.getElementById('review-progress').hidden]);
    }).observe(document.getElementById('review-state'), { childList: true });
  });
  await a.click('#review-go');
  await a.waitForSelector('#review-graph:not([hidden])', { timeout: T });
  const said = await a.evaluate(() => window.reviewSaid);
  assert.ok(said.some(([s, hidden]) => /^Reviewing: [0-9]+\/11 positions$/.test(s) && !hidden), `no progress said: ${JSON.stringify(said)}`);
  assert.equal(await a.$eval('#review-go', (e) => e.hidden), true);
  assert.equal(await a.$eval('#review-progress', (e) => e.hidden), true);
  const marks = await markTexts(a);
  const missed = marks.findIndex((m) => /^Move 7, black: missed win \(100% → [0-9]+%\)\. Better: [a-o][0-9]+ — black .*: [a-o][0-9]+/.test(m));
  assert.ok(missed >= 0, `no missed win at move 7:\n${marks.join('\n')}`);
  assert.ok(marks.some((m) => /^Move 6, white: blunder/.test(m)), `no blunder at move 6:\n${marks.join('\n')}`);
  // the graph: a point for each of the 11 positions, the one shown, the marks
  assert.equal(await a.$eval('#review-graph polyline', (e) => e.getAttribute('points').split(' ').length), 11);
  assert.equal(await a.$eval('#review-graph [data-at]', (e) => e.dataset.at), '10');
  assert.equal(await a.$$eval('#review-graph [data-graph-mark]', (l) => l.length), marks.length);
  // for a screen reader: the graph an image with its name, each mark a button
  const ax = await axNodes(a, '#review');
  axHas(ax, 'image', "Black's chance to win, move by move", 'the review');
  axHas(ax, 'button', marks[missed], 'the review');
  ok(`the review: Review pressed, its progress said (${said.map(([s]) => s).filter((s) => /\//.test(s)).join(', ')}), then the graph and ${marks.length} marks, the known missed win and blunders among them`);

  // a mark: the position before its move, its better line stone by stone
  const better = /Better: ([a-o][0-9]+)/.exec(marks[missed])[1];
  await a.click(`#review-marks [data-mark="${missed}"]`);
  await waitText(a, '#r-pos', /^6 \/ 10$/);
  await a.waitForSelector('#rboard [data-line]', { timeout: T });
  assert.equal(await a.$eval('#rboard [data-line]', (e) => `${e.dataset.line} ${e.textContent}`), `${better} 1`);
  await a.waitForFunction(() => document.getElementById('r-line-step').disabled, { timeout: T }); // played to its end
  const [, shown, len] = /\(([0-9]+)\/([0-9]+)\)$/.exec(await text(a, '#r-line-text')).map(Number);
  assert.equal(shown, len);
  assert.equal(await a.$$eval('#rboard [data-line]', (l) => l.length), len);
  assert.equal(await a.$$eval('#rboard [data-stone]', (l) => l.length), 6 + len);
  await langShot(a, 'en', 'review');
  await contrastThemes(a, 'the review with a mark\'s line', 40);
  await a.click('#r-line-back');
  await a.waitForFunction(() => !document.querySelector('#rboard [data-line]'), { timeout: T });
  assert.equal(await a.$$eval('#rboard [data-stone]', (l) => l.length), 6);
  assert.equal(await a.$eval('#r-line', (e) => e.hidden), true);
  // the graph clicked: its left end is the empty board, its right the end
  const box = await (await a.$('#review-graph')).boundingBox();
  await a.mouse.click(box.x + 3, box.y + box.height / 2);
  await waitText(a, '#r-pos', /^0 \/ 10$/);
  assert.equal(await a.$eval('#review-graph [data-at]', (e) => e.dataset.at), '0');
  const chance = await a.evaluate(() => Math.round(window.gomokud.model.review.evals[0] / 10));
  assert.equal(await text(a, '#review-at'), `Black's chance to win here: ${chance}%`);
  await a.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  await waitText(a, '#r-pos', /^5 \/ 10$/);
  ok(`a mark clicked: the position before move 7, its line of ${len} from ${better} played stone by stone, then back; the graph clicked to a position`);

  // reloaded: the replay opens again by its address, its review at once
  await a.reload();
  await named(a);
  await a.waitForSelector('#replay:not([hidden])', { timeout: T });
  await a.waitForSelector('#review-graph:not([hidden])', { timeout: T });
  assert.equal(await a.$eval('#review-go', (e) => e.hidden), true);
  assert.deepEqual(await markTexts(a), marks);
  ok('a reload of the replay: the stored review shown at once, no button pressed');

  // the other player, in Chinese, by the replay's link; a stranger refused
  await b.select('#lang', 'zh_CN');
  await b.evaluate((i) => { location.hash = `#replay=${i}`; }, id);
  await b.waitForSelector('#review-graph:not([hidden])', { timeout: T });
  const zh = await markTexts(b);
  assert.ok(zh.some((m) => /^第 7 手，黑棋：错失胜机（100% → [0-9]+%）。更好的一手：/.test(m)), zh.join('\n'));
  await b.click(`#review-marks [data-mark="${missed}"]`);
  await b.click('#r-line-step'); // a stone at once, by the button
  await b.waitForSelector('#rboard [data-line]', { timeout: T });
  await b.waitForFunction(() => document.getElementById('r-line-step').disabled, { timeout: T });
  const side = await b.$eval('#replay aside', (e) => e.innerText);
  assert.doesNotMatch(side, ENGLISH, `English beside the Chinese review: ${side}`);
  await langShot(b, 'zh_CN', 'review');
  const c = await open(`https://127.0.0.1:${daemon.port}/#replay=${id}`);
  await c.waitForSelector('#replay:not([hidden])', { timeout: T });
  await waitText(c, '#review-state', /^That game was played in a private room you were not in$/);
  assert.equal(await c.$eval('#review-go', (e) => e.hidden), true);
  assert.equal(await c.$('#review-graph:not([hidden])'), null);
  ok('the review in Chinese for the other player; a stranger is told it is a private room\'s game (454)');
  for (const p of [a, b, c]) await p.browserContext().close();
  ok(`the review's cases took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- 5e: puzzles (issue 47; PROTOCOL.md 5.20) -----------------------------------

// A freestyle public game: white answers black's open three h8 i8 j8
// with its own (c3 d3 e3), and black plays o15 at move 7 instead of an
// open four at g8 or k8 (a missed VCF with two winning first moves, and
// white's open four f3 wins after it, so the miss is one at any search
// depth); black resigns. Reviewed, the missed win is a puzzle: the position of its first
// six moves, black to move, its kept solution g8 f8 k8.
const MISSED = ['h8', 'c3', 'i8', 'd3', 'j8', 'e3', 'o15', 'f3'];
const PUZZLE_AT = MISSED.slice(0, 6);

// A renju game of the same kind: black's open three h8 i8 j8 left open
// (c14) and o1 played at move 15, while l12 is a double three for black
// (l10 l11, m12 n12): its puzzle, black to move, has that forbidden point.
const MISSED_RENJU = ['h8', 'a1', 'l10', 'a15', 'l11', 'o15', 'm12', 'e1', 'n12', 'a9', 'i8', 'k2', 'j8', 'c14', 'o1', 'g8'];

// The puzzle of a game whose black missed a win at move ply, made over
// the protocol: two protocol clients play it in a public room, black
// resigns and asks for the review; its id, as the daemon's log names the
// puzzle made from that move.
async function missedPuzzle(rule, moves, ply) {
  const names = [`pz${rule[0]}b${process.pid % 10000}`, `pz${rule[0]}w${process.pid % 10000}`];
  const [b, w] = [await lineClient(daemon.port), await lineClient(daemon.port)];
  try {
    for (const [c, n] of [[b, names[0]], [w, names[1]]]) {
      await c.expect(/^\* SERVER .* puzzles/);
      c.send('HELLO 1 test');
      await c.expect(/^OK HELLO/);
      c.send(`GUEST ${n}`);
      await c.expect(/^OK GUEST /);
    }
    b.send(`SEEK ${rule} 15 none black casual none`);
    await b.expect(/^OK SEEK /);
    w.send(`SEEK ${rule} 15 none white casual none`);
    const room = (await w.expect(/^\* START /)).split(' ')[2];
    for (let i = 0; i < moves.length; i++) {
      const c = i % 2 ? w : b;
      c.send(`MOVE ${room} ${moves[i]}`);
      assert.match(await c.expect(/^(OK MOVE|ERR) /), /^OK MOVE /, `move ${moves[i]}`);
    }
    b.send(`RESIGN ${room}`);
    await w.expect(/^\* OVER .* white resign/);
    b.send('HISTORY');
    const game = (await b.expect(new RegExp(`^= GAME [0-9]+ ${rule} 15 ${names[0]} ${names[1]} `))).split(' ')[2];
    b.send(`REVIEW ${game}`);
    await b.expect(new RegExp(`^\\* REVIEWED ${game} ok `));
    const made = new RegExp(`info puzzle ([0-9]+) made from game ${game}, move ${ply} `);
    const t0 = Date.now();
    while (!made.test(daemon.log()) && Date.now() - t0 < T) await new Promise((r) => setTimeout(r, 100));
    const m = made.exec(daemon.log());
    assert.ok(m, `no puzzle made from game ${game}, move ${ply}`);
    return m[1];
  } finally {
    b.close();
    w.close();
  }
}

const pzStones = (page) => page.$$eval('#pboard [data-stone]', (l) => l.length);

// A move of the puzzle: its point clicked, then the solvers' word awaited.
async function solve(page, mv) {
  await page.click(`#pboard [data-mv="${mv}"]`);
  await page.waitForFunction((m) => document.querySelector(`#pboard [data-stone="${m}"]`) && !window.gomokud.model.sentQ.some((r) => r.name === 'SOLVE'),
    { timeout: T }, mv);
}

async function puzzleBoard() {
  const started = Date.now();
  const id = await missedPuzzle('freestyle', MISSED, 7);
  ok(`a public game with a missed VCF at move 7, played and reviewed by two protocol clients, made puzzle ${id}`);

  // one account: the lobby's next puzzle, solved with the kept first move
  const a = await open();
  await a.waitForSelector('#puzzle-card:not([hidden])', { timeout: T });
  await register(a, `pza${process.pid % 10000}`);
  await a.click('#puzzle-next');
  await a.waitForSelector('#puzzle:not([hidden])', { timeout: T });
  assert.equal(await a.evaluate(() => location.hash), `#puzzle=${id}`);
  assert.equal(await text(a, '#pz-head'), `Puzzle ${id}, rated 1500`);
  assert.equal(await text(a, '#pz-info'), 'freestyle 15×15');
  assert.equal(await text(a, '#pz-class'), 'VCF: win by fours');
  assert.equal(await text(a, '#pz-goal'), 'Black to move: five within 3 plies');
  assert.equal(await text(a, '#pz-state'), `Puzzle ${id}: black to move and win`);
  assert.deepEqual(await a.$$eval('#pboard [data-stone]', (l) => l.map((x) => `${x.dataset.stone} ${x.classList[1]}`)),
    PUZZLE_AT.map((mv, i) => `${mv} ${i % 2 ? 'white' : 'black'}`));
  assert.equal(await a.$eval('#pz-retry', (e) => e.hidden), true);
  await a.click('#pboard [data-mv="h8"]');
  await waitText(a, '#pz-refusal', /^h8: That point is already taken$/);
  await solve(a, 'g8');
  assert.equal(await text(a, '#pz-refusal'), '');
  await a.waitForSelector('#pboard [data-stone="f8"].white', { timeout: T });
  assert.equal(await text(a, '#pz-state'), 'g8 holds; the defence answers f8. Your move');
  assert.equal(await a.$eval('#pboard [data-last]', (e) => e.dataset.last), 'f8');
  await solve(a, 'k8');
  await waitText(a, '#pz-state', /^Solved: k8 makes five!$/);
  await a.waitForFunction(() => document.querySelectorAll('#pboard [data-win]').length === 5, { timeout: T });
  assert.equal(await a.$$eval('#pboard [data-win]', (l) => l.map((x) => x.dataset.win).sort().join(',')), 'g8,h8,i8,j8,k8');
  const ra = Number(/^Your puzzle rating: ([0-9]+)\??$/.exec(await text(a, '#pz-rating'))[1]);
  assert.ok(ra > 1500, `solved, and the rating fell: ${ra}`);
  assert.equal(await pzStones(a), 9);
  await a.click('#pboard [data-mv="a15"]'); // the puzzle ended: a click plays nothing
  assert.equal(await a.evaluate(() => window.gomokud.model.sentQ.some((r) => r.name === 'SOLVE')), false, 'a move sent after the end');
  assert.equal(await a.$eval('#pz-solution', (e) => e.hidden), true);
  await langShot(a, 'en', 'puzzle');
  await contrastThemes(a, 'a solved puzzle', 20);
  ok(`puzzle ${id} from the lobby's "Next puzzle": its class, plies and rating, black to move; g8 (the kept first move), the defence's f8 on the board, k8 solved with its five marked, the rating ${ra}`);
  await a.reload();
  await named(a);
  await a.waitForSelector('#puzzle:not([hidden])', { timeout: T });
  await waitText(a, '#pz-state', new RegExp(`^Puzzle ${id}: black to move and win$`));
  assert.equal(await pzStones(a), 6);
  ok('a reload opens the puzzle again by its address (#puzzle=ID)');

  // another account at phone size: the other winning first move, then a
  // retry failed with a quiet move, not rated, the solution stepped
  const b = await open(null, PHONE);
  await register(b, `pzb${process.pid % 10000}x`);
  await b.evaluate((i) => { location.hash = `#puzzle=${i}`; }, id);
  await b.waitForSelector('#puzzle:not([hidden])', { timeout: T });
  await waitText(b, '#pz-head', new RegExp(`^Puzzle ${id}, rated [0-9]+$`));
  await solve(b, 'k8');
  await b.waitForSelector('#pboard [data-stone="g8"].white', { timeout: T });
  assert.equal(await text(b, '#pz-state'), 'k8 holds; the defence answers g8. Your move');
  await solve(b, 'l8');
  await waitText(b, '#pz-state', /^Solved: l8 makes five!$/);
  assert.match(await text(b, '#pz-rating'), /^Your puzzle rating: 1[5-9][0-9]{2}\??$/);
  assert.equal(await b.$eval('#pz-retry', (e) => e.hidden), false);
  ok('a second account solves it with the other winning first move: k8, the defence\'s g8, l8 solved, rated');
  await b.click('#pz-retry');
  await waitText(b, '#pz-state', new RegExp(`^Puzzle ${id} again: black to move and win$`));
  assert.equal(await pzStones(b), 6);
  await solve(b, 'n2');
  await waitText(b, '#pz-state', /^Failed: after n2 the win by fours is gone \(each move must be a four\)$/);
  assert.equal(await text(b, '#pz-rating'), 'Not rated: you had tried this puzzle before; only a first try is rated');
  assert.equal(await text(b, '#pz-solution-text'), 'The solution: g8, f8, k8');
  assert.equal(await text(b, '#pz-pos'), '0 / 3');
  await b.click('#pz-next-stone');
  await b.waitForSelector('#pboard [data-line="g8"]', { timeout: T });
  assert.equal(await b.$eval('#pboard [data-line="g8"]', (e) => e.textContent), '1');
  await b.click('#pz-last');
  assert.deepEqual(await b.$$eval('#pboard [data-line]', (l) => l.map((x) => `${x.dataset.line} ${x.textContent}`)), ['g8 1', 'f8 2', 'k8 3']);
  assert.equal(await pzStones(b), 9, 'the solution on the puzzle\'s position, the failed try gone');
  assert.equal(await b.$('#pboard [data-stone="n2"]'), null);
  assert.equal(await text(b, '#pz-pos'), '3 / 3');
  // a phone: the board fits the screen, the buttons are in reach
  const box = await (await b.$('#pboard')).boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the board overflows the phone: ${JSON.stringify(box)}`);
  for (const sel of ['#pz-retry', '#pz-next', '#pz-daily', '#pz-back', '#pz-first', '#pz-last']) {
    const r = await (await b.$(sel)).boundingBox();
    assert.ok(r && r.height >= 40 && r.x >= 0 && r.x + r.width <= PHONE.width, `${sel} out of reach on a phone: ${JSON.stringify(r)}`);
  }
  const ax = await axNodes(b, '#puzzle');
  axHas(ax, 'grid', 'Puzzle board', 'a puzzle');
  axHas(ax, 'gridcell', 'g8 black, move 1 of the line', 'a puzzle');
  for (const name of ['Try again', 'Next puzzle', 'Daily puzzle', 'Back to the lobby', 'The position', 'The whole line']) axHas(ax, 'button', name, 'a puzzle');
  await shot(b, 'puzzle-phone');
  await b.click('#pz-first');
  assert.equal(await pzStones(b), 7);
  await b.waitForSelector('#pboard [data-stone="n2"]', { timeout: T });
  await b.click('#pz-next');
  await waitText(b, '#pz-refusal', /^No puzzle for you now: none left, or none yet$/);
  await b.click('#pz-back');
  await b.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await b.evaluate(() => { location.hash = '#puzzle=99999'; });
  await b.waitForSelector('#dead:not([hidden])', { timeout: T });
  assert.equal(await text(b, '#dead-text'), 'That puzzle cannot be opened.');
  assert.equal(await text(b, '#dead-why'), 'There is no puzzle of that number');
  ok('at phone size: a retry failed with a quiet move (n2), unrated as a second try, the solution g8 f8 k8 stepped on the board; the board and buttons in reach, named for a screen reader; "Next puzzle" with none left said (456); back to the lobby; #puzzle= of no puzzle leads to the dead-link page (402)');

  // a guest in Chinese: the daily puzzle from the lobby
  const z = await open(null, DESKTOP, ZH); // langShot's phone size without a reload
  await z.waitForSelector('#puzzle-card:not([hidden])', { timeout: T });
  assert.equal(await text(z, '#puzzle-daily'), '每日一题');
  await z.click('#puzzle-daily');
  await z.waitForSelector('#puzzle:not([hidden])', { timeout: T });
  await waitText(z, '#pz-head', new RegExp(`^习题 ${id}，难度等级分 [0-9]+$`));
  assert.equal(await text(z, '#pz-class'), 'VCF：连续冲四取胜');
  assert.equal(await text(z, '#pz-goal'), '黑棋先走：3 手之内连成五子');
  await solve(z, 'g8');
  await z.waitForSelector('#pboard [data-stone="f8"]', { timeout: T });
  assert.equal(await text(z, '#pz-state'), 'g8 成立；防守方应 f8。轮到你');
  await solve(z, 'a15');
  await waitText(z, '#pz-state', /^失败：走 a15 之后连续冲四的胜机没了（每一手都必须冲四）$/);
  assert.equal(await text(z, '#pz-rating'), '不计分：游客没有解题等级分（账号才有）');
  assert.equal(await text(z, '#pz-solution-text'), '答案：g8, f8, k8');
  const side = await z.$eval('#puzzle aside', (e) => e.innerText);
  assert.doesNotMatch(side, ENGLISH, `English beside the Chinese puzzle: ${side}`);
  await langShot(z, 'zh_CN', 'puzzle');
  ok('a guest in Chinese: the daily puzzle, its words, the defence\'s reply, a failed try unrated as a guest\'s, the solution');
  await z.browserContext().close();
  await b.browserContext().close();

  // renju: black's forbidden point in the puzzle, as the server names it
  const rid = await missedPuzzle('renju', MISSED_RENJU, 15);
  await a.evaluate((i) => { location.hash = `#puzzle=${i}`; }, rid);
  await waitText(a, '#pz-head', new RegExp(`^Puzzle ${rid}, rated [0-9]+$`));
  assert.equal(await text(a, '#pz-info'), 'renju 15×15');
  await a.waitForSelector('#pboard [data-forbidden="l12"]', { timeout: T });
  assert.deepEqual(await a.$$eval('#pboard [data-forbidden]', (l) => l.map((x) => x.dataset.forbidden)), ['l12']);
  assert.match(await a.$eval('#pboard [data-mv="l12"]', (e) => e.getAttribute('aria-label')), /forbidden for black/);
  await a.click('#pboard [data-mv="l12"]');
  await waitText(a, '#pz-refusal', /^l12: Forbidden for black under renju: a double three$/);
  assert.equal(await a.$('#pboard [data-stone="l12"]'), null);
  ok(`renju: puzzle ${rid}'s forbidden point l12 marked as the server names it (POSITION), a click there refused in words (434)`);
  await a.browserContext().close();
  ok(`the puzzles' cases took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- 6: an account, and a bot seated in a private room ---------------------------

async function accountGame() {
  const a = await open();
  const name = `webby${process.pid % 10000}`;
  await a.type('#account input[name=name]', name);
  // a password too short: the refusal says the server's rule, in its words
  await a.type('#account input[name=password]', 'abc');
  await a.click('#register-go');
  await waitText(a, '#toast', /at least 6 characters/);
  await a.$eval('#account input[name=password]', (e) => { e.value = ''; });
  await a.type('#account input[name=password]', 'secret-pw');
  await a.click('#register-go');
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  await waitText(a, '#stats', /freestyle 1500/);
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForSelector('#share:not([hidden])', { timeout: T });
  await a.select('#seat-level', '1');
  await a.click('#seat-bot');
  await waitText(a, '#turn', /^Your move$/);
  await play(a, 'h8');
  await a.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  assert.match(await text(a, '#p-white .name'), /^bot1/);
  await a.reload(); // an account's token resumes like a guest's
  await named(a);
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  await a.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  ok('an account registered from the page (a short password refused with the server\'s rule); a bot seated in its private room; a reload resumes the account');
  await a.browserContext().close();
}

// ---- ratings in view (issue 43, item 7) ----------------------------------------

// An account registered from the page's account card.
async function register(page, name) {
  await page.type('#account input[name=name]', name);
  await page.type('#account input[name=password]', 'secret-pw');
  await page.click('#register-go');
  await waitText(page, '#me', new RegExp(`^You are ${name}$`));
}

// A rated seek with the quick match form: people only, the colour wished.
async function seekRated(page, colour) {
  if (await page.$eval('#seek-bot', (e) => e.checked)) await page.click('#seek-bot');
  if (!(await page.$eval('#seek input[name=rated]', (e) => e.checked))) await page.click('#seek input[name=rated]');
  await page.select('#seek select[name=colour]', colour);
  await page.click('#seek-go');
}

async function ratingsGame() {
  const id = process.pid % 10000;
  const aName = `rata${id}`;
  const bName = `ratb${id}`;
  const a = await open(null, PHONE);
  const b = await open();
  await register(a, aName);
  await register(b, bName);
  await waitText(a, '#stats', /freestyle 1500/);
  await seekRated(a, 'black');
  await waitText(a, '#seek-info', /Looking for an opponent/);
  await seekRated(b, 'white');
  for (const p of [a, b]) await p.waitForSelector('#game:not([hidden])', { timeout: T });
  // the header: rated and the time control; both ratings beside the names
  for (const p of [a, b]) {
    await waitText(p, '#gameinfo', /^rated · freestyle 15×15 · 5 min \+ 5 s$/);
    await waitText(p, '#p-black .rating', /^1500\?$/);
    await waitText(p, '#p-white .rating', /^1500\?$/);
  }
  assert.ok((await text(a, '#p-black .name')).startsWith(aName));
  await shot(a, 'ratings-phone');
  for (const [p, mv] of [[a, 'h8'], [b, 'a1'], [a, 'i8'], [b, 'a2'], [a, 'j8'], [b, 'a3'], [a, 'k8'], [b, 'a4']]) await play(p, mv);
  await a.waitForFunction(() => document.getElementById('turn').textContent === 'Your move', { timeout: T });
  await pick(a, 'l8');
  await waitText(a, '#turn', /^Black wins \(five\)$/);
  // the change at the end, on both pages, as the server said it (* RATED)
  await waitText(a, '#p-black .rating', /^1[5-9][0-9]{2} \(\+[0-9]+\)$/);
  await waitText(b, '#p-white .rating', /^1[0-4][0-9]{2} \(−[0-9]+\)$/);
  const after = await a.evaluate(() => window.gomokud.model.game.rating.black);
  assert.equal(await text(b, '#p-black .rating'), `${after} (+${after - 1500})`);
  // the banner: the end and the rating's change in each player's terms
  await waitText(a, '#result-head', /^You won$/);
  await waitText(a, '#result-rating', new RegExp(`^Your rating: ${after} \\(\\+${after - 1500}\\)$`));
  await waitText(b, '#result-head', /^You lost$/);
  await waitText(b, '#result-rating', /^Your rating: 1[0-4][0-9]{2} \(−[0-9]+\)$/);
  // the winner's account card shows the new rating
  await waitText(a, '#stats', new RegExp(`freestyle ${after} \\(1-0-0\\)`));
  await shot(b, 'ratings-end-desktop');
  // the opponent's name opens a profile: ratings per rule, the game just played
  await b.click('#p-black .name');
  await b.waitForSelector('#profile:not([hidden])', { timeout: T });
  await waitText(b, '#profile-name', new RegExp(`^${aName}$`));
  await waitText(b, '#profile-stats', new RegExp(`freestyle: ${after}\\? \\(1 wins, 0 losses, 0 draws\\)`));
  assert.match(await text(b, '#profile-stats'), /renju: 1500\? \(0 wins/);
  await waitText(b, '#profile-games', new RegExp(`${aName} vs ${bName}: Black wins \\(five\\), 9 moves`));
  await shot(b, 'profile-desktop');
  await b.click('#profile-close');
  await b.waitForSelector('#profile[hidden]', { timeout: T });
  // the leaderboard per rule: both under freestyle, neither under renju
  await a.click('#leave');
  await a.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await a.select('#top-rule', 'freestyle');
  await a.click('#top-go');
  await a.waitForFunction((x, y) => { const t = document.getElementById('top').textContent; return t.includes(x) && t.includes(y); }, { timeout: T }, aName, bName);
  await a.select('#top-rule', 'renju'); // the choice asks again
  await a.waitForFunction((x) => window.gomokud.model.lobby.topRule === 'renju' && !document.getElementById('top').textContent.includes(x), { timeout: T }, aName);
  // a name on the leaderboard opens its profile too
  await a.select('#top-rule', 'freestyle');
  await a.waitForSelector(`#top [data-profile="${bName}"]`, { timeout: T });
  await a.click(`#top [data-profile="${bName}"]`);
  await waitText(a, '#profile-stats', new RegExp(`freestyle: 1[0-4][0-9]{2}\\? \\(0 wins, 1 losses`));
  await a.click('#profile-close');
  // a guest: the rated toggle says it needs an account; a rated seek is refused in words
  const g = await open(null, PHONE);
  assert.equal(await g.$eval('#rated-note', (e) => e.hidden), false, 'a guest\'s rated toggle does not say it needs an account');
  assert.match(await text(g, '#rated-note'), /needs an account/);
  assert.equal(await a.$eval('#rated-note', (e) => e.hidden), true, 'an account\'s rated toggle says it needs one');
  await seekRated(g, 'any');
  await waitText(g, '#toast', /^Rated games need an account: register or log in to play rated, or play casual$/);
  assert.equal(await g.evaluate(() => window.gomokud.model.seek), null);
  await shot(g, 'rated-guest-phone');
  // in the player's language
  const gz = await open(null, PHONE, ['zh-CN', 'zh']);
  assert.match(await text(gz, '#rated-note'), /需要账号/);
  await seekRated(gz, 'any');
  await waitText(gz, '#toast', /^计分对局需要账号/);
  await gz.browserContext().close();
  ok('a rated game of two accounts (one on a phone): the header says rated and the time control, 1500? beside both names, the change at the end, the account card\'s new rating; a name opens a profile with per-rule ratings and the game; the leaderboard per rule; a guest\'s rated seek refused in words (417), in English and Chinese');
  for (const p of [a, b, g]) await p.browserContext().close();
}

// ---- run ------------------------------------------------------------------------

// ---- 7: a cluster: the page follows * MOVED to the room's node ---------------

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A process of the test's own, started and waited for (a line on stderr or
// stdout matching ready), killed by pid at the end of the case.
function startProc(cmd, args, ready, what) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${log}`)), T);
    p.log = () => log;
    const seen = (b) => {
      log += b;
      if (ready.test(log) && !p.up) {
        p.up = true;
        clearTimeout(timer);
        resolve(p);
      }
    };
    p.stdout.on('data', seen);
    p.stderr.on('data', seen);
    p.on('exit', (code, sig) => { p.dead = true; p.status = sig ? `signal ${sig}` : code; });
    p.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

function stopProc(p, sig = 'SIGTERM') {
  return new Promise((resolve) => {
    if (!p || p.dead) { resolve(); return; }
    p.on('exit', () => resolve());
    p.kill(sig);
  });
}

// A protocol client over TLS (no ALPN: the line protocol), for the player
// the page plays against.
function lineClient(port) {
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    const c = { lines: [], waiters: [], buf: '' };
    c.send = (l) => sock.write(`${l}\n`);
    c.close = () => sock.destroy();
    c.expect = (re) => new Promise((res, rej) => {
      const i = c.lines.findIndex((l) => re.test(l));
      if (i >= 0) { res(c.lines.splice(0, i + 1).pop()); return; }
      const timer = setTimeout(() => rej(new Error(`no ${re} in: ${c.lines.join(' | ')}`)), T);
      c.waiters.push({ re, res: (l) => { clearTimeout(timer); res(l); } });
    });
    sock.on('data', (b) => {
      c.buf += b;
      let nl;
      while ((nl = c.buf.indexOf('\n')) >= 0) {
        const line = c.buf.slice(0, nl);
        c.buf = c.buf.slice(nl + 1);
        const w = c.waiters.findIndex((x) => x.re.test(line));
        if (w >= 0) c.waiters.splice(w, 1)[0].res(line);
        else c.lines.push(line);
      }
    });
    sock.on('secureConnect', () => resolve(c));
    sock.on('error', reject);
  });
}

async function clusterGame() {
  let redisBin;
  try {
    redisBin = execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no redis-server (make deps installs Debian\'s redis-server)');
  }
  const cdir = mkdtempSync(join(tmpdir(), 'gomokud-web-cluster.'));
  const [rport, pa, pb] = [await freePort(), await freePort(), await freePort()];
  const procs = [];
  const pages = [];
  const players = [];
  try {
    procs.push(await startProc(redisBin, ['--port', String(rport), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', cdir], /Ready to accept connections/, 'redis-server'));
    for (const [name, port] of [['a', pa], ['b', pb]]) {
      const nconf = join(cdir, `${name}.conf`);
      writeFileSync(nconf, `cluster redis://127.0.0.1:${rport}\nnode-name ${name}\nadvertise 127.0.0.1:${port}\n` +
        `web-origins https://127.0.0.1:${pa} https://127.0.0.1:${pb}\ngrace 30\nrate-burst 200\n`);
      procs.push(await startProc(`${BINDIR}/gomokud`, ['--config', nconf, '--state-dir', join(cdir, name), '--listen', `127.0.0.1:${port}`, '--log-level', 'info'],
        /cluster: node [ab] on Redis/, `node ${name}`));
    }
    // each node has heard the other (presence, every second)
    const heard = (p, re) => new Promise((resolve, reject) => {
      const t0 = Date.now();
      const tick = () => (re.test(p.log()) ? resolve() : Date.now() - t0 > T ? reject(new Error(`not heard: ${re}`)) : setTimeout(tick, 100));
      tick();
    });
    await heard(procs[1], /cluster: node b heard at/);
    await heard(procs[2], /cluster: node a heard at/);
    // two players pair on node a; black leaves his seat (the grace keeps it)
    const [bl, wh] = [await lineClient(pa), await lineClient(pa)];
    players.push(bl, wh);
    for (const [c, n] of [[bl, 'webby'], [wh, 'linus']]) {
      await c.expect(/^\* SERVER /);
      c.send('HELLO 1 test');
      await c.expect(/^OK HELLO/);
      c.send(`GUEST ${n}`);
    }
    const token = (await bl.expect(/^OK GUEST webby /)).split(' ')[3];
    await wh.expect(/^OK GUEST linus /);
    bl.send('SEEK freestyle 15 none black casual none');
    await bl.expect(/^OK SEEK /);
    wh.send('SEEK freestyle 15 none white casual none');
    const room = (await wh.expect(/^\* START /)).split(' ')[2];
    assert.match(room, /^a[0-9]+$/, 'the room is not node a\'s');
    bl.close();

    // the page comes up on node b (as a front might send it), with that seat saved
    const page = await open(`https://127.0.0.1:${pb}/`);
    pages.push(page);
    await page.evaluate((t, r) => localStorage.setItem('gomokud.session', JSON.stringify({ token: t, room: r, name: 'webby', seq: 0 })), token, room);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('me').textContent === 'You are webby', { timeout: T }).catch(async (e) => {
      throw new Error(`${e.message}; the page says: ${await text(page, '#me')} / ${await page.evaluate(() => document.body.innerText.slice(0, 300))}`);
    });
    await play(page, 'h8');
    await wh.expect(new RegExp(`^\\* MOVE ${room} [0-9]+ black h8`));
    wh.send(`MOVE ${room} a1`);
    await waitStone(page, 'a1');
    await shot(page, 'cluster-moved');
    ok('a page of node b follows * MOVED to node a, takes its seat back with the token and plays');
  } catch (e) {
    for (const p of procs) console.log(p.log().split('\n').slice(-12).join('\n'));
    throw e;
  } finally {
    for (const c of players) c.close();
    for (const p of pages) await p.browserContext().close();
    for (const p of procs.reverse()) await stopProc(p);
    rmSync(cdir, { recursive: true, force: true });
  }
}

// ---- 8: the board in the player's language: Chinese and English --------------

const ZH = ['zh-CN', 'zh'];
// An English sentence: two words of letters, as the page never writes one in
// Chinese (names are one word; moves and numbers are not words).
const ENGLISH = /[A-Za-z]{2,} [A-Za-z]{2,}/;

// Each view in the light and the dark theme, at desktop and phone sizes
// (issue 44): <lang>/<kind>-<theme>-<size>.png; the page's own viewport
// and theme after.
async function langShot(page, lang, kind) {
  mkdirSync(join(SHOTS, lang), { recursive: true });
  if (kind !== 'game') await page.evaluate(() => { document.getElementById('toast').hidden = true; });
  const was = page.viewport();
  for (const theme of ['light', 'dark']) {
    await page.evaluate((th) => { document.documentElement.dataset.theme = th; }, theme);
    for (const [size, vp] of [['desktop', DESKTOP], ['phone', { width: PHONE.width, height: PHONE.height }]]) {
      await page.setViewport(vp); // no isMobile: that reloads the page
      await page.screenshot({ path: join(SHOTS, lang, `${kind}-${theme}-${size}.png`) });
    }
  }
  await page.evaluate(() => { delete document.documentElement.dataset.theme; });
  await page.setViewport(was);
}

// The lobby, then the history, a replay of the first game listed.
async function replayShots(page, lang) {
  await page.click('#leave');
  await page.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await page.click('#history-go');
  await page.waitForSelector('[data-replay]', { timeout: T });
  await page.waitForSelector('#who li', { timeout: T });
  await langShot(page, lang, 'lobby');
  await page.click('[data-replay]');
  await page.waitForSelector('#replay:not([hidden])', { timeout: T });
  await page.click('#r-prev');
  await langShot(page, lang, 'replay');
}

async function languageGame() {
  // a browser in Chinese: the lobby in Chinese, <html lang> zh-CN
  const a = await open(null, DESKTOP, ZH);
  assert.equal(await a.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await a.$eval('#lang', (e) => e.value), 'zh_CN');
  assert.deepEqual(await a.$$eval('#lang option', (o) => o.map((x) => x.textContent)), ['English', '简体中文']);
  await waitText(a, '#status', /^已连接$/);
  assert.match(await text(a, '#me'), /^你是 /);
  assert.equal(await text(a, '#lobby h2'), '快速匹配');
  assert.equal(await text(a, '#seek-go'), '寻找对手');
  assert.equal(await a.$eval('#seek select[name=tc] option', (e) => e.textContent), '5 分钟 + 每步加 5 秒');
  assert.equal(await a.$eval('#seek select[name=rule] option', (e) => e.textContent), '无禁手');
  assert.equal(await a.$eval('#theme', (e) => e.getAttribute('aria-label')), '切换浅色与深色主题');
  await waitText(a, '#who', /（空闲）/);
  // the words of the page, not its players' content: a tournament's name
  // (another case may have made one in English) is left out
  const lobby = await a.$eval('#lobby', (e) => {
    const names = [...e.querySelectorAll('#tourneys a[data-tourney]')];
    names.forEach((n) => { n.dataset.was = n.style.display; n.style.display = 'none'; });
    const seen = e.innerText;
    names.forEach((n) => { n.style.display = n.dataset.was; });
    return seen;
  });
  assert.doesNotMatch(lobby, ENGLISH, `English in the Chinese lobby: ${lobby}`);
  ok('a browser in Chinese (zh-CN): the lobby, its status line and its lists in Chinese, <html lang="zh-CN">');

  // a game between a Chinese page (black) and an English one (white)
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const b = await open(await a.$eval('#share-link', (e) => e.value));
  await play(a, 'h8', '轮到你落子');
  await waitText(a, '#turn', /^轮到 /);
  await play(b, 'h9');
  await waitText(a, '#news', /^白棋 下在 h9$/); // the live region, in Chinese
  await play(a, 'i8', '轮到你落子');
  await play(b, 'i9');
  await play(a, 'j8', '轮到你落子');
  await pick(b, 'h8'); // taken: refused, said in words
  await waitText(b, '#toast', /^That point is already taken$/);
  await b.click('#offer-undo');
  await a.waitForSelector('[data-offer="accept-undo"]', { timeout: T });
  assert.match(await text(a, '#offers'), /提议：悔棋。/);
  assert.equal(await a.$eval('[data-offer="accept-undo"]', (e) => e.textContent), '接受');
  await a.click('[data-offer="decline-undo"]');
  await b.waitForFunction(() => !document.querySelector('[data-offer]'), { timeout: T });
  // a refusal in Chinese: a move on a taken point, said in words
  await pick(b, 'a1');
  await waitStone(a, 'a1');
  await a.waitForFunction(() => document.getElementById('turn').textContent === '轮到你落子', { timeout: T });
  await pick(a, 'h9');
  await waitText(a, '#toast', /^这一点已经有子了$/);
  const toastZh = await text(a, '#toast');
  assert.doesNotMatch(toastZh, /[A-Za-z]{2}|[0-9]{3}/, `a raw token in the toast: ${toastZh}`);
  await a.type('#say input', '祝你好运');
  await a.click('#say button');
  await waitText(b, '#chat', /祝你好运/);
  await waitText(a, '#chat', /祝你好运/);
  await langShot(a, 'zh_CN', 'game');
  await langShot(b, 'en', 'game');
  const side = await a.$eval('#game aside', (e) => e.innerText);
  assert.doesNotMatch(side.replace(/祝你好运/, ''), ENGLISH, `English beside the Chinese board: ${side}`);
  assert.match(await text(a, '#moves thead'), /黑棋.*白棋/);
  assert.equal(await text(a, '#moves [data-ply="0"]'), 'h8');
  assert.match(await a.$eval('[data-mv="h8"]', (e) => e.getAttribute('aria-label')), /^h8 黑棋/);
  await play(a, 'k8', '轮到你落子');
  await play(b, 'a2');
  await play(a, 'l8', '轮到你落子');
  await waitText(a, '#turn', /^黑棋获胜（五连）$/);
  await waitText(b, '#turn', /^Black wins \(five\)$/);
  ok('a game in Chinese beside one in English: turn, offers, chat, moves, a refusal and the result each in its language');

  await replayShots(a, 'zh_CN');
  assert.match(await text(a, '#rinfo'), /^对局 [0-9]+：.*（黑）对 .*（白），无禁手；黑棋获胜（五连）$/);
  assert.equal(await a.$eval('#r-first', (e) => e.getAttribute('aria-label')), '第一手');
  await replayShots(b, 'en');
  assert.match(await text(b, '#rinfo'), /^Game [0-9]+: .* \(black\) vs .* \(white\), freestyle; Black wins \(five\)$/);
  ok(`lobby, game and replay screenshots in English and Chinese: ${SHOTS}/{en,zh_CN}/{lobby,game,replay}.png`);

  // the switch: English, kept across a reload though the browser asks for
  // Chinese; then Chinese again, kept too
  await a.click('#r-back');
  await a.select('#lang', 'en');
  await waitText(a, '#lobby h2', /^Quick match$/);
  assert.equal(await a.evaluate(() => document.documentElement.lang), 'en');
  assert.match(await text(a, '#me'), /^You are /);
  await a.reload();
  await named(a);
  assert.equal(await text(a, '#seek-go'), 'Find an opponent');
  assert.equal(await a.$eval('#lang', (e) => e.value), 'en');
  await a.select('#lang', 'zh_CN');
  await waitText(a, '#lobby h2', /^快速匹配$/);
  await a.reload();
  await named(a);
  assert.equal(await text(a, '#seek-go'), '寻找对手');
  assert.equal(await a.evaluate(() => document.documentElement.lang), 'zh-CN');
  ok('the language switch: English, then Chinese again, each kept across a reload (localStorage)');
  for (const p of [a, b]) await p.browserContext().close();
}

// ---- 9: dead links, at phone size; the way home from every view --------------

async function deadLinks() {
  const base = `https://127.0.0.1:${daemon.port}/`;
  const ph = await open(`${base}#join=NoSuchCode1234`, PHONE);
  await ph.waitForSelector('#dead:not([hidden])', { timeout: T });
  assert.match(await text(ph, '#dead-text'), /^This invitation link does not work any more/);
  assert.match(await text(ph, '#dead-why'), /invite code/i);
  await shot(ph, 'dead-link-phone');
  await ph.click('#dead-home');
  await ph.waitForSelector('#lobby:not([hidden])', { timeout: T });
  ok('a #join= link the server refuses (422): the page says so in words, one click leads to the lobby (phone)');
  // links pasted into the open page's address bar: a cut-off code, a room
  // and a game that are not there
  for (const [hash, re] of [['#join=abc', /^This invitation link/], ['#watch=zz99999', /^That game is not here any more/], ['#replay=987654321', /^There is no finished game/]]) {
    await ph.goto(`${base}${hash}`);
    await ph.waitForSelector('#dead:not([hidden])', { timeout: T });
    await waitText(ph, '#dead-text', re);
    await ph.click('#home'); // the header's name leads home too
    await ph.waitForSelector('#lobby:not([hidden])', { timeout: T });
  }
  ok('a cut-off #join=, a #watch= and a #replay= link to nothing: each says what happened; the header leads home');
  await ph.click('#create-go');
  await ph.waitForSelector('#game:not([hidden])', { timeout: T });
  await ph.waitForSelector('#share:not([hidden])', { timeout: T });
  await shot(ph, 'share-phone'); // the link and, beside it, the code
  await ph.click('#home');
  await ph.waitForSelector('#lobby:not([hidden])', { timeout: T });
  ok('the header leads home from a game too');
  await ph.browserContext().close();
}

// ---- 10: moderation: a kicked web guest stays off, a banned one is refused -----

function ctl(...args) {
  return execFileSync(`${BINDIR}/gomokuctl`, ['--state-dir', join(dir, 'state'), ...args], { encoding: 'utf8' });
}

// The guests gomokuctl who lists from the pages' address (127.0.0.1).
function guestsOnline() {
  return ctl('who').split('\n').filter((l) => / guest /.test(l) && / 127\.0\.0\.1:[0-9]+$/.test(l))
    .map((l) => l.replace(/^= /, '').split(' ')[0]);
}

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

// Last of the cases: its ban covers 127.0.0.1, every page's address, until
// it is lifted at the end.
async function moderationGame() {
  const a = await open(null, PHONE);
  const name = await named(a);
  assert.ok(guestsOnline().includes(name), `${name} not in who`);
  const others = guestsOnline().filter((n) => n !== name);
  ctl('kick', name, 'flooding the chat');
  await waitText(a, '#status', /^Removed by the server's admins: kicked: flooding the chat$/);
  await sleep(4000); // the old page was back within a second under a new name
  assert.match(await text(a, '#status'), /^Removed by the server's admins: kicked: flooding the chat$/);
  assert.equal(await a.$eval('#comeback', (e) => e.hidden), false);
  assert.deepEqual(guestsOnline().filter((n) => !others.includes(n)), []);
  ok('a web guest kicked by gomokuctl sees why and stays off: no guest from it within 4 s');

  await a.click('#comeback');
  await a.waitForFunction((old) => {
    const me = window.gomokud.model.me;
    return me && me.name !== old && document.getElementById('me').textContent !== '';
  }, { timeout: T }, name);
  const name2 = await a.evaluate(() => window.gomokud.model.me.name);
  assert.ok(guestsOnline().includes(name2));
  ok('"Come back" after a kick starts a fresh guest');

  try {
    ctl('ban', name2, '1h', 'abuse in chat');
    await waitText(a, '#status', /^Removed by the server's admins: banned until .*: abuse in chat$/);
    await sleep(3000); // the page stays off: no new guest from it
    assert.match(await text(a, '#status'), /^Removed by the server's admins: banned until /);
    assert.deepEqual(guestsOnline().filter((n) => !others.includes(n)), []);
    assert.doesNotMatch(ctl('bans'), /ban 127\.0\.0\.1 until /); // a guest's ban is its name
    ok('a web guest banned by name sees why and stays off');
    ctl('ban', '127.0.0.1', '1h', 'abuse in chat'); // the admin bans the address too
    await a.reload();
    await waitText(a, '#status', /^Refused by the server: this address is banned until [0-9-]+ [0-9:]+ UTC: abuse in chat$/);
    await sleep(3000);
    assert.match(await text(a, '#status'), /^Refused by the server: this address is banned /);
    assert.equal(await a.evaluate(() => window.gomokud.model.me), null);
    assert.deepEqual(guestsOnline().filter((n) => !others.includes(n)), []);
    await a.click('#comeback'); // still banned: refused again, with the reason
    await waitText(a, '#status', /^Refused by the server: this address is banned .*: abuse in chat$/);
    await a.waitForFunction(() => !document.getElementById('comeback').hidden, { timeout: T });
    ok('its address banned too, the page\'s reload is refused at HELLO with the reason, and stays off');
  } finally {
    for (const target of [name2, '127.0.0.1']) {
      try { ctl('unban', target); } catch { /* not banned */ }
    }
  }
  await a.browserContext().close();
}

// ---- 11: offers answered in words, chat kept across a reload, a flag at 0:00 --

// The chat pane's lines said by players (a name in bold), as shown.
const chatLines = (page) => page.$$eval('#chat li', (l) => l.filter((x) => x.querySelector('b')).map((x) => x.textContent));

async function offersChatFlag() {
  const a = await open();
  const an = await named(a);
  await a.select('#create select[name=colour]', 'black');
  await a.click('#create-go');
  await a.waitForFunction(() => document.getElementById('share-link').value.includes('#join='), { timeout: T });
  const b = await open(await a.$eval('#share-link', (e) => e.value));
  const bn = await named(b);
  await play(a, 'h8');
  await play(b, 'h9');

  // every offer's fate, in words, in both game logs
  const fate = async (re) => { for (const q of [a, b]) await waitText(q, '#chat', re); };
  await b.click('#offer-undo');
  await a.waitForSelector('[data-offer="decline-undo"]', { timeout: T });
  await a.click('[data-offer="decline-undo"]');
  await fate(new RegExp(`${an} declined the undo`));
  await b.click('#offer-draw');
  await b.waitForSelector('[data-offer="withdraw-draw"]', { timeout: T });
  await b.click('[data-offer="withdraw-draw"]');
  await fate(new RegExp(`${bn}'s draw offer was withdrawn`));
  await b.click('#offer-undo');
  await a.waitForSelector('[data-offer="accept-undo"]', { timeout: T });
  await a.click('[data-offer="accept-undo"]');
  await fate(new RegExp(`${an} accepted the undo: 1 move taken back`));
  await b.waitForFunction(() => !document.querySelector('[data-stone="h9"]'), { timeout: T });
  ok('offers answered in both game logs: who declined, whose was withdrawn, who accepted the undo and how many moves it took back');

  // the chat kept across a reload (the snapshot's = SAY lines)
  await a.type('#say input', 'good luck');
  await a.click('#say button');
  await b.type('#say input', 'you too');
  await b.click('#say button');
  await waitText(a, '#chat', /you too/);
  await b.reload();
  await named(b);
  await waitText(b, '#chat', /you too/);
  const kept = await chatLines(b);
  assert.deepEqual(kept, [`${an}: good luck`, `${bn}: you too`]);
  ok('a reload keeps the room\'s chat: the lines come back with the snapshot, in order, once');

  // a draw offer that the end of the game expires
  await play(b, 'h9');
  await b.click('#offer-draw');
  await a.waitForSelector('[data-offer="accept-draw"]', { timeout: T });
  await a.click('#resign');
  await a.click('#confirm-yes');
  await fate(new RegExp(`${bn}'s draw offer expired`));
  ok('an offer the end of the game expires is said so in both logs');
  for (const q of [a, b]) await q.browserContext().close();

  // a bot's accepted undo says how many stones went back
  const p = await open();
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await play(p, 'h8');
  await p.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2 && document.getElementById('turn').textContent === 'Your move', { timeout: T });
  const bot = await p.evaluate(() => window.gomokud.model.game.white);
  await p.click('#offer-undo');
  await waitText(p, '#chat', new RegExp(`${bot} accepted the undo: 2 moves taken back`));
  assert.equal(await stoneCount(p), 0);
  ok('a bot\'s accepted undo is said with the two moves it took back');
  await p.browserContext().close();

  // a flag: a 1 s clock (the page offers none so short: the room is made
  // over the protocol, the page joins it by its link), the page's player
  // black does not move, and the page shows its clock at 0:00 and the result
  const lc = await lineClient(daemon.port);
  lc.send('HELLO 1');
  await lc.expect(/^OK HELLO/);
  lc.send('GUEST');
  await lc.expect(/^OK GUEST/);
  lc.send('CREATE freestyle 15 1+0 white casual none');
  const code = (await lc.expect(/^OK CREATE /)).split(' ')[3];
  const f = await open(`https://127.0.0.1:${daemon.port}/#join=${code}`);
  await waitText(f, '#turn', /^White wins \(time\)$/);
  assert.equal(await f.$eval('#p-black .clock', (e) => e.textContent), '0:00');
  // the time in the clock's label too, for a screen reader; no warning once over
  assert.equal(await f.$eval('#p-black .clock', (e) => e.getAttribute('aria-label')), 'Black\'s clock: 0:00');
  assert.equal(await f.$eval('#p-black .clock', (e) => e.classList.contains('low')), false);
  await new Promise((r) => setTimeout(r, 600)); // a tick later, still 0:00
  assert.equal(await f.$eval('#p-black .clock', (e) => e.textContent), '0:00');
  assert.equal(await f.$eval('#p-white .clock', (e) => e.textContent), '0:01');
  // a spectator who comes by the link after the flag: the snapshot's clock
  const v = await open(`https://127.0.0.1:${daemon.port}/#join=${code}`);
  await waitText(v, '#turn', /^White wins \(time\)$/);
  assert.equal(await v.$eval('#p-black .clock', (e) => e.textContent), '0:00');
  await v.browserContext().close();
  ok('a flag on a 1 s clock: the loser\'s clock shows 0:00 and the result says white wins on time, live and in a later snapshot');
  lc.close();
  await f.browserContext().close();
}

// ---- 12: an account stays signed in; a mistyped password; Log out; a second device (issue 43)

const kept = (page) => page.evaluate(() => (JSON.parse(localStorage.getItem('gomokud.session')) || {}).login || null);
const visible = (page, sel) => page.$eval(sel, (e) => e.offsetParent !== null);

// Types name and password into the account card and presses sel (#login-go
// or #register-go).
async function signIn(page, name, password, sel) {
  await page.$eval('#account input[name=name]', (e) => { e.value = ''; });
  await page.$eval('#account input[name=password]', (e) => { e.value = ''; });
  await page.type('#account input[name=name]', name);
  await page.type('#account input[name=password]', password);
  await page.click(sel);
}

async function staySignedIn() {
  const name = `stay${process.pid % 10000}`;
  const a = await open(null, PHONE);
  await signIn(a, name, 'stay-secret', '#register-go');
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  await a.waitForFunction(() => (JSON.parse(localStorage.getItem('gomokud.session')) || {}).login, { timeout: T });
  assert.match(await kept(a), /^[0-9a-f]{32}$/);
  assert.ok(await visible(a, '#logout-go'), 'no Log out for an account');
  await a.reload();
  assert.equal(await named(a), name, 'a reload is not the account');
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  assert.ok(await visible(a, '#logout-go') && !(await visible(a, '#account')), 'the account card after a reload');
  ok('phone: REGISTER keeps a login token; a reload signs in as the account (AUTH), Log out shown');

  // a second tab in the same browser: the account too; the first is told
  const a2 = await newPage(a.browserContext());
  a2.on('pageerror', (e) => pageErrors.push(String(e)));
  await a2.setViewport(PHONE);
  await a2.goto(`https://127.0.0.1:${daemon.port}/`);
  assert.equal(await named(a2), name, 'a second tab is not the account');
  await waitText(a, '#status', /another tab or client/);
  ok('a second tab of the same browser signs in as the account; the first says it plays elsewhere now');

  // Log out: a new guest, and a reload stays a guest
  await a2.click('#logout-go');
  await a2.waitForFunction((n) => { const m = window.gomokud.model.me; return m && m.name !== n; }, { timeout: T }, name);
  assert.equal(await kept(a2), null, 'the login token is still kept after Log out');
  assert.ok(await visible(a2, '#account') && !(await visible(a2, '#logout-go')), 'the sign-in form after Log out');
  const guest = await a2.evaluate(() => window.gomokud.model.me.name);
  assert.match(guest, /^guest[0-9]+$/);
  await a2.reload();
  const after = await named(a2);
  assert.notEqual(after, name, 'a reload after Log out is the account again');
  assert.ok(await visible(a2, '#account'), 'no sign-in form after the reload');
  ok('Log out: the page goes on as a new guest, forgets the login token, and a reload stays a guest');
  await a.browserContext().close();

  // a mistyped password from a guest who seeks: refused, the same guest, the seek on
  const g = await open();
  const gname = await named(g);
  await g.click('#seek-bot'); // people only: the seek stays open
  await g.click('#seek-go');
  await waitText(g, '#seek-info', /^Looking for an opponent…$/);
  await signIn(g, name, 'not-the-password', '#login-go');
  await waitText(g, '#toast', /^Wrong name or password$/);
  assert.equal(await g.evaluate(() => window.gomokud.model.me.name), gname, 'a refused LOGIN changed the guest');
  assert.match(await text(g, '#me'), new RegExp(`^You are ${gname}$`));
  assert.equal(await text(g, '#seek-info'), 'Looking for an opponent…', 'the seek went with a refused LOGIN');
  assert.equal(await kept(g), null);
  // the right password: the account, and the guest's seek ended with it
  await signIn(g, name, 'stay-secret', '#login-go');
  await waitText(g, '#me', new RegExp(`^You are ${name}$`));
  await g.waitForFunction(() => document.getElementById('seek-info').textContent === '', { timeout: T });
  await g.waitForFunction(() => (JSON.parse(localStorage.getItem('gomokud.session')) || {}).login, { timeout: T });
  ok('a mistyped password from a seeking guest is refused in words and the page stays that guest, seek and all; the right one signs in (no LOGOUT first)');
  await g.browserContext().close();
}

async function secondDevice() {
  const name = `dev${process.pid % 10000}`;
  const a = await open(null, PHONE);
  await signIn(a, name, 'device-pw', '#register-go');
  await waitText(a, '#me', new RegExp(`^You are ${name}$`));
  await a.select('#bot select[name=colour]', 'black');
  await a.click('#bot-go');
  await a.waitForSelector('#game:not([hidden])', { timeout: T });
  const room = await a.evaluate(() => window.gomokud.model.game.room);
  await play(a, 'h8');
  await a.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  // device B, another browser: LOGIN opens that game there
  const b = await open(null, PHONE);
  await signIn(b, name, 'device-pw', '#login-go');
  await b.waitForSelector('#game:not([hidden])', { timeout: T });
  assert.equal(await b.evaluate(() => window.gomokud.model.game.room), room);
  await waitStone(b, 'h8');
  await b.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  await waitText(a, '#status', /continues on another device/);
  await sleep(1500); // the first device does not come back by itself
  assert.match(await text(a, '#status'), /continues on another device/);
  assert.ok(await a.evaluate(() => !window.gomokud.model.conn.up), 'the first device reconnected by itself');
  const third = await b.evaluate(() => ['j10', 'k11', 'l12', 'm13'].find((mv) => !document.querySelector(`[data-stone="${mv}"]`)));
  await play(b, third);
  ok('phone: LOGIN on a second device during a game opens that game\'s board there; the first says it continues on another device and stays off');
  await b.reload(); // and a reload there signs in again and opens the game
  assert.equal(await named(b), name);
  await b.waitForSelector('#game:not([hidden])', { timeout: T });
  await waitStone(b, third);
  ok('phone: a reload on the second device signs in (AUTH) and opens the game again (* SEATED, STATE)');
  await a.browserContext().close();
  await b.browserContext().close();
}

// ---- the board's attention: sounds, the result, the move list, a phone --

const SMALL_PHONE = { width: 360, height: 640, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
// The tones a page's sounds played: a hook on WebAudio's oscillators.
async function countTones(page) {
  await page.evaluateOnNewDocument(() => {
    window.tones = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...a) {
      window.tones.push(Math.round(this.frequency.value));
      return start.apply(this, a);
    };
  });
}
const tones = (page) => page.evaluate(() => window.tones.slice());
async function waitTones(page, from, want) {
  await page.waitForFunction((f, w) => w.every((x) => window.tones.slice(f).includes(x)), { timeout: T }, from, want);
}

async function boardAttention() {
  const ctx = await browser.createBrowserContext();
  const a = await newPage(ctx); // a small phone: touch, so tap to confirm is on
  a.on('pageerror', (e) => pageErrors.push(String(e)));
  await countTones(a);
  await a.setViewport(SMALL_PHONE);
  await a.goto(`https://127.0.0.1:${daemon.port}/`);
  const an = await named(a);
  const b = await open();
  await countTones(b);
  await b.reload();
  const bn = await named(b);
  // a compact header on the phone: one row of the page's top
  const head = await a.$eval('header', (e) => e.getBoundingClientRect().height);
  assert.ok(head <= 64, `the phone's header is ${head} px tall`);
  // both seek 19x19, no bot: paired with each other
  for (const [p, colour] of [[a, 'black'], [b, 'white']]) {
    await p.select('#seek select[name=size]', '19');
    await p.select('#seek select[name=tc]', 'none');
    await p.select('#seek select[name=colour]', colour);
    await p.$eval('#seek-bot', (e) => { e.checked = false; });
    await p.click('#seek-go');
    if (p === a) await waitText(a, '#seek-info', /Looking for an opponent/);
  }
  for (const p of [a, b]) await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await waitTones(a, 0, [784, 1047]); // paired
  ok('a seek paired sounds (WebAudio, no sound files); the phone\'s header is compact');
  // 19x19 coordinates readable on a 360 px phone
  const coord = await a.$$eval('#board .coord text', (ts) => Math.min(...ts.map((x) => x.getBoundingClientRect().height)));
  assert.ok(coord >= 10, `the 19x19 coordinates are ${coord} px tall on a 360 px phone`);
  ok(`19x19 coordinates ${coord.toFixed(1)} px tall on a 360x640 phone`);
  // tap to confirm: the first tap previews, the second plays
  await waitText(a, '#turn', /^Your move$/);
  assert.ok(await a.$eval('#tap-confirm', (e) => e.checked), 'tap to confirm is on by default on a touch screen');
  await a.tap('[data-mv="j10"]');
  await a.waitForSelector('[data-preview="j10"]', { timeout: T });
  assert.equal(await stoneCount(a), 0, 'a first tap plays nothing');
  await a.tap('[data-mv="k10"]'); // another point moves the preview
  await a.waitForSelector('[data-preview="k10"]', { timeout: T });
  await a.tap('[data-mv="k10"]');
  await waitStone(a, 'k10');
  await waitStone(b, 'k10');
  assert.equal(await b.$eval('#tap-confirm', (e) => e.checked), false, 'not on a desktop');
  ok('tap to preview, tap again to play: on by default on a touch screen, off on a desktop');
  // my turn sounds; the other's moves tick
  let at = (await tones(a)).length;
  await play(b, 'a1');
  await waitTones(a, at, [660, 880]);
  ok('the other player\'s move, making it my turn, sounds');
  // the move list: a move picked shows its position, view only, until back
  await play(a, 'k11');
  await play(b, 'a2');
  await play(a, 'k12');
  await a.click('#moves button[data-ply="0"]');
  await a.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 1, { timeout: T });
  assert.equal(await a.$eval('#viewing', (e) => e.hidden), false);
  await waitText(a, '#viewing-text', /^Showing move 1 of 5$/);
  await play(b, 'a3');
  await waitText(a, '#viewing-text', /^Showing move 1 of 6$/);
  assert.equal(await stoneCount(a), 1, 'the viewed position stays while the game goes on');
  await contrastThemes(a, 'a past position viewed from the move list', 20);
  await a.click('#live');
  await a.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 6, { timeout: T });
  ok('a move in the list shows its position while the game runs, view only; Back to the game');
  // offers stay in view on a phone: a banner at the bottom of the screen
  await b.click('#offer-draw');
  await a.waitForSelector('[data-offer="decline-draw"]', { timeout: T });
  await a.evaluate(() => window.scrollTo(0, 0));
  const box = await a.$eval('#offers', (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; });
  assert.ok(box[0] >= 0 && box[1] <= SMALL_PHONE.height, `the offers at ${box} are out of view`);
  await a.click('[data-offer="decline-draw"]');
  ok('an offer stays in view on a phone, the board scrolled to the top');
  // muted: nothing sounds, and the choice is kept across a reload
  await a.click('#mute');
  assert.equal(await a.$eval('#mute', (e) => e.getAttribute('aria-pressed')), 'true');
  await a.reload();
  await named(a);
  await a.waitForSelector('#game:not([hidden])', { timeout: T });
  assert.equal(await a.$eval('#mute', (e) => e.getAttribute('aria-pressed')), 'true', 'mute is remembered');
  at = (await tones(a)).length;
  await play(a, 'k13');
  await play(b, 'a4');
  await waitStone(a, 'a4');
  assert.deepEqual((await tones(a)).slice(at), [], 'a muted page sounds');
  await a.click('#mute');
  ok('mute silences every sound and is remembered');
  // the end in each player's terms; Rematch and New game
  at = (await tones(b)).length;
  await a.click('#resign');
  await a.click('#confirm-yes');
  await waitText(a, '#result-head', /^You lost$/);
  await waitText(b, '#result-head', /^You won$/);
  await waitText(b, '#result-why', /^Reason: resign/);
  await waitTones(b, at, [784, 659, 523]); // the end
  for (const p of [a, b]) {
    assert.equal(await p.$eval('#offer-rematch', (e) => e.offsetParent !== null), true, 'Rematch in the banner');
    assert.equal(await p.$eval('#result-rating', (e) => e.hidden), true, 'a casual game shows no rating change');
  }
  await shot(a, 'result-phone');
  await contrastThemes(a, 'the result banner', 20);
  await b.click('#result-new');
  await b.waitForSelector('#lobby:not([hidden])', { timeout: T });
  ok('the result in the player\'s terms (You won, You lost, why), with Rematch and New game');
  await ctx.close();
  await b.browserContext().close();
}

// ---- issue 44, item 4: accessibility, measured ----------------------------------

// The WCAG 2.1 contrast of what the page shows now, from the rendered
// colours (getComputedStyle), not the stylesheet's variables:
//   - text (an element with a text node of its own, a select's chosen
//     option, a text field's value): its colour on the background it sits
//     on (the backgrounds of it and its ancestors composited, alpha and
//     all), 4.5:1, or 3:1 when large (24 px, or 18.66 px bold);
//   - the board's text (<text>: coordinates, a bot's scores, a line's
//     numbers) by its fill on the board's (a score's disc over it, a
//     number's stone under it), by its size on the screen;
//   - 3:1 for what says something by its shape (WCAG 1.4.11): a stone
//     (its fill or its rim) on the board, the last move's mark on its
//     stone, the cursor and a forbidden point's cross on the board, a
//     player's colour dot; a control's edge (border) or its face
//     (background) against what surrounds it.
// Exempt, as WCAG says: disabled controls (1.4.3 and 1.4.11 both except
// an inactive component), text no one sees (.sr-only), a control drawn
// with neither border nor background (a link-like name: its text is its
// only mark, checked as text). A checkbox and the replay's slider are
// drawn by Chromium's own theme, their colours not in computed styles:
// not measured. Returns {checked, fails: ["what: fg on bg = r < need"]}.
function measureContrast() {
  const parse = (c) => {
    const m = /rgba?\(([^)]*)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter((x) => x !== '').map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const v = c.slice(0, 3).map((x) => x / 255).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const hex = (c) => `#${c.slice(0, 3).map((x) => Math.round(x).toString(16).padStart(2, '0')).join('')}`;
  const bgOf = (el) => {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.push(e);
    let c = [255, 255, 255, 1]; // the canvas
    for (const e of chain.reverse()) {
      const b = parse(getComputedStyle(e).backgroundColor);
      if (b && b[3] > 0) c = over(b, c);
    }
    return c;
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ').join('.')}` : ''}`;
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility === 'visible' && !e.closest('.sr-only');
  const fails = [];
  let checked = 0;
  const check = (what, fg, bg, need) => {
    checked++;
    const r = ratio(fg, bg);
    if (r + 1e-9 < need) fails.push(`${what}: ${hex(fg)} on ${hex(bg)} = ${r.toFixed(2)} < ${need}`);
    return r;
  };
  const large = (px, weight) => px >= 24 || (px >= 18.66 && weight >= 700);
  // text in HTML
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg') || ['SCRIPT', 'STYLE', 'OPTION'].includes(e.tagName)) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    const field = (e.tagName === 'SELECT') || (e.tagName === 'INPUT' && ['text', 'password', ''].includes(e.type) && e.value !== '');
    if ((!own && !field) || !shown(e) || e.closest(':disabled')) continue;
    const s = getComputedStyle(e);
    const bg = bgOf(e);
    const fg = over(parse(s.color), bg);
    const px = parseFloat(s.fontSize);
    const text = (field ? (e.tagName === 'SELECT' ? e.selectedOptions[0]?.textContent : e.value) : e.textContent).trim().slice(0, 30);
    check(`${name(e)} "${text}"`, fg, bg, large(px, Number(s.fontWeight)) ? 3 : 4.5);
  }
  // controls' edges and faces (3:1)
  for (const e of document.body.querySelectorAll('button, select, input')) {
    if (!shown(e) || e.disabled || ['checkbox', 'radio', 'range'].includes(e.type)) continue;
    const s = getComputedStyle(e);
    const around = bgOf(e.parentElement);
    const face = parse(s.backgroundColor);
    const edge = parseFloat(s.borderTopWidth) > 0 && s.borderTopStyle !== 'none' ? parse(s.borderTopColor) : null;
    if (!edge && (!face || face[3] === 0)) continue; // a link-like control: its text is checked
    const best = Math.max(edge ? ratio(over(edge, around), around) : 0, face ? ratio(over(face, around), around) : 0);
    checked++;
    if (best + 1e-9 < 3) fails.push(`${name(e)} "${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}" edge ${edge ? hex(edge) : '-'} face ${face ? hex(face) : '-'} on ${hex(around)} = ${best.toFixed(2)} < 3`);
  }
  for (const e of document.querySelectorAll('.dot')) {
    if (!shown(e)) continue;
    const s = getComputedStyle(e);
    const around = bgOf(e.parentElement);
    const best = Math.max(ratio(over(parse(s.backgroundColor), around), around), ratio(over(parse(s.borderTopColor), around), around));
    checked++;
    if (best + 1e-9 < 3) fails.push(`${name(e)} ${hex(parse(s.backgroundColor))} rim ${hex(parse(s.borderTopColor))} on ${hex(around)} = ${best.toFixed(2)} < 3`);
  }
  // the boards
  for (const svg of document.querySelectorAll('svg[role=grid]')) {
    if (!shown(svg)) continue;
    const wood = over(parse(getComputedStyle(svg.querySelector('.wood')).fill), bgOf(svg));
    const scale = svg.getScreenCTM().a;
    const paint = (e, prop) => {
      const s = getComputedStyle(e);
      const c = parse(s[prop]);
      if (!c) return null;
      c[3] *= Number(s.opacity) * Number(prop === 'fill' ? s.fillOpacity : s.strokeOpacity);
      return c;
    };
    for (const e of svg.querySelectorAll('text')) {
      const s = getComputedStyle(e);
      let bg = wood;
      const disc = e.parentElement.querySelector('circle');
      if (e.closest('.cand') && disc) bg = over(paint(disc, 'fill'), wood);
      // a line's number: on its stone
      const stone = e.dataset.line && svg.querySelector(`[data-stone="${e.dataset.line}"]`);
      if (stone) bg = over(paint(stone, 'fill'), wood);
      check(`${svg.id} text "${e.textContent}"`, over(paint(e, 'fill'), bg), bg, large(parseFloat(s.fontSize) * scale, Number(s.fontWeight)) ? 3 : 4.5);
    }
    for (const e of svg.querySelectorAll('[data-stone]')) {
      const fill = over(paint(e, 'fill'), wood);
      const rim = parseFloat(getComputedStyle(e).strokeWidth) > 0 ? paint(e, 'stroke') : null;
      const best = Math.max(ratio(fill, wood), rim ? ratio(over(rim, wood), wood) : 0);
      checked++;
      if (best + 1e-9 < 3) fails.push(`${svg.id} stone ${e.dataset.stone} (${e.getAttribute('class')}) ${hex(fill)} rim ${rim ? hex(rim) : '-'} on ${hex(wood)} = ${best.toFixed(2)} < 3`);
    }
    for (const e of svg.querySelectorAll('[data-last]')) {
      const stone = svg.querySelector(`[data-stone="${e.dataset.last}"]`);
      const under = stone ? over(paint(stone, 'fill'), wood) : wood;
      check(`${svg.id} last-move mark on ${e.dataset.last}`, over(paint(e, 'fill'), under), under, 3);
    }
    for (const e of svg.querySelectorAll('.cursor, .forbidden line')) check(`${svg.id} ${e.getAttribute('class') || 'forbidden'}`, over(paint(e, 'stroke'), wood), wood, 3);
  }
  return { checked, fails };
}

// The page's contrast in its theme now, in a scene; a failure lists each
// element, its colours and ratio.
async function contrastOk(page, scene, theme, atLeast) {
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(dark === 'rgb(22, 24, 28)', theme !== 'light', `${scene}: the ${theme} theme is not on (body ${dark})`);
  const { checked, fails } = await page.evaluate(measureContrast);
  assert.deepEqual(fails, [], `${scene}, ${theme}: ${fails.length} below WCAG AA:\n  ${fails.join('\n  ')}`);
  assert.ok(checked >= atLeast, `${scene}, ${theme}: only ${checked} things measured`);
  return checked;
}

// A scene in light, dark by the system (prefers-color-scheme) and dark by
// the Theme button (html[data-theme]); back to light after.
async function contrastThemes(page, scene, atLeast) {
  let n = await contrastOk(page, scene, 'light', atLeast);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  n += await contrastOk(page, scene, 'dark (system)', atLeast);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await page.click('#theme');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  n += await contrastOk(page, scene, 'dark (Theme button)', atLeast);
  await page.click('#theme');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  // the system's choice again, as on a first visit
  await page.evaluate(() => { delete document.documentElement.dataset.theme; localStorage.removeItem('gomokud.theme'); });
  return n;
}

// Waits until it is my move in a game (or its end), then plays the first
// free point of order; returns it.
async function playFree(page, order) {
  await page.waitForFunction(() => /Your move/.test(document.getElementById('turn').textContent), { timeout: T });
  const mv = await page.evaluate((o) => o.find((m) => !document.querySelector(`[data-stone="${m}"]`)), order);
  await page.click(`[data-mv="${mv}"]`);
  await waitStone(page, mv);
  return mv;
}

async function contrast() {
  const p = await open();
  await p.waitForSelector('#who li', { timeout: T });
  let n = await contrastThemes(p, 'the lobby', 60);
  // 15x15: a bot game with stones, the cursor shown by the arrow keys
  await p.select('#bot select[name=level]', '1');
  await p.select('#bot select[name=colour]', 'black');
  await p.select('#bot select[name=tc]', '300+5');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await playFree(p, ['h8']);
  await p.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2 && /Your move/.test(document.getElementById('turn').textContent), { timeout: T });
  await p.$eval('#board', (e) => e.focus());
  await p.keyboard.press('ArrowUp');
  await p.waitForSelector('#board .cursor', { timeout: T });
  n += await contrastThemes(p, 'a 15x15 game', 30 + 15 * 2);
  await p.click('#resign');
  await p.click('#confirm-yes');
  await waitText(p, '#turn', /wins/);
  // a replay of it
  await replayNewest(p);
  await p.waitForSelector('#replay:not([hidden]) [data-stone]', { timeout: T });
  n += await contrastThemes(p, 'a replay', 50);
  // 19x19: a quick match a bot takes (bot-fallback 4 s)
  await p.click('#r-back');
  await p.waitForSelector('#lobby:not([hidden])', { timeout: T });
  await p.select('#seek select[name=size]', '19');
  await p.click('#seek-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: 4 * T / 3 });
  await p.waitForFunction(() => document.querySelectorAll('#board [data-mv]').length === 361, { timeout: T });
  await playFree(p, ['k10', 'j10', 'k9', 'l11', 'j11']);
  await p.waitForFunction(() => document.querySelectorAll('[data-stone]').length >= 2 && /Your move/.test(document.getElementById('turn').textContent), { timeout: T });
  n += await contrastThemes(p, 'a 19x19 game', 30 + 19 * 2);
  ok(`contrast, WCAG 2.1 AA, measured on the rendered colours: the lobby, 15x15 and 19x19 games, a replay, each light and dark (system and Theme button): ${n} texts, controls, stones and marks`);
  await p.browserContext().close();
}

// The accessibility tree as Chromium gives it to a screen reader: every
// node, flattened, {role, name, focused, value}.
async function axNodes(page, root) {
  const snap = await page.accessibility.snapshot({ interestingOnly: false, root: root ? await page.$(root) : undefined });
  const out = [];
  const walk = (n) => {
    if (!n) return;
    out.push(n);
    for (const c of n.children || []) walk(c);
  };
  walk(snap);
  return out;
}

// The focus as Chromium gives it to a screen reader: whether sel's node is
// focused, and the node its aria-activedescendant points at, resolved by
// Chromium (its role and name), through the DevTools protocol, as
// puppeteer's snapshot does not carry the relation.
async function axActive(page, sel) {
  const cdp = await page.createCDPSession();
  try {
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: sel });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const prop = (n, name) => (n.properties || []).find((x) => x.name === name);
    const rel = prop(nodes[0], 'activedescendant');
    if (!rel) return { focused: !!prop(nodes[0], 'focused')?.value.value, active: null };
    const { nodes: cell } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: rel.value.relatedNodes[0].backendDOMNodeId, fetchRelatives: false });
    return { focused: !!prop(nodes[0], 'focused')?.value.value, active: { role: cell[0].role.value, name: cell[0].name.value } };
  } finally {
    await cdp.detach();
  }
}

function axHas(nodes, role, name, what) {
  const hit = nodes.find((n) => n.role === role && (name instanceof RegExp ? name.test(n.name || '') : n.name === name));
  assert.ok(hit, `${what}: no ${role} named ${name} in the accessibility tree`);
  return hit;
}

// A live region's role and text as the tree has it (a status is named by
// no one: its text is its content).
async function axText(page, sel) {
  const nodes = await axNodes(page, sel);
  return `${nodes[0].role}: ${nodes.filter((n) => n.role === 'StaticText').map((n) => n.name).join('')}`;
}
const axNews = async (page) => (await axText(page, '#news')).replace(/^status: /, '');

async function a11yTree() {
  const p = await open();
  await p.waitForSelector('#who li', { timeout: T });
  let nodes = await axNodes(p);
  for (const [role, name] of [['heading', 'Quick match'], ['button', 'Find an opponent'], ['button', 'Play the bot'], ['combobox', 'Language'],
    ['button', 'Switch between light and dark theme'], ['button', 'Show my games']]) axHas(nodes, role, name, 'the lobby');
  assert.equal(await axText(p, '#status'), 'status: Connected');
  ok('accessibility tree, the lobby: its headings, buttons, the language switch and the status line, named');

  await p.select('#bot select[name=level]', '1');
  await p.select('#bot select[name=colour]', 'black');
  await p.select('#bot select[name=tc]', '300+5');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await waitText(p, '#turn', /^Your move$/);
  await waitText(p, '#news', /^The game starts: .* plays black, .* white$/);
  nodes = await axNodes(p);
  const grid = axHas(nodes, 'grid', 'Board', 'a game');
  assert.equal(nodes.filter((n) => n.role === 'gridcell').length, 15 * 15, 'a game: the board\'s points are not gridcells');
  axHas(nodes, 'gridcell', 'h8 empty', 'a game');
  axHas(nodes, 'timer', /^Black's clock: [0-9]+:[0-9]{2}$/, 'a game');
  axHas(nodes, 'timer', /^White's clock: [0-9]+:[0-9]{2}$/, 'a game');
  axHas(nodes, 'table', 'Moves', 'a game');
  for (const name of ['Ask to undo', 'Offer a draw', 'Resign', 'Back to the lobby', 'Send']) axHas(nodes, 'button', name, 'a game');
  axHas(nodes, 'textbox', 'Chat message', 'a game');
  assert.ok(grid, 'a game: no board');
  ok('accessibility tree, a game: the board a grid named "Board" of 225 named points, both clocks timers with their time, the move list a table named "Moves", the main buttons');

  // the cursor: aria-activedescendant, the point focused in the tree; the
  // board keeps its name; Enter plays the point
  await p.$eval('#board', (e) => e.focus());
  assert.equal(await p.$eval('#board', (e) => e.getAttribute('aria-activedescendant')), 'board-h8');
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowUp');
  assert.equal(await p.$eval('#board', (e) => e.getAttribute('aria-activedescendant')), 'board-i9');
  assert.equal(await p.$eval('#board', (e) => e.getAttribute('aria-label')), 'Board');
  assert.deepEqual(await axActive(p, '#board'), { focused: true, active: { role: 'gridcell', name: 'i9 empty' } }, 'the board\'s active point in the tree');
  await p.keyboard.press('Enter');
  await waitStone(p, 'i9');
  // the bot's answer in the live region, in words: "white h9"
  await p.waitForFunction(() => document.querySelectorAll('[data-stone]').length === 2, { timeout: T });
  const bot = await p.evaluate(() => window.gomokud.model.game.moves[1]);
  await waitText(p, '#news', /^white /);
  const said = await axNews(p);
  assert.match(said, /^white [a-o][0-9]+$/);
  assert.equal(said, `white ${bot}`);
  nodes = await axNodes(p);
  axHas(nodes, 'gridcell', `${bot} white, last move`, 'a game');
  axHas(nodes, 'gridcell', 'i9 black', 'a game');
  const live = await p.$eval('#news', (e) => [e.getAttribute('role'), e.getAttribute('aria-live'), getComputedStyle(e).position, e.getBoundingClientRect().width]);
  assert.deepEqual(live, ['status', 'polite', 'absolute', 1], 'the live region is not a visually hidden polite status');
  ok(`the cursor is aria-activedescendant (the focused board's active point in the tree "i9 empty", the board still "Board"); Enter plays it; the live region says the bot's answer: "${said}"`);
  await p.click('#resign');
  await p.click('#confirm-yes');
  await waitText(p, '#news', /^Black wins|^White wins/);
  assert.match(await axNews(p), /^White wins \(resign\)$/);
  ok('the live region says the end: "White wins (resign)"');

  await replayNewest(p);
  await p.waitForSelector('#replay:not([hidden]) [data-stone]', { timeout: T });
  nodes = await axNodes(p);
  axHas(nodes, 'grid', 'Replay board', 'a replay');
  for (const name of ['First move', 'Previous move', 'Next move', 'Last move', 'Download as text', 'Back to the lobby']) axHas(nodes, 'button', name, 'a replay');
  axHas(nodes, 'slider', 'Jump to move', 'a replay');
  axHas(nodes, 'gridcell', 'i9 black', 'a replay');
  assert.equal(nodes.filter((n) => n.role === 'grid').length, 1, 'a replay: a hidden board in the tree');
  ok('accessibility tree, a replay: the board a grid named "Replay board" with its stones, the step buttons and the slider named');
  await p.browserContext().close();
}

// ---- tournaments (issue 48) -------------------------------------------------------

// A line client said hello to, as a guest or an account (password given).
async function lineSignIn(name, password) {
  const c = await lineClient(daemon.port);
  await c.expect(/^\* SERVER .* tournaments/);
  c.send('HELLO 1 test');
  await c.expect(/^OK HELLO/);
  c.send(password ? `REGISTER ${name} ${password}` : `GUEST ${name}`);
  await c.expect(password ? /^OK REGISTER / : /^OK GUEST /);
  return c;
}

async function tourneyBoard() {
  const n = process.pid % 10000;
  const host = await lineSignIn(`tho${n}`, 'secret-pw');
  const opp = await lineSignIn(`top${n}`);
  try {
    // a casual Swiss of one round, starting in 10 s; a line client is in it
    const name = `Web Swiss ${n}`;
    host.send(`TCREATE swiss freestyle 15 300+0 none casual people 10 1 ${name}`);
    const id = (await host.expect(/^(OK TCREATE|ERR) /)).split(' ')[2];
    assert.match(id, /^[0-9]+$/, `TCREATE: ${id}`);
    opp.send(`TJOIN ${id}`);
    await opp.expect(new RegExp(`^OK TJOIN ${id}$`));

    // a guest's lobby lists it; its link opens the event
    const a = await open();
    const me = await named(a);
    await a.waitForSelector(`#tourney-card:not([hidden]) [data-tourney="${id}"]`, { timeout: T });
    const li = await a.$eval(`[data-tourney="${id}"]`, (e) => e.parentElement.textContent);
    assert.match(li, new RegExp(`^${name} · Swiss · freestyle 15×15 · 5 min \\+ 0 s · one round · Starts in 0:(0[0-9]|10) · one player$`));
    assert.equal(await a.$eval('#tcreate', (e) => e.hidden), true, 'a guest is not offered the create form');
    ok('the lobby\'s Tournaments card lists the event: name, kind, rule, size, time, length, the countdown, its players');
    await a.click(`[data-tourney="${id}"]`);
    await a.waitForSelector('#tourney:not([hidden])', { timeout: T });
    assert.equal(await a.evaluate(() => location.hash), `#tourney=${id}`);
    assert.equal(await text(a, '#t-name'), name);
    assert.equal(await text(a, '#t-what'), 'Swiss · freestyle 15×15 · 5 min + 0 s · one round');
    assert.equal(await text(a, '#t-more'), 'Opening: none · casual · for people · starting soon');
    await waitText(a, '#t-when', /^Starts in 0:0[0-9]$/);
    assert.equal(await text(a, '#t-next'), 'You are not playing in this tournament.');
    assert.equal(await a.$eval('#t-leave', (e) => e.hidden), true);
    await a.click('#t-join');
    await a.waitForSelector('#t-leave:not([hidden])', { timeout: T });
    await a.waitForFunction((u) => document.querySelector(`#t-standings tr[data-user="${u}"]`), { timeout: T }, me);
    assert.deepEqual(await a.$$eval('#t-standings thead th', (l) => l.map((x) => x.textContent)),
      ['Rank', 'Player', 'Points', 'BH-1', 'BH', 'MBH', 'SB', 'Games', 'Status']);
    assert.deepEqual(await a.$$eval('#t-standings tbody tr', (l) => l.map((x) => x.children[0].textContent).sort()), ['=1', '=1'], 'two equal: the rank shared');
    assert.equal(await text(a, '#t-next'), 'You are in: the pairings are made when it starts.');
    ok('the event\'s page: its header, the countdown, Join; joined, Leave and the standings with the Swiss\'s tie-breaks, the shared rank');
    // Leave asks on the page first; Stay in keeps the player in
    assert.equal(await a.$eval('#t-confirm', (e) => e.hidden), true);
    await a.click('#t-leave');
    await a.waitForSelector('#t-confirm:not([hidden])', { timeout: T });
    assert.equal(await text(a, '#t-confirm-text'), 'Leave this tournament before it starts?');
    assert.deepEqual(await a.$$eval('#t-confirm button', (l) => l.map((x) => x.textContent)), ['Leave', 'Stay in']);
    await a.click('#t-confirm-no');
    assert.equal(await a.$eval('#t-confirm', (e) => e.hidden), true);
    await new Promise((r) => setTimeout(r, 300)); // a TLEAVE, had one gone, would be answered by now
    assert.equal(await a.$eval('#t-leave', (e) => e.hidden), false, 'Stay in: still joined');
    assert.ok(await a.$(`#t-standings tr[data-user="${me}"]`), 'Stay in: still in the standings');
    ok('Leave asks first on the page ("Leave this tournament before it starts?", Leave / Stay in); Stay in keeps the player in');
    await a.reload();
    await named(a);
    await a.waitForSelector('#tourney:not([hidden]) #t-leave:not([hidden])', { timeout: T });
    await a.waitForFunction((u) => document.querySelector(`#t-standings tr[data-user="${u}"]`), { timeout: T }, me);
    ok('a reload shows the event again by its address (TWATCH again)');

    // the round starts: the pairing said, then the board
    await a.evaluate(() => {
      window.tnext = [];
      new MutationObserver(() => window.tnext.push(document.getElementById('t-next').textContent))
        .observe(document.getElementById('t-next'), { childList: true, characterData: true, subtree: true });
    });
    const start = await opp.expect(/^\* START /);
    const [, , room, , black] = start.split(' ');
    await a.waitForSelector('#game:not([hidden])', { timeout: T });
    const said = await a.evaluate(() => window.tnext);
    const side = black === me ? 'first' : 'second';
    assert.ok(said.includes(`Round 1: you play top${n} (you move ${side}).`), `the pairing not said: ${said.join(' | ')}`);
    ok('the round starts: "your next game" names the pairing, then the board opens by itself (* START)');
    if (black === me) {
      await play(a, 'h8');
    } else {
      opp.send(`MOVE ${room} a1`);
      await waitStone(a, 'a1');
      await play(a, 'h8');
    }
    opp.send(`RESIGN ${room}`);
    await waitText(a, '#result-head', /^You won$/);
    await a.waitForSelector('#result-tourney:not([hidden])', { timeout: T });
    assert.equal(await a.$eval('#offer-rematch', (e) => e.hidden), true, 'no rematch in a tournament');
    await a.click('#result-tourney');
    await a.waitForSelector('#tourney:not([hidden])', { timeout: T });
    await a.waitForFunction((u) => {
      const r = document.querySelector(`#t-standings tr[data-user="${u}"]`);
      return r && r.querySelector('.points').textContent === '1' && r.children[0].textContent === '1';
    }, { timeout: T }, me);
    assert.deepEqual(await a.$$eval('#t-standings tbody tr', (l) => l.map((x) => [...x.children].map((c) => c.textContent).join('|'))),
      [`1|${me}|1|0|0|0|0|1|waiting`, `2|top${n}|0|0|1|0|0|1|waiting`], 'points and Buchholz halved (2 halves: 1); Cut-1 and median cut the one score');
    await waitText(a, '#t-more', /· over$/);
    assert.deepEqual(await a.$$eval('#t-pairings tbody tr', (l) => l.map((x) => [...x.children].slice(0, 4).map((c) => c.textContent).join('|'))),
      [black === me ? `1|${me}|top${n}|${me} won` : `1|top${n}|${me}|${me} won`]);
    ok('its opponent resigns: You won, Back to the tournament; the standings give the win its point (halved: 1), the pairing its result');
    await a.browserContext().close();

    // in Chinese, at phone size: the header and the standings' words, no overflow
    const z = await open(null, PHONE, ['zh-CN', 'zh']);
    await z.evaluate((h) => { location.hash = h; }, `#tourney=${id}`);
    await z.waitForSelector('#tourney:not([hidden]) #t-standings tbody tr', { timeout: T });
    assert.match(await text(z, '#t-what'), /^瑞士制 · /);
    assert.match(await text(z, '#t-more'), /不计分 · 参赛：真人 · 已结束$/);
    assert.deepEqual(await z.$$eval('#t-standings thead th', (l) => l.map((x) => x.textContent)),
      ['名次', '选手', '积分', '布赫-1', '布赫', '中布赫', '索伯', '对局数', '状态']);
    assert.equal(await text(z, '#t-next'), '你没有参加本比赛。');
    assert.ok(await z.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page overflows at phone size');
    await shot(z, 'tourney-phone-zh');
    ok('the event\'s page in Chinese at phone size: its header and standings in Chinese, no horizontal overflow');
    await z.browserContext().close();

    // an account creates events with the lobby's form: an arena opens its
    // page; past the account's limit the refusal is said in words
    const c = await open();
    await c.waitForSelector('#tourney-card:not([hidden])', { timeout: T });
    await register(c, `tcr${n}`);
    await c.click('#tc-box summary');
    await c.waitForSelector('#tcreate:not([hidden])', { timeout: T });
    await c.select('#tcreate select[name=kind]', 'arena');
    assert.equal(await text(c, '#tc-length-label'), 'Length (minutes)');
    await c.type('#tcreate input[name=name]', `Arena ${n}`);
    await c.$eval('#tcreate input[name=start]', (e) => { e.value = '1'; });
    await c.$eval('#tcreate input[name=length]', (e) => { e.value = '20'; });
    await c.click('#tcreate-go');
    await c.waitForFunction(() => !document.getElementById('tourney').hidden || document.getElementById('tc-refusal').textContent, { timeout: T });
    assert.equal(await text(c, '#tc-refusal'), '', 'the arena refused');
    assert.equal(await text(c, '#t-name'), `Arena ${n}`);
    assert.equal(await text(c, '#t-what'), 'arena · freestyle 15×15 · 5 min + 5 s · 20 minutes');
    await waitText(c, '#t-when', /^Starts in (1:00|0:5[0-9])$/);
    assert.equal(await c.$eval('#t-join', (e) => e.hidden), false, 'the creator may join an arena');
    // joined, then left: the confirmation's Leave sends TLEAVE, the server
    // takes the player out before the start
    await c.click('#t-join');
    await c.waitForFunction((u) => document.querySelector(`#t-standings tr[data-user="${u}"]`), { timeout: T }, `tcr${n}`);
    await c.click('#t-leave');
    await c.waitForSelector('#t-confirm:not([hidden])', { timeout: T });
    assert.equal(await text(c, '#t-confirm-text'), 'Leave this tournament before it starts?');
    await c.click('#t-confirm-yes');
    await c.waitForSelector('#t-join:not([hidden])', { timeout: T });
    await c.waitForFunction((u) => !document.querySelector(`#t-standings tr[data-user="${u}"]`), { timeout: T }, `tcr${n}`);
    assert.equal(await c.$eval('#t-confirm', (e) => e.hidden), true);
    assert.equal(await text(c, '#t-next'), 'You are not playing in this tournament.');
    assert.equal(await text(c, '#t-refusal'), '', 'TLEAVE refused');
    ok('joined the arena, Leave then Leave in the confirmation: out of the standings as the server says, Join offered again');
    for (let k = 0; k < 2; k++) {
      await c.click('#t-back');
      await c.waitForSelector('#lobby:not([hidden])', { timeout: T });
      await c.click('#tcreate-go');
      await c.waitForFunction(() => !document.getElementById('tourney').hidden || document.getElementById('tc-refusal').textContent, { timeout: T });
    }
    assert.equal(await text(c, '#tc-refusal'), 'You have as many tournaments not yet over as you may');
    ok('an account\'s create form: an arena made opens its page; the third event not over is refused (453) in words');
    await c.browserContext().close();

    // a Swiss of two rounds under way: the page's player finished its
    // round-1 game while the other board plays on, so the round is not
    // over; Leave now says it means no more pairings, and leaving withdraws
    const lines = await Promise.all([1, 2, 3].map((k) => lineSignIn(`tlv${k}${n}`)));
    try {
      host.send(`TCREATE swiss freestyle 15 300+0 none casual people 5 2 Leave Swiss ${n}`);
      const lid = (await host.expect(/^(OK TCREATE|ERR) /)).split(' ')[2];
      assert.match(lid, /^[0-9]+$/, `TCREATE: ${lid}`);
      for (const l of lines) {
        l.send(`TJOIN ${lid}`);
        await l.expect(new RegExp(`^OK TJOIN ${lid}$`));
      }
      const d = await open();
      const dme = await named(d);
      await d.evaluate((h) => { location.hash = h; }, `#tourney=${lid}`);
      await d.waitForSelector('#tourney:not([hidden]) #t-join:not([hidden])', { timeout: T });
      await d.click('#t-join');
      await d.waitForSelector('#t-leave:not([hidden])', { timeout: T });
      await d.waitForSelector('#game:not([hidden])', { timeout: T });
      const g = await d.evaluate(() => { const x = window.gomokud.model.game; return { room: x.room, black: x.black, white: x.white }; });
      const rival = g.black === dme ? g.white : g.black;
      const k = [1, 2, 3].find((j) => rival === `tlv${j}${n}`);
      assert.ok(k, `the page's opponent ${rival} is none of the line clients`);
      lines[k - 1].send(`RESIGN ${g.room}`);
      await d.waitForSelector('#result-tourney:not([hidden])', { timeout: T });
      await d.click('#result-tourney');
      await d.waitForSelector('#tourney:not([hidden]) #t-leave:not([hidden])', { timeout: T });
      await waitText(d, '#t-more', /· under way$/);
      await d.click('#t-leave');
      await d.waitForSelector('#t-confirm:not([hidden])', { timeout: T });
      assert.equal(await text(d, '#t-confirm-text'),
        'It has started: if you leave, you get no more pairings and cannot join again (a game under way plays on). Leave?');
      await d.click('#t-confirm-no');
      assert.equal(await d.$eval('#t-leave', (e) => e.hidden), false, 'Stay in: still in');
      await d.click('#t-leave');
      await d.click('#t-confirm-yes');
      await waitText(d, '#t-next', /^You left this tournament\.$/);
      await d.waitForFunction((u) => {
        const r = document.querySelector(`#t-standings tr[data-user="${u}"]`);
        return r && r.lastElementChild.textContent === 'withdrawn';
      }, { timeout: T }, dme);
      assert.equal(await d.$eval('#t-leave', (e) => e.hidden), true);
      assert.equal(await text(d, '#t-why'), 'You left it: a Swiss or a round robin cannot be joined again.');
      assert.equal(await text(d, '#t-refusal'), '', 'TLEAVE refused');
      ok('a Swiss under way (the other board still playing): Leave says it means no more pairings; Stay in keeps the player in, Leave withdraws it as the server says');
      await d.browserContext().close();
    } finally {
      for (const l of lines) l.close();
    }
  } finally {
    host.close();
    opp.close();
  }
}

// ---- bots marked (issue 49, PROTOCOL.md 5.22) ---------------------------------

// A game against the server's own bot: its seat is marked BOT (the room's
// * KINDS), named for a screen reader, the player's own seat not; a page
// in Chinese lists it marked in the lobby's WHO, and watching the game
// sees its seat and its profile marked, the mark in Chinese.
async function botMarks() {
  const p = await open();
  const me = await named(p);
  await p.select('#bot select[name=level]', '1');
  await p.select('#bot select[name=colour]', 'black');
  await p.click('#bot-go');
  await p.waitForSelector('#game:not([hidden])', { timeout: T });
  await p.waitForSelector('#p-white .botmark', { timeout: T });
  const bot = await p.$eval('#p-white .name', (e) => e.dataset.user);
  const room = await p.evaluate(() => window.gomokud.model.game.room);
  assert.match(bot, /^bot[0-9]+$/);
  const mark = (page, sel) => page.$eval(sel, (e) => ({
    text: e.textContent, title: e.title, label: e.getAttribute('aria-label'), role: e.getAttribute('role'), shown: e.getBoundingClientRect().width > 0,
  }));
  const en = { text: 'BOT', title: 'a bot: a program plays, not a person', label: 'a bot: a program plays, not a person', role: 'img', shown: true };
  assert.deepEqual(await mark(p, '#p-white .botmark'), en);
  assert.equal(await p.$('#p-black .botmark'), null, 'the player\'s own seat is marked a bot');
  // beside the name: right of it, on its line
  assert.ok(await p.$eval('#p-white .name', (n) => {
    const a = n.getBoundingClientRect();
    const b = n.nextElementSibling.getBoundingClientRect();
    return n.nextElementSibling.className === 'botmark' && b.left >= a.right && b.top < a.bottom && b.bottom > a.top;
  }), 'the mark is not beside the bot\'s name');
  axHas(await axNodes(p, '#p-white'), 'image', en.label, 'the bot\'s seat');
  await shot(p, 'bot-seat');
  ok(`a game against the server's bot: its seat (${bot}) marked "BOT", named "${en.label}" in the accessibility tree; the player's own seat not marked`);

  // a page in Chinese: the lobby's WHO lists the bot marked, in Chinese
  const z = await open(null, DESKTOP, ZH);
  await z.waitForFunction((b) => [...document.querySelectorAll('#who li')].some((li) => li.textContent.startsWith(b) && li.querySelector('.botmark')), { timeout: T }, bot);
  const zh = { text: '机器人', title: '机器人：由程序下棋，不是真人', label: '机器人：由程序下棋，不是真人', role: 'img', shown: true };
  const who = await z.$$eval('#who li', (l) => l.map((li) => ({ text: li.textContent, marked: !!li.querySelector('.botmark') })));
  const botLine = who.find((w) => w.text.startsWith(bot));
  assert.ok(botLine.text.startsWith(`${bot}机器人（`), `the bot's line in WHO: ${botLine.text}`);
  assert.equal(who.find((w) => w.text.startsWith(`${me}（`)).marked, false, 'a person is marked a bot in WHO');
  assert.deepEqual(await mark(z, '#who li .botmark'), zh);
  await shot(z, 'bot-who-zh');
  // the rooms list names the bot's game with the mark too
  await z.waitForSelector(`[data-watch="${room}"]`, { timeout: T });
  assert.equal(await z.$eval(`[data-watch="${room}"]`, (b) => b.parentElement.querySelectorAll('.botmark').length), 1);
  // watching the game: the bot's seat marked in Chinese; its profile too
  await z.click(`[data-watch="${room}"]`);
  await z.waitForSelector('#game:not([hidden]) #p-white .botmark', { timeout: T });
  assert.deepEqual(await mark(z, '#p-white .botmark'), zh);
  assert.equal(await z.$('#p-black .botmark'), null);
  await z.click('#p-white .name');
  await z.waitForSelector('#profile:not([hidden]) #profile-name .botmark', { timeout: T });
  assert.equal(await z.$eval('#profile-name', (e) => e.textContent), `${bot}机器人`);
  await shot(z, 'bot-profile-zh');
  ok('a page in Chinese: WHO lists the bot marked "机器人" (a person not), the rooms list and the watched game\'s seat mark it, and so does its profile');
  await z.browserContext().close();
  await p.click('#resign');
  await p.click('#confirm-yes');
  await waitText(p, '#turn', /wins/);
  await p.browserContext().close();
}

// ---- the engine league (issue 49, leagueTable) ----------------------------------

// A daemon of the case's own (the suite's runs no league): main, three of
// its bots at low levels on a fast clock, its first round robin 15 s after
// the start (made 5 s before it); later, a day away. Its port: the one
// after BROWSER_PORT when the caller gave one, else a free one.
async function leagueTable() {
  // the suite's daemon lists `league` (it has tournaments) but runs none: no card
  const plain = await open(null);
  await plain.waitForFunction(() => window.gomokud.model.caps.includes('league') && window.gomokud.model.leagues !== null, { timeout: T });
  assert.equal(await plain.$eval('#league-card', (e) => e.hidden), true, 'a league card on a server that runs no league');
  await plain.browserContext().close();
  const ldir = mkdtempSync(join(tmpdir(), 'gomokud-web-league.'));
  const lconf = join(ldir, 'gomokud.conf');
  writeFileSync(lconf, 'rate-burst 1000\nrate-per-second 1000\n'
    + 'league main freestyle 15 30+0 members=level1,level2,level3 first=15\n'
    + 'league later freestyle 15 60+0 members=level1,level2 first=86400\n');
  const port = process.env.BROWSER_PORT ? Number(process.env.BROWSER_PORT) + 1 : await freePort();
  let proc = null;
  const pages = [];
  try {
    proc = await startProc(`${BINDIR}/gomokud`, ['--config', lconf, '--state-dir', join(ldir, 'state'), '--listen', `127.0.0.1:${port}`, '--log-level', 'info'],
      /listening on 127\.0\.0\.1:/, 'the league\'s gomokud');
    const base = `https://127.0.0.1:${port}/`;
    const a = await open(base);
    pages.push(a);
    await a.waitForSelector('#league-card:not([hidden])', { timeout: T });
    assert.deepEqual(await a.$$eval('#leagues a', (l) => l.map((x) => x.textContent)), ['main', 'later']);
    assert.match(await text(a, '#leagues li'), /^main · freestyle 15×15 · 30 s \+ 0 s · 0 players · 0 rated games$/);
    await a.click('#leagues a[data-league="main"]');
    await a.waitForSelector('#league:not([hidden])', { timeout: T });
    await waitText(a, '#lg-name', /^main$/);
    assert.deepEqual(await a.$$eval('#lg-list a', (l) => l.map((x) => x.textContent)), ['main', 'later']);
    assert.match(await text(a, '#lg-what'), /^freestyle 15×15 · 30 s \+ 0 s · 0 players · 0 rated games$/);
    assert.equal(await a.evaluate(() => location.hash), '#league=main');
    await a.waitForSelector('#lg-empty:not([hidden])', { timeout: T });
    await a.click('#lg-list a[data-league="later"]');
    await waitText(a, '#lg-name', /^later$/);
    await waitText(a, '#lg-when', /^Next event in 2[34]:[0-9]{2}:[0-9]{2}$/);
    assert.equal(await a.$eval('#lg-event', (e) => e.hidden), true, 'later has no event yet');
    assert.equal(await a.evaluate(() => location.hash), '#league=later');
    ok('the lobby\'s league card lists the leagues and opens the league view: the leagues listed, main\'s what and empty table, later\'s first event counted down (#league=NAME)');

    // main's event, made 5 s before its start: asked again until it is named
    const t0 = Date.now();
    do {
      await a.click(`#lg-list a[data-league="main"]`);
      await waitText(a, '#lg-name', /^main$/);
      if (!(await a.$eval('#lg-event', (e) => e.hidden))) break;
      await sleep(1000);
    } while (Date.now() - t0 < 2 * T);
    assert.equal(await a.$eval('#lg-event-link', (e) => e.getAttribute('href')), '#tourney=1');
    await a.click('#lg-event-link');
    await waitText(a, '#t-name', /^league main 1$/);
    assert.match(await text(a, '#t-what'), /^round robin · freestyle 15×15/);
    // back to the table from its event, which stays followed: its end asks the table again
    await a.waitForSelector('#t-league:not([hidden])', { timeout: T });
    await a.click('#t-league-link');
    await a.waitForSelector('#league:not([hidden])', { timeout: T });
    await waitText(a, '#lg-name', /^main$/);
    assert.equal(await a.$$eval('#lg-table tbody tr', (r) => r.length), 0, 'a table before the event was played');
    // the whole event read, and its end (a table asked while the league lagged may
    // count fewer games, or the event still under way: asked again each second)
    await a.waitForFunction(() => / · 3 players · 3 rated games$/.test(document.getElementById('lg-what').textContent)
      && /^Next event in /.test(document.getElementById('lg-when').textContent), { timeout: 8 * T });
    assert.equal(await a.$$eval('#lg-table tbody tr', (r) => r.length), 3);
    const rows = await a.$$eval('#lg-table tbody tr', (tr) => tr.map((r) => ({
      cells: [...r.cells].map((c) => c.textContent), user: r.dataset.user, bot: !!r.querySelector('.botmark'), range: r.cells[2].getAttribute('aria-label'),
      elo: r.querySelector('.elo').textContent, bar: r.querySelector('.bar').textContent,
    })));
    const half = (v) => Number(v.replace('½', '')) + (v.endsWith('½') ? 0.5 : 0);
    let elo = Infinity;
    rows.forEach((r, i) => {
      assert.equal(r.cells[0], String(i + 1));
      assert.match(r.user, /^bot[123]$/);
      assert.ok(r.bot, `${r.user} not marked a bot`);
      assert.equal(r.cells[1], `${r.user}BOT`);
      assert.match(r.elo, /^(\+[0-9]+|\u2212[0-9]+|0)$/, `Elo: ${r.elo}`);
      assert.match(r.bar, /^(±[0-9]+|\+[0-9]+ \/ \u2212[0-9]+)$/, `bar: ${r.bar}`);
      assert.equal(r.cells[2], `${r.elo} ${r.bar}`);
      assert.match(r.range, /^Elo (\+[0-9]+|\u2212[0-9]+|0); 95% sure it lies from .+ to .+$/);
      assert.equal(r.cells[3], '2');
      assert.match(r.cells[5], /^[0-2]$/);
      const e = Number(r.elo.replace('\u2212', '-'));
      assert.ok(e <= elo, 'the Elo best first');
      elo = e;
    });
    assert.equal(rows.reduce((n, r) => n + half(r.cells[4]), 0), 3, 'a point a game, halves shown halved');
    assert.equal(await text(a, '#lg-event-link'), 'Its latest round robin');
    await shot(a, 'league-desktop');
    ok(`its round robin followed from the table: its end asks the table again; three bots marked BOT, Elo ${rows.map((r) => r.cells[2]).join(', ')}, 2 games each, the points halved`);

    // #league alone: the first league; #league=nosuch: the dead-link page with the server's words
    await a.goto(`${base}#league`);
    await a.waitForFunction(() => location.hash === '#league=main', { timeout: T });
    await a.goto(`${base}#league=nosuch`);
    await a.waitForSelector('#dead:not([hidden])', { timeout: T });
    await waitText(a, '#dead-text', /^That engine league cannot be opened\.$/);
    await waitText(a, '#dead-why', /^There is no engine league of that name \(.+\)$/);
    ok('#league opens the first league; #league=nosuch says why on the dead-link page, with the server\'s words');

    // in Chinese on a 360 px phone: the same table, its words, nothing wider than the screen
    const z = await open(`${base}#league=main`, { ...PHONE, width: 360, height: 740 }, ZH);
    pages.push(z);
    await z.waitForSelector('#league:not([hidden])', { timeout: T });
    await z.waitForFunction(() => document.querySelectorAll('#lg-table tbody tr').length === 3, { timeout: T });
    assert.equal(await text(z, '#league h2'), '引擎联赛');
    assert.match(await text(z, '#lg-table thead'), /名次.*选手.*Elo ±.*对局数.*得分.*和棋/);

    assert.deepEqual(await z.$$eval('#lg-table .botmark', (b) => b.map((x) => x.textContent)), ['机器人', '机器人', '机器人']);
    assert.match(await text(z, '#lg-what'), /^无禁手 15×15 · .+ · 3 名选手 · 3 局计分对局$/);
    await shot(z, 'league-phone-zh');
    // each column in the phone's width: the table box does not scroll
    assert.ok(await z.$eval('#lg-table', (t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth),
      `the table scrolls sideways at 360 px: ${await z.$eval('#lg-table', (t) => `${t.parentElement.scrollWidth} > ${t.parentElement.clientWidth}`)}`);
    const seen = await z.$eval('#league', (e) => e.innerText);
    assert.doesNotMatch(seen, ENGLISH, `English in the Chinese league view: ${seen}`);
    assert.ok(await z.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page scrolls sideways at 360 px');
    ok('the league view in Chinese at 360 px: its heads, the bots marked 机器人, its what, no English, nothing wider than the phone');
  } catch (e) {
    if (proc) console.log(proc.log().split('\n').slice(-12).join('\n'));
    throw e;
  } finally {
    for (const p of pages) await p.browserContext().close();
    await stopProc(proc);
    rmSync(ldir, { recursive: true, force: true });
  }
}

const cases = { engineGame, botAccountGame, tourneyBoard, leagueTable, analysisBoard, reviewGame, puzzleBoard, boardBasics, boardAttention, contrast, a11yTree, deadLinks, quickBot, takeSeek, seekTakeover, phoneAway, friendWalk, friendGame, botGame, botMarks, terminalGame, renjuGame, swap2Game, openingGames, accountGame, ratingsGame, languageGame, clusterGame, moderationGame, offersChatFlag, staySignedIn, secondDevice };
const only = process.env.BROWSER_CASE;
try {
  daemon = await startDaemon(Number(process.env.BROWSER_PORT || 0)); // a port of the caller's, or an ephemeral one
  console.log(`gomokud on 127.0.0.1:${daemon.port}, state ${dir}`);
  const lobbyPhone = await open(null, PHONE);
  await shot(lobbyPhone, 'lobby-phone');
  await lobbyPhone.browserContext().close();
  for (const [name, fn] of Object.entries(cases)) {
    if (only && !only.split(',').includes(name)) continue;
    if (name === 'clusterGame' && process.env.WITH_CLUSTER === '0') {
      console.log(`   ${name}: not built (a gomokud built WITH_CLUSTER=0 has no cluster)`);
      continue;
    }
    const start = Date.now();
    try {
      await fn();
    } catch (e) {
      failures++;
      console.log(`FAIL ${name}: ${e.stack || e}`);
    }
    console.log(`   ${name}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
  if (pageErrors.length) {
    failures++;
    console.log(`FAIL errors in the page: ${pageErrors.join('; ')}`);
  }
} finally {
  await browser.close();
  if (daemon) await killDaemon('SIGTERM');
}
if (daemon && daemon.status !== 0) { // a clean drain (and, under ASan, no leak)
  failures++;
  console.log(`FAIL the daemon's exit after SIGTERM: ${daemon.status}`);
}
if (!failures) rmSync(dir, { recursive: true, force: true });
else console.log(`state kept in ${dir}`);
console.log(`screenshots in ${SHOTS}`);
process.exit(failures ? 1 : 0);
