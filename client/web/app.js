// app.js: the web client's page. The model (model.js) is rebuilt only from
// the server's lines (events, and snapshots after WATCH, STATE or RESUME);
// this file owns the socket, the timers and localStorage, hands the model
// every line, renders what it holds, says its tokens and codes in words,
// and turns clicks and keys into requests. The session token lives in
// localStorage, so a reload or a new tab resumes the seat, and so does an
// account's login token (REMEMBER), so it signs in as itself (AUTH). Every text it
// shows comes from the catalog (i18n.js: t(key, English), docs/i18n.md);
// the protocol's tokens and codes through words.js.
import * as proto from './proto.js';
import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { Board } from './board.js';
import { Model, chancePoints, colourAt, engineScore, openingChoices, positionAt, toMove } from './model.js';
import {
  botWhy, canonWords, engineWords, errorWords, markWords, newsWords, offerFate, openingWords, overWords, puzzleErrorWords, puzzleRatingWords,
  puzzleStateWords, puzzleWords, refusalWords, reviewErrorWords, scoreMark, scoreWords, tcWords, word,
  pointsWords, tgameWords, tiebreakHeads, tiebreakValues, tourneyErrorWords, tourneyLeaveAsk, tourneyLength, tourneyPlayers, tourneyTitle, tourneyWhat, tourneyWhen,
  tourneyWord, eloBar, eloRange, eloWords, leagueCount, leagueErrorWords, leagueNext, leagueWhat,
} from './words.js';
import { Sounds } from './sound.js';

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
  seekTimer: null,
  seeksPage: 1,
  challenged: null, // my challenge awaiting its answer: { id, user }
  challengeEnd: null, // the last * CHALLENGEEND, should it come before my OK's turn
  view: 'lobby',
  // the short sounds (sound.js), muted as the player last chose
  sounds: new Sounds(localStorage.getItem('gomokud.mute') === '1'),
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
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

// The status line: a function saying it, said again when the language
// changes.
function status(say) {
  app.status = say;
  $('status').textContent = say();
}

// A refusal (ERR) in words; a request that never reached the server
// (code 0: no connection) says so.
function errText(e) {
  return e && e.code ? errorWords(e.code, e.text) : t('session.offline', 'Not connected; wait for the reconnect');
}

// ---- the connection -------------------------------------------------------

function connect() {
  clearTimeout(app.retry);
  const ws = new WebSocket(`wss://${model.conn.host || location.host}/ws`);
  app.ws = ws;
  ws.onmessage = (ev) => onLine(ev.data);
  ws.onclose = () => {
    if (app.ws !== ws) return;
    for (const p of app.pending.values()) p.reject({ code: 0, why: 'lost' });
    app.pending.clear();
    const next = model.closed();
    renderSeek();
    if (app.parked) {
      // closed on purpose while the page is hidden: the server keeps the
      // session away; the page connects again when it is shown
      status(() => t('web.parked', 'Away: your room and your search wait for you.'));
      return;
    }
    if (next.takeover) {
      // another tab or client took this session: reconnecting would take it
      // back, and the two would pull the seat back and forth
      if (model.mySideUnfinished()) status(() => t('web.takeover.game', 'Your game continues on another device or tab. Reload this page to play it here.'));
      else status(() => t('web.takeover', 'You are playing from another tab or client now. Reload this page to play here.'));
      document.body.classList.add('offline');
      return;
    }
    if (next.removed) {
      removed();
      return;
    }
    const s = Math.round(next.retry / 100) / 10;
    status(() => t('web.lost', 'Connection lost; reconnecting in %s s…', s));
    document.body.classList.add('offline');
    app.retry = setTimeout(connect, next.retry);
  };
}

// A phone that switches apps freezes the page but may keep its socket open
// for minutes, so the server would pair its seek or start its waiting
// room's game while nobody looks. A hidden page that holds only those
// closes its connection itself (the server keeps them away, PROTOCOL.md
// 5.9) and comes back when it is shown again.
document.addEventListener('visibilitychange', () => {
  if (document.hidden) {
    if (!app.ws || !model.conn.up || !model.parkable()) return;
    app.parked = true;
    app.ws.close(1000, 'away');
  } else if (app.parked) {
    app.parked = false;
    connect();
  }
});

// Kicked or banned: the page says why (the server's text) and stays off
// until the player asks to come back (a fresh guest, unless banned).
function removed() {
  document.body.classList.add('offline');
  if (model.banned !== null) status(() => t('web.banned', 'Refused by the server: %s', model.banned));
  else status(() => t('web.kicked', 'Removed by the server\'s admins: %s', model.kicked));
  $('comeback').hidden = false;
}

$('comeback').addEventListener('click', () => {
  $('comeback').hidden = true;
  model.comeBack();
  save({ name: null, token: null, room: null, seq: 0, account: false, login: null });
  showMe();
  status(() => t('web.connecting', 'Connecting…'));
  connect();
});

function send(name, ...args) {
  return new Promise((resolve, reject) => {
    if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
      reject({ code: 0, why: 'offline' });
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
    if (!e.moved) toast(errText(e)); // * MOVED: answered on the room's node
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
  if (out.cue) app.sounds.play(out.cue);
  if (out.reply || m.name === 'START') renderSeek();
  if (out.reply) {
    const { ok, err, data } = out.reply;
    const p = app.pending.get(m.tag);
    if (p) {
      app.pending.delete(m.tag);
      if (ok) p.resolve({ ok, data });
      else p.reject(err);
    } else if (err) {
      toast(errorWords(err.code, err.text));
    }
  }
  if (m.kind === 'event' && m.name === 'CHALLENGEEND') challengeEnded(m.fields);
  onOutcome(out, m);
  sayNews();
}

// The game's news (the model's, taken as they come) into the live region a
// screen reader speaks: "white h9". Only in a game's view: a lobby's page
// hears nothing of a room it left.
function sayNews() {
  const news = model.takeNews();
  if (news.length && app.view === 'game') $('news').textContent = news.map(newsWords).join(' ');
}

async function greet() {
  document.body.classList.remove('offline');
  $('offline').hidden = true; // the server answers: the kept page's note goes
  status(() => t('web.connected', 'Connected'));
  await send('HELLO', 1, 'web/1');
  const s = saved();
  if (await greetAccount(s)) return;
  const resume = model.resumeArgs(s);
  if (resume) {
    try {
      await send('RESUME', ...resume); // the model takes the snapshot
      model.signedIn(s.name, s.token, !!s.account);
      showMe();
      if (resume[1] === '-') {
        // the session alone: its seek (the model has it), or a room it is
        // seated in (* SEATED: its game, or its private room waiting),
        // else the room it only watched, watched again
        renderAccount();
        const seated = model.takeSeated();
        if (seated) enterRoom(seated, false);
        else reenter();
        renderSeek();
        return;
      }
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
  renderAccount();
  reenter();
}

// Signed in on a new connection: the link it was opened with, else the
// room shown before the drop, else the lobby.
function reenter() {
  if (stayAnalysing() || stayPuzzling() || route()) return;
  // the room shown before the connection dropped: its STATE for a player,
  // watched again by a spectator (the model decides)
  const again = model.rejoin(app.view);
  if (!again) showLobby();
  else if (again.name === 'JOIN') joinLink(again.args[0]);
  else enterRoom(again.args[0], again.name === 'WATCH');
}

// Signed in again on the analysis board: it stays, its position asked
// again (a request in flight went with the old connection).
function stayAnalysing() {
  if (app.view !== 'analysis' || !model.analysis) return false;
  askPosition(model.positionAsk(model.analysis.moves, null));
  return true;
}

// The account's branch of greet: with a kept login token, AUTH signs in as
// the account, and the game it is seated at (* SEATED) opens by STATE.
// False when there is no token, or the server refused it: a 413 forgot it
// (the model's save), and the page goes on as a guest.
async function greetAccount(s) {
  const auth = model.authArgs(s);
  if (!auth) return false;
  try {
    await send('AUTH', ...auth); // the model takes the name and tokens
  } catch (e) {
    if (e.moved) return true; // * MOVED: signed in there
    if (e.code && e.code !== 413) toast(errText(e));
    return false;
  }
  signedInAccount();
  if (stayAnalysing() || stayPuzzling() || route()) return true;
  const seated = model.takeSeated();
  if (seated) {
    enterRoom(seated, false);
    return true;
  }
  // no game of its own: the room shown before, as a guest's page does
  const again = model.rejoin(app.view);
  if (!again) showLobby();
  else if (again.name === 'JOIN') joinLink(again.args[0]);
  else enterRoom(again.args[0], again.name === 'WATCH');
  return true;
}

// Signed in as an account (LOGIN, REGISTER or AUTH): kept for a reload,
// shown on the account card.
function signedInAccount() {
  model.signedIn(model.me.name, model.me.token);
  save({ name: model.me.name, token: model.me.token, account: true, room: null, seq: 0 });
  showMe();
  renderAccount();
}

// Signed in again on a puzzle: one not ended is opened again (it was open
// on the old connection only, PROTOCOL.md 5.20); an ended one stays shown.
function stayPuzzling() {
  if (app.view !== 'puzzle' || !model.puzzle) return false;
  if (model.puzzle.state === 'gone') openPuzzle(model.puzzle.id);
  else renderPuzzle();
  return true;
}

// The link the page was opened with, or one pasted into its address bar:
// #join=CODE, #watch=ROOM, #replay=ID, #analysis=RULE/SIZE/MOVES or
// #puzzle=ID, #tourney=ID, #league or #league=NAME. The server judges what follows the '='; a refusal lands on
// the dead-link page. False when there is none.
function route() {
  if (location.hash === '#league') {
    history.replaceState(null, '', location.pathname);
    openLeague(null, true);
    return true;
  }
  const m = /^#(join|watch|replay|analysis|puzzle|tourney|league)=(.*)$/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, '', location.pathname);
  let arg = m[2];
  try {
    arg = decodeURIComponent(arg);
  } catch { /* sent as it came */ }
  if (m[1] === 'join') joinLink(arg);
  else if (m[1] === 'watch') enterRoom(arg, true);
  else if (m[1] === 'analysis') analysisLink(arg);
  else if (m[1] === 'puzzle') openPuzzle(arg, true);
  else if (m[1] === 'tourney') openTourney(arg, true);
  else if (m[1] === 'league') openLeague(arg, true);
  else openReplay(arg, true);
  return true;
}
window.addEventListener('hashchange', () => {
  if (model.conn.up && model.me) route();
});

// A private room by its invitation code: the free seat, or a spectator's
// place when both are taken.
async function joinLink(code) {
  try {
    const r = await send('JOIN', code);
    await enterRoom(r.ok.args[0], true);
  } catch (e) {
    deadEnd('join', e);
  }
}

// The dead-link page: what happened, in words, and the way back.
const DEAD = {
  join: () => t('web.dead.join', 'This invitation link does not work any more: the room was closed, or the link is not whole.'),
  room: () => t('web.dead.room', 'That game is not here any more: it ended and was closed, or the link is wrong.'),
  replay: () => t('web.dead.replay', 'There is no finished game with that number.'),
  closed: () => t('web.dead.closed', 'The room was closed: the friend who made it did not come back in time.'),
  left: () => t('web.dead.left', 'The room was closed: the friend who made it left.'),
  puzzle: () => t('web.dead.puzzle', 'That puzzle cannot be opened.'),
  tourney: () => t('web.dead.tourney', 'That tournament cannot be opened.'),
  league: () => t('web.dead.league', 'That engine league cannot be opened.'),
};

function deadEnd(kind, e) {
  if (e && e.moved) return; // * MOVED: taken up on the room's node
  clearInterval(app.lobbyTimer);
  model.leave();
  app.dead = { kind, code: e && e.code, text: e && e.text };
  show('dead');
  renderDead();
}

function renderDead() {
  const d = app.dead;
  $('dead-text').textContent = DEAD[d.kind]();
  if (d.kind === 'puzzle') $('dead-why').textContent = d.code ? puzzleErrorWords(d) : '';
  else if (d.kind === 'league') $('dead-why').textContent = d.code ? leagueErrorWords(d.code, d.text) : '';
  else $('dead-why').textContent = d.code ? errorWords(d.code, d.text) : '';
}

function showMe() {
  $('me').textContent = model.me ? t('web.me', 'You are %s', model.me.name) : '';
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
    renderCaps(); // the server's capabilities say which openings it plays, its engines
    greet().catch((e) => toast(errText(e)));
    return;
  }
  if (out.notice === 'shutdown') {
    status(() => t('bye.shutdown', 'Server restarting, reconnecting...'));
    return;
  }
  if (out.moved) {
    // the room is played on another node of the cluster: take the seat
    // back there with the token (greet RESUMEs the saved room)
    const { room, addr } = out.moved;
    if (!saved().token) return;
    save({ room });
    status(() => t('session.moved', 'Room %s is played at %s; taking your seat there...', room, addr));
    model.follow(addr);
    const old = app.ws;
    app.ws = null;
    for (const p of app.pending.values()) p.reject({ code: 0, moved: true });
    app.pending.clear();
    old.close();
    connect();
    return;
  }
  if (out.bye) {
    // the close that follows says what it means
    if (out.bye === 'shutdown') status(() => t('bye.shutdown', 'Server restarting, reconnecting...'));
    return;
  }
  if (out.notice === 'motd' || out.notice === 'announce') {
    toast(out.notice === 'motd' ? model.motd : model.announce);
    return;
  }
  if (out.notice === 'kicked') {
    removed();
    return;
  }
  if (out.tell) {
    toast(t('web.tell', '%s says: %s', out.tell.from, out.tell.text));
    return;
  }
  if (out.save) save(out.save);
  if (out.rated) refreshMyStats(); // the account card's rating after a rated end
  if (out.closed) {
    deadEnd(out.closed.why === 'away' ? 'closed' : 'left');
    return;
  }
  if (out.rc === 'resync' && model.game) resync(model.game.room);
  if (out.askForbidden) askForbidden();
  if (out.started) {
    $('share').hidden = true;
    showGame();
    return;
  }
  if (out.snapshot) {
    // a snapshot asked before the player went to a replay or the analysis
    // board (a STATE still on its way) updates the game, which waits there
    if (app.view === 'replay' || app.view === 'analysis' || app.view === 'puzzle' || app.view === 'tourney') return;
    showGame();
    return;
  }
  if (out.tourney) tourneyChanged(out);
  if (out.league && app.view === 'league' && model.league && model.league.name === out.league) openLeague(out.league);
  if (out.reviewed && model.review && model.review.id === out.reviewed) askMarks();
  if (m.kind === 'event' && (m.name === 'REVIEWING' || m.name === 'REVIEWED') && app.view === 'replay') renderReview();
  if (m.kind === 'event' && app.view === 'game' && model.game && m.fields && m.fields.room === model.game.room) renderGame();
}

// ---- views ------------------------------------------------------------------

function show(view) {
  const was = app.view;
  app.view = view;
  for (const v of ['lobby', 'game', 'replay', 'dead', 'analysis', 'puzzle', 'tourney', 'league']) $(v).hidden = v !== view;
  if (view !== 'game') document.title = 'gomokud';
  // a replay's address names it (#replay=ID), the analysis board's its
  // position (#analysis=...), a puzzle's its id (#puzzle=ID), a
  // tournament's its id (#tourney=ID), a league's its name (#league=NAME): a reload
  // opens it again; other views have none. Only the view being left drops
  // its address: one naming another view is a link just followed, whose
  // hashchange the router has yet to see (a game's snapshot arriving then
  // must not eat it)
  const named = /^#(replay|analysis|puzzle|tourney|league)=/.exec(location.hash);
  if (named && named[1] !== view && named[1] === was) history.replaceState(null, '', location.pathname);
  if (view !== 'replay') stopLine();
}

// The tab's title in a game: whose turn it is, so a player in another tab
// sees when to come back.
function gameTitle(g, side, turn) {
  if (g.status === 'over') return t('web.title.over', 'Game over');
  const o = model.opening();
  if (o && o.mine) return t('web.title.turn', '● Your move');
  if (g.status !== 'playing' || !turn) return 'gomokud';
  return side && turn === side ? t('web.title.turn', '● Your move') : t('web.title.move', '%s to move', g[turn]);
}

function showLobby() {
  show('lobby');
  refreshLobby();
  refreshTourneys();
  refreshLeagues();
  refreshMyStats();
  clearInterval(app.lobbyTimer);
  app.lobbyTimer = setInterval(refreshLobby, 4000);
}

async function refreshLobby() {
  if (app.view !== 'lobby' || !model.conn.up || !model.me) return;
  try {
    const seekpages = model.caps.includes('seekpages');
    await Promise.all([send('ROOMS'), send('WHO'), seekpages ? send('SEEKS', app.seeksPage) : send('SEEKS')]);
    renderSeeks();
    const ul = $('rooms');
    ul.replaceChildren();
    for (const f of model.lobby.rooms) {
      const li = withMarks(document.createElement('li'), `${t('web.room', '%s vs %s · %s %s · %s moves · %s', f.black, f.white, word('rule', f.rule), f.size, f.moves, word('status', f.status))} `, [f.black, f.white]);
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('web.watch', 'Watch');
      b.dataset.watch = f.room;
      b.addEventListener('click', () => enterRoom(f.room, true));
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!model.lobby.rooms.length) ul.replaceChildren(item(t('web.rooms.none', 'No public games right now.')));
    const w = $('who');
    w.replaceChildren();
    const offered = new Set(); // a bot in several games has a line for each: one button
    for (const u of model.lobby.users) {
      const li = withMarks(document.createElement('li'), t('web.paren', '%s (%s)', u.user, word('ustate', u.state)), [u.user]);
      if (u.user !== model.me.name && !offered.has(u.user)) {
        offered.add(u.user);
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = t('web.challenge', 'Challenge');
        b.title = t('web.challenge.title', 'Challenge %s to a game with the quick match\'s settings', u.user);
        b.dataset.challenge = u.user;
        b.addEventListener('click', () => challenge(u.user));
        li.append(' ', b);
      }
      w.appendChild(li);
    }
  } catch { /* the next refresh tries again */ }
}

// CHALLENGE (PROTOCOL.md 5.13) of a user online, with the quick match
// form's settings; its START opens the game, a refusal or its end
// unanswered is said.
async function challenge(user) {
  const f = Object.fromEntries(new FormData($('seek')));
  try {
    const r = await act('CHALLENGE', user, f.rule, f.size, f.tc, f.colour, f.rated ? 'rated' : 'casual', f.opening || 'none');
    app.challenged = { id: String(r.ok.args[0]), user };
    toast(t('web.challenge.sent', 'Challenge sent to %s', user));
    if (app.challengeEnd) challengeEnded(app.challengeEnd); // declined at once
  } catch { /* said */ }
}

// The end of my challenge, unless it became a game (its START said so).
function challengeEnded(f) {
  const c = app.challenged;
  app.challengeEnd = c ? null : f;
  if (!c || String(f.id) !== c.id) return;
  app.challenged = null;
  if (f.how === 'declined') toast(t('web.challenge.declined', '%s declined your challenge', c.user));
  else if (f.how !== 'accepted') toast(t('web.challenge.unanswered', 'Your challenge to %s ended unanswered', c.user));
}

async function enterRoom(room, watch) {
  clearInterval(app.lobbyTimer);
  try {
    await send(watch ? 'WATCH' : 'STATE', room); // the model takes the snapshot
    if (model.mySide() && model.game.status !== 'over') save({ room, seq: model.game.seq });
  } catch (e) {
    if (e.moved) return;
    if (e.code === 0) showLobby(); // no connection: the reconnect shows the lobby
    else deadEnd('room', e); // a room that is gone, or a link to nothing
  }
}

function showGame() {
  show('game');
  renderGame();
}

const board = new Board($('board'), (mv) => {
  const g = model.game;
  if (!g) return;
  const o = model.opening();
  if (o) {
    openingTap(o, mv);
    return;
  }
  const need = model.swap2Need();
  if (!need) {
    if (model.tap(mv, tapConfirm()) === 'preview') {
      renderGame();
      return;
    }
    act('MOVE', g.room, mv).catch(() => {});
    renderGame(); // the preview, if any, is gone
    return;
  }
  const put = model.swap2Put(mv);
  if (!put) return;
  if (put.length === need) {
    act('SWAP2', g.room, 'put', put.join(',')).catch(() => { model.swap2Clear(); renderGame(); });
  }
  renderGame();
});

// A point tapped in an opening stage of mine: picked (or dropped) as a
// fifth move to offer; else the stone placed, or the offer chosen, after
// the confirming tap when the player asked for one.
function openingTap(o, mv) {
  if (o.stage === 'offer') {
    model.openingPick(mv);
    renderGame();
    return;
  }
  if (model.tap(mv, tapConfirm()) === 'preview') {
    renderGame();
    return;
  }
  openingAct(o.stage, mv);
}

// An act of the opening stage I am to act in (model.openingRequest):
// OPENING place|colour|declare|offer|choose|branch; a refusal is said and
// changes nothing (the picks stay, to change one).
function openingAct(what, arg) {
  const r = model.openingRequest(what, arg);
  if (r) act('OPENING', ...r).catch(() => {});
  renderGame();
}

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
  for (const side of ['black', 'white']) {
    const c = el(side);
    const time = fmtClock(model.clock(side, now));
    c.textContent = time;
    c.classList.toggle('low', model.lowTime(side, now));
    // the time in its label too, for a screen reader
    if (time) c.setAttribute('aria-label', side === 'black' ? t('web.clock.black.at', 'Black\'s clock: %s', time) : t('web.clock.white.at', 'White\'s clock: %s', time));
  }
  if (model.lowCue(now)) app.sounds.play('low');
  $('claim').hidden = !model.canClaim(now);
  const w = model.awaiting(now);
  if (w) $('turn').textContent = awaitingWords(w);
}
setInterval(tick, 250);


// The end in the player's terms (model.outcome): won, lost or drew, why,
// the rating's change, and Rematch (a player) and New game.
function renderResult() {
  const o = model.outcome();
  $('result').hidden = !o;
  if (!o) return;
  const head = {
    won: () => t('web.result.won', 'You won'),
    lost: () => t('web.result.lost', 'You lost'),
    drew: () => t('web.result.drew', 'Draw'),
    none: () => t('web.result.none', 'No result'),
  }[o.mine];
  $('result-head').textContent = head ? head() : overWords(o.result, o.reason);
  $('result-head').className = o.mine || '';
  $('result-why').textContent = head ? t('web.result.why', 'Reason: %s', word('reason', o.reason)) : '';
  const d = o.delta;
  $('result-rating').textContent = d === null ? '' : t('web.result.rating', 'Your rating: %d (%s)', o.rating, d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '±0');
  $('result-rating').hidden = d === null;
  $('result-why').hidden = !head;
  const g = model.game;
  $('result-tourney').hidden = !(g && g.tourney);
}

// A list item holding a text.
function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

// The mark beside a bot's name (`botaccounts`, PROTOCOL.md 5.22: a bot
// account or the server's own): "BOT", named for a screen reader.
function botMark() {
  const s = document.createElement('span');
  s.className = 'botmark';
  s.textContent = t('web.bot.mark', 'BOT');
  s.title = t('web.bot.title', 'a bot: a program plays, not a person');
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', s.title);
  return s;
}

// An element's text, a bot's mark after each bot's name in it (names: the
// players it names, in the order the text names them).
function withMarks(el, text, names) {
  el.replaceChildren();
  let rest = text;
  for (const n of names) {
    const i = model.isBot(n) ? rest.indexOf(n) : -1;
    if (i < 0) continue;
    el.append(rest.slice(0, i + n.length), botMark());
    rest = rest.slice(i + n.length);
  }
  el.append(rest);
  return el;
}

// A private room waiting for its creator, who is away (model.awaiting).
function awaitingWords(w) {
  return w.left === null
    ? t('web.awaiting.now', 'Waiting for %s to come back; the game starts then.', w.user)
    : t('web.awaiting', 'Waiting for %s to come back (%s); the game starts then.', w.user, fmtClock(w.left * 1000));
}

function renderGame() {
  const g = model.game;
  if (!g) return;
  board.setSize(g.size);
  // the creator's own waiting room: its link and code, also after a reload
  const inv = model.invite;
  const sharing = !!inv && inv.room === g.room && g.status === 'waiting' && !!model.mySide() && (g.black === '-' || g.white === '-');
  $('share').hidden = !sharing;
  if (sharing) {
    $('share-link').value = `${location.origin}/#join=${inv.code}`;
    $('share-code').textContent = inv.code;
  }
  const stones = new Map();
  const o = model.opening(); // an opening rule's stage, or null
  const shown = model.shownMoves(); // all, or up to the move picked in the list
  const viewing = g.view !== null;
  shown.forEach((mv, i) => stones.set(mv, colourAt(i)));
  if (!viewing && !o) g.pending.forEach((mv, i) => stones.set(mv, colourAt(g.moves.length + i))); // swap2's
  const side = model.mySide();
  const need = model.swap2Need();
  const me = model.me?.name;
  const turn = need ? colourAt(g.moves.length + g.pending.length) : o ? colourAt(g.moves.length) : toMove(g);
  // an opening stage of mine that takes a point: a stone, a pick, a choice
  const opens = !!o && o.mine && (o.stage === 'place' || o.stage === 'offer' || o.stage === 'choose');
  const canPlay = !viewing && (need > 0 || opens || (side !== null && g.status === 'playing' && turn === side));
  const cands = g.think && !viewing && g.think.ply === g.moves.length
    ? g.think.cands.map((c) => ({ mv: c.mv, score: scoreMark(model.scoreView(c.score, g.think.ply), side || colourAt(g.think.ply)) }))
    : [];
  board.render({
    stones,
    last: shown[shown.length - 1] || null,
    win: g.result && g.result.reason === 'five' && !viewing ? g.result.cells : [],
    forbidden: viewing ? [] : g.forbidden,
    cands,
    canPlay,
    toMove: turn,
    preview: canPlay && model.preview && !stones.has(model.preview) ? model.preview : null,
    // an opening's area is shaded where it restricts the stone (anywhere: no shade)
    area: viewing || !o || o.area === 'any' ? [] : model.openingArea(true),
    fifths: viewing || !o ? [] : o.offers,
    picked: viewing || !o ? [] : o.picked,
  });
  $('viewing').hidden = !viewing;
  if (viewing) $('viewing-text').textContent = t('web.view.at', 'Showing move %d of %d', g.view + 1, g.moves.length);
  $('gameinfo').textContent = t('web.gameinfo', '%s · %s %s×%s · %s', g.rated === 'rated' ? t('game.rated', 'rated') : t('game.casual', 'casual'),
    word('rule', g.rule), g.size, g.size, tcWords(g.tc));
  for (const s of ['black', 'white']) {
    const n = $(`p-${s}`).querySelector('.name');
    const user = g[s];
    const gone = g.presence[user] && g.presence[user].gone;
    n.textContent = `${user === '-' ? t('web.seat.empty', 'waiting…') : user}${user === me ? t('game.you', ' (you)') : ''}${gone ? t('game.away', ' (away)') : ''}`;
    n.dataset.user = user;
    n.disabled = user === '-';
    n.title = user === '-' ? '' : t('web.profile.open', '%s\'s profile', user);
    // a bot's mark beside its name (`botaccounts`)
    const mark = $(`p-${s}`).querySelector('.botmark');
    if (mark) mark.remove();
    if (user !== '-' && model.isBot(user)) n.after(botMark());
    renderRating($(`p-${s}`).querySelector('.rating'), g, s);
    $(`p-${s}`).classList.toggle('tomove', o ? o.side === s : g.status === 'playing' && turn === s);
  }
  let line;
  const left = need - g.pending.length;
  if (g.status === 'over' && g.result) line = overWords(g.result.result, g.result.reason);
  else if (model.awaiting(performance.now())) line = awaitingWords(model.awaiting(performance.now()));
  else if (g.status === 'waiting') line = t('web.waiting', 'Waiting for the other player…');
  else if (o) line = openingWords(o, g.moves.length);
  else if (need && left === 1) line = t('web.swap2.put1', 'Swap2: place 1 more stone (%s next)', word('colour', turn));
  else if (need) line = t('web.swap2.putn', 'Swap2: place %d more stones (%s next)', left, word('colour', turn));
  else if (g.stage && g.stage.user === me) line = t('web.swap2.choose', 'Swap2: choose your colour');
  else if (g.stage) line = t('game.swap2', 'Swap2: %s to %s', g.stage.user, word('stage', g.stage.stage));
  else if (side) line = turn === side ? t('web.your_move', 'Your move') : t('web.to_move', '%s to move', g[turn]);
  else line = turn === 'black' ? t('game.black_to_move', 'Black to move') : t('game.white_to_move', 'White to move');
  $('turn').textContent = line;
  document.title = gameTitle(g, side, turn);
  renderOpening(g, o);
  const mine = g.stage && g.stage.user === me && !need;
  $('swap2').hidden = !(mine && (g.stage.stage === 'choose' || g.stage.stage === 'choose2'));
  $('swap2-put').hidden = !(mine && g.stage.stage === 'choose');
  $('think').textContent = g.think ? t('web.thinks', '%s is thinking (depth %d): %s', g.think.bot, g.think.depth,
    g.think.cands.map((c) => t('web.paren', '%s (%s)', c.mv, scoreWords(model.scoreView(c.score, g.think.ply)))).join(', ')) : '';
  $('think').title = g.think ? t('web.score.unit', 'The bot\'s evaluation of its candidate moves for the colour named: + is better for that colour, in hundreds of the engine\'s points; a forced win is said as one') : '';
  renderResult();
  // the moves, a numbered row for each pair (black, white), the latest in view
  const body = $('moves').tBodies[0];
  body.replaceChildren();
  g.moves.forEach((mv, i) => {
    if (i % 2 === 0) {
      const tr = body.insertRow();
      const n = document.createElement('th');
      n.scope = 'row';
      n.textContent = String(i / 2 + 1);
      tr.appendChild(n);
    }
    const td = body.rows[body.rows.length - 1].insertCell();
    // a move picked shows the position after it (view only while the game runs)
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.ply = String(i);
    b.textContent = g.reasons[i] ? t('web.paren', '%s (%s)', mv, botWhy(g.reasons[i])) : mv;
    if (g.view === i) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => { model.viewAt(i); renderGame(); });
    td.appendChild(b);
  });
  if (!viewing) $('moves-box').scrollTop = $('moves-box').scrollHeight;
  const offers = $('offers');
  offers.replaceChildren();
  for (const [id, o] of g.offers) {
    const div = document.createElement('div');
    div.className = 'offer';
    const mine = o.from === me;
    div.textContent = `${mine ? t('web.offer.mine', 'You offered: %s.', word('offer', o.kind)) : t('web.offer.theirs', '%s offers: %s.', o.from, word('offer', o.kind))} `;
    const mk = (label, cmd, attr) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.dataset.offer = attr;
      b.addEventListener('click', () => act(cmd, g.room, id).catch(() => {}));
      div.appendChild(b);
    };
    if (!mine && side) {
      mk(t('web.accept', 'Accept'), 'ACCEPT', `accept-${o.kind}`);
      mk(t('web.decline', 'Decline'), 'DECLINE', `decline-${o.kind}`);
    } else if (mine) {
      mk(t('web.withdraw', 'Withdraw'), 'DECLINE', `withdraw-${o.kind}`);
    }
    offers.appendChild(div);
  }
  const playing = side && g.status === 'playing';
  $('offer-undo').hidden = !playing;
  $('offer-draw').hidden = !playing;
  $('resign').hidden = !playing;
  $('offer-rematch').hidden = !(side && g.status === 'over') || !!g.tourney; // a tournament's game has none (441)
  $('tap-setting').hidden = !(playing || opens);
  const chat = $('chat');
  chat.replaceChildren();
  for (const c of g.chat.slice(-100)) {
    const li = document.createElement('li');
    if (c.user) {
      const b = document.createElement('b');
      b.textContent = `${c.user}: `;
      li.appendChild(b);
    }
    const notice = c.notice === 'offer' ? offerFate(c)
      : c.notice === 'joined' ? t('web.chat.joined', '%s is watching', c.who) : t('web.chat.left', '%s left', c.who);
    if (c.notice === 'offer') li.className = 'fate';
    li.appendChild(document.createTextNode(c.notice ? notice : c.text));
    chat.appendChild(li);
  }
  chat.scrollTop = chat.scrollHeight;
  tick();
}

// An opening rule's name, with the canonical renju opening once its
// stones are down ("Opening: RIF · D1 Kansei 寒星"), and the buttons of
// the stage I am to act in: the colours, the number to declare, the offer
// to confirm, the offered moves to choose from, Taraguchi's branch.
function renderOpening(g, o) {
  const named = g.opening !== 'none' && g.opening !== 'swap2';
  $('opening-name').hidden = !named;
  if (named) {
    const canon = canonWords(g.canon);
    const rule = t('web.opening.info', 'Opening: %s', word('opening', g.opening));
    $('opening-name').textContent = canon ? t('web.opening.canon', '%s · %s', rule, canon) : rule;
  }
  const mine = !!o && o.mine && g.view === null;
  $('opening').hidden = !mine;
  if (!mine) return;
  $('open-colour').hidden = o.stage !== 'swap';
  $('open-declare').hidden = o.stage !== 'declare';
  $('open-offer').hidden = o.stage !== 'offer';
  $('open-choose').hidden = o.stage !== 'choose';
  $('open-branch').hidden = o.stage !== 'branch';
  const buttons = (box, list, label, act, key) => box.replaceChildren(...list.map((v) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label(v);
    b.dataset[key] = String(v);
    b.addEventListener('click', () => openingAct(act, v));
    return b;
  }));
  if (o.stage === 'declare') buttons($('open-declare'), Array.from({ length: o.count }, (_, i) => i + 1), String, 'declare', 'declare');
  if (o.stage === 'choose') buttons($('open-choose'), o.offers.filter((mv) => !g.moves.includes(mv)), (mv) => t('web.open.play', 'Play %s', mv), 'choose', 'choose');
  $('open-confirm').disabled = o.stage === 'offer' && o.picked.length !== o.count;
}
$('open-black').addEventListener('click', () => openingAct('colour', 'black'));
$('open-white').addEventListener('click', () => openingAct('colour', 'white'));
$('open-one').addEventListener('click', () => openingAct('branch', 'one'));
$('open-ten').addEventListener('click', () => openingAct('branch', 'ten'));
$('open-confirm').addEventListener('click', () => openingAct('offer'));
$('open-clear').addEventListener('click', () => {
  model.swap2Clear(); // the picks are the game's pending points
  renderGame();
});

// The opening choosers of the lobby's forms: what the form's rule and
// size take, as far as this server plays them (model.js openingChoices);
// hidden when there is no choice.
function renderOpenings() {
  for (const id of ['seek', 'bot', 'create', 'tcreate']) {
    const f = $(id);
    const sel = f.elements.opening;
    // a hosted engine plays no opening rule (PROTOCOL.md 5.10)
    const engine = id === 'bot' && !/^[0-9]+$/.test(f.elements.level.value);
    const list = engine ? ['none']
      : openingChoices(f.elements.rule.value, f.elements.size ? f.elements.size.value : 15, model.caps);
    const was = sel.value;
    sel.replaceChildren(...list.map((tok) => {
      const o = document.createElement('option');
      o.value = tok;
      o.textContent = word('opening', tok);
      return o;
    }));
    sel.value = list.includes(was) ? was : 'none';
    sel.closest('label').hidden = list.length < 2;
  }
}
for (const id of ['seek', 'bot', 'create', 'tcreate']) {
  for (const name of ['rule', 'size', 'level']) $(id).elements[name]?.addEventListener('change', renderOpenings);
}

// A player's rating beside the name: "1500?" while provisional; after a
// rated game the new one and the change ("1512 (+12)"); nothing for a
// player without one (a guest).
function renderRating(el, g, side) {
  const r = g.rating[side];
  const before = g.ratingBefore[side];
  el.replaceChildren();
  el.title = '';
  if (!r) return;
  if (before) {
    const d = r - before;
    const span = document.createElement('span');
    span.className = d > 0 ? 'up' : d < 0 ? 'down' : '';
    span.textContent = `${d >= 0 ? '+' : '−'}${Math.abs(d)}`;
    el.append(`${r} (`, span, ')');
    el.title = t('web.rating.change', 'Rating %s, was %s', r, before);
    return;
  }
  el.textContent = `${r}${g.provisional[side] ? '?' : ''}`;
  el.title = g.provisional[side] ? t('web.rating.provisional', 'Provisional rating: few rated games yet') : t('web.rating', 'Rating');
}

for (const s of ['black', 'white']) {
  $(`p-${s}`).querySelector('.name').addEventListener('click', (e) => {
    const user = e.currentTarget.dataset.user;
    if (user && user !== '-') openProfile(user);
  });
}

// ---- profiles and the leaderboard ----------------------------------------------

// A player's profile over the page: per-rule ratings (STATS) and recent
// games (HISTORY), as the server has them now.
async function openProfile(user) {
  model.openProfile(user);
  renderProfile();
  $('profile-close').focus();
  await Promise.all([send('STATS', user).catch(() => {}), send('HISTORY', user).catch(() => {})]);
  renderProfile();
}

const PROFILE_GAMES = 10; // the newest games a profile shows

function renderProfile() {
  const p = model.profile;
  $('profile').hidden = !p;
  if (!p) return;
  $('profile-name').replaceChildren(p.user, ...(model.isBot(p.user) ? [botMark()] : []));
  const st = $('profile-stats');
  if (p.stats === null) st.replaceChildren(item(t('web.loading', 'Loading…')));
  else if (!p.stats.length) st.replaceChildren(item(t('web.profile.unrated', 'No ratings: a guest, or a bot that is not rated.')));
  else {
    st.replaceChildren(...p.stats.map((f) => item(t('web.profile.stat', '%s: %s (%s wins, %s losses, %s draws)', word('rule', f.rule),
      `${f.rating}${f.standing === 'provisional' ? '?' : ''}`, f.wins, f.losses, f.draws))));
  }
  const ul = $('profile-games');
  if (p.games === null) ul.replaceChildren(item(t('web.loading', 'Loading…')));
  else if (!p.games.length) ul.replaceChildren(item(t('web.history.none', 'No finished games yet.')));
  else {
    ul.replaceChildren(...p.games.slice(0, PROFILE_GAMES).map((f) => {
      const li = withMarks(document.createElement('li'), `${t('web.game', '#%s %s vs %s: %s, %s moves', f.id, f.black, f.white, overWords(f.result, f.reason), f.plies)} `, [f.black, f.white]);
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('web.replay', 'Replay');
      b.addEventListener('click', () => { closeProfile(); openReplay(f.id); });
      li.appendChild(b);
      return li;
    }));
  }
}

function closeProfile() {
  model.closeProfile();
  renderProfile();
}
$('profile-close').addEventListener('click', closeProfile);
const CLOSES = { Escape: true }; // the keys that close the profile
document.addEventListener('keydown', (e) => {
  if (CLOSES[e.key] && model.profile) closeProfile();
});

// The leaderboard of the rule chosen (TOP <rule>); a name opens its profile.
async function showTop() {
  try {
    const bots = model.caps.includes('botaccounts') && $('top-kind').value === 'bots';
    await act(bots ? 'TOPBOTS' : 'TOP', $('top-rule').value);
    app.top = true;
    renderTop();
  } catch { /* said */ }
}

function renderTop() {
  if (!app.top) return;
  const ol = $('top');
  ol.replaceChildren();
  for (const f of model.lobby.top) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = f.user;
    b.dataset.profile = f.user;
    b.addEventListener('click', () => openProfile(f.user));
    li.append(b, ...(model.isBot(f.user) ? [botMark()] : []), ` ${f.rating}${f.standing === 'provisional' ? '?' : ''}`);
    ol.appendChild(li);
  }
  if (!model.lobby.top.length) ol.replaceChildren(item(t('web.top.none', 'Nobody has played a rated game of %s yet.', word('rule', model.lobby.topRule))));
}
$('top-go').addEventListener('click', showTop);
$('top-rule').addEventListener('change', showTop);
$('top-kind').addEventListener('change', showTop);

// The account card's ratings, asked again (after a rated game ended, back
// in the lobby): only for an account, on a server that keeps them.
async function refreshMyStats() {
  renderRatedNote();
  if (!model.me || !saved().account || !model.caps.includes('accounts')) return;
  try {
    await send('STATS', model.me.name);
    app.stats = true;
    renderStats();
  } catch { /* the card keeps what it showed */ }
}

// A guest's rated toggle says that rated play needs an account (the server
// refuses it: 417).
function renderRatedNote() {
  for (const id of ['rated-note', 'create-rated-note']) $(id).hidden = !model.me || !!saved().account;
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

// A finished game's replay; from a link (#replay=ID), a refusal lands on
// the dead-link page.
async function openReplay(id, link = false) {
  try {
    await (link ? send : act)('EXPORT', id, 'text');
    clearInterval(app.lobbyTimer);
    model.openReplay();
    show('replay');
    history.replaceState(null, '', `#replay=${encodeURIComponent(model.replay.rec.id)}`);
    renderReplay();
    askMarks(); // a stored review shows at once
  } catch (e) {
    if (link) deadEnd('replay', e);
  }
}

function renderReplay() {
  const { rec, at, line } = model.replay;
  rboard.setSize(rec.size);
  const shown = model.replayShown();
  const all = [...shown.moves, ...shown.line];
  const stones = new Map();
  all.forEach((mv, i) => stones.set(mv, colourAt(i)));
  // a line's stones say their order by their numbers: no last-move mark
  const last = shown.line.length ? null : all[all.length - 1] || null;
  rboard.render({ stones, last, win: [], forbidden: [], cands: [], canPlay: false, toMove: 'black', numbered: shown.line });
  // the record's lines: "black Alice 1500 1490", "result white time"
  const name = (v) => (v || '').split(' ')[0];
  const [result, reason] = (rec.result || '').split(' ');
  $('rinfo').textContent = t('web.replay.info', 'Game %s: %s (black) vs %s (white), %s; %s', rec.id, name(rec.black), name(rec.white),
    word('rule', rec.rule), result ? overWords(result, reason) : '');
  $('r-pos').textContent = `${at} / ${rec.moves.length}`;
  $('r-jump').max = String(rec.moves.length);
  $('r-jump').value = String(at);
  $('r-analyse').hidden = !model.caps.includes('position');
  // a mark's better line, played from the position before its move
  $('r-line').hidden = !line;
  if (line) {
    const m = model.review.marks[line.mark];
    $('r-line-text').textContent = t('web.line.shown', '%s (%d/%d)', markWords(m), line.shown, line.moves.length);
    $('r-line-step').disabled = line.shown >= line.moves.length;
  }
  renderReview();
}

function stepReplay(to) {
  if (!model.replay) return;
  stopLine();
  model.stepReplay(to);
  renderReplay();
}

// ---- the review (PROTOCOL.md 5.19) ------------------------------------------

const LINE_MS = 800; // a mark's line: the wait between its stones

// MARKS of the game replayed: the stored review, or 455 (none yet: the
// Review button), or why it cannot be shown.
function askMarks() {
  const r = model.review;
  if (!r) return;
  send('MARKS', r.id).catch(() => {}).finally(() => {
    if (r === model.review && r.state === 'none' && r.rejoin) askReview(); // it ran for this page
    else renderReview();
  });
}

function askReview() {
  const args = model.reviewAsk();
  if (!args) return;
  renderReview();
  send('REVIEW', ...args).catch(() => {}).finally(renderReview);
}
$('review-go').addEventListener('click', askReview);

function reviewState(r) {
  switch (r.state) {
    case 'none': return r.err ? reviewErrorWords(r.err.code, r.err.text) : t('web.review.none', 'The engine has not reviewed this game yet.');
    case 'requested': return t('web.review.asked', 'Asking for a review…');
    case 'running': return r.total ? t('web.review.progress', 'Reviewing: %d/%d positions', r.done, r.total) : t('web.review.started', 'Reviewing…');
    case 'failed': return t('web.review.failed', 'The review could not be made; ask again.');
    case 'refused': return reviewErrorWords(r.err.code, r.err.text);
    case 'ready': return t('web.review.ready', 'Black\'s chance to win after each move; click the graph to go to that position.');
    default: return t('web.loading', 'Loading…');
  }
}

function renderReview() {
  const r = model.review;
  $('review').hidden = !r || app.view !== 'replay';
  if (!r || app.view !== 'replay') return;
  $('review-state').textContent = reviewState(r);
  $('review-go').hidden = !(r.state === 'none' || r.state === 'failed');
  const running = r.state === 'running' && r.total > 0;
  $('review-progress').hidden = !running;
  if (running) {
    $('review-progress').max = r.total;
    $('review-progress').value = r.done;
  }
  const ready = r.state === 'ready';
  $('review-graph').toggleAttribute('hidden', !ready); // an SVG element: no hidden property
  // the position shown's chance, in words (the graph's, for every reader)
  const here = ready ? r.evals[model.replay.at] : null;
  $('review-at').hidden = here === null || here === undefined;
  if (!$('review-at').hidden) $('review-at').textContent = t('web.review.at', 'Black\'s chance to win here: %d%%', Math.round(here / 10));
  const ol = $('review-marks');
  ol.replaceChildren();
  if (!ready) return;
  drawGraph(r);
  const line = model.replay.line;
  r.marks.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.mark = String(i);
    const dot = document.createElement('span');
    dot.className = `kind ${m.kind}`; // the colour of its mark on the graph
    dot.setAttribute('aria-hidden', 'true');
    b.append(dot, markWords(m));
    if (line && line.mark === i) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => playMark(i));
    li.appendChild(b);
    ol.appendChild(li);
  });
  if (!r.marks.length) ol.replaceChildren(item(t('web.review.nomarks', 'No move was marked.')));
}

// The graph: black's chance at each position (black's share filled from
// the bottom, even chances dashed), the position shown, the marks on
// their moves.
const GW = 600;
const GH = 150;
const GM = 8; // the margin round the graph, where a mark at its edge is drawn whole
const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.appendChild(e);
  return e;
}

function drawGraph(r) {
  const svg = $('review-graph');
  svg.setAttribute('viewBox', `${-GM} ${-GM} ${GW + 2 * GM} ${GH + 2 * GM}`);
  svg.replaceChildren();
  svgEl('rect', { x: 0, y: 0, width: GW, height: GH, class: 'graph-bg' }, svg);
  const pts = chancePoints(r.evals, GW, GH);
  if (pts.length) {
    const xy = pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    svgEl('polygon', { points: `${pts[0].x.toFixed(1)},${GH} ${xy} ${pts[pts.length - 1].x.toFixed(1)},${GH}`, class: 'graph-black' }, svg);
    svgEl('polyline', { points: xy, class: 'graph-line' }, svg);
  }
  svgEl('line', { x1: 0, y1: GH / 2, x2: GW, y2: GH / 2, class: 'graph-mid' }, svg);
  const last = Math.max(1, r.evals.length - 1);
  const x = (i) => (i / last) * GW;
  const at = model.replay.at;
  svgEl('line', { x1: x(at), y1: 0, x2: x(at), y2: GH, class: 'graph-at', 'data-at': at }, svg);
  r.marks.forEach((m, i) => {
    const v = r.evals[m.ply];
    // the turning point a ring round its move, which may hold another mark
    const rad = m.kind === 'turning' ? 8 : 5.5;
    const c = svgEl('circle', { cx: x(m.ply), cy: GH - ((v === null ? 500 : v) / 1000) * GH, r: rad, class: `graph-mark ${m.kind}`, 'data-graph-mark': i }, svg);
    svgEl('title', {}, c).textContent = markWords(m);
  });
}

$('review-graph').addEventListener('click', (e) => {
  const r = model.review;
  if (!r || r.state !== 'ready') return;
  const mark = e.target.closest && e.target.closest('[data-graph-mark]');
  if (mark) {
    playMark(Number(mark.dataset.graphMark));
    return;
  }
  const box = $('review-graph').getBoundingClientRect();
  stepReplay(positionAt(((e.clientX - box.left) / box.width) * (GW + 2 * GM) - GM, GW, r.evals.length));
});

// A mark clicked: the position before its move, then its better line
// stone by stone on a timer (or the step button), until Back.
function playMark(i) {
  stopLine();
  const line = model.replayMark(i);
  renderReplay();
  if (!line) return;
  app.lineTimer = setInterval(() => {
    const more = model.replayLineStep(1);
    renderReplay();
    if (!more) stopLine();
  }, LINE_MS);
}

function stopLine() {
  clearInterval(app.lineTimer);
  app.lineTimer = null;
}

$('r-line-step').addEventListener('click', () => {
  stopLine();
  model.replayLineStep(1);
  renderReplay();
});
$('r-line-back').addEventListener('click', () => {
  stopLine();
  model.replayLineEnd();
  renderReplay();
});

// ---- the analysis board (PROTOCOL.md 5.17, 5.18) ------------------------------

// What the lobby offers as this server serves it: the analysis board with
// `position`.
function renderCaps() {
  $('top-kind-label').hidden = !model.caps.includes('botaccounts');
  $('analysis-card').hidden = !model.caps.includes('position');
  $('puzzle-card').hidden = !model.caps.includes('puzzles');
  $('tourney-card').hidden = !model.caps.includes('tournaments');
  renderLeagueCard();
  // the hosted engines beside the ten levels, in the bot's form and a
  // waiting room's seat (once per greeting: a server may host others now)
  for (const sel of [$('bot').elements.level, $('seat-level')]) {
    for (const g of sel.querySelectorAll('optgroup[data-engines]')) g.remove();
    const names = model.engines();
    if (!names.length) continue;
    const g = document.createElement('optgroup');
    g.dataset.engines = '';
    g.label = t('web.engines', 'Engines on this server');
    g.append(...names.map((n) => {
      const o = document.createElement('option');
      o.value = n;
      o.textContent = n;
      return o;
    }));
    sel.append(g);
  }
  renderOpenings();
}

form('analyse', (f) => openAnalysis(f.rule, Number(f.size), [], null));
$('r-analyse').addEventListener('click', () => {
  const { rec, at } = model.replay;
  const shown = model.replayShown();
  openAnalysis(rec.rule || 'freestyle', rec.size, [...shown.moves, ...shown.line], { id: rec.id, at });
});

// An analysis board's address: RULE/SIZE/MOVES (h8,i9; none: empty), as
// renderAnalysis writes it; the server judges what it holds.
function analysisLink(arg) {
  const [rule, size, moves] = arg.split('/');
  const n = Number(size);
  openAnalysis(rule, n >= 5 && n <= 20 ? n : 15, moves ? moves.split(',') : [], null); // the sizes of PROTOCOL.md 2
}

function openAnalysis(rule, size, moves, from) {
  clearInterval(app.lobbyTimer);
  const args = model.openAnalysis(rule, size, moves, from);
  show('analysis');
  askPosition(args);
}

// A position asked (model.js positionAsk's arguments, null: none to ask);
// the server's answer or refusal is the model's to keep.
function askPosition(args) {
  renderAnalysis();
  if (!args) return;
  send('POSITION', ...args).catch((e) => { if (!e.code) toast(errText(e)); }).finally(renderAnalysis);
}

const aboard = new Board($('aboard'), (mv) => askPosition(model.analysisPlace(mv)));

$('a-undo').addEventListener('click', () => askPosition(model.analysisUndo()));
$('a-clear').addEventListener('click', () => askPosition(model.analysisClear()));
$('a-engine').addEventListener('click', () => {
  const args = model.analysisEngine();
  if (!args) return;
  renderAnalysis();
  send('ANALYSE', ...args).catch((e) => { if (!e.code) toast(errText(e)); }).finally(renderAnalysis);
});
$('a-back').addEventListener('click', () => {
  const a = model.analysis;
  model.closeAnalysis();
  if (a && a.from && model.replay && model.replay.rec.id === a.from.id) {
    show('replay');
    history.replaceState(null, '', `#replay=${encodeURIComponent(a.from.id)}`);
    renderReplay();
  } else {
    showLobby();
  }
});
const lineTo = (f) => () => {
  const a = model.analysis;
  if (!a || !a.engine) return;
  model.analysisLine(f(a));
  renderAnalysis();
};
$('a-line-first').addEventListener('click', lineTo(() => 0));
$('a-line-prev').addEventListener('click', lineTo((a) => a.line - 1));
$('a-line-next').addEventListener('click', lineTo((a) => a.line + 1));
$('a-line-last').addEventListener('click', lineTo((a) => a.engine.pv.length));

// A text that starts a sentence, its first letter a capital (a language
// without capitals is left as it is).
function sentence(s) {
  return s.charAt(0).toLocaleUpperCase(i18n.htmlLang(i18n.language())) + s.slice(1);
}

function renderAnalysis() {
  const a = model.analysis;
  if (!a || app.view !== 'analysis') return;
  aboard.setSize(a.size);
  const here = `#analysis=${a.rule}/${a.size}/${a.moves.join(',')}`;
  if (location.hash !== here) history.replaceState(null, '', here); // a reload sets it up again
  const shown = model.analysisShown();
  const all = [...shown.moves, ...shown.line];
  const stones = new Map();
  all.forEach((mv, i) => stones.set(mv, colourAt(i)));
  const e = a.engine;
  const stepping = shown.line.length > 0;
  aboard.render({
    stones,
    last: stepping ? null : all[all.length - 1] || null, // a line's stones are numbered
    win: stepping ? [] : a.five,
    forbidden: stepping ? [] : a.forbidden,
    cands: e && !stepping ? e.cands.map((c) => ({ mv: c.mv, score: scoreMark(engineScore(c.score, e.mover), e.mover) })) : [],
    canPlay: !stepping,
    toMove: stepping ? colourAt(all.length) : a.toMove || colourAt(all.length),
    numbered: shown.line,
  });
  const info = t('web.ana.info', '%s %s×%s', word('rule', a.rule), a.size, a.size);
  $('a-info').textContent = a.from ? t('web.ana.from', '%s · from game %s, move %d', info, a.from.id, a.from.at) : info;
  let turn = '';
  if (a.result !== 'none') turn = overWords(a.result, a.result === 'draw' ? 'board-full' : 'five');
  else if (a.toMove === 'black') turn = t('game.black_to_move', 'Black to move');
  else if (a.toMove === 'white') turn = t('game.white_to_move', 'White to move');
  $('a-turn').textContent = turn;
  $('a-refusal').textContent = a.refusal ? refusalWords(a.refusal) : '';
  $('a-undo').disabled = !a.moves.length;
  $('a-clear').disabled = !a.moves.length;
  $('a-engine').hidden = !model.caps.includes('analysis');
  $('a-engine').disabled = !!a.thinking || !!a.asked || a.toMove === null || a.toMove === 'none';
  $('a-back').textContent = a.from ? t('web.ana.back', 'Back to the replay') : t('web.lobby', 'Back to the lobby');
  $('a-engine-box').hidden = !(a.thinking || e || a.engineErr);
  let reason = '';
  if (a.thinking) reason = t('web.ana.thinking', 'The engine is thinking…');
  else if (a.engineErr) reason = errorWords(a.engineErr.code, a.engineErr.text);
  else if (e) reason = sentence(t('web.ana.reason', '%s (depth %d)', engineWords(e, e.cands.length ? engineScore(e.cands[0].score, e.mover) : null), e.depth));
  $('a-reason').textContent = reason;
  $('a-cands').replaceChildren(...(e ? e.cands : []).map((c) => {
    const li = item(t('web.paren', '%s (%s)', c.mv, scoreWords(engineScore(c.score, e.mover))));
    li.dataset.cand = c.mv;
    return li;
  }));
  $('a-line').hidden = !e || !e.pv.length;
  if (e) {
    $('a-line-pos').textContent = `${a.line} / ${e.pv.length}`;
    $('a-line-first').disabled = $('a-line-prev').disabled = a.line === 0;
    $('a-line-next').disabled = $('a-line-last').disabled = a.line >= e.pv.length;
  }
}

// ---- puzzles (PROTOCOL.md 5.20) ------------------------------------------------

// PUZZLE next, daily or an id (the one shown again: a retry): it opens in
// the puzzle view. A refusal is said where the player is: in the puzzle
// view, or a toast; from a link (#puzzle=ID), on the dead-link page.
async function openPuzzle(which, link = false) {
  try {
    await send('PUZZLE', which);
  } catch (e) {
    if (e.moved) return;
    if (link) deadEnd('puzzle', e);
    else if (app.view === 'puzzle' && e.code) renderPuzzle(); // said in the view (the model kept it)
    else toast(e.code ? puzzleErrorWords(model.puzzleErr || e) : errText(e));
    return;
  }
  if (!model.puzzle || model.puzzleErr) { // a puzzle the page cannot show
    toast(puzzleErrorWords(model.puzzleErr || { unreadable: true }));
    return;
  }
  clearInterval(app.lobbyTimer);
  show('puzzle');
  renderPuzzle();
  askPuzzleForbidden();
}

// What the server marks on the puzzle's board (POSITION, as the analysis
// board asks it): renju's forbidden points for black, the five at the end.
function askPuzzleForbidden() {
  const args = model.puzzlePosition();
  if (args) send('POSITION', ...args).catch(() => {}).finally(renderPuzzle);
}

// A point clicked: the move goes to the solvers (SOLVE); their answer
// places it and the defence's reply, or ends the puzzle.
const pboard = new Board($('pboard'), (mv) => {
  const args = model.puzzleTry(mv);
  if (!args) return;
  renderPuzzle();
  send('SOLVE', ...args).catch((e) => { if (!e.code) toast(errText(e)); }).finally(() => {
    renderPuzzle();
    askPuzzleForbidden();
  });
});

$('puzzle-next').addEventListener('click', () => openPuzzle('next'));
$('puzzle-daily').addEventListener('click', () => openPuzzle('daily'));
$('pz-next').addEventListener('click', () => openPuzzle('next'));
$('pz-daily').addEventListener('click', () => openPuzzle('daily'));
$('pz-retry').addEventListener('click', () => { if (model.puzzle) openPuzzle(model.puzzle.id); });
$('pz-back').addEventListener('click', () => showLobby());
const stepTo = (f) => () => {
  const p = model.puzzle;
  if (!p || p.state !== 'failed') return;
  model.puzzleStep(f(p));
  renderPuzzle();
};
$('pz-first').addEventListener('click', stepTo(() => 0));
$('pz-prev').addEventListener('click', stepTo((p) => p.step - 1));
$('pz-next-stone').addEventListener('click', stepTo((p) => p.step + 1));
$('pz-last').addEventListener('click', stepTo((p) => p.line.length));

function renderPuzzle() {
  const p = model.puzzle;
  if (!p || app.view !== 'puzzle') return;
  pboard.setSize(p.size);
  const here = `#puzzle=${p.id}`;
  if (location.hash !== here) history.replaceState(null, '', here); // a reload opens it again
  const shown = model.puzzleShown();
  const all = [...shown.moves, ...shown.line];
  const stones = new Map();
  all.forEach((mv, i) => stones.set(mv, colourAt(i)));
  const stepping = shown.line.length > 0;
  pboard.render({
    stones,
    last: stepping ? null : all[all.length - 1] || null, // the solution's stones are numbered
    win: p.state === 'solved' ? p.five : [],
    forbidden: stepping || p.state !== 'open' ? [] : p.forbidden,
    cands: [],
    canPlay: p.state === 'open' && !stepping,
    toMove: colourAt(all.length),
    numbered: shown.line,
  });
  const w = puzzleWords(p);
  $('pz-head').textContent = w.head;
  $('pz-info').textContent = t('web.ana.info', '%s %s×%s', word('rule', p.rule), p.size, p.size);
  $('pz-class').textContent = w.cls;
  $('pz-goal').textContent = w.goal;
  $('pz-state').textContent = puzzleStateWords(p);
  const err = p.err || model.puzzleErr;
  $('pz-refusal').textContent = err ? puzzleErrorWords(err) : '';
  $('pz-rating').textContent = puzzleRatingWords(p, model.puzzleUnrated());
  const failed = p.state === 'failed' && p.line.length > 0;
  $('pz-solution').hidden = !failed;
  if (failed) {
    $('pz-solution-text').textContent = t('puzzle.solution', 'The solution: %s', p.line.join(', '));
    $('pz-pos').textContent = `${p.step} / ${p.line.length}`;
    $('pz-first').disabled = $('pz-prev').disabled = p.step === 0;
    $('pz-next-stone').disabled = $('pz-last').disabled = p.step >= p.line.length;
  }
  // a try again once the puzzle moved on from its position (or left the connection)
  $('pz-retry').hidden = p.state === 'open' && p.moves.length === p.start.length && !p.again;
  $('pz-retry').disabled = p.state === 'judging';
}

// ---- tournaments (PROTOCOL.md 5.21) --------------------------------------------

const TLIST_AGAIN_MS = 5000; // the lobby's list asked again at most this often when a start is due

// The lobby's card: TLIST's events, asked when the lobby is entered and
// when a * TOURNEY of an event followed changes the list.
async function refreshTourneys() {
  if (!model.caps.includes('tournaments') || !model.conn.up || !model.me) return;
  app.tlistAt = Date.now();
  try {
    await send('TLIST');
  } catch { /* the next entry asks again */ }
  renderTourneys();
}

function renderTourneys() {
  renderTourneyCreate();
  const ul = $('tourneys');
  if (app.view !== 'lobby') return;
  const now = Date.now();
  ul.replaceChildren(...model.tourneys.map((i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#tourney=${i.id}`;
    a.dataset.tourney = i.id;
    a.textContent = tourneyTitle(i);
    li.append(a, ` · ${tourneyWhat(i)} · ${tourneyLength(i)} · `);
    const when = document.createElement('span');
    when.className = 't-when';
    when.textContent = tourneyWhen(i, model.tourneyLeft(i, now), null);
    li.append(when, ` · ${tourneyPlayers(i.players)}`);
    return li;
  }));
  if (!model.tourneys.length) ul.replaceChildren(item(t('web.tourney.none', 'No tournaments right now.')));
}

// The create form: for accounts (TCREATE is 417 for a guest); its length
// named for the kind chosen.
function renderTourneyCreate() {
  const acct = !!model.me && !!model.me.account;
  $('tcreate').hidden = !acct;
  $('tc-account').hidden = acct;
  const kind = $('tcreate').elements.kind.value;
  $('tc-length-label').textContent = kind === 'arena' ? t('web.tourney.f.minutes', 'Length (minutes)')
    : kind === 'robin' ? t('web.tourney.f.cycles', 'Cycles (1 or 2)') : t('web.tourney.f.rounds', 'Rounds');
}
$('tcreate').elements.kind.addEventListener('change', renderTourneyCreate);

form('tcreate', async (f) => {
  $('tc-refusal').textContent = '';
  const name = (f.name || '').trim();
  try {
    const r = await send('TCREATE', f.kind, f.rule, f.size, f.tc, f.opening || 'none', f.rated ? 'rated' : 'casual', f.entrants,
      Math.round(Number(f.start) * 60), f.length, ...(name ? [name] : []));
    $('tcreate').reset();
    renderTourneyCreate();
    openTourney(r.ok.args[0]);
  } catch (e) {
    $('tc-refusal').textContent = e.code ? tourneyErrorWords(e.code, e.text) : errText(e);
  }
});

// An event shown: TWATCH's snapshot (again after a reload or a
// reconnection, and after a game of it). A refusal (457) from a link is
// said on the dead-link page, else in a toast.
async function openTourney(id, link = false) {
  clearInterval(app.lobbyTimer);
  const was = model.tourney;
  // the event shown before stops sending its events, unless I play in it
  if (was && was.id !== id && !model.myStanding()) send('TUNWATCH', was.id).catch(() => {});
  try {
    await send('TWATCH', id);
  } catch (e) {
    if (link) deadEnd('tourney', e);
    else toast(errText(e));
    return;
  }
  $('t-refusal').textContent = '';
  $('t-confirm').hidden = true;
  show('tourney');
  renderTourney();
}

// The standings' heads for the kind: rank, name, points, its tie-breaks,
// games, status (an arena's streak beside the name).
function standingsHead(kind) {
  const tr = $('t-standings').tHead.rows[0];
  const cells = [
    [t('web.tourney.col.rank', 'Rank'), '', 'num'], [t('web.tourney.col.name', 'Player'), '', ''], [t('web.tourney.col.points', 'Points'), '', 'num'],
    ...tiebreakHeads(kind).map((h) => [h.head, h.name, 'num']),
    [t('web.tourney.col.games', 'Games'), '', 'num'], [t('web.tourney.col.status', 'Status'), '', ''],
  ];
  tr.replaceChildren(...cells.map(([text, title, cls]) => {
    const th = document.createElement('th');
    th.textContent = text;
    if (title) {
      th.title = title;
      th.setAttribute('aria-label', title);
    }
    if (cls) th.className = cls;
    return th;
  }));
}

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function renderTourney() {
  const tn = model.tourney;
  if (!tn || app.view !== 'tourney') return;
  const here = `#tourney=${tn.id}`;
  if (location.hash !== here) history.replaceState(null, '', here); // a reload watches it again
  const i = tn.info;
  $('t-name').textContent = tourneyTitle(i);
  $('t-what').textContent = `${tourneyWhat(i)} · ${tourneyLength(i)}`;
  $('t-more').textContent = t('web.tourney.more', 'Opening: %s · %s · %s · %s', word('opening', i.opening),
    i.rated === 'rated' ? t('web.tourney.rated', 'rated') : t('web.tourney.casual', 'casual'),
    t('web.tourney.for', 'for %s', tourneyWord('entrants', i.entrants)), tourneyWord('state', i.state));
  renderTourneyClock();
  const j = model.tourneyJoin();
  $('t-join').hidden = j.act !== 'join';
  $('t-leave').hidden = j.act !== 'leave';
  if (j.act !== 'leave') $('t-confirm').hidden = true; // nothing left to leave
  else if (!$('t-confirm').hidden) $('t-confirm-text').textContent = tourneyLeaveAsk(i); // it started meanwhile
  $('t-why').textContent = j.why ? tourneyWord('why', j.why) : '';
  $('t-next').textContent = nextGameWords(tn);
  // a league's event: the way to its table (the event stays followed, so
  // its end asks the table again)
  const lg = (model.leagues || []).find((l) => l.tourney === tn.id);
  $('t-league').hidden = !lg;
  if (lg) $('t-league-link').href = `#league=${encodeURIComponent(lg.name)}`;
  // the standings
  standingsHead(i.kind);
  const me = model.me ? model.me.name : null;
  $('t-standings').tBodies[0].replaceChildren(...tn.players.map((p) => {
    const tr = document.createElement('tr');
    tr.dataset.user = p.user;
    if (p.user === me) tr.className = 'me';
    const rank = model.rankShared(p) ? t('web.tourney.rank.shared', '=%d', p.rank) : String(p.rank);
    const name = cell(p.user);
    if (model.isBot(p.user)) name.appendChild(botMark());
    if (i.kind === 'arena' && p.streak >= 2) { // a streak: the next wins count double
      const fire = document.createElement('span');
      fire.className = 'streak';
      fire.textContent = ' 🔥';
      fire.title = t('web.tourney.streak', '%d wins in a row: a win counts double', p.streak);
      fire.setAttribute('aria-label', fire.title);
      name.appendChild(fire);
    }
    tr.append(cell(rank, 'num'), name, cell(pointsWords(i.kind, p.points), 'num points'),
      ...tiebreakValues(i.kind, p.tiebreaks).map((v) => cell(v, 'num')), cell(String(p.games), 'num'), cell(tourneyWord('pstatus', p.status)));
    return tr;
  }));
  // the pairings: the round's, an arena's games under way and just ended
  $('t-pairings-title').textContent = i.kind === 'arena' ? t('web.tourney.games', 'Games') : t('web.tourney.pairings.round', 'Pairings, round %d', i.round);
  $('t-nopairings').hidden = tn.games.length > 0;
  $('t-pairings').hidden = !tn.games.length;
  $('t-pairings').tBodies[0].replaceChildren(...tn.games.map((g) => {
    const tr = document.createElement('tr');
    tr.dataset.board = `${g.round}.${g.board}`;
    const bye = g.second === '-';
    tr.append(cell(String(g.board), 'num'), cell(g.first), cell(bye ? '' : g.second), cell(tgameWords(g)));
    const td = document.createElement('td');
    // a game under way: watched from here (a player's own opens by itself)
    if (g.result === 'pending' && g.room !== '-' && g.first !== me && g.second !== me) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('web.watch', 'Watch');
      b.dataset.watch = g.room;
      b.addEventListener('click', () => enterRoom(g.room, true));
      td.appendChild(b);
    }
    tr.appendChild(td);
    return tr;
  }));
}

// "Your next game": the pairing, the bye, or the wait for the round.
function nextGameWords(tn) {
  const i = tn.info;
  const me = model.myStanding();
  if (!me) return t('web.tourney.next.out', 'You are not playing in this tournament.');
  if (me.status === 'withdrawn') return t('web.tourney.next.withdrawn', 'You left this tournament.');
  if (i.state === 'over' || i.state === 'cancelled') return tourneyWord('state', i.state);
  if (i.state === 'soon') return t('web.tourney.next.soon', 'You are in: the pairings are made when it starts.');
  const p = model.myPairing();
  if (!p.game || (i.kind === 'arena' && p.game.result !== 'pending')) {
    return i.kind === 'arena' ? t('web.tourney.next.arena', 'Waiting for an opponent…') : t('web.tourney.next.wait', 'Waiting for the round.');
  }
  if (p.bye) return t('web.tourney.next.bye', 'Round %d: you have the bye (a win).', p.game.round);
  const side = p.first ? t('web.tourney.first', 'first') : t('web.tourney.second', 'second');
  if (p.game.result === 'pending') return t('web.tourney.next.game', 'Round %d: you play %s (you move %s).', p.game.round, p.opponent, side);
  return t('web.tourney.next.done', 'Round %d against %s: %s. Waiting for the next round.', p.game.round, p.opponent, tgameWords(p.game));
}

// The countdown to the start, an arena's time left, the round: each second.
function renderTourneyClock() {
  const tn = model.tourney;
  if (!tn || app.view !== 'tourney') return;
  const i = tn.info;
  const ended = i.state === 'over' || i.state === 'cancelled'; // the header's state says it
  $('t-when').textContent = ended ? '' : tourneyWhen(i, model.tourneyLeft(i, Date.now()), model.tourneyRounds(i));
}
setInterval(() => {
  if (app.view === 'tourney') renderTourneyClock();
  if (app.view === 'lobby') {
    const now = Date.now();
    const spans = document.getElementById('tourneys').querySelectorAll('.t-when');
    model.tourneys.forEach((i, k) => { if (spans[k]) spans[k].textContent = tourneyWhen(i, model.tourneyLeft(i, now), null); });
    // an event not followed says nothing when it starts: asked again once
    // its countdown ran out (every few seconds while it is still listed so)
    if (model.tourneys.some((i) => model.tourneyLeft(i, now) === 0 && i.state === 'soon') && now - (app.tlistAt || 0) > TLIST_AGAIN_MS) refreshTourneys();
  }
}, 1000);

// A * TOURNEY, * TPLAYER or * TGAME: the page shown follows it.
function tourneyChanged(out) {
  if (app.view === 'tourney' && model.tourney && model.tourney.id === out.tourney) renderTourney();
  if (app.view === 'lobby') {
    if (out.tourneyList) refreshTourneys();
    else renderTourneys();
  }
}

async function tourneyAct(name) {
  const tn = model.tourney;
  if (!tn) return;
  $('t-refusal').textContent = '';
  try {
    await send(name, tn.id);
    await send('TWATCH', tn.id); // the standings with the change
  } catch (e) {
    $('t-refusal').textContent = e.code ? errorWords(e.code, e.text) : errText(e);
  }
  renderTourney();
}
$('t-join').addEventListener('click', () => tourneyAct('TJOIN'));
// Leave asks first, on the page, in words that say what leaving costs now
$('t-leave').addEventListener('click', () => {
  const tn = model.tourney;
  if (!tn) return;
  $('t-confirm-text').textContent = tourneyLeaveAsk(tn.info);
  $('t-confirm').hidden = false;
  $('t-confirm-no').focus();
});
$('t-confirm-yes').addEventListener('click', () => {
  $('t-confirm').hidden = true;
  tourneyAct('TLEAVE');
});
$('t-confirm-no').addEventListener('click', () => {
  $('t-confirm').hidden = true;
  $('t-leave').focus();
});
$('t-back').addEventListener('click', () => {
  const tn = model.tourney;
  if (tn && !model.myStanding()) send('TUNWATCH', tn.id).catch(() => {});
  showLobby();
});

// ---- the engine league (PROTOCOL.md 5.23) ----------------------------------------

// The lobby's card: LEAGUES' leagues, each a link to its table, asked
// when the lobby is entered; hidden on a server that runs none.
async function refreshLeagues() {
  if (!model.caps.includes('league') || !model.conn.up || !model.me) return;
  try {
    await send('LEAGUES');
  } catch { /* the next entry asks again */ }
  renderLeagueCard();
}

function renderLeagueCard() {
  const ls = model.leagues || [];
  $('league-card').hidden = !model.caps.includes('league') || !ls.length;
  $('leagues').replaceChildren(...ls.map((l) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#league=${encodeURIComponent(l.name)}`;
    a.dataset.league = l.name;
    a.textContent = l.name;
    li.append(a, ` · ${leagueWhat(l)} · ${leagueCount(l)}`);
    return li;
  }));
}

// The league view: LEAGUES, then the table of name (the first league
// when none is named), asked afresh each time it opens and when the
// league's event, followed, ends. A link's refusal (no such league, a
// server without `league`) lands on the dead-link page, else in the view.
async function openLeague(name, link = false, tries = 0) {
  clearInterval(app.lobbyTimer);
  if (!model.caps.includes('league')) {
    if (link) deadEnd('league', null);
    return;
  }
  try {
    await send('LEAGUES');
  } catch (e) {
    if (link) deadEnd('league', e);
    else toast(errText(e));
    return;
  }
  const want = name || (model.league && model.leagueInfo(model.league.name) ? model.league.name : null) || (model.leagues[0] ? model.leagues[0].name : null);
  $('lg-refusal').textContent = '';
  if (want) {
    try {
      await send('LEAGUE', want);
    } catch (e) {
      if (link) {
        deadEnd('league', e);
        return;
      }
      $('lg-refusal').textContent = e.code ? leagueErrorWords(e.code, e.text) : errText(e);
    }
  }
  show('league');
  renderLeague();
  // its event just ended here, and the league has not read it yet: again
  if (want && tries < LEAGUE_TRIES && model.leagueBehind(model.leagueInfo(want), Date.now())) {
    setTimeout(() => {
      if (app.view === 'league' && model.league && model.league.name === want) openLeague(want, false, tries + 1);
    }, 1000);
  }
}
const LEAGUE_TRIES = 10; // a second apart, while the league is behind its event's end

function renderLeague() {
  if (app.view !== 'league') return;
  const lg = model.league;
  const info = lg ? model.leagueInfo(lg.name) : null;
  const here = lg ? `#league=${encodeURIComponent(lg.name)}` : '#league';
  if (location.hash !== here) history.replaceState(null, '', here); // a reload opens it again
  // the leagues: each a link to its table, the one shown marked
  const leagues = model.leagues || [];
  $('lg-list').replaceChildren(...leagues.map((l) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#league=${encodeURIComponent(l.name)}`;
    a.dataset.league = l.name;
    a.textContent = l.name;
    if (lg && lg.name === l.name) a.setAttribute('aria-current', 'page');
    li.append(a, ` · ${leagueWhat(l)} · ${leagueCount(l)}`);
    return li;
  }));
  if (!leagues.length) $('lg-list').replaceChildren(item(t('web.league.none', 'This server runs no engine league.')));
  $('lg-name').textContent = lg ? lg.name : '';
  $('lg-what').textContent = info ? `${leagueWhat(info)} · ${leagueCount(info)}` : '';
  renderLeagueClock();
  // its current or last event, in the tournament view
  $('lg-event').hidden = !(info && info.tourney !== null);
  if (info && info.tourney !== null) {
    $('lg-event-link').href = `#tourney=${info.tourney}`;
    $('lg-event-link').textContent = info.next === null ? t('web.league.event.now', 'Its round robin under way') : t('web.league.event.last', 'Its latest round robin');
  }
  const rows = lg ? lg.rows : [];
  $('lg-table').hidden = !rows.length;
  $('lg-empty').hidden = !lg || rows.length > 0;
  $('lg-table').tBodies[0].replaceChildren(...rows.map((r) => {
    const tr = document.createElement('tr');
    tr.dataset.user = r.player;
    const name = cell(r.player);
    if (model.isBot(r.player)) name.appendChild(botMark());
    // the Elo and its 95% bar in one cell (the bar under it on a phone),
    // said whole for a screen reader
    const rating = cell('', 'num');
    const elo = document.createElement('span');
    elo.className = 'elo';
    elo.textContent = eloWords(r.elo);
    const bar = document.createElement('span');
    bar.className = 'bar';
    bar.textContent = eloBar(r.minus, r.plus);
    rating.append(elo, ' ', bar);
    rating.title = eloRange(r);
    rating.setAttribute('aria-label', rating.title);
    tr.append(cell(String(r.rank), 'num'), name, rating, cell(String(r.games), 'num'),
      cell(pointsWords('robin', r.points), 'num points'), cell(String(r.draws), 'num'));
    return tr;
  }));
}

// The next event's countdown, each second while the view shows.
function renderLeagueClock() {
  const lg = model.league;
  const info = lg ? model.leagueInfo(lg.name) : null;
  $('lg-when').textContent = info ? leagueNext(info, info.next === null ? 0 : Math.ceil(info.next - Date.now() / 1000)) : '';
}
setInterval(() => { if (app.view === 'league') renderLeagueClock(); }, 1000);

$('lg-list').addEventListener('click', (e) => {
  const a = e.target.closest('a[data-league]');
  if (!a) return;
  e.preventDefault();
  openLeague(a.dataset.league);
});
$('lg-event-link').addEventListener('click', (e) => {
  const info = model.league ? model.leagueInfo(model.league.name) : null;
  if (!info || info.tourney === null) return;
  e.preventDefault();
  openTourney(info.tourney);
});
$('lg-back').addEventListener('click', () => showLobby());
$('t-league-link').addEventListener('click', (e) => {
  const tn = model.tourney;
  const lg = tn && (model.leagues || []).find((l) => l.tourney === tn.id);
  if (!lg) return;
  e.preventDefault();
  openLeague(lg.name);
});

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

// The search, as the model has it from the server's replies and events:
// gone with START, CANCEL or the connection; a countdown to the bot.
function renderSeek() {
  renderRatedNote();
  const s = model.searching(performance.now());
  $('seek-bot').parentElement.hidden = !model.botFallback(); // a server without bots
  $('seek-cancel').hidden = !s;
  $('seek-go').hidden = !!s;
  clearTimeout(app.seekTimer);
  if (!s) {
    $('seek-info').textContent = '';
    return;
  }
  if (!s.bot) $('seek-info').textContent = t('web.seeking', 'Looking for an opponent…');
  else if (s.left > 0) $('seek-info').textContent = t('web.seeking.bot', 'Looking for an opponent… if no one comes within %s s, a bot takes the seat (a casual game).', s.left);
  else $('seek-info').textContent = t('web.seeking.due', 'No one came: a bot is taking the seat (a casual game)…');
  app.seekTimer = setTimeout(renderSeek, 250);
}

// The open seeks (SEEKS), a page at a time, those I could pair with first;
// each one another player's may be taken with a click (TAKE).
function renderSeeks() {
  const ul = $('seeks');
  ul.replaceChildren();
  for (const f of model.lobby.seeks) {
    const li = document.createElement('li');
    // an opening rule, when the seek asks for one (PROTOCOL.md 5.16)
    const opening = f.opening === 'none' ? '' : ` · ${t('web.opening.info', 'Opening: %s', word('opening', f.opening))}`;
    li.textContent = `${t('web.seek.item', '%s · %s %s · %s · %s · %s', f.user, word('rule', f.rule), f.size, tcWords(f.tc),
      word('colour', f.colour), f.rated === 'rated' ? t('lobby.rated', 'Rated') : t('game.casual', 'casual'))}${opening} `;
    if (model.canTake(f)) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('web.take', 'Play');
      b.dataset.take = f.id;
      b.addEventListener('click', async () => {
        try {
          await act('TAKE', f.id, f.user); // its START shows the game
        } catch {
          refreshLobby();
        }
      });
      li.appendChild(b);
    }
    ul.appendChild(li);
  }
  if (!model.lobby.seeks.length) ul.replaceChildren(item(t('web.seeks.none', 'No open seeks.')));
  const pages = Math.max(1, Math.ceil(model.lobby.seeksTotal / 50));
  app.seeksPage = Math.min(app.seeksPage, pages);
  $('seeks-prev').hidden = app.seeksPage <= 1;
  $('seeks-next').hidden = app.seeksPage >= pages;
  $('seeks-page').textContent = pages > 1 ? `${app.seeksPage} / ${pages}` : '';
}
$('seeks-prev').addEventListener('click', () => { app.seeksPage--; refreshLobby(); });
$('seeks-next').addEventListener('click', () => { app.seeksPage++; refreshLobby(); });

// ---- wiring -------------------------------------------------------------------

function form(id, fn) {
  $(id).addEventListener('submit', (e) => {
    e.preventDefault();
    fn(Object.fromEntries(new FormData(e.target)));
  });
}

form('seek', async (f) => {
  // a bot takes the seat after the server's wait unless the player opts out
  const fallback = model.botFallback() ? [f.bot ? 'bot' : 'human'] : [];
  try {
    await act('SEEK', f.rule, f.size, f.tc, f.colour, f.rated ? 'rated' : 'casual', f.opening || 'none', ...fallback);
  } catch { /* said */ }
  renderSeek();
});
$('seek-cancel').addEventListener('click', async () => {
  await act('CANCEL').catch(() => {});
  renderSeek();
});
form('bot', async (f) => {
  try {
    const r = await act('BOT', 'play', f.level, f.rule, 15, f.tc, f.colour, f.opening || 'none');
    enterRoom(r.ok.args[0], false);
  } catch { /* said */ }
});
form('create', async (f) => {
  try {
    await act('CREATE', f.rule, 15, f.tc, f.colour, f.rated ? 'rated' : 'casual', f.opening || 'none');
    const { room, code } = model.invite;
    await enterRoom(room, false);
    save({ room, seq: model.game ? model.game.seq : 0 });
    $('share-link').value = `${location.origin}/#join=${code}`;
    $('share-code').textContent = code;
    $('share').hidden = false;
  } catch { /* said */ }
});
$('seat-bot').addEventListener('click', () => {
  if (model.game) act('BOT', 'seat', model.game.room, $('seat-level').value).catch(() => {});
});
$('copy').addEventListener('click', () => {
  $('share-link').select();
  navigator.clipboard?.writeText($('share-link').value).then(() => toast(t('web.copied', 'Link copied.')), () => {});
});
$('copy-code').addEventListener('click', () => {
  navigator.clipboard?.writeText($('share-code').textContent).then(() => toast(t('web.copied.code', 'Code copied.')), () => {});
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
$('resign').addEventListener('click', () => confirmThen(t('web.ask.resign', 'Resign this game?'), () => act('RESIGN', model.game.room).catch(() => {})));
$('claim').addEventListener('click', () => act('CLAIM', model.game.room).catch(() => {}));
// Back to the lobby from a game: a player's LEAVE resigns a game being
// played, so it asks first.
function leaveGame() {
  const g = model.game;
  const go = () => {
    if (g) send('LEAVE', g.room).catch(() => {});
    if (g && model.mySide(g)) save({ room: null, seq: 0 });
    model.leave();
    showLobby();
  };
  if (g && model.mySide(g) && (g.status === 'playing' || g.status === 'opening')) confirmThen(t('web.ask.leave', 'Leaving resigns the game. Leave?'), go);
  else go();
}
$('leave').addEventListener('click', leaveGame);
$('result-new').addEventListener('click', leaveGame);
// Back to the tournament a game ended was played for: the room left, the
// event watched again (its standings after the game).
$('result-tourney').addEventListener('click', () => {
  const g = model.game;
  if (!g || !g.tourney) return;
  send('LEAVE', g.room).catch(() => {});
  if (model.mySide(g)) save({ room: null, seq: 0 });
  const id = g.tourney;
  model.leave();
  openTourney(id);
});
$('live').addEventListener('click', () => { model.viewAt(null); renderGame(); });

// Tap to preview, tap again to play: on by default on a touch screen, the
// player's choice remembered.
function tapConfirm() {
  const kept = localStorage.getItem('gomokud.tapconfirm');
  return kept === null ? matchMedia('(pointer:coarse)').matches : kept === '1';
}
$('tap-confirm').checked = tapConfirm();
$('tap-confirm').addEventListener('change', (e) => {
  localStorage.setItem('gomokud.tapconfirm', e.target.checked ? '1' : '0');
  model.unpreview();
  renderGame();
});

// the sounds: on until muted; the choice kept
function renderMute() {
  $('mute').setAttribute('aria-pressed', String(app.sounds.muted));
  $('mute-label').textContent = app.sounds.muted ? t('web.sound.off', 'Sound off') : t('web.sound.on', 'Sound on');
}
$('mute').addEventListener('click', () => {
  app.sounds.muted = !app.sounds.muted;
  localStorage.setItem('gomokud.mute', app.sounds.muted ? '1' : '0');
  renderMute();
});
// the name in the header leads home from every view
$('home').addEventListener('click', (e) => {
  e.preventDefault();
  if (app.view === 'game') leaveGame();
  else if (app.view !== 'lobby') showLobby();
});
$('dead-home').addEventListener('click', () => showLobby());

// LOGIN or REGISTER from the account card. The guest this page is stays
// who it is until the server says yes (a refusal changes nothing, and is
// said); then the page keeps a login token (REMEMBER) so that a reload
// signs in again, and opens the game the account plays elsewhere.
async function account(cmd) {
  const f = Object.fromEntries(new FormData($('account')));
  if (model.game && model.mySide() && model.game.status === 'playing') {
    toast(t('web.finish', 'Finish your game first.'));
    return;
  }
  try {
    await act(cmd, f.name, f.password); // the model takes the name and token
  } catch {
    return; /* said */
  }
  $('account').reset();
  signedInAccount();
  if (model.wantRemember()) await send('REMEMBER').catch(() => {}); // the model's save keeps it
  const seated = model.takeSeated();
  if (seated) enterRoom(seated, false);
  const st = await send('STATS', model.me.name).catch(() => null);
  app.stats = !!st;
  renderStats();
}
form('account', () => account('LOGIN'));
$('register-go').addEventListener('click', () => account('REGISTER'));

// Log out: the server revokes the login token, the page forgets it and
// goes on as a new guest (a reload stays a guest).
$('logout-go').addEventListener('click', async () => {
  try {
    await act('LOGOUT');
  } catch {
    return; /* said */
  }
  save({ name: null, token: null, account: false, room: null, seq: 0, login: null });
  app.stats = false;
  renderStats();
  try {
    const r = await send('GUEST');
    model.signedIn(r.ok.args[0], r.ok.args[1], false);
    save({ name: model.me.name, token: model.me.token, account: false });
  } catch { /* the reconnect signs in as a guest */ }
  showMe();
  renderAccount();
  showLobby();
});

// The account card: the sign-in form for a guest, Log out for an account.
function renderAccount() {
  const acct = !!model.me && !!saved().account;
  $('account').hidden = acct;
  $('logout-go').hidden = !acct;
  // whether bot accounts' challenges reach me (section 5.22): asked once
  // signed in, shown as the server keeps it
  const row = $('bot-challenges-row');
  row.hidden = !model.me || !model.caps.includes('botaccounts');
  if (!row.hidden && model.settings['bot-challenges'] === undefined) {
    send('SETTINGS').then(renderSettings).catch(() => {});
  }
  renderSettings();
  renderTourneyCreate();
}
function renderSettings() {
  $('bot-challenges').checked = model.settings['bot-challenges'] !== 'no';
}
$('bot-challenges').addEventListener('change', (e) => {
  act('SET', 'bot-challenges', e.target.checked ? 'yes' : 'no').catch(() => {}).finally(renderSettings);
});
$('history-go').addEventListener('click', async () => {
  try {
    await act('HISTORY', model.me.name);
    app.history = true;
    renderHistory();
  } catch { /* said */ }
});

function renderHistory() {
  if (!app.history) return;
  const ul = $('history');
  ul.replaceChildren();
  for (const f of model.lobby.games) {
    const li = withMarks(document.createElement('li'), `${t('web.game', '#%s %s vs %s: %s, %s moves', f.id, f.black, f.white, overWords(f.result, f.reason), f.plies)} `, [f.black, f.white]);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t('web.replay', 'Replay');
    b.dataset.replay = f.id;
    b.addEventListener('click', () => openReplay(f.id));
    li.appendChild(b);
    ul.appendChild(li);
  }
  if (!model.lobby.games.length) ul.replaceChildren(item(t('web.history.none', 'No finished games yet.')));
}

function renderStats() {
  $('stats').textContent = app.stats ? model.lobby.stats.map((f) => `${word('rule', f.rule)} ${f.rating} (${f.wins}-${f.losses}-${f.draws})`).join(' · ') : '';
}
$('r-first').addEventListener('click', () => stepReplay(0));
$('r-prev').addEventListener('click', () => stepReplay(model.replay.at - 1));
$('r-next').addEventListener('click', () => stepReplay(model.replay.at + 1));
$('r-last').addEventListener('click', () => stepReplay(Infinity));
// The arrow keys step a replay (Home and End: its ends), unless a field
// has the keys.
const REPLAY_KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
const FIELDS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);
document.addEventListener('keydown', (e) => {
  if (app.view !== 'replay' || !model.replay || !(e.key in REPLAY_KEYS) || e.altKey || e.ctrlKey || e.metaKey) return;
  if (FIELDS.has(e.target.tagName)) return; // a field has the keys
  const d = REPLAY_KEYS[e.key];
  e.preventDefault();
  stepReplay(Math.abs(d) === Infinity ? (d > 0 ? Infinity : 0) : model.replay.at + d);
});
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

// ---- the language --------------------------------------------------------------

// What the page says itself, in the language now (index.html's marked texts
// are i18n.js's): the time controls, the language switch, and every view.
function renderTexts() {
  for (const o of document.querySelectorAll('select[name=tc] option')) o.textContent = tcWords(o.value);
  const sel = $('lang');
  const names = i18n.languages();
  if (sel.options.length !== Object.keys(names).length) {
    sel.replaceChildren();
    for (const [code, name] of Object.entries(names)) {
      const o = document.createElement('option');
      o.value = code;
      o.textContent = name; // each language in its own name
      o.lang = i18n.htmlLang(code);
      sel.appendChild(o);
    }
  }
  sel.value = i18n.language();
  if (app.status) status(app.status);
  renderOpenings();
  renderSeek();
  showMe();
  renderAccount();
  renderStats();
  renderHistory();
  renderTop();
  renderProfile();
  renderRatedNote();
  renderMute();
  if (app.view === 'game') renderGame();
  if (app.view === 'replay' && model.replay) renderReplay();
  if (app.view === 'analysis') renderAnalysis();
  if (app.view === 'puzzle') renderPuzzle();
  if (app.view === 'tourney') renderTourney();
  if (app.view === 'league') renderLeague();
  if (app.view === 'dead') renderDead();
  if (app.view === 'lobby') {
    refreshLobby();
    renderTourneys();
    renderLeagueCard();
  }
}

$('lang').addEventListener('change', async (e) => {
  await i18n.choose(e.target.value);
  renderTexts();
});

// The service worker (sw.js): the board installable, its page kept for
// when the server cannot be reached. Browsers allow one only in a secure
// context (a certificate they trust); refused, the page works as before.
if (navigator.serviceWorker && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js').catch((e) => console.warn(e));
}

window.gomokud = app; // for the browser tests' waits, never for game logic
await i18n.start();
renderTexts();
connect();
