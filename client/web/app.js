// app.js: the web client's page. The model (model.js) is rebuilt only from
// the server's lines (events, and snapshots after WATCH, STATE or RESUME);
// this file owns the socket, the timers and localStorage, hands the model
// every line, renders what it holds, says its tokens and codes in words,
// and turns clicks and keys into requests. The session token lives in
// localStorage, so a reload or a new tab resumes the seat.
import * as proto from './proto.js';
import { Board } from './board.js';
import { Model, colourAt, toMove } from './model.js';

const $ = (id) => document.getElementById(id);
const STORE = 'gomokud.session';

const model = new Model();
const app = {
  model,
  ws: null,
  tagN: 0,
  pending: new Map(), // tag -> {resolve, reject}
  retry: null,
  lobbyTimer: null,
  view: 'lobby',
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
  const ws = new WebSocket(`wss://${model.conn.host || location.host}/ws`);
  app.ws = ws;
  ws.onmessage = (ev) => onLine(ev.data);
  ws.onclose = () => {
    if (app.ws !== ws) return;
    for (const p of app.pending.values()) p.reject({ code: 0, message: 'connection lost' });
    app.pending.clear();
    const next = model.closed();
    if (next.takeover) {
      // another tab or client took this session: reconnecting would take it
      // back, and the two would pull the seat back and forth
      status('You are playing from another tab or client now. Reload this page to play here.');
      document.body.classList.add('offline');
      return;
    }
    const s = Math.round(next.retry / 100) / 10;
    status(`Connection lost; reconnecting in ${s} s…`);
    document.body.classList.add('offline');
    app.retry = setTimeout(connect, next.retry);
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
    app.pending.set(tag, { resolve, reject });
    model.sent(name, args, tag);
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

function onLine(line) {
  let m;
  try {
    m = proto.parseServer(line);
  } catch {
    return; // not ours to judge: the server is the authority
  }
  const out = model.receive(m, performance.now());
  if (out.reply) {
    const { ok, err, data } = out.reply;
    const p = app.pending.get(m.tag);
    if (p) {
      app.pending.delete(m.tag);
      if (ok) p.resolve({ ok, data });
      else p.reject(err);
    } else if (err) {
      toast(proto.errorWords(err.code, err.text));
    }
  }
  onOutcome(out, m);
}

async function greet() {
  document.body.classList.remove('offline');
  status('Connected');
  await send('HELLO', 1, 'web/1');
  const s = saved();
  const resume = model.resumeArgs(s);
  if (resume) {
    try {
      await send('RESUME', ...resume); // the model takes the snapshot
      model.signedIn(s.name, s.token);
      showMe();
      showGame(); // again, now that the model knows who I am
      save({ seq: model.game.seq });
      return;
    } catch (e) {
      if (e.moved) return; // * MOVED: the seat is taken back on its node
      save({ room: null, seq: 0 });
      if (e.code && e.code !== 448) toast(errText(e));
    }
  }
  const want = model.guestArgs(s);
  let r;
  try {
    r = await send('GUEST', ...want);
  } catch {
    r = await send('GUEST');
  }
  model.signedIn(r.ok.args[0], r.ok.args[1]);
  save({ name: model.me.name, token: model.me.token, account: false });
  showMe();
  const join = /#join=([A-Za-z0-9]{6,32})/.exec(location.hash);
  if (join) {
    history.replaceState(null, '', location.pathname);
    try {
      const r = await act('JOIN', join[1]);
      enterRoom(r.ok.args[0], true);
    } catch { /* said */ }
    return;
  }
  const room = model.rejoin(app.view);
  if (room) enterRoom(room, false);
  else showLobby();
}

function showMe() {
  $('me').textContent = model.me ? `You are ${model.me.name}` : '';
}

// ---- what the model's outcome asks -----------------------------------------

function askForbidden() {
  const g = model.game;
  send('FORBIDDEN', g.room).then(() => {
    if (app.view === 'game' && model.game === g) renderGame();
  }).catch(() => {});
}

function resync(room) {
  if (model.awaitingSnapshot(room)) return;
  send('STATE', room).then(() => { save({ seq: model.game.seq }); }).catch(() => {});
}

function onOutcome(out, m) {
  if (out.greet) {
    greet().catch((e) => toast(errText(e)));
    return;
  }
  if (out.notice === 'shutdown') {
    status('The server is restarting…');
    return;
  }
  if (out.moved) {
    // the room is played on another node of the cluster: take the seat
    // back there with the token (greet RESUMEs the saved room)
    const { room, addr } = out.moved;
    if (!saved().token) return;
    save({ room });
    status(`Room ${room} is played at ${addr}; taking your seat there…`);
    model.follow(addr);
    const old = app.ws;
    app.ws = null;
    for (const p of app.pending.values()) p.reject({ code: 0, moved: true, message: 'moved' });
    app.pending.clear();
    old.close();
    connect();
    return;
  }
  if (out.bye) {
    // the close that follows says what it means
    if (out.bye === 'shutdown') status('Server restarting, reconnecting…');
    return;
  }
  if (out.notice === 'motd' || out.notice === 'announce') {
    toast(out.notice === 'motd' ? model.motd : model.announce);
    return;
  }
  if (out.notice === 'kicked') {
    status(`Removed by the server's admins: ${model.kicked}`);
    return;
  }
  if (out.tell) {
    toast(`${out.tell.from} says: ${out.tell.text}`);
    return;
  }
  if (out.save) save(out.save);
  if (out.rc === 'resync' && model.game) resync(model.game.room);
  if (out.askForbidden) askForbidden();
  if (out.started) {
    $('share').hidden = true;
    showGame();
    return;
  }
  if (out.snapshot) {
    showGame();
    return;
  }
  if (m.kind === 'event' && app.view === 'game' && model.game && m.fields && m.fields.room === model.game.room) renderGame();
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
  if (app.view !== 'lobby' || !model.conn.up || !model.me) return;
  try {
    await Promise.all([send('ROOMS'), send('WHO')]);
    const ul = $('rooms');
    ul.replaceChildren();
    for (const f of model.lobby.rooms) {
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
    if (!model.lobby.rooms.length) ul.innerHTML = '<li>No public games right now.</li>';
    const w = $('who');
    w.replaceChildren();
    for (const u of model.lobby.users) {
      const li = document.createElement('li');
      li.textContent = `${u.user} (${u.state})`;
      w.appendChild(li);
    }
  } catch { /* the next refresh tries again */ }
}

async function enterRoom(room, watch) {
  clearInterval(app.lobbyTimer);
  try {
    await send(watch ? 'WATCH' : 'STATE', room); // the model takes the snapshot
    if (model.mySide() && model.game.status !== 'over') save({ room, seq: model.game.seq });
  } catch (e) {
    toast(errText(e));
    showLobby();
  }
}

function showGame() {
  show('game');
  renderGame();
}

const board = new Board($('board'), (mv) => {
  const g = model.game;
  if (!g) return;
  const need = model.swap2Need();
  if (!need) {
    act('MOVE', g.room, mv).catch(() => {});
    return;
  }
  const put = model.swap2Put(mv);
  if (!put) return;
  if (put.length === need) {
    act('SWAP2', g.room, 'put', put.join(',')).catch(() => { model.swap2Clear(); renderGame(); });
  }
  renderGame();
});

function swap2(choice) {
  const g = model.game;
  if (choice === 'put') {
    model.swap2Putting();
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
  const g = model.game;
  if (!g || app.view !== 'game') return;
  const el = (side) => $(`p-${side}`).querySelector('.clock');
  const now = performance.now();
  for (const side of ['black', 'white']) el(side).textContent = fmtClock(model.clock(side, now));
  $('claim').hidden = !model.canClaim(now);
}
setInterval(tick, 250);

function resultWords(r) {
  const who = r.result === 'draw' ? 'Draw' : r.result === 'none' ? 'No result' : `${r.result[0].toUpperCase()}${r.result.slice(1)} wins`;
  const why = { five: 'five in a row', resign: 'by resignation', time: 'on time', 'draw-agreed': 'by agreement', 'board-full': 'the board is full', abandoned: 'the opponent left', aborted: 'aborted' }[r.reason] || r.reason;
  return `${who} (${why})`;
}

function renderGame() {
  const g = model.game;
  if (!g) return;
  board.setSize(g.size);
  const stones = new Map();
  g.moves.forEach((mv, i) => stones.set(mv, colourAt(i)));
  g.pending.forEach((mv, i) => stones.set(mv, colourAt(g.moves.length + i)));
  const side = model.mySide();
  const need = model.swap2Need();
  const me = model.me?.name;
  const turn = need ? colourAt(g.moves.length + g.pending.length) : toMove(g);
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
    n.textContent = `${user === '-' ? 'waiting…' : user}${user === me ? ' (you)' : ''}${gone ? ' — away' : ''}`;
    $(`p-${s}`).classList.toggle('tomove', g.status === 'playing' && turn === s);
  }
  let t;
  if (g.status === 'over' && g.result) t = resultWords(g.result);
  else if (g.status === 'waiting') t = 'Waiting for the other player…';
  else if (need) t = `Swap2: place ${need - g.pending.length} more stone${need - g.pending.length === 1 ? '' : 's'} (${turn} next)`;
  else if (g.stage && g.stage.user === me) t = 'Swap2: choose your colour';
  else if (g.stage) t = `Swap2: ${g.stage.user} to ${{ put3: 'place three stones', choose: 'choose', choose2: 'choose a colour' }[g.stage.stage] || g.stage.stage}`;
  else if (side) t = turn === side ? 'Your move' : `${g[turn]} to move`;
  else t = `${turn[0].toUpperCase()}${turn.slice(1)} to move`;
  $('turn').textContent = t;
  const mine = g.stage && g.stage.user === me && !need;
  $('swap2').hidden = !(mine && (g.stage.stage === 'choose' || g.stage.stage === 'choose2'));
  $('swap2-put').hidden = !(mine && g.stage.stage === 'choose');
  $('think').textContent = g.think ? `${g.think.bot} is thinking (depth ${g.think.depth}): ${g.think.cands.map((c) => `${c.mv} ${c.score}`).join(', ')}` : '';
  const ol = $('moves');
  ol.replaceChildren();
  g.moves.forEach((mv, i) => {
    const li = document.createElement('li');
    li.textContent = `${colourAt(i)} ${mv}${g.reasons[i] ? ` (${g.reasons[i]})` : ''}`;
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
  const offers = $('offers');
  offers.replaceChildren();
  for (const [id, o] of g.offers) {
    const div = document.createElement('div');
    div.className = 'offer';
    const mine = o.from === me;
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
    li.appendChild(document.createTextNode(c.notice ? `${c.who} ${c.notice === 'joined' ? 'is watching' : 'left'}` : c.text));
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
    await act('EXPORT', id, 'text');
    model.openReplay();
    show('replay');
    renderReplay();
  } catch { /* said */ }
}

function renderReplay() {
  const { rec, at } = model.replay;
  rboard.setSize(rec.size);
  const stones = new Map();
  rec.moves.slice(0, at).forEach((mv, i) => stones.set(mv, colourAt(i)));
  rboard.render({ stones, last: rec.moves[at - 1] || null, win: [], forbidden: [], cands: [], canPlay: false, toMove: 'black' });
  $('rinfo').textContent = `Game ${rec.id}: ${rec.black || ''} (black) vs ${rec.white || ''} (white), ${rec.rule || ''}; ${rec.result || ''}`;
  $('r-pos').textContent = `${at} / ${rec.moves.length}`;
  $('r-jump').max = String(rec.moves.length);
  $('r-jump').value = String(at);
}

function stepReplay(to) {
  if (!model.replay) return;
  model.stepReplay(to);
  renderReplay();
}

async function download(format) {
  const { rec } = model.replay;
  try {
    await act('EXPORT', rec.id, format); // the model keeps the record's lines
    const text = `${model.record.lines.join('\n')}\n`;
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
    await act('SEEK', f.rule, f.size, f.tc, f.colour, f.rated ? 'rated' : 'casual', 'none');
    if (!model.seek) return; // paired at once
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
    await act('CREATE', f.rule, 15, f.tc, f.colour, 'casual', f.rule === 'renju' ? 'none' : f.opening);
    const { room, code } = model.invite;
    await enterRoom(room, false);
    save({ room, seq: model.game ? model.game.seq : 0 });
    $('share-link').value = `${location.origin}/#join=${code}`;
    $('share').hidden = false;
  } catch { /* said */ }
});
$('seat-bot').addEventListener('click', () => {
  if (model.game) act('BOT', 'seat', model.game.room, $('seat-level').value).catch(() => {});
});
$('copy').addEventListener('click', () => {
  $('share-link').select();
  navigator.clipboard?.writeText($('share-link').value).then(() => toast('Link copied.'), () => {});
});
form('say', (f) => {
  const g = model.game;
  if (!g || !f.text.trim()) return;
  act('SAY', g.room, f.text.trim()).then(() => { $('say').reset(); }).catch(() => {});
});
for (const kind of ['undo', 'draw', 'rematch']) {
  $(`offer-${kind}`).addEventListener('click', () => model.game && act('OFFER', model.game.room, kind).catch(() => {}));
}
$('swap2-black').addEventListener('click', () => swap2('black'));
$('swap2-white').addEventListener('click', () => swap2('white'));
$('swap2-put').addEventListener('click', () => swap2('put'));
$('resign').addEventListener('click', () => confirmThen('Resign this game?', () => act('RESIGN', model.game.room).catch(() => {})));
$('claim').addEventListener('click', () => act('CLAIM', model.game.room).catch(() => {}));
$('leave').addEventListener('click', () => {
  const g = model.game;
  const go = () => {
    if (g) send('LEAVE', g.room).catch(() => {});
    if (g && model.mySide(g)) save({ room: null, seq: 0 });
    model.leave();
    showLobby();
  };
  if (g && model.mySide(g) && g.status === 'playing') confirmThen('Leaving resigns the game. Leave?', go);
  else go();
});
$('home').addEventListener('click', (e) => { e.preventDefault(); if (app.view === 'replay') showLobby(); });

async function account(cmd) {
  const f = Object.fromEntries(new FormData($('account')));
  if (model.game && model.mySide() && model.game.status === 'playing') {
    toast('Finish your game first.');
    return;
  }
  try {
    await send('LOGOUT').catch(() => {});
    await act(cmd, f.name, f.password); // the model takes the name and token
    save({ name: model.me.name, token: model.me.token, account: true, room: null });
    showMe();
    const st = await send('STATS', model.me.name).catch(() => null);
    $('stats').textContent = st ? model.lobby.stats.map((f) => `${f.rule} ${f.rating} (${f.wins}-${f.losses}-${f.draws})`).join(' · ') : '';
  } catch { /* said */ }
}
form('account', () => account('LOGIN'));
$('register-go').addEventListener('click', () => account('REGISTER'));
$('top-go').addEventListener('click', async () => {
  try {
    await act('TOP', 'freestyle');
    const ol = $('top');
    ol.replaceChildren();
    for (const f of model.lobby.top) {
      const li = document.createElement('li');
      li.textContent = `${f.user} ${f.rating}`;
      ol.appendChild(li);
    }
  } catch { /* said */ }
});
$('history-go').addEventListener('click', async () => {
  try {
    await act('HISTORY', model.me.name);
    const ul = $('history');
    ul.replaceChildren();
    for (const f of model.lobby.games) {
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
    if (!model.lobby.games.length) ul.innerHTML = '<li>No finished games yet.</li>';
  } catch { /* said */ }
});
$('r-first').addEventListener('click', () => stepReplay(0));
$('r-prev').addEventListener('click', () => stepReplay(model.replay.at - 1));
$('r-next').addEventListener('click', () => stepReplay(model.replay.at + 1));
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
