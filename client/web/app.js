// app.js: the web client. The page keeps a model rebuilt only from the
// server's lines (events, and snapshots after WATCH, STATE or RESUME) and
// renders it; clicks and keys become requests. The session token lives in
// localStorage, so a reload or a new tab resumes the seat.
import * as proto from './proto.js';
import { Board } from './board.js';

const $ = (id) => document.getElementById(id);
const STORE = 'gomokud.session';

const app = {
  ws: null,
  up: false,
  tagN: 0,
  pending: new Map(), // tag -> {resolve, reject, data}
  me: null, // {name, token}
  game: null,
  seek: null,
  backoff: 500,
  bye: null, // the reason of the last * BYE, for the close after it
  retry: null,
  host: null, // where * MOVED sent us (host:port); null: this page's server
  lobbyTimer: null,
  view: 'lobby',
  replay: null,
};

// ---- saved session -------------------------------------------------------

function saved() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

function save(patch) {
  localStorage.setItem(STORE, JSON.stringify({ ...saved(), ...patch }));
}

// ---- messages to the player ----------------------------------------------

let toastTimer = null;
function toast(text) {
  const t = $('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}

function status(text) {
  $('status').textContent = text;
}

function errText(e) {
  return e && e.code ? proto.errorWords(e.code, e.text) : String(e && e.message ? e.message : e);
}

// ---- the connection -------------------------------------------------------

function connect() {
  clearTimeout(app.retry);
  const ws = new WebSocket(`wss://${app.host || location.host}/ws`);
  app.ws = ws;
  ws.onmessage = (ev) => onLine(ev.data);
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.up = false;
    for (const p of app.pending.values()) p.reject({ code: 0, message: 'connection lost' });
    app.pending.clear();
    if (app.bye === 'takeover') {
      // another tab or client took this session: reconnecting would take it
      // back, and the two would pull the seat back and forth
      status('You are playing from another tab or client now. Reload this page to play here.');
      document.body.classList.add('offline');
      return;
    }
    app.bye = null;
    const s = Math.round(app.backoff / 100) / 10;
    status(`Connection lost; reconnecting in ${s} s…`);
    document.body.classList.add('offline');
    app.retry = setTimeout(connect, app.backoff);
    app.backoff = Math.min(app.backoff * 2, 8000);
  };
}

function send(name, ...args) {
  return new Promise((resolve, reject) => {
    if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
      reject({ code: 0, message: 'not connected' });
      return;
    }
    const tag = `#w${++app.tagN}`;
    let line;
    try {
      line = proto.formatRequest({ tag, name, args });
    } catch (e) {
      reject(e);
      return;
    }
    app.pending.set(tag, { resolve, reject, data: [] });
    app.ws.send(line);
  });
}

// A request whose refusal is shown to the player.
function act(name, ...args) {
  return send(name, ...args).catch((e) => {
    toast(errText(e));
    throw e;
  });
}

let pendingData = []; // = lines of the reply being read
function onLine(line) {
  let m;
  try {
    m = proto.parseServer(line);
  } catch {
    return; // not ours to judge: the server is the authority
  }
  if (m.kind === 'data') {
    pendingData.push(m);
    return;
  }
  if (m.kind === 'ok' || m.kind === 'err') {
    const data = pendingData;
    pendingData = [];
    const p = app.pending.get(m.tag);
    if (p) {
      app.pending.delete(m.tag);
      if (m.kind === 'ok') p.resolve({ ok: m, data });
      else p.reject(m);
    } else if (m.kind === 'err') {
      toast(proto.errorWords(m.code, m.text));
    }
    return;
  }
  if (m.unknown) return;
  onEvent(m.name, m.fields);
}

async function greet() {
  app.up = true;
  document.body.classList.remove('offline');
  status('Connected');
  await send('HELLO', 1, 'web/1');
  const s = saved();
  if (s.token && s.room) {
    try {
      const r = await send('RESUME', s.token, s.room, s.seq || 0);
      app.me = { name: s.name, token: s.token };
      showMe();
      snapshot(r.data, s.room);
      app.game.seq = Number(r.ok.args[1]);
      save({ seq: app.game.seq });
      app.backoff = 500;
      return;
    } catch (e) {
      if (e.moved) return; // * MOVED: the seat is taken back on its node
      save({ room: null, seq: 0 });
      if (e.code && e.code !== 448) toast(errText(e));
    }
  }
  // a guest takes its name again (an account's session ended with its tab)
  const want = s.name && !s.account && !/^guest[0-9]+$/.test(s.name) ? [s.name] : [];
  let r;
  try {
    r = await send('GUEST', ...want);
  } catch {
    r = await send('GUEST');
  }
  app.me = { name: r.ok.args[0], token: r.ok.args[1] };
  save({ name: app.me.name, token: app.me.token, account: false });
  showMe();
  app.backoff = 500;
  const join = /#join=([A-Za-z0-9]{6,32})/.exec(location.hash);
  if (join) {
    history.replaceState(null, '', location.pathname);
    try {
      const r = await act('JOIN', join[1]);
      enterRoom(r.ok.args[0], true);
    } catch { /* said */ }
    return;
  }
  if (app.view === 'game' && app.game) enterRoom(app.game.room, false);
  else showLobby();
}

function showMe() {
  $('me').textContent = app.me ? `You are ${app.me.name}` : '';
}

// ---- the model ------------------------------------------------------------

function newGame(room) {
  return {
    room, seq: 0, status: 'waiting', rule: 'freestyle', size: 15, tc: 'none', rated: 'casual',
    black: '-', white: '-', moves: [], reasons: [], clock: { b: null, w: null, side: 'none', at: 0 },
    offers: new Map(), result: null, think: null, presence: {}, chat: [], forbidden: [], stage: null,
    pending: [], putting: false, // swap2: stones placed here, not yet sent
  };
}

function mySide(g) {
  if (!app.me || !g) return null;
  if (g.black === app.me.name) return 'black';
  if (g.white === app.me.name) return 'white';
  return null;
}

function toMove(g) {
  if (g.clock.side === 'black' || g.clock.side === 'white') return g.clock.side;
  return g.moves.length % 2 ? 'white' : 'black';
}

function setClock(g, b, w, side) {
  g.clock = { b: b === '-' ? null : Number(b), w: w === '-' ? null : Number(w), side, at: performance.now() };
}

// The data lines of a snapshot (WATCH, STATE, RESUME) replace the model.
function snapshot(data, room) {
  const g = newGame(room);
  const old = app.game && app.game.room === room ? app.game : null;
  if (old) g.chat = old.chat;
  for (const d of data) {
    const f = d.fields;
    if (!f) continue;
    switch (d.name) {
      case 'ROOM':
        Object.assign(g, { status: f.status, rule: f.rule, size: Number(f.size), tc: f.tc, rated: f.rated, black: f.black, white: f.white });
        break;
      case 'CLOCK': setClock(g, f.bms, f.wms, f.side); break;
      case 'SEAT': g.presence[f.user] = f.presence === 'gone' ? { gone: true, until: performance.now() + Number(f.grace) } : {}; break;
      case 'MOVES': for (const mv of proto.moveList(f.moves)) g.moves.push(mv); break;
      case 'SWAP2': g.stage = { stage: f.stage, user: f.user }; g.putting = f.stage === 'put3'; break;
      case 'OFFER': g.offers.set(f.id, { kind: f.kind, from: f.from }); break;
      case 'RESULT': g.result = { result: f.result, reason: f.reason, cells: proto.moveList(f.cells) }; break;
      default: break;
    }
  }
  app.game = g;
  askForbidden(g);
  showGame();
}

function afterSeq(g, seq) {
  const n = Number(seq);
  if (g.seq && n !== g.seq + 1 && n > g.seq) {
    g.seq = n;
    send('STATE', g.room).then((r) => { snapshot(r.data, g.room); g.seq = Number(r.ok.args[1]); save({ seq: g.seq }); }).catch(() => {});
    return;
  }
  g.seq = n;
  if (mySide(g)) save({ seq: n });
}

// Renju: the points black may not play now, as the server judges them
// (FORBIDDEN); asked whenever black is to move, dropped when stale.
function askForbidden(g) {
  g.forbidden = [];
  if (g.rule !== 'renju' || g.status !== 'playing' || toMove(g) !== 'black') return;
  const at = g.moves.length;
  send('FORBIDDEN', g.room).then((r) => {
    if (app.game !== g || g.moves.length !== at) return;
    g.forbidden = r.data.flatMap((d) => proto.moveList(d.fields.moves));
    if (app.view === 'game') renderGame();
  }).catch(() => {});
}

function onEvent(name, f) {
  if (name === 'SERVER') {
    greet().catch((e) => toast(errText(e)));
    return;
  }
  if (name === 'SHUTDOWN') {
    status('The server is restarting…');
    return;
  }
  if (name === 'MOVED') {
    // the room is played on another node of the cluster: take the seat
    // back there with the token (greet RESUMEs the saved room)
    if (!saved().token) return;
    save({ room: f.room });
    app.host = f.addr;
    status(`Room ${f.room} is played at ${f.addr}; taking your seat there…`);
    const old = app.ws;
    app.ws = null;
    for (const p of app.pending.values()) p.reject({ code: 0, moved: true, message: 'moved' });
    app.pending.clear();
    old.close();
    connect();
    return;
  }
  if (name === 'BYE') {
    app.bye = f.reason; // the close that follows says what it means
    if (f.reason === 'shutdown') status('Server restarting, reconnecting…');
    return;
  }
  if (name === 'MOTD' || name === 'ANNOUNCE') {
    toast(f.text);
    return;
  }
  if (name === 'KICKED') {
    status(`Removed by the server's admins: ${f.text}`);
    return;
  }
  if (name === 'TELL') {
    toast(`${f.from} says: ${f.text}`);
    return;
  }
  if (name === 'START' && app.me && (f.black === app.me.name || f.white === app.me.name)) {
    if (!app.game || app.game.room !== f.room) app.game = newGame(f.room);
  }
  const g = app.game;
  if (!g || f.room !== g.room) return;
  afterSeq(g, f.seq);
  switch (name) {
    case 'START':
      Object.assign(g, { status: f.opening === 'swap2' ? 'opening' : 'playing', black: f.black, white: f.white, rule: f.rule, size: Number(f.size), tc: f.tc, rated: f.rated, moves: [], reasons: [], result: null, think: null, stage: null });
      g.offers.clear();
      setClock(g, f.bms, f.wms, f.opening === 'swap2' ? 'none' : 'black');
      if (mySide(g)) save({ room: g.room, seq: g.seq });
      $('share').hidden = true;
      askForbidden(g);
      showGame();
      break;
    case 'MOVE':
      g.moves.push(f.move);
      g.reasons[g.moves.length - 1] = f.reason || '';
      setClock(g, f.bms, f.wms, f.side === 'black' ? 'white' : 'black');
      g.think = null;
      askForbidden(g);
      break;
    case 'UNDO':
      g.moves.splice(g.moves.length - Number(f.plies));
      setClock(g, f.bms, f.wms, g.moves.length % 2 ? 'white' : 'black');
      askForbidden(g);
      break;
    case 'OVER':
      g.status = 'over';
      g.result = { result: f.result, reason: f.reason, cells: proto.moveList(f.cells) };
      g.clock.side = 'none';
      g.think = null;
      for (const [id, o] of g.offers) if (o.kind !== 'rematch') g.offers.delete(id);
      if (mySide(g)) save({ room: null, seq: 0 });
      break;
    case 'OFFER': g.offers.set(f.id, { kind: f.kind, from: f.from }); break;
    case 'OFFEREND': g.offers.delete(f.id); break;
    case 'SAY': g.chat.push({ user: f.user, text: f.text }); break;
    case 'PRESENCE':
      if (f.what === 'gone') g.presence[f.user] = { gone: true, until: performance.now() + Number(f.ms) };
      else if (f.what === 'back') g.presence[f.user] = {};
      if (f.what === 'joined' || f.what === 'left') g.chat.push({ user: '', text: `${f.user} ${f.what === 'joined' ? 'is watching' : 'left'}` });
      break;
    case 'THINK':
      g.think = { bot: f.bot, depth: Number(f.depth), cands: f.cands.split(',').map((c) => { const [mv, s] = c.split(':'); return { mv, score: Number(s) }; }) };
      break;
    case 'SWAP2': g.stage = { stage: f.stage, user: f.user }; g.status = 'opening'; g.pending = []; g.putting = f.stage === 'put3'; break;
    case 'COLOURS':
      g.black = f.black;
      g.white = f.white;
      g.stage = null;
      g.status = 'playing';
      g.pending = [];
      setClock(g, g.clock.b, g.clock.w, g.moves.length % 2 ? 'white' : 'black');
      break;
    default: break;
  }
  if (app.view === 'game') renderGame();
}

// ---- views ------------------------------------------------------------------

function show(view) {
  app.view = view;
  for (const v of ['lobby', 'game', 'replay']) $(v).hidden = v !== view;
}

function showLobby() {
  show('lobby');
  refreshLobby();
  clearInterval(app.lobbyTimer);
  app.lobbyTimer = setInterval(refreshLobby, 4000);
}

async function refreshLobby() {
  if (app.view !== 'lobby' || !app.up || !app.me) return;
  try {
    const [rooms, who] = await Promise.all([send('ROOMS'), send('WHO')]);
    const ul = $('rooms');
    ul.replaceChildren();
    for (const d of rooms.data) {
      const f = d.fields;
      const li = document.createElement('li');
      li.textContent = `${f.black} vs ${f.white} · ${f.rule} ${f.size} · ${f.moves} moves · ${f.status} `;
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Watch';
      b.dataset.watch = f.room;
      b.addEventListener('click', () => enterRoom(f.room, true));
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!rooms.data.length) ul.innerHTML = '<li>No public games right now.</li>';
    const w = $('who');
    w.replaceChildren();
    for (const d of who.data) {
      const li = document.createElement('li');
      li.textContent = `${d.fields.user} (${d.fields.state})`;
      w.appendChild(li);
    }
  } catch { /* the next refresh tries again */ }
}

async function enterRoom(room, watch) {
  clearInterval(app.lobbyTimer);
  try {
    const r = await send(watch ? 'WATCH' : 'STATE', room);
    snapshot(r.data, room);
    app.game.seq = Number(r.ok.args[1]);
    if (mySide(app.game) && app.game.status !== 'over') save({ room, seq: app.game.seq });
  } catch (e) {
    toast(errText(e));
    showLobby();
  }
}

function showGame() {
  show('game');
  renderGame();
}

// Swap2: the stones this player must put now (3, or the 2 of "choose").
function swap2Need(g) {
  if (!g.stage || g.stage.user !== app.me?.name || !g.putting) return 0;
  return g.stage.stage === 'put3' ? 3 : g.stage.stage === 'choose' ? 2 : 0;
}

const board = new Board($('board'), (mv) => {
  const g = app.game;
  if (!g) return;
  const need = swap2Need(g);
  if (!need) {
    act('MOVE', g.room, mv).catch(() => {});
    return;
  }
  if (g.moves.includes(mv) || g.pending.includes(mv)) return;
  g.pending.push(mv);
  if (g.pending.length === need) {
    const put = g.pending.join(',');
    act('SWAP2', g.room, 'put', put).catch(() => { g.pending = []; renderGame(); });
  }
  renderGame();
});

function swap2(choice) {
  const g = app.game;
  if (choice === 'put') {
    g.putting = true;
    g.pending = [];
    renderGame();
    return;
  }
  act('SWAP2', g.room, choice).catch(() => {});
}

function fmtClock(ms) {
  if (ms === null) return '';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function tick() {
  const g = app.game;
  if (!g || app.view !== 'game') return;
  const el = (side) => $(`p-${side}`).querySelector('.clock');
  const now = performance.now();
  for (const side of ['black', 'white']) {
    let v = side === 'black' ? g.clock.b : g.clock.w;
    if (v !== null && g.clock.side === side && g.status === 'playing') v -= now - g.clock.at;
    el(side).textContent = fmtClock(v);
  }
  const opp = mySide(g) === 'black' ? g.white : g.black;
  const p = g.presence[opp];
  $('claim').hidden = !(mySide(g) && g.status === 'playing' && p && p.gone && now >= p.until);
}
setInterval(tick, 250);

function resultWords(r) {
  const who = r.result === 'draw' ? 'Draw' : r.result === 'none' ? 'No result' : `${r.result[0].toUpperCase()}${r.result.slice(1)} wins`;
  const why = { five: 'five in a row', resign: 'by resignation', time: 'on time', 'draw-agreed': 'by agreement', 'board-full': 'the board is full', abandoned: 'the opponent left', aborted: 'aborted' }[r.reason] || r.reason;
  return `${who} (${why})`;
}

function renderGame() {
  const g = app.game;
  if (!g) return;
  board.setSize(g.size);
  const stones = new Map();
  g.moves.forEach((mv, i) => stones.set(mv, i % 2 ? 'white' : 'black'));
  g.pending.forEach((mv, i) => stones.set(mv, (g.moves.length + i) % 2 ? 'white' : 'black'));
  const side = mySide(g);
  const need = swap2Need(g);
  const turn = need ? ((g.moves.length + g.pending.length) % 2 ? 'white' : 'black') : toMove(g);
  board.render({
    stones,
    last: g.moves[g.moves.length - 1] || null,
    win: g.result && g.result.reason === 'five' ? g.result.cells : [],
    forbidden: g.forbidden,
    cands: g.think ? g.think.cands : [],
    canPlay: need > 0 || (side !== null && g.status === 'playing' && turn === side),
    toMove: turn,
  });
  for (const s of ['black', 'white']) {
    const n = $(`p-${s}`).querySelector('.name');
    const user = g[s];
    const gone = g.presence[user] && g.presence[user].gone;
    n.textContent = `${user === '-' ? 'waiting…' : user}${user === app.me?.name ? ' (you)' : ''}${gone ? ' — away' : ''}`;
    $(`p-${s}`).classList.toggle('tomove', g.status === 'playing' && turn === s);
  }
  let t;
  if (g.status === 'over' && g.result) t = resultWords(g.result);
  else if (g.status === 'waiting') t = 'Waiting for the other player…';
  else if (need) t = `Swap2: place ${need - g.pending.length} more stone${need - g.pending.length === 1 ? '' : 's'} (${turn} next)`;
  else if (g.stage && g.stage.user === app.me?.name) t = 'Swap2: choose your colour';
  else if (g.stage) t = `Swap2: ${g.stage.user} to ${{ put3: 'place three stones', choose: 'choose', choose2: 'choose a colour' }[g.stage.stage] || g.stage.stage}`;
  else if (side) t = turn === side ? 'Your move' : `${g[turn]} to move`;
  else t = `${turn[0].toUpperCase()}${turn.slice(1)} to move`;
  $('turn').textContent = t;
  const mine = g.stage && g.stage.user === app.me?.name && !need;
  $('swap2').hidden = !(mine && (g.stage.stage === 'choose' || g.stage.stage === 'choose2'));
  $('swap2-put').hidden = !(mine && g.stage.stage === 'choose');
  $('think').textContent = g.think ? `${g.think.bot} is thinking (depth ${g.think.depth}): ${g.think.cands.map((c) => `${c.mv} ${c.score}`).join(', ')}` : '';
  const ol = $('moves');
  ol.replaceChildren();
  g.moves.forEach((mv, i) => {
    const li = document.createElement('li');
    li.textContent = `${i % 2 ? 'white' : 'black'} ${mv}${g.reasons[i] ? ` (${g.reasons[i]})` : ''}`;
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
  const offers = $('offers');
  offers.replaceChildren();
  for (const [id, o] of g.offers) {
    const div = document.createElement('div');
    div.className = 'offer';
    const mine = o.from === app.me?.name;
    div.textContent = mine ? `You offered ${o.kind === 'undo' ? 'to undo' : `a ${o.kind}`}. ` : `${o.from} offers ${o.kind === 'undo' ? 'to undo' : `a ${o.kind}`}. `;
    const mk = (label, cmd, attr) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.dataset.offer = attr;
      b.addEventListener('click', () => act(cmd, g.room, id).catch(() => {}));
      div.appendChild(b);
    };
    if (!mine && side) {
      mk('Accept', 'ACCEPT', `accept-${o.kind}`);
      mk('Decline', 'DECLINE', `decline-${o.kind}`);
    } else if (mine) {
      mk('Withdraw', 'DECLINE', `withdraw-${o.kind}`);
    }
    offers.appendChild(div);
  }
  const playing = side && g.status === 'playing';
  $('offer-undo').hidden = !playing;
  $('offer-draw').hidden = !playing;
  $('resign').hidden = !playing;
  $('offer-rematch').hidden = !(side && g.status === 'over');
  const chat = $('chat');
  chat.replaceChildren();
  for (const c of g.chat.slice(-100)) {
    const li = document.createElement('li');
    if (c.user) {
      const b = document.createElement('b');
      b.textContent = `${c.user}: `;
      li.appendChild(b);
    }
    li.appendChild(document.createTextNode(c.text));
    chat.appendChild(li);
  }
  chat.scrollTop = chat.scrollHeight;
  tick();
}

function confirmThen(text, fn) {
  $('confirm-text').textContent = text;
  $('confirm').hidden = false;
  $('confirm-yes').onclick = () => { $('confirm').hidden = true; fn(); };
  $('confirm-no').onclick = () => { $('confirm').hidden = true; };
  $('confirm-yes').focus();
}

// ---- replay -----------------------------------------------------------------

const rboard = new Board($('rboard'), () => {});

async function openReplay(id) {
  try {
    const r = await act('EXPORT', id, 'text');
    const rec = { id, moves: [], size: 15, lines: r.data.map((d) => d.fields.text) };
    for (const l of rec.lines) {
      const [k, ...v] = l.split(' ');
      if (k === 'moves') rec.moves.push(...v.filter((x) => x));
      if (k === 'size') rec.size = Number(v[0]);
      if (k === 'black' || k === 'white' || k === 'result' || k === 'rule') rec[k] = v.join(' ');
    }
    app.replay = { rec, at: rec.moves.length };
    show('replay');
    renderReplay();
  } catch { /* said */ }
}

function renderReplay() {
  const { rec, at } = app.replay;
  rboard.setSize(rec.size);
  const stones = new Map();
  rec.moves.slice(0, at).forEach((mv, i) => stones.set(mv, i % 2 ? 'white' : 'black'));
  rboard.render({ stones, last: rec.moves[at - 1] || null, win: [], forbidden: [], cands: [], canPlay: false, toMove: 'black' });
  $('rinfo').textContent = `Game ${rec.id}: ${rec.black || ''} (black) vs ${rec.white || ''} (white), ${rec.rule || ''}; ${rec.result || ''}`;
  $('r-pos').textContent = `${at} / ${rec.moves.length}`;
  $('r-jump').max = String(rec.moves.length);
  $('r-jump').value = String(at);
}

function stepReplay(to) {
  if (!app.replay) return;
  app.replay.at = Math.max(0, Math.min(app.replay.rec.moves.length, to));
  renderReplay();
}

async function download(format) {
  const { rec } = app.replay;
  try {
    const r = await act('EXPORT', rec.id, format);
    const text = `${r.data.map((d) => d.fields.text).join('\n')}\n`;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = `game-${rec.id}.${format === 'psq' ? 'psq' : 'txt'}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch { /* said */ }
}

// ---- wiring -------------------------------------------------------------------

function form(id, fn) {
  $(id).addEventListener('submit', (e) => {
    e.preventDefault();
    fn(Object.fromEntries(new FormData(e.target)));
  });
}

form('seek', async (f) => {
  try {
    const r = await act('SEEK', f.rule, f.size, f.tc, f.colour, f.rated ? 'rated' : 'casual', 'none');
    app.seek = r.ok.args[0];
    $('seek-info').textContent = 'Looking for an opponent…';
    $('seek-cancel').hidden = false;
  } catch { /* said */ }
});
$('seek-cancel').addEventListener('click', async () => {
  await act('CANCEL').catch(() => {});
  $('seek-info').textContent = '';
  $('seek-cancel').hidden = true;
});
form('bot', async (f) => {
  try {
    const r = await act('BOT', 'play', f.level, f.rule, 15, f.tc, f.colour, 'none');
    enterRoom(r.ok.args[0], false);
  } catch { /* said */ }
});
form('create', async (f) => {
  try {
    const r = await act('CREATE', f.rule, 15, f.tc, f.colour, 'casual', f.rule === 'renju' ? 'none' : f.opening);
    const [room, code] = r.ok.args;
    await enterRoom(room, false);
    save({ room, seq: app.game ? app.game.seq : 0 });
    $('share-link').value = `${location.origin}/#join=${code}`;
    $('share').hidden = false;
  } catch { /* said */ }
});
$('seat-bot').addEventListener('click', () => {
  if (app.game) act('BOT', 'seat', app.game.room, $('seat-level').value).catch(() => {});
});
$('copy').addEventListener('click', () => {
  $('share-link').select();
  navigator.clipboard?.writeText($('share-link').value).then(() => toast('Link copied.'), () => {});
});
form('say', (f) => {
  const g = app.game;
  if (!g || !f.text.trim()) return;
  act('SAY', g.room, f.text.trim()).then(() => { $('say').reset(); }).catch(() => {});
});
for (const kind of ['undo', 'draw', 'rematch']) {
  $(`offer-${kind}`).addEventListener('click', () => app.game && act('OFFER', app.game.room, kind).catch(() => {}));
}
$('swap2-black').addEventListener('click', () => swap2('black'));
$('swap2-white').addEventListener('click', () => swap2('white'));
$('swap2-put').addEventListener('click', () => swap2('put'));
$('resign').addEventListener('click', () => confirmThen('Resign this game?', () => act('RESIGN', app.game.room).catch(() => {})));
$('claim').addEventListener('click', () => act('CLAIM', app.game.room).catch(() => {}));
$('leave').addEventListener('click', () => {
  const g = app.game;
  const go = () => {
    if (g) send('LEAVE', g.room).catch(() => {});
    if (g && mySide(g)) save({ room: null, seq: 0 });
    app.game = null;
    showLobby();
  };
  if (g && mySide(g) && g.status === 'playing') confirmThen('Leaving resigns the game. Leave?', go);
  else go();
});
$('home').addEventListener('click', (e) => { e.preventDefault(); if (app.view === 'replay') showLobby(); });

async function account(cmd) {
  const f = Object.fromEntries(new FormData($('account')));
  if (app.game && mySide(app.game) && app.game.status === 'playing') {
    toast('Finish your game first.');
    return;
  }
  try {
    await send('LOGOUT').catch(() => {});
    const r = await act(cmd, f.name, f.password);
    app.me = { name: r.ok.args[0], token: r.ok.args[1] };
    save({ name: app.me.name, token: app.me.token, account: true, room: null });
    showMe();
    const st = await send('STATS', app.me.name).catch(() => null);
    $('stats').textContent = st ? st.data.map((d) => `${d.fields.rule} ${d.fields.rating} (${d.fields.wins}-${d.fields.losses}-${d.fields.draws})`).join(' · ') : '';
  } catch { /* said */ }
}
form('account', () => account('LOGIN'));
$('register-go').addEventListener('click', () => account('REGISTER'));
$('top-go').addEventListener('click', async () => {
  try {
    const r = await act('TOP', 'freestyle');
    const ol = $('top');
    ol.replaceChildren();
    for (const d of r.data) {
      const li = document.createElement('li');
      li.textContent = `${d.fields.user} ${d.fields.rating}`;
      ol.appendChild(li);
    }
  } catch { /* said */ }
});
$('history-go').addEventListener('click', async () => {
  try {
    const r = await act('HISTORY', app.me.name);
    const ul = $('history');
    ul.replaceChildren();
    for (const d of r.data) {
      const f = d.fields;
      const li = document.createElement('li');
      li.textContent = `#${f.id} ${f.black} vs ${f.white}: ${f.result} (${f.reason}), ${f.plies} moves `;
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Replay';
      b.dataset.replay = f.id;
      b.addEventListener('click', () => openReplay(f.id));
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!r.data.length) ul.innerHTML = '<li>No finished games yet.</li>';
  } catch { /* said */ }
});
$('r-first').addEventListener('click', () => stepReplay(0));
$('r-prev').addEventListener('click', () => stepReplay(app.replay.at - 1));
$('r-next').addEventListener('click', () => stepReplay(app.replay.at + 1));
$('r-last').addEventListener('click', () => stepReplay(Infinity));
$('r-jump').addEventListener('input', (e) => stepReplay(Number(e.target.value)));
$('r-text').addEventListener('click', () => download('text'));
$('r-psq').addEventListener('click', () => download('psq'));
$('r-back').addEventListener('click', () => showLobby());

// light and dark: the system's choice until the player picks one
const theme = localStorage.getItem('gomokud.theme');
if (theme) document.documentElement.dataset.theme = theme;
$('theme').addEventListener('click', () => {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === 'dark'
    : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'light' : 'dark';
  localStorage.setItem('gomokud.theme', document.documentElement.dataset.theme);
});

window.gomokud = app; // for the browser tests' waits, never for game logic
connect();
