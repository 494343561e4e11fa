// model.js: what the web board knows, rebuilt only from the server's lines
// (events, replies, and the snapshots after WATCH, STATE or RESUME), and the
// connection's state (backoff, what to send again after a reconnect). No
// DOM, no storage, no socket, no timers: app.js tells it what it sent
// (sent) and hands it every parsed server line with the time (receive,
// performance.now() there), then renders what it holds and does what the
// outcome asks. It holds no sentences, only states, the protocol's tokens
// and error codes: app.js says them in words. tests/browser/test_model.mjs
// runs it in node on the transcripts of tests/model/, which the C client's
// model (client/model.c) reads too.
import * as proto from './proto.js';

// Error codes after which the server closes the connection
// (proto_err_fatal in proto/proto.c).
const FATAL = new Set([403, 406, 502, 503, 504, 505]);
const SNAPSHOTS = new Set(['STATE', 'WATCH', 'RESUME']);
// Events after which a point tapped once is no longer the point to confirm.
const REPOSITION = new Set(['START', 'MOVE', 'UNDO', 'OVER', 'SWAP2', 'COLOURS', 'OPENING']);
const LOW_TIME_MS = 10000; // a clock under this is shown in a warning colour
// The engine's scores (engine/engine.h): a five now is ENGINE_WIN, a forced
// win in n plies ENGINE_WIN - n; anything past WIN_FLOOR is such a win.
const ENGINE_WIN = 30000;
const WIN_FLOOR = ENGINE_WIN - 1000;
// The unit a score is shown in: hundreds of the engine's points (+1.0 is
// 100 of them; docs/development.md says so).
const SCORE_UNIT = 100;
const NEWS_KEPT = 50; // the news not yet taken that the model keeps
// Reconnecting: the first wait, doubled after each failed try up to the last.
export const BACKOFF_FIRST = 500;
export const BACKOFF_MAX = 8000;

// An engine's score for the side to move (mover: THINK's bot, ANALYSE's
// position) as the page says it, seen from side (the mover's by default):
// {side, value} for side's advantage in SCORE_UNITs, or {side, win} when
// side wins by force in win moves of its own.
export function engineScore(score, mover, side = mover) {
  const s = side === mover ? score : -score;
  if (Math.abs(s) >= WIN_FLOOR) {
    const plies = ENGINE_WIN - Math.abs(s);
    const winner = s > 0 ? side : side === 'black' ? 'white' : 'black';
    // a win in n plies by the side to move is (n + 1) / 2 of its moves
    const moves = winner === mover ? Math.floor(plies / 2) + 1 : Math.floor((plies + 1) / 2);
    return { side: winner, win: Math.max(1, moves) };
  }
  return { side, value: s / SCORE_UNIT };
}

// The colour of the stone at index i of a game's moves.
export function colourAt(i) {
  return i % 2 ? 'white' : 'black';
}

// Which opening rules the page offers with a rule and a board size (the
// choosers where a game is sought, created or played against a bot): the
// combinations of PROTOCOL.md 5.16 the server takes, the server's to
// judge (402 otherwise). rules: the rules that take it (all when absent);
// odd, min, sizes: the board sizes. Without the capability `openings` the
// server plays none and swap2 only; with it, every one (its bots too).
const OPENINGS = [
  { token: 'none' },
  { token: 'swap2', rules: ['freestyle', 'standard'] },
  { token: 'swap', rules: ['freestyle', 'standard'] },
  { token: 'pro', rules: ['freestyle', 'standard'], odd: true, min: 7 },
  { token: 'longpro', rules: ['freestyle', 'standard'], odd: true, min: 9 },
  { token: 'rif', rules: ['renju'], sizes: [15] },
  { token: 'yamaguchi', rules: ['renju'], sizes: [15] },
  { token: 'soosorv8', rules: ['renju'], sizes: [15] },
  { token: 'taraguchi10', rules: ['renju'], sizes: [15] },
];
const PLAYED_WITHOUT = ['none', 'swap2']; // without `openings`

export function openingChoices(rule, size, caps) {
  const n = Number(size);
  return OPENINGS.filter((o) => (!o.rules || o.rules.includes(rule)) && (!o.odd || n % 2 === 1) && (!o.min || n >= o.min)
    && (!o.sizes || o.sizes.includes(n)) && (caps.includes('openings')
      || (PLAYED_WITHOUT.includes(o.token) && (o.token !== 'swap2' || caps.includes('swap2'))))).map((o) => o.token);
}

export function newGame(room) {
  return {
    room, seq: 0, status: 'waiting', rule: 'freestyle', size: 15, tc: 'none', opening: 'none', rated: 'casual',
    black: '-', white: '-', spectators: 0, moves: [], reasons: [], clock: { b: null, w: null, side: 'none', at: 0 },
    offers: new Map(), lapsed: new Map(), undoBy: null, result: null, think: null, presence: {}, chat: [], forbidden: [], stage: null,
    rating: { black: 0, white: 0 }, provisional: { black: false, white: false }, ratingBefore: { black: 0, white: 0 },
    pending: [], putting: false, // swap2: stones placed here, not yet sent; an opening's offers picked
    // an opening rule's stage (* OPENING, = OPENING; PROTOCOL.md 5.16) while
    // it runs, else null: {stage, user, side, area, count, offers}, the
    // server's tokens (count a number, offers a list of moves)
    ostage: null,
    canon: '-', // the canonical renju opening on the board (d1..d13, i1..i13), kept for the game
    lowCued: false, // the low-time sound was played for my clock in this game
    view: null, // the ply shown from the move list while the game runs, null: the live board
  };
}

// Draw and undo offers a move, an undo or the end cleared: their OFFEREND
// follows and names them by id alone.
function lapse(g) {
  g.lapsed = new Map(g.offers);
  g.offers.clear();
}

// A snapshot's kept chat (`= SAY`, the chatlog capability) after the chat
// shown: lines already shown (a resync without a reload) are not said
// twice; the longest run of the newest said lines that starts the kept
// ones is skipped. The terminal client's model.c merge_kept does the same.
export function mergeKept(chat, kept) {
  const said = chat.filter((c) => c.user && !c.notice);
  let j = Math.min(said.length, kept.length);
  for (; j > 0; j--) {
    let k = 0;
    while (k < j && said[said.length - j + k].user === kept[k].user && said[said.length - j + k].text === kept[k].text) k++;
    if (k === j) break;
  }
  for (const l of kept.slice(j)) chat.push({ user: l.user, text: l.text });
}

function ms(v) {
  return v === '-' ? null : Number(v);
}

// A RATINGS line's ratings (`ratings`): "1500?" provisional, "-" none (0).
function setRatings(g, f) {
  for (const [side, v] of [['black', f.brating], ['white', f.wrating]]) {
    g.rating[side] = v === '-' ? 0 : parseInt(v, 10);
    g.provisional[side] = v.endsWith('?');
    g.ratingBefore[side] = 0;
  }
}

function setClock(g, b, w, side, now) {
  g.clock = { b, w, side, at: now };
}

// An opening rule's stage from * OPENING or = OPENING. Its side is the
// colour its user holds now (tentative until * COLOURS; the other player
// holds the other): the seats follow it, so the names, ratings and "my
// side" shown are the colours as they stand.
function openingStage(g, f) {
  g.ostage = {
    stage: f.stage, user: f.user, side: f.side, area: f.area, count: Number(f.count), offers: proto.moveList(f.offers),
  };
  if (f.opening !== '-') g.canon = f.opening;
  const other = f.side === 'black' ? 'white' : 'black';
  if (g[other] === f.user && g[f.side] !== f.user) {
    [g.black, g.white] = [g.white, g.black];
    g.rating = { black: g.rating.white, white: g.rating.black };
    g.provisional = { black: g.provisional.white, white: g.provisional.black };
  }
}

// The side to move by the clock, or by the moves when no clock runs.
export function toMove(g) {
  if (g.clock.side === 'black' || g.clock.side === 'white') return g.clock.side;
  return colourAt(g.moves.length);
}

// A game record (EXPORT text) as {id, moves, size, lines, black, white, rule, result}.
export function parseRecord(id, lines) {
  const rec = { id, moves: [], size: 15, lines };
  for (const l of lines) {
    const [k, ...v] = l.split(' ');
    if (k === 'moves') rec.moves.push(...v.filter((x) => x));
    if (k === 'size') rec.size = Number(v[0]);
    if (k === 'black' || k === 'white' || k === 'result' || k === 'rule') rec[k] = v.join(' ');
  }
  return rec;
}

export class Model {
  constructor() {
    this.server = ''; // "gomokud 0.1.0"
    this.caps = [];
    // the player's settings as the server said them (SETTINGS, SET:
    // section 5.22): { 'bot-challenges': 'yes'|'no' }
    this.settings = {};
    this.me = null; // {name, token}
    this.login = null; // the account's login token the page keeps (REMEMBER, AUTH), or null
    this.seated = []; // rooms * SEATED announced at a sign-in, not yet opened
    this.game = null;
    this.seek = null; // {id, since, bot} while searching: bot, a bot may take the seat
    this.seekStarted = false; // START came before OK SEEK
    this.invite = null; // {room, code} of the private room made
    this.joined = null; // {room, code}: the private room entered by its code (JOIN)
    this.challenge = null; // a challenge to me awaiting my answer: the event's fields
    // the lobby's lists; stats: the last STATS reply's lines, top: TOP's
    this.lobby = { rooms: [], users: [], seeks: [], seeksTotal: 0, games: [], gamesTotal: 0, stats: [], top: [], topRule: 'freestyle' };
    // a player's profile (a name clicked): {user, stats, games}, each null
    // until its reply (STATS <user>, HISTORY <user>) came
    this.profile = null;
    // who is a bot (`botaccounts`, PROTOCOL.md 5.22), by name: a bot
    // account or the server's own, as WHO's = BOT, a room's KINDS and a
    // profile's = BOT said it (a KINDS that says human takes it back)
    this.bots = new Set();
    this.record = null; // the last EXPORT: {id, format, lines, ready}
    this.replay = null; // {rec, at, line}: line, a mark's better line shown from at, or null
    // the analysis board (PROTOCOL.md 5.17, 5.18), or null: openAnalysis
    this.analysis = null;
    // the review of the game replayed (5.19), or null: openReplay
    this.review = null;
    // the puzzle shown (5.20), or null: its OK PUZZLE opens it (newPuzzle)
    this.puzzle = null;
    this.puzzleErr = null; // PUZZLE's last refusal: {code, text, ask}, or {unreadable: true}
    this.puzzleRating = null; // my puzzle rating as the last rated end said it ("1523?")
    // tournaments (5.21): TLIST's events (the lobby's card), and the one
    // shown (#tourney=ID), or null: TWATCH's snapshot opens it (newTourney)
    this.tourneys = [];
    this.tourney = null;
    // the engine league (5.23): LEAGUES' list (null until its reply), and
    // the table shown (LEAGUE's reply: newLeague), or null; leagueErr, the
    // last LEAGUE's refusal ({code, text, name}), or null
    this.leagues = null;
    this.league = null;
    this.leagueErr = null;
    this.lastOver = null; // the last event a * TOURNEY said is over (its id)
    this.motd = null; // the server's notices: their texts as sent
    this.announce = null;
    // the game's events a screen reader is told of (app.js's live region),
    // as tokens, oldest first, until app.js takes them (takeNews); words.js
    // newsWords says each in the player's language
    this.news = [];
    this.kicked = null; // * KICKED's text: the page stays off until asked back
    this.banned = null; // HELLO's 414 text: this address is banned
    this.told = null; // the last TELL: {from, text}
    this.shutdown = null; // {ms, text}
    this.sentQ = []; // requests awaiting their reply: {tag, name, args, ply}
    this.data = []; // data lines of the reply being read
    this.conn = { up: false, backoff: BACKOFF_FIRST, bye: null, host: null };
    this.cue = null; // the sound the last line asks for (cueFor), or null
    this.preview = null; // the point tapped once, awaiting its confirming tap
  }

  // ---- requests and lines ----------------------------------------------------

  // Every request sent, so its reply finds it (by tag, else the oldest).
  sent(name, args = [], tag = '') {
    const req = { tag, name, args: args.map(String) };
    if (name === 'FORBIDDEN' && this.game) req.ply = this.game.moves.length;
    if (name === 'EXPORT') this.record = { id: req.args[0] || null, format: req.args[1] || 'text', lines: [], ready: false };
    this.sentQ.push(req);
    return req;
  }

  // Whether a snapshot of room is on its way (its events are in it).
  awaitingSnapshot(room) {
    return this.sentQ.some((r) => SNAPSHOTS.has(r.name) && (r.name === 'RESUME' ? r.args[1] : r.args[0]) === room);
  }

  // One parsed server line (proto.parseServer) received at now (ms). The
  // outcome: rc 'ok', 'resync' (a gap or an impossible event: ask for a
  // STATE) or 'fatal' (the server closes the connection); reply {tag, ok,
  // err, data, req} for an OK or ERR; and what the page should do:
  // greet, started, snapshot, askForbidden, moved, bye, notice, tell,
  // challenge, save (a patch of the session kept across reloads).
  receive(m, now) {
    const out = { rc: 'ok' };
    if (m.kind === 'data') {
      this.data.push(m);
      return out;
    }
    this.cue = null;
    if (m.kind === 'ok' || m.kind === 'err') return this.reply(m, now, out);
    if (m.unknown) return out;
    const seeking = !!this.seek || this.sentQ.some((r) => r.name === 'SEEK' || r.name === 'TAKE');
    const shown = this.game && this.game.room;
    this.event(m.name, m.fields, now, out);
    this.cue = out.rc === 'ok' ? this.cueFor(m.name, m.fields, out, seeking, shown) : null;
    if (REPOSITION.has(m.name)) this.preview = null; // the tap was on another position
    if (this.cue) out.cue = this.cue;
    return out;
  }

  // The sound an event asks for (app.js plays it): 'paired' my seek
  // became a game, 'start' another game of mine started, 'challenge' one
  // came to me, 'turn' the other side moved and it is my turn, 'move' any
  // other move on the board shown, 'end' its game ended; else null. The
  // low-time sound is asked by the clock (lowCue).
  cueFor(name, f, out, seeking, shown) {
    const g = this.game;
    if (name === 'CHALLENGE') return out.challenge ? 'challenge' : null;
    if (!g || !f || f.room !== g.room) return null;
    if (name === 'START') return !this.mySide() ? null : seeking ? 'paired' : 'start';
    if (shown !== g.room) return null;
    if (name === 'MOVE') return this.mySide() && this.turn() === this.mySide() ? 'turn' : 'move';
    if (name === 'OPENING') return this.me && f.user === this.me.name ? 'turn' : null; // an opening's stage is mine
    if (name === 'OVER') return 'end';
    return null;
  }

  reply(m, now, out) {
    const data = this.data;
    this.data = [];
    const i = m.tag ? this.sentQ.findIndex((r) => r.tag === m.tag) : 0;
    const req = i >= 0 && i < this.sentQ.length ? this.sentQ.splice(i, 1)[0] : null;
    out.reply = { tag: m.tag, ok: m.kind === 'ok' ? m : null, err: m.kind === 'err' ? m : null, data, req };
    if (m.kind === 'err') {
      if (FATAL.has(m.code)) out.rc = 'fatal';
      if (m.code === 414 && req && req.name === 'HELLO') this.banned = m.text || ''; // closed after it
      // a profile's request refused (421: a name with no ratings): said as none
      if (this.forProfile(req) && req.name === 'STATS') this.profile.stats = [];
      if (this.forProfile(req) && req.name === 'HISTORY') this.profile.games = [];
      if (m.code === 413 && req && req.name === 'AUTH') { // unknown, expired or revoked: forget it
        this.login = null;
        out.save = { login: null };
      }
      if (req) this.refused(req, m);
      return out;
    }
    const a = m.args;
    switch (m.name) {
      case 'GUEST': this.me = { name: a[0], token: a[1], account: false }; this.settings = {}; break;
      case 'LOGIN': case 'REGISTER': case 'AUTH':
        // an account now: a guest this connection was is gone, its seek with it
        this.me = { name: a[0], token: a[1], account: true };
        this.settings = {}; // the account's: asked again
        this.seek = null;
        this.puzzleRating = null; // another player's, if any
        if (m.name === 'AUTH' && req) this.login = req.args[0];
        break;
      case 'REMEMBER':
        this.login = a[0];
        out.save = { login: a[0] };
        break;
      case 'LOGOUT':
        this.me = null;
        this.settings = {};
        this.puzzleRating = null;
        this.login = null;
        this.seek = null;
        out.save = { login: null };
        break;
      case 'SEEK':
        if (this.seekStarted) this.seekStarted = false; // already paired
        else this.seek = { id: a[0], since: now, bot: !!req && req.args[6] === 'bot' };
        break;
      case 'TAKE': this.seekStarted = false; break; // its START came first
      case 'CANCEL': this.seek = null; break;
      case 'CREATE': this.invite = { room: a[0], code: a[1] }; break;
      case 'JOIN': if (req) this.joined = { room: a[0], code: req.args[0] }; break;
      case 'RESUME':
        if (a[0] === '-') { // the session alone: its seek, kept while away
          const seek = data.find((d) => d.name === 'SEEK');
          // the bot's wait is counted again from the return (PROTOCOL.md 5.1)
          this.seek = seek ? { id: seek.fields.id, since: now, bot: seek.fields.who === 'bot' } : null;
          break;
        }
        this.snapshot(data, a[0], Number(a[1]), now);
        out.snapshot = true;
        out.askForbidden = this.wantForbidden();
        break;
      case 'STATE': case 'WATCH':
        this.snapshot(data, a[0], Number(a[1]), now);
        out.snapshot = true;
        out.askForbidden = this.wantForbidden();
        break;
      case 'LEAVE': if (this.game && this.game.room === a[0]) this.game = null; break;
      case 'ROOMS': this.lobby.rooms = data.filter((d) => d.name === 'ROOM').map((d) => d.fields); break;
      case 'WHO':
        for (const d of data) if (d.name === 'BOT') this.markBot(d.fields.user, true);
        this.lobby.users = data.filter((d) => d.name === 'USER').map((d) => d.fields);
        break;
      case 'SEEKS': {
        this.lobby.seeks = data.filter((d) => d.name === 'SEEK').map((d) => d.fields);
        // my seek listed while the page knows none: the session kept it (a
        // login that took it over from another tab); its wait is not known
        const mine = this.me && this.lobby.seeks.find((f) => f.user === this.me.name);
        this.lobby.seeksTotal = a[1] !== undefined ? Number(a[1]) : this.lobby.seeks.length; // none from an old server
        const asking = this.sentQ.some((r) => r.name === 'SEEK' || r.name === 'CANCEL');
        if (mine && !this.seek && !asking) this.seek = { id: mine.id, since: null, bot: false };
        // every seek listed (page 1 holds them all) and mine not among them:
        // it ended without a word to me (a drain, a bot that could not come)
        const all = (!req || !req.args[0] || req.args[0] === '1') && this.lobby.seeksTotal <= this.lobby.seeks.length;
        if (!mine && this.seek && all && !asking) this.seek = null;
        break;
      }
      case 'HISTORY':
        if (this.forProfile(req)) {
          this.profile.games = data.filter((d) => d.name === 'GAME').map((d) => d.fields);
          break;
        }
        this.lobby.games = data.filter((d) => d.name === 'GAME').map((d) => d.fields);
        this.lobby.gamesTotal = Number(a[1] || this.lobby.games.length);
        break;
      case 'EXPORT':
        this.record = { id: a[0], format: a[1], lines: data.filter((d) => d.name === 'RECORD').map((d) => d.fields.text), ready: true };
        break;
      case 'STATS':
        for (const d of data) if (d.name === 'BOT') this.markBot(d.fields.user, true); // a bot account's, first
        if (this.forProfile(req)) this.profile.stats = data.filter((d) => d.name === 'STAT').map((d) => d.fields);
        // the account card's: mine (a profile of another player leaves it)
        if (!this.forProfile(req) || (this.me && req.args[0] === this.me.name)) this.lobby.stats = data.filter((d) => d.name === 'STAT').map((d) => d.fields);
        this.ratings(data);
        break;
      case 'TOP':
      case 'TOPBOTS': // the bot accounts' own (section 5.22): each one a bot
        this.lobby.top = data.filter((d) => d.name === 'STAT').map((d) => d.fields);
        this.lobby.topRule = req && req.args[0] ? req.args[0] : this.lobby.topRule;
        this.lobby.topBots = m.name === 'TOPBOTS';
        if (m.name === 'TOPBOTS') for (const f of this.lobby.top) this.markBot(f.user, true);
        break;
      case 'SETTINGS':
        for (const d of data) if (d.name === 'SET') this.settings[d.fields.key] = d.fields.value;
        break;
      case 'SET': // OK SET <key> <value>: as the server keeps it now
        if (a.length >= 2) this.settings[a[0]] = a[1];
        break;
      case 'POSITION':
        this.positionAnswer(req, m.fields, data);
        this.puzzleForbidden(req, m.fields, data);
        break;
      case 'ANALYSE': this.analyseAnswer(req, m.fields); break;
      case 'REVIEW':
        if (this.review && req && req.args[0] === this.review.id && this.review.state === 'requested') this.review.state = 'running';
        break;
      case 'MARKS': this.marksAnswer(req, m.fields, data); break;
      case 'PUZZLE': this.puzzleOpened(m.fields); break;
      case 'TLIST': this.tourneys = data.filter((d) => d.name === 'TOURNEY').map((d) => tourneyInfo(d.fields)); break;
      case 'TWATCH': this.tourneyWatched(a[0], data); break;
      case 'TUNWATCH': if (this.tourney && this.tourney.id === a[0]) this.tourney = null; break;
      case 'LEAGUES': this.leagues = data.filter((d) => d.name === 'LEAGUE').map((d) => leagueInfo(d.fields)); break;
      case 'LEAGUE': this.leagueTable(a[0], data); break;
      case 'SOLVE': this.solveAnswer(req, m.fields); break;
      case 'FORBIDDEN': {
        const g = this.game;
        if (g && req && g.room === a[0] && g.moves.length === req.ply) {
          g.forbidden = data.filter((d) => d.name === 'FORBIDDEN').flatMap((d) => proto.moveList(d.fields.moves));
        }
        break;
      }
      default: break;
    }
    return out;
  }

  // A profile of user is shown from now: its STATS and HISTORY replies
  // fill it (the page sends both).
  openProfile(user) {
    this.profile = { user, stats: null, games: null };
  }

  closeProfile() {
    this.profile = null;
  }

  // Whether the server said user is a bot (a bot account, or the server's
  // own): the pages mark the name so wherever it shows.
  isBot(user) {
    return this.bots.has(user);
  }

  markBot(user, bot) {
    if (!user || user === '-') return;
    if (bot) this.bots.add(user);
    else this.bots.delete(user);
  }

  // A KINDS line's word on both players (the event, or a snapshot's).
  kinds(f) {
    this.markBot(f.black, f.bkind === 'bot');
    this.markBot(f.white, f.wkind === 'bot');
  }

  // Whether a reply answers the profile shown (STATS or HISTORY of its user).
  forProfile(req) {
    return !!(req && this.profile && (req.name === 'STATS' || req.name === 'HISTORY') && req.args[0] === this.profile.user);
  }

  // The players' ratings in the shown game's rule, from a STATS reply.
  ratings(data) {
    const g = this.game;
    if (!g) return;
    for (const d of data) {
      if (d.name !== 'STAT' || d.fields.rule !== g.rule) continue;
      for (const side of ['black', 'white']) {
        if (g[side] !== d.fields.user) continue;
        g.rating[side] = Number(d.fields.rating);
        g.provisional[side] = d.fields.standing === 'provisional';
      }
    }
  }

  // The data lines of a snapshot replace the game shown.
  snapshot(data, room, seq, now) {
    this.preview = null;
    const old = this.game && this.game.room === room ? this.game : null;
    const g = newGame(room);
    if (old) {
      g.chat = old.chat;
      g.lapsed = old.lapsed;
      g.rating = old.rating;
      g.provisional = old.provisional;
      g.ratingBefore = old.ratingBefore;
      g.tourney = old.tourney;
    }
    if (!g.tourney && this.tourney && this.tourney.games.some((x) => x.room === room)) g.tourney = this.tourney.id;
    for (const d of data) {
      const f = d.fields;
      if (!f || f.room !== room) continue;
      switch (d.name) {
        case 'ROOM':
          Object.assign(g, { status: f.status, rule: f.rule, size: Number(f.size), tc: f.tc, opening: f.opening, rated: f.rated, black: f.black, white: f.white, spectators: Number(f.spectators) });
          break;
        case 'CLOCK': setClock(g, ms(f.bms), ms(f.wms), f.side, now); break;
        case 'SEAT':
          g[f.colour] = f.user;
          g.presence[f.user] = f.presence === 'gone' ? { gone: true, until: now + Number(f.grace) } : {};
          break;
        case 'MOVES': for (const mv of proto.moveList(f.moves)) g.moves.push(mv); break;
        case 'SWAP2': g.stage = { stage: f.stage, user: f.user }; g.putting = f.stage === 'put3'; break;
        case 'OPENING': openingStage(g, f); break;
        case 'OFFER': g.offers.set(f.id, { kind: f.kind, from: f.from }); break;
        case 'RESULT': g.result = { result: f.result, reason: f.reason, cells: proto.moveList(f.cells) }; break;
        case 'CODE': this.invite = { room, code: f.code }; break; // shown again with its link
        case 'RATINGS': setRatings(g, f); break;
        case 'KINDS': this.kinds(f); break;
        default: break;
      }
    }
    mergeKept(g.chat, data.filter((d) => d.name === 'SAY' && d.fields && d.fields.room === room).map((d) => d.fields));
    g.seq = seq;
    this.game = g;
  }

  // * OFFEREND: its fate in the game log, as a notice app.js says in words
  // (words.js offerFate; the terminal client's model.c offer_ended says the
  // same): the answer is the other player's, a withdrawal or an expiry the
  // offerer's; an accepted undo is said when its UNDO brings the count.
  offerEnded(g, f) {
    const o = g.offers.get(f.id) || g.lapsed.get(f.id);
    g.offers.delete(f.id);
    g.lapsed.delete(f.id);
    if (!o) { this.fate(g, { user: '', notice: 'offer', end: f.how, id: f.id }); return; }
    const other = o.from === g.black ? g.white : g.black;
    const who = f.how === 'accepted' || f.how === 'declined' ? other : o.from;
    if (f.how === 'accepted' && o.kind === 'undo') g.undoBy = who;
    else this.fate(g, { user: '', notice: 'offer', end: f.how, kind: o.kind, who });
  }

  // An offer's fate: a notice in the game log, and news.
  fate(g, notice) {
    g.chat.push(notice);
    this.hear({ what: 'fate', ...notice });
  }

  // News of the game (a token object: what, and its fields).
  hear(item) {
    this.news.push(item);
    if (this.news.length > NEWS_KEPT) this.news.shift();
  }

  // The news not yet taken, oldest first; the model forgets them.
  takeNews() {
    const n = this.news;
    this.news = [];
    return n;
  }

  event(name, f, now, out) {
    switch (name) {
      case 'SERVER':
        this.server = `${f.name} ${f.version}`;
        this.caps = (f.caps || '').split(' ').filter((c) => c);
        this.conn.up = true;
        out.greet = true;
        return out;
      case 'SHUTDOWN': this.shutdown = { ms: Number(f.ms), text: f.text }; out.notice = 'shutdown'; return out;
      case 'MOVED': out.moved = { room: f.room, addr: f.addr }; return out;
      case 'BYE': this.conn.bye = f.reason; out.bye = f.reason; return out;
      case 'MOTD': this.motd = f.text; out.notice = 'motd'; return out;
      case 'ANNOUNCE': this.announce = f.text; out.notice = 'announce'; return out;
      case 'KICKED': this.kicked = f.text; out.notice = 'kicked'; return out;
      case 'TELL': this.told = { from: f.from, text: f.text }; out.tell = this.told; return out;
      case 'CHALLENGE':
        if (this.me && f.to === this.me.name) {
          this.challenge = { ...f };
          out.challenge = this.challenge;
        }
        return out;
      case 'CHALLENGEEND':
        if (this.challenge && this.challenge.id === f.id) this.challenge = null;
        return out;
      case 'REVIEWING': { // a review's progress (PROTOCOL.md 5.19)
        const r = this.review;
        if (r && r.id === f.id && r.state !== 'ready' && r.state !== 'fetching') {
          Object.assign(r, { state: 'running', done: Number(f.done), total: Number(f.total) });
        }
        return out;
      }
      case 'REVIEWED': { // stored (MARKS reads it, app.js asks), or failed
        const r = this.review;
        if (!r || r.id !== f.id || r.state === 'ready') return out;
        if (f.how === 'ok') {
          r.state = 'fetching';
          out.reviewed = f.id;
        } else {
          r.state = 'failed';
        }
        return out;
      }
      case 'TOURNEY': case 'TPLAYER': case 'TGAME':
        this.tourneyEvent(name, f, out);
        return out;
      case 'SEATED': // a seat of the account's, announced before its sign-in's OK
        if (!this.seated.includes(f.room)) this.seated.push(f.room);
        out.seated = f.room;
        return out;
      default: return this.roomEvent(name, f, now, out);
    }
  }

  // Room events: the sequence number must follow on from the last one.
  roomEvent(name, f, now, out) {
    if (name === 'START') return this.start(f, now, out);
    const g = this.game;
    if (!g || f.room !== g.room) return out; // another room's: not shown
    if (this.awaitingSnapshot(g.room)) return out; // the snapshot coming has it
    const seq = Number(f.seq);
    if (seq !== g.seq + 1) {
      out.rc = 'resync';
      return out;
    }
    g.seq = seq;
    if (this.mySide()) out.save = { seq };
    switch (name) {
      case 'MOVE':
        if (f.side !== colourAt(g.moves.length) || g.moves.includes(f.move) || !proto.moveToXY(f.move, g.size)) {
          out.rc = 'resync'; // a move that cannot be on our board
          out.impossible = f.move;
          return out;
        }
        g.moves.push(f.move);
        g.reasons[g.moves.length - 1] = f.reason || '';
        setClock(g, ms(f.bms), ms(f.wms), f.side === 'black' ? 'white' : 'black', now);
        g.think = null;
        lapse(g); // open draw and undo offers end with a move
        // news of every move but my own: I know where I played (my own
        // stone is said by its point's label, the cursor is on it), and a
        // live region speaking it again would talk over the reply's news
        if (f.side !== this.mySide()) this.hear({ what: 'move', side: f.side, mv: f.move });
        out.askForbidden = this.wantForbidden();
        break;
      case 'UNDO':
        if (Number(f.plies) > g.moves.length) {
          out.rc = 'resync';
          return out;
        }
        g.moves.splice(g.moves.length - Number(f.plies));
        g.reasons.splice(g.moves.length);
        setClock(g, ms(f.bms), ms(f.wms), colourAt(g.moves.length), now);
        g.think = null;
        lapse(g);
        // the accepted offer is said now, with the count (words.js offerFate)
        if (g.undoBy) this.fate(g, { user: '', notice: 'offer', end: 'accepted', kind: 'undo', who: g.undoBy, plies: Number(f.plies) });
        g.undoBy = null;
        out.askForbidden = this.wantForbidden();
        break;
      case 'CLOSED': // its creator stayed away, or left: nothing to show
        out.closed = { room: g.room, why: f.why };
        this.game = null;
        if (this.invite && this.invite.room === g.room) this.invite = null;
        out.save = { room: null, seq: 0 };
        return out;
      case 'OVER':
        g.status = 'over';
        g.result = { result: f.result, reason: f.reason, cells: proto.moveList(f.cells) };
        g.clock.side = 'none';
        g.ostage = null;
        g.stage = null;
        g.pending = [];
        if (f.reason === 'time' && f.result === 'black') g.clock.w = 0; // the flag fell
        else if (f.reason === 'time' && f.result === 'white') g.clock.b = 0;
        // the next STATS shows the change; a server with `ratings` says it (* RATED)
        if (g.rated === 'rated' && !this.caps.includes('ratings')) g.ratingBefore = { ...g.rating };
        g.think = null;
        for (const [id, o] of g.offers) if (o.kind !== 'rematch') { g.lapsed.set(id, o); g.offers.delete(id); }
        this.hear({ what: 'over', result: f.result, reason: f.reason });
        if (this.mySide()) out.save = { room: null, seq: 0 };
        break;
      case 'OFFER':
        g.offers.set(f.id, { kind: f.kind, from: f.from });
        if (!this.me || f.from !== this.me.name) this.hear({ what: 'offer', kind: f.kind, from: f.from }); // mine: my own act
        break;
      case 'OFFEREND': this.offerEnded(g, f); break;
      case 'SAY': g.chat.push({ user: f.user, text: f.text }); break;
      case 'PRESENCE': {
        const player = f.user === g.black || f.user === g.white;
        if (f.what === 'gone') g.presence[f.user] = { gone: true, until: now + Number(f.ms) };
        else if (f.what === 'back') g.presence[f.user] = {};
        if (f.what === 'joined' || f.what === 'left') {
          // a notice in the chat, said by app.js
          g.chat.push({ user: '', notice: f.what, who: f.user });
          if (!player) g.spectators = Math.max(0, g.spectators + (f.what === 'joined' ? 1 : -1));
        }
        break;
      }
      case 'THINK':
        g.think = {
          bot: f.bot,
          depth: Number(f.depth),
          ply: g.moves.length,
          cands: f.cands.split(',').map((c) => { const [mv, s] = c.split(':'); return { mv, score: Number(s) }; }),
        };
        break;
      case 'SWAP2':
        g.stage = { stage: f.stage, user: f.user };
        g.status = 'opening';
        g.pending = [];
        g.putting = f.stage === 'put3';
        g.think = null; // a preview of the opening's stones is stale now
        break;
      case 'OPENING':
        openingStage(g, f);
        g.status = 'opening';
        g.pending = [];
        g.think = null;
        setClock(g, g.clock.b, g.clock.w, 'none', now); // the opening is untimed
        break;
      case 'RATINGS': setRatings(g, f); break;
      case 'KINDS': this.kinds(f); break; // after START and RATINGS (`botaccounts`)
      case 'RATED':
        g.ratingBefore = { black: Number(f.bbefore), white: Number(f.wbefore) };
        g.rating = { black: Number(f.bafter), white: Number(f.wafter) };
        out.rated = true; // the account card's rating is stale now
        break;
      case 'COLOURS':
        if (f.black === g.white && f.white === g.black) { // the ratings go with the players
          g.rating = { black: g.rating.white, white: g.rating.black };
          g.provisional = { black: g.provisional.white, white: g.provisional.black };
        }
        g.black = f.black;
        g.white = f.white;
        g.stage = null;
        g.ostage = null;
        g.status = 'playing';
        g.pending = [];
        g.think = null;
        setClock(g, g.clock.b, g.clock.w, colourAt(g.moves.length), now);
        out.askForbidden = this.wantForbidden(); // renju: black may be to move
        break;
      default: break;
    }
    return out;
  }

  start(f, now, out) {
    this.seek = null;
    this.seekStarted = this.sentQ.some((r) => r.name === 'SEEK' || r.name === 'TAKE');
    let g = this.game;
    out.started = { rematch: !!(g && g.room === f.room && g.result) };
    // an opening rule runs first (swap2, or another: section 5.16), untimed
    const opened = f.opening !== 'none';
    if (!g || g.room !== f.room) g = this.game = newGame(f.room);
    Object.assign(g, {
      seq: Number(f.seq), status: opened ? 'opening' : 'playing', black: f.black, white: f.white,
      rule: f.rule, size: Number(f.size), tc: f.tc, opening: f.opening, rated: f.rated,
      moves: [], reasons: [], result: null, think: null, stage: null, ostage: null, canon: '-', pending: [], putting: false, forbidden: [], presence: {},
      rating: { black: 0, white: 0 }, provisional: { black: false, white: false }, ratingBefore: { black: 0, white: 0 },
      lowCued: false, view: null,
    });
    g.offers.clear();
    g.tourney = this.tourneyOf(f);
    setClock(g, ms(f.bms), ms(f.wms), opened ? 'none' : 'black', now);
    this.hear({ what: 'start', black: f.black, white: f.white });
    if (this.mySide()) out.save = { room: g.room, seq: g.seq };
    out.askForbidden = this.wantForbidden();
    return out;
  }

  // Renju: the points black may not play now, as the server judges them
  // (FORBIDDEN); dropped whenever the position changes, asked again when
  // black is to move.
  wantForbidden() {
    const g = this.game;
    if (!g) return false;
    g.forbidden = [];
    return g.rule === 'renju' && g.status === 'playing' && toMove(g) === 'black';
  }

  // ---- what the page asks --------------------------------------------------

  mySide(g = this.game) {
    if (!this.me || !g) return null;
    if (g.black === this.me.name) return 'black';
    if (g.white === this.me.name) return 'white';
    return null;
  }

  // Who is to move now: 'black', 'white' or 'none' (no game, waiting,
  // the opening, over).
  turn() {
    const g = this.game;
    if (!g || g.result || g.stage || g.ostage || g.status !== 'playing') return 'none';
    return toMove(g);
  }

  // A side's clock in ms at now, ticking for the side to move; null
  // without a clock.
  clock(side, now) {
    const g = this.game;
    if (!g) return null;
    let v = side === 'black' ? g.clock.b : g.clock.w;
    if (v !== null && g.clock.side === side && g.status === 'playing') v = Math.max(0, v - (now - g.clock.at));
    return v;
  }

  // Whether a side's clock is low: under 10 s while the game is on.
  lowTime(side, now) {
    const g = this.game;
    const v = this.clock(side, now);
    return !!g && (g.status === 'playing' || g.status === 'opening') && v !== null && v < LOW_TIME_MS;
  }

  // Whether to sound the low-time warning now: my clock went under 10 s,
  // once a game (it marks it played).
  lowCue(now) {
    const g = this.game;
    const side = this.mySide();
    if (!g || !side || g.lowCued || !this.lowTime(side, now)) return false;
    g.lowCued = true;
    return true;
  }

  // The game's end in the player's terms: null while it runs, else
  // {mine, result, reason, rating, delta}: mine 'won', 'lost', 'drew' or
  // 'none' (no result) for a player, null for a spectator; rating, my
  // rating after it and delta the change (null when it changed none).
  outcome() {
    const g = this.game;
    if (!g || !g.result) return null;
    const side = this.mySide();
    const r = g.result.result;
    let mine = null;
    if (side) mine = r === 'draw' ? 'drew' : r === side ? 'won' : r === 'black' || r === 'white' ? 'lost' : 'none';
    const before = side ? g.ratingBefore[side] : 0;
    const after = side ? g.rating[side] : 0;
    const changed = g.rated === 'rated' && before > 0 && after > 0;
    return { mine, result: r, reason: g.result.reason, rating: changed ? after : null, delta: changed ? after - before : null };
  }

  // A bot's candidate score (THINK: the bot's view, the side to move at
  // its ply) as the page says it: {side, value} for side's advantage in
  // SCORE_UNITs, or {side, win} when side wins by force in win moves of
  // its own. side is mine when I play, else the bot's.
  scoreView(score, ply) {
    const mover = colourAt(ply);
    return engineScore(score, mover, this.mySide() || mover);
  }

  // ---- the board shown ---------------------------------------------------

  // Show the position after a ply from the move list while the game runs
  // (view only), or the live board again (null, or the last ply).
  viewAt(ply) {
    const g = this.game;
    if (!g) return;
    g.view = ply === null || ply >= g.moves.length - 1 || ply < -1 ? null : ply;
  }

  // The moves on the board shown: all of them, or up to the ply viewed.
  shownMoves() {
    const g = this.game;
    if (!g) return [];
    return g.view === null ? g.moves : g.moves.slice(0, g.view + 1);
  }

  // A point tapped (confirm: tap to preview, tap again to play): 'play'
  // to send the move, or 'preview' to show it and wait for the second tap.
  // A taken point is sent at once: the server says why not.
  tap(mv, confirm) {
    if (!confirm || this.preview === mv || this.stone(mv)) {
      this.preview = null;
      return 'play';
    }
    this.preview = mv;
    return 'preview';
  }

  unpreview() {
    this.preview = null;
  }

  // The ms left of the grace of a side's player who went away (0: here, or over).
  graceLeft(side, now) {
    const g = this.game;
    const p = g && g.presence[g[side]];
    return p && p.gone ? Math.max(0, p.until - now) : 0;
  }

  // Whether I may claim the game now: my opponent went away and the grace is over.
  canClaim(now) {
    const g = this.game;
    const side = this.mySide();
    if (!side || g.status !== 'playing') return false;
    const opp = side === 'black' ? 'white' : 'black';
    const p = g.presence[g[opp]];
    return !!(p && p.gone && now >= p.until);
  }

  // The open offer made to me (not by me): [id, {kind, from}], or null.
  offerToMe() {
    const g = this.game;
    if (!g) return null;
    for (const [id, o] of g.offers) if (!this.me || o.from !== this.me.name) return [id, o];
    return null;
  }

  // The rank (1..8) of a point among the bot's candidates now, or 0.
  candRank(mv) {
    const g = this.game;
    if (!g || !g.think || g.think.ply !== g.moves.length || g.result) return 0;
    return g.think.cands.findIndex((c) => c.mv === mv) + 1;
  }

  // The stone on a point: 'black', 'white' or null.
  stone(mv) {
    const g = this.game;
    const i = g ? g.moves.indexOf(mv) : -1;
    return i < 0 ? null : colourAt(i);
  }

  // ---- swap2: the stones this player puts before sending them -------------

  // How many stones this player must put now (3, or the 2 of "choose").
  swap2Need() {
    const g = this.game;
    if (!g || !g.stage || !this.me || g.stage.user !== this.me.name || !g.putting) return 0;
    return g.stage.stage === 'put3' ? 3 : g.stage.stage === 'choose' ? 2 : 0;
  }

  // A point picked while putting: null if it cannot take a stone, else the
  // stones put so far (all of them when complete: send them).
  swap2Put(mv) {
    const g = this.game;
    if (g.moves.includes(mv) || g.pending.includes(mv)) return null;
    g.pending.push(mv);
    return g.pending;
  }

  // "choose": put two more stones instead of choosing a colour.
  swap2Putting() {
    this.game.putting = true;
    this.game.pending = [];
  }

  swap2Clear() {
    if (this.game) this.game.pending = [];
  }

  // ---- an opening rule (PROTOCOL.md 5.16) -----------------------------------

  // The opening's stage as the page shows it, or null when none runs:
  // {stage, user, side, area, count, offers, canon, mine, picked}: mine,
  // whether I am to act; picked, the fifth moves I picked to offer.
  opening() {
    const g = this.game;
    if (!g || !g.ostage || g.result) return null;
    const o = g.ostage;
    return { ...o, canon: g.canon, mine: !!this.me && o.user === this.me.name, picked: o.stage === 'offer' ? g.pending : [] };
  }

  // The empty points where the stage's stone may go, as its area token
  // says (any, centre, inK: the central KxK, outK: outside it, offers:
  // the offered moves); none for a stage that places none. stones: the
  // points of the area that hold a stone too (the shade drawn whole).
  openingArea(stones = false) {
    const o = this.opening();
    const g = this.game;
    if (!o || o.area === '-') return [];
    if (o.area === 'offers') return o.offers.filter((mv) => stones || !g.moves.includes(mv));
    const n = g.size;
    const c = (n - 1) >> 1;
    const m = /^(in|out)([0-9]+)$/.exec(o.area);
    const half = o.area === 'centre' ? 0 : m ? (Number(m[2]) - 1) >> 1 : n;
    const out = [];
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const inside = Math.abs(x - c) <= half && Math.abs(y - c) <= half;
        const mv = proto.xyToMove(x, y, n);
        if ((m && m[1] === 'out' ? !inside : inside) && (stones || !g.moves.includes(mv))) out.push(mv);
      }
    }
    return out;
  }

  // A point picked to offer as a fifth move (the offer stage, mine): picked
  // again, it is dropped. The picks so far, all of them once there are as
  // many as declared; null when the point cannot be picked (a stone on it,
  // or all picked already).
  openingPick(mv) {
    const o = this.opening();
    const g = this.game;
    if (!o || !o.mine || o.stage !== 'offer') return null;
    const i = g.pending.indexOf(mv);
    if (i >= 0) {
      g.pending.splice(i, 1);
      return g.pending;
    }
    if (g.moves.includes(mv) || g.pending.length >= o.count) return null;
    g.pending.push(mv);
    return g.pending;
  }

  // The request an act of the opening stage I am to act in sends: the
  // OPENING arguments without the room; null when the stage takes no
  // such act or it is not mine.
  openingRequest(act, arg) {
    const o = this.opening();
    if (!o || !o.mine) return null;
    const takes = { place: 'place', choose: 'choose', swap: 'colour', declare: 'declare', offer: 'offer', branch: 'branch' };
    const verb = takes[o.stage];
    if (verb !== act) return null;
    if (act === 'offer') {
      const picked = this.game.pending;
      return picked.length === o.count ? ['offer', this.game.room, picked.join(',')] : null;
    }
    return [act, this.game.room, arg];
  }

  // ---- the connection --------------------------------------------------------

  // The connection closed: the requests in flight are gone. Returns
  // {takeover: true} when another tab took the session over (do not come
  // back), else {retry: ms}, the wait before the next try.
  closed() {
    this.conn.up = false;
    // a seek ends with its connection, unless the server keeps it for the
    // player away (away: RESUME <token> - says whether it did); a page
    // taken over or sent off has none any more
    if (!this.caps.includes('away') || this.conn.bye === 'takeover' || this.kicked !== null || this.banned !== null) this.seek = null;
    this.seated = [];
    this.sentQ = [];
    this.data = [];
    // a puzzle is open on its connection only (PROTOCOL.md 5.20): one not
    // ended is open no more, its move in judgement lost with it
    const p = this.puzzle;
    if (p && (p.state === 'open' || p.state === 'judging')) Object.assign(p, { state: 'gone', trying: null, asked: null });
    if (this.conn.bye === 'takeover') return { takeover: true };
    // kicked or banned: coming back on its own would undo the admin's act
    if (this.kicked !== null || this.banned !== null) return { removed: true };
    this.conn.bye = null;
    const wait = this.conn.backoff;
    this.conn.backoff = Math.min(wait * 2, BACKOFF_MAX);
    return { retry: wait };
  }

  // The server's hosted engines (capability `engines=`, PROTOCOL.md 5.10):
  // the names BOT play and BOT seat take where a level goes.
  engines() {
    const c = this.caps.find((x) => x.startsWith('engines='));
    return c ? c.slice('engines='.length).split(',').filter((x) => /^[a-z][a-z0-9]{0,15}$/.test(x)) : [];
  }

  // The seconds a seek that lets a bot take the seat waits for a person:
  // the server's bot-fallback capability; 0 when it has no bots.
  botFallback() {
    const c = this.caps.find((x) => x.startsWith('bot-fallback='));
    return c ? Number(c.slice('bot-fallback='.length)) || 0 : 0;
  }

  // The search as the page shows it: null when not seeking, else {bot,
  // left}: left, the whole seconds until a bot takes the seat (null when
  // no bot will, 0 when it is due).
  searching(now) {
    if (!this.seek) return null;
    const wait = this.botFallback();
    if (!this.seek.bot || !wait || this.seek.since === null) return { bot: false, left: null };
    return { bot: true, left: Math.max(0, Math.ceil(wait - (now - this.seek.since) / 1000)) };
  }

  // Whether a hidden page may close its connection and be kept away by the
  // server (away): it holds a seek or its own private room waiting for a
  // friend, and no game is being played that its clock would run in.
  parkable() {
    if (!this.caps.includes('away') || !this.me || this.sentQ.length) return false;
    const g = this.game;
    if (g && g.status !== 'waiting' && g.status !== 'over' && this.mySide()) return false;
    const waiting = !!g && g.status === 'waiting' && !!this.mySide() && (g.black === '-' || g.white === '-');
    return !!this.seek || waiting;
  }

  // A private room whose creator is away while a friend holds the other
  // seat (PROTOCOL.md 5.2): {user, left} (whole seconds until the room
  // closes, null when unknown), or null when the game does not wait so.
  awaiting(now) {
    const g = this.game;
    if (!g || g.status !== 'waiting' || g.black === '-' || g.white === '-') return null;
    const user = [g.black, g.white].find((u) => g.presence[u] && g.presence[u].gone);
    if (!user) return null;
    const until = g.presence[user].until;
    return { user, left: until ? Math.max(0, Math.ceil((until - now) / 1000)) : null };
  }

  // Whether a listed seek (SEEKS' fields) may be taken with TAKE: the
  // server takes it (capability take), it is not mine, and I am free.
  // A rated seek is an account's to take (417 account-only otherwise).
  canTake(f) {
    if (f.rated === 'rated' && !(this.me && this.me.account)) return false;
    return this.caps.includes('take') && !!this.me && f.user !== this.me.name && !this.seek && !this.mySideUnfinished();
  }

  mySideUnfinished() {
    return !!(this.game && this.mySide() && !this.game.result);
  }

  // The player asks to come back after a kick or a ban: a fresh start.
  comeBack() {
    this.kicked = null;
    this.banned = null;
    this.me = null;
    this.game = null;
    this.conn.backoff = BACKOFF_FIRST;
  }

  // * MOVED: the room is played at addr; the next connection goes there.
  follow(addr) {
    this.conn.host = addr;
    this.sentQ = [];
    this.data = [];
  }

  // Signed in (a guest, an account, or a seat taken back: account, as
  // the page kept it): the backoff starts over.
  signedIn(name, token, account = this.me ? !!this.me.account : false) {
    this.me = { name, token, account };
    this.conn.backoff = BACKOFF_FIRST;
  }

  // After HELLO on a new connection, from the session kept (saved: {...,
  // login}): the AUTH to send, or null. An account with a kept login token
  // signs in as itself when the server takes login tokens (remember).
  authArgs(saved) {
    return saved.login && this.caps.includes('remember') ? [saved.login] : null;
  }

  // Whether to ask REMEMBER after a LOGIN or REGISTER: the server keeps
  // login tokens, and this page keeps none for this account yet.
  wantRemember() {
    return this.caps.includes('remember') && !!this.me && !this.login;
  }

  // The first room * SEATED announced that the page has not opened, taken
  // off the list (the page asks its STATE), or null.
  takeSeated() {
    return this.seated.length ? this.seated.shift() : null;
  }

  // After HELLO on a new connection, from the session kept (saved: {name,
  // token, account, room, seq}): the RESUME to send, or null.
  resumeArgs(saved) {
    if (saved.token && saved.room) return [saved.token, saved.room, saved.seq || 0];
    // no seat known: the session itself, which the server keeps while it
    // holds a seek, a challenge or a waiting room (away, PROTOCOL.md 5.9)
    return saved.token && this.caps.includes('away') ? [saved.token, '-', 0] : null;
  }

  // The GUEST's arguments: a guest takes its name again (an account's
  // session ended with its tab).
  guestArgs(saved) {
    return saved.name && !saved.account && !/^guest[0-9]+$/.test(saved.name) ? [saved.name] : [];
  }

  // After a new GUEST (a new connection whose seat, if any, was not taken
  // back): the request that shows the room again, {name, args}, or null for
  // the lobby. A player of the game shown asks for its STATE; anyone else
  // watched it, and a new session is in no room, so it watches again:
  // WATCH a public room, or JOIN a private one by the code it came in with
  // (then WATCH, as after any JOIN).
  rejoin(view) {
    const g = this.game;
    if (view !== 'game' || !g) return null;
    if (this.mySide()) return { name: 'STATE', args: [g.room] };
    if (this.joined && this.joined.room === g.room) return { name: 'JOIN', args: [this.joined.code] };
    return { name: 'WATCH', args: [g.room] };
  }

  leave() {
    this.game = null;
    this.joined = null;
  }

  // ---- replay --------------------------------------------------------------

  // The fetched record (EXPORT text) opened at its last move. On a server
  // that reviews games (`review`) its review is asked at once (MARKS: a
  // stored one shows; 455 says there is none yet): review.state 'asking'.
  openReplay() {
    const rec = parseRecord(this.record.id, this.record.lines);
    this.replay = { rec, at: rec.moves.length, line: null };
    const was = this.review;
    this.review = this.caps.includes('review') ? newReview(rec.id) : null;
    // opened again (a reload, a new connection) while its review ran: the
    // events went with the old connection; REVIEW joins it again (free)
    if (this.review && was && was.id === rec.id && ['requested', 'running', 'fetching'].includes(was.state)) this.review.rejoin = true;
    return this.replay;
  }

  // Another position of the replay: a mark's line shown goes.
  stepReplay(to) {
    if (!this.replay) return;
    this.replay.at = Math.max(0, Math.min(this.replay.rec.moves.length, to));
    this.replay.line = null;
  }

  // The replay's board: {moves, line}, the game's moves up to the position
  // shown and the stones of a mark's line shown after them.
  replayShown() {
    const r = this.replay;
    if (!r) return { moves: [], line: [] };
    return { moves: r.rec.moves.slice(0, r.at), line: r.line ? r.line.moves.slice(0, r.line.shown) : [] };
  }

  // A mark clicked (its index in review.marks): the position before its
  // move, with its better line to show stone by stone (replayLineStep);
  // null when the mark has none.
  replayMark(i) {
    const r = this.replay;
    const m = this.review && this.review.marks[i];
    if (!r || !m) return null;
    this.stepReplay(m.ply - 1);
    const moves = m.line.length ? m.line : m.better !== '-' ? [m.better] : [];
    r.line = moves.length ? { moves, shown: 0, mark: i } : null;
    return r.line;
  }

  // The mark's line one stone on (d 1) or back (-1); whether it has more
  // to show. The line ends (replayLineEnd) with the position it left.
  replayLineStep(d) {
    const l = this.replay && this.replay.line;
    if (!l) return false;
    l.shown = Math.max(0, Math.min(l.moves.length, l.shown + d));
    return l.shown < l.moves.length;
  }

  replayLineEnd() {
    if (this.replay) this.replay.line = null;
  }

  // ---- a review (PROTOCOL.md 5.19) --------------------------------------------

  // REVIEW's arguments for the game replayed, or null while one is asked,
  // runs or is stored (or the server refused to show it: 'refused').
  reviewAsk() {
    const r = this.review;
    if (!r || !['none', 'failed'].includes(r.state)) return null;
    r.rejoin = false;
    r.state = 'requested';
    r.err = null;
    r.done = 0;
    r.total = 0;
    return [r.id];
  }

  // MARKS' reply for the game replayed: black's chances at every position
  // (= EVAL, per mille; null where a line is missing) and the marks.
  marksAnswer(req, f, data) {
    const r = this.review;
    if (!r || !req || req.args[0] !== r.id || !f || f.id !== r.id) return;
    const plies = Number(f.plies);
    const evals = new Array(plies + 1).fill(null);
    for (const d of data) {
      if (d.name !== 'EVAL' || d.fields.id !== r.id) continue;
      d.fields.chances.split(',').forEach((v, k) => {
        const i = Number(d.fields.index) + k;
        if (i <= plies) evals[i] = Math.min(1000, Number(v));
      });
    }
    const marks = data.filter((d) => d.name === 'MARK' && d.fields.id === r.id).map((d) => {
      const m = d.fields;
      return {
        kind: m.kind, side: m.side, ply: Number(m.ply), played: m.played, better: m.better,
        before: Number(m.before), after: Number(m.after), reason: m.reason, line: proto.moveList(m.line),
      };
    }).filter((m) => m.ply >= 1 && m.ply <= plies).sort((a, b) => a.ply - b.ply);
    Object.assign(r, { state: 'ready', plies, evals, marks, err: null });
  }

  // ---- the analysis board (PROTOCOL.md 5.17, 5.18) ------------------------------

  // A board of rule and size, set up with moves (none: an empty board),
  // from a replay's position (from: {id, at}) or the lobby (null). The
  // POSITION to ask, as every change asks one: the server says whether a
  // stone may go there, who is to move, the result and renju's forbidden
  // points; the page judges nothing.
  openAnalysis(rule, size, moves = [], from = null) {
    this.analysis = {
      rule, size: Number(size), moves: [], from,
      asked: null, // the position (its POSITION's arguments) awaiting its answer
      trying: null, // the stone that position tries, or null (undo, clear, the first)
      toMove: null, // the server's word once it answered: black, white, none
      result: 'none', five: [], forbidden: [],
      refusal: null, // {code, text, mv}, or {why: 'long', mv}
      thinking: null, // the position of the ANALYSE awaiting its answer
      engine: null, // {depth, reason, cands, pv, mover} of the position shown
      engineErr: null, // {code, text}
      line: 0, // the engine's line: its stones shown on the board
    };
    return this.positionAsk(moves, null);
  }

  closeAnalysis() {
    this.analysis = null;
  }

  // POSITION's arguments for moves (trying: the stone that extends the
  // position shown, kept only once the server takes it); the other
  // positions are shown at once. Null when a move list cannot hold them
  // (the refusal says so). Any answer but the last asked is stale.
  positionAsk(moves, trying) {
    const a = this.analysis;
    Object.assign(a, { engine: null, engineErr: null, thinking: null, line: 0, refusal: null });
    if (!trying) Object.assign(a, { moves: [...moves], toMove: null, result: 'none', five: [], forbidden: [] });
    if (moves.length > POSITION_MAX) {
      Object.assign(a, { asked: null, trying: null, refusal: { why: 'long', mv: trying } });
      return null;
    }
    const args = positionArgs(a, moves);
    a.asked = args.join(' ');
    a.trying = trying;
    return args;
  }

  // A stone placed on the board (the side to move's, as the server says).
  analysisPlace(mv) {
    const a = this.analysis;
    return a ? this.positionAsk([...a.moves, mv], mv) : null;
  }

  analysisUndo() {
    const a = this.analysis;
    return a && a.moves.length ? this.positionAsk(a.moves.slice(0, -1), null) : null;
  }

  analysisClear() {
    return this.analysis ? this.positionAsk([], null) : null;
  }

  positionAnswer(req, f, data) {
    const a = this.analysis;
    if (!a || !req || req.args.join(' ') !== a.asked) return; // stale, or not the board's
    a.asked = null;
    a.trying = null;
    if (!f) return;
    Object.assign(a, {
      moves: proto.moveList(req.args[2]), toMove: f.tomove, result: f.result, five: proto.moveList(f.five),
      forbidden: data.filter((d) => d.name === 'FORBIDDEN' && d.fields.room === '-').flatMap((d) => proto.moveList(d.fields.moves)),
    });
  }

  // ANALYSE's arguments for the position shown, once the server said who
  // is to move in it and while no answer is awaited; null otherwise.
  analysisEngine() {
    const a = this.analysis;
    if (!a || a.asked || a.thinking || !a.toMove || a.toMove === 'none') return null;
    const args = positionArgs(a, a.moves);
    // the last stone's refusal is old news
    Object.assign(a, { thinking: args.join(' '), engine: null, engineErr: null, line: 0, refusal: null });
    return [...args, ANALYSE_LINES];
  }

  analyseAnswer(req, f) {
    const a = this.analysis;
    if (!a || !req || req.args.slice(0, 3).join(' ') !== a.thinking) return;
    a.thinking = null;
    if (!f) return;
    a.engine = {
      depth: Number(f.depth), reason: f.reason, pv: proto.moveList(f.pv), mover: a.toMove,
      cands: f.lines.split(',').map((c) => { const [mv, sc] = c.split(':'); return { mv, score: Number(sc) }; }),
    };
  }

  // The engine's line shown to its n-th stone (0: none, the candidates).
  analysisLine(n) {
    const a = this.analysis;
    if (!a || !a.engine) return;
    a.line = Math.max(0, Math.min(a.engine.pv.length, n));
  }

  // The analysis board's stones: {moves, line}, the position and the
  // engine's line shown after it.
  analysisShown() {
    const a = this.analysis;
    if (!a) return { moves: [], line: [] };
    return { moves: a.moves, line: a.engine ? a.engine.pv.slice(0, a.line) : [] };
  }

  // A refusal of a request of the board's, the review's or the puzzle's,
  // kept to be said.
  refused(req, m) {
    const a = this.analysis;
    const err = { code: m.code, text: m.text };
    if (req.name === 'LEAGUE') this.leagueErr = { ...err, name: req.args[0] || '' };
    this.puzzleRefused(req, err);
    if (a && req.name === 'POSITION' && req.args.join(' ') === a.asked) {
      a.refusal = { ...err, mv: a.trying };
      a.asked = null;
      a.trying = null;
    }
    if (a && req.name === 'ANALYSE' && req.args.slice(0, 3).join(' ') === a.thinking) {
      a.thinking = null;
      a.engineErr = err;
    }
    const r = this.review;
    if (!r || req.args[0] !== r.id) return;
    if (req.name === 'REVIEW' && r.state === 'requested') Object.assign(r, { state: 'none', err });
    // none stored yet (455): the Review button; any other refusal is said
    // and the review not offered (it would be refused the same)
    if (req.name === 'MARKS') Object.assign(r, m.code === 455 ? { state: 'none', err: null } : { state: 'refused', err });
  }

  // ---- a puzzle (PROTOCOL.md 5.20) ----------------------------------------------

  // OK PUZZLE opens a puzzle; the player's moves go with SOLVE one at a
  // time; OK SOLVE places the move and the defence's reply, or ends it
  // (solved, or failed with the kept solution; the puzzle rating after it,
  // or '-'). The solvers judge every move: the page keeps no rule of its
  // own, and renju's forbidden points come from POSITION.

  // OK PUZZLE: the puzzle shown from now, at its position (the same id
  // again: a retry, again true). A position that cannot be a board's is
  // refused as unreadable (the puzzle shown stays).
  puzzleOpened(f) {
    const moves = f ? proto.moveList(f.moves) : [];
    const size = f ? Number(f.size) : 0;
    const seen = new Set(moves);
    if (!f || size < 5 || size > 20 || seen.size !== moves.length || moves.some((mv) => !proto.moveToXY(mv, size))) {
      this.puzzleErr = { unreadable: true };
      return;
    }
    const again = !!this.puzzle && this.puzzle.id === f.id;
    this.puzzle = newPuzzle(f, moves, again);
    this.puzzleErr = null;
  }

  // SOLVE's arguments for a point clicked: only while the puzzle waits for
  // a move, on its position (not its solution stepped). A point taken or
  // forbidden is sent all the same, and the server says why not (as the
  // game's board does). The move is shown once the solvers judged it.
  puzzleTry(mv) {
    const p = this.puzzle;
    if (!p || p.state !== 'open' || p.step) return null;
    Object.assign(p, { state: 'judging', trying: mv, err: null });
    this.puzzleErr = null; // a refused PUZZLE said before is old news
    return [p.id, mv];
  }

  // OK SOLVE: the move placed and the defence's reply after it (more), or
  // the end: solved, or failed with the kept solution; the rating after
  // it ('-': not rated), the one known before kept for the change.
  solveAnswer(req, f) {
    const p = this.puzzle;
    if (!p || !req || req.args[0] !== p.id || p.state !== 'judging') return;
    const mv = p.trying;
    p.trying = null;
    if (!f || f.id !== p.id) { // an answer the page cannot read: the move may be tried again
      p.state = 'open';
      return;
    }
    p.moves.push(mv);
    p.played = mv;
    p.forbidden = [];
    if (f.how === 'more') {
      if (f.reply !== '-') p.moves.push(f.reply);
      Object.assign(p, { state: 'open', reply: f.reply });
      return;
    }
    Object.assign(p, { state: f.how, reply: null, mine: f.rating, line: f.how === 'failed' ? proto.moveList(f.line) : [] });
    if (f.rating !== '-') {
      p.before = this.puzzleRating;
      this.puzzleRating = f.rating;
    }
  }

  // A refusal of PUZZLE (kept for the page to say) or of the move in
  // judgement: 441, the puzzle is not open on this connection any more;
  // any other (a stone there, renju's forbidden point, 452, 506) leaves it
  // open for another move.
  puzzleRefused(req, err) {
    const p = this.puzzle;
    if (req.name === 'PUZZLE') this.puzzleErr = { ...err, ask: req.args[0] };
    if (p && req.name === 'POSITION' && req.args.join(' ') === p.asked) p.asked = null;
    if (!p || req.name !== 'SOLVE' || req.args[0] !== p.id || p.state !== 'judging') return;
    Object.assign(p, { state: err.code === 441 ? 'gone' : 'open', trying: null, err: { ...err, mv: req.args[1] } });
  }

  // POSITION's arguments for what the server marks on the puzzle's board,
  // when it answers POSITION (capability position): renju's forbidden
  // points while black is to move and the puzzle waits for a move, the
  // five once it is solved; null otherwise (nothing to mark).
  puzzlePosition() {
    const p = this.puzzle;
    if (!p || !this.caps.includes('position') || p.moves.length > POSITION_MAX) return null;
    const forbidden = p.rule === 'renju' && p.state === 'open' && colourAt(p.moves.length) === 'black';
    if (!forbidden && !(p.state === 'solved' && !p.five.length)) return null;
    const args = positionArgs(p, p.moves);
    p.asked = args.join(' ');
    return args;
  }

  puzzleForbidden(req, f, data) {
    const p = this.puzzle;
    if (!p || !req || req.args.join(' ') !== p.asked) return;
    p.asked = null;
    if (f && proto.moveList(req.args[2]).join(',') === p.moves.join(',')) {
      p.forbidden = data.filter((d) => d.name === 'FORBIDDEN' && d.fields.room === '-').flatMap((d) => proto.moveList(d.fields.moves));
      p.five = proto.moveList(f.five);
    }
  }

  // A failed puzzle's solution shown on its position to its n-th stone
  // (0: the position as the try left it).
  puzzleStep(n) {
    const p = this.puzzle;
    if (!p || p.state !== 'failed') return;
    p.step = Math.max(0, Math.min(p.line.length, n));
  }

  // The puzzle's stones: {moves, line}: the position and the play since,
  // or, while a failed one's solution is stepped, the puzzle's position
  // and the solution's stones shown after it.
  puzzleShown() {
    const p = this.puzzle;
    if (!p) return { moves: [], line: [] };
    if (p.step) return { moves: p.start, line: p.line.slice(0, p.step) };
    return { moves: p.moves, line: [] };
  }

  // Why a try of the puzzle shown is not rated ('-'): guest (a guest
  // has no puzzle rating), again (an account had tried it before); null
  // when it is rated or not ended.
  puzzleUnrated() {
    const p = this.puzzle;
    if (!p || (p.state !== 'solved' && p.state !== 'failed') || p.mine !== '-') return null;
    return this.me && this.me.account ? 'again' : 'guest';
  }


  // ---- tournaments (PROTOCOL.md 5.21) -------------------------------------------

  // TWATCH's snapshot: the event shown from now, its standings (best
  // first) and the current round's pairings (an arena's games under way).
  tourneyWatched(id, data) {
    const info = data.find((d) => d.name === 'TOURNEY' && d.fields.id === id);
    if (!info) return;
    const t = newTourney(tourneyInfo(info.fields));
    t.players = data.filter((d) => d.name === 'TPLAYER' && d.fields.id === id).map((d) => tplayer(d.fields));
    t.games = data.filter((d) => d.name === 'TGAME' && d.fields.id === id).map((d) => tgame(d.fields));
    this.tourney = t;
    this.listed(t.info);
  }

  // * TOURNEY, * TPLAYER, * TGAME of an event followed: the lobby's list
  // and the event shown follow them; out.tourney names the event changed,
  // out.tourneyList when the lobby's list should be asked again (an event
  // it does not hold, or one whose state changed).
  tourneyEvent(name, f, out) {
    out.tourney = f.id;
    if (name === 'TOURNEY') this.leagueEvent(f, out);
    if (name === 'TOURNEY') {
      const info = tourneyInfo(f);
      const was = this.tourneys.find((x) => x.id === f.id);
      if (!was || was.state !== info.state) out.tourneyList = true;
      this.listed(info);
    }
    const t = this.tourney;
    if (!t || t.id !== f.id) return;
    if (name === 'TOURNEY') {
      t.info = tourneyInfo(f);
      return;
    }
    if (name === 'TPLAYER') {
      const p = tplayer(f);
      const i = t.players.findIndex((x) => x.user === p.user);
      if (i >= 0) t.players[i] = p;
      else t.players.push(p);
      // by rank; players of one rank keep their order
      t.players = t.players.map((x, k) => [x, k]).sort((a, b) => a[0].rank - b[0].rank || a[1] - b[1]).map((x) => x[0]);
      return;
    }
    const gm = tgame(f);
    // a Swiss's or a round robin's new round replaces the last one's
    // pairings; an arena's games are listed as they come, the newest kept
    if (t.info.kind !== 'arena' && gm.round > Math.max(0, ...t.games.map((x) => x.round))) t.games = [];
    const i = t.games.findIndex((x) => x.round === gm.round && x.board === gm.board);
    if (i >= 0) t.games[i] = gm;
    else t.games.push(gm);
    if (t.info.kind === 'arena') {
      const over = t.games.filter((x) => x.result !== 'pending');
      if (over.length > ARENA_ENDED_KEPT) t.games = t.games.filter((x) => x.result === 'pending' || over.indexOf(x) >= over.length - ARENA_ENDED_KEPT);
    }
    const g = this.game;
    if (g && gm.room === g.room) g.tourney = t.id;
  }

  // ---- the engine league (PROTOCOL.md 5.23) ------------------------------------

  // LEAGUE's reply: the table of name from now, best first; its players
  // are all bots (the server's engines and bot accounts).
  leagueTable(name, data) {
    const rows = data.filter((d) => d.name === 'LRATING' && d.fields.name === name).map((d) => lrating(d.fields));
    for (const r of rows) this.markBot(r.player, true);
    this.league = { name, rows, stale: false };
    this.leagueErr = null;
  }

  // Whether LEAGUES' line l still counts its event open (under way, or
  // its start come) though a * TOURNEY said it is over: the server reads
  // an event's results every few seconds, so the page asks again. now: ms.
  leagueBehind(l, now) {
    if (!l || l.tourney === null || l.tourney !== this.lastOver) return false;
    return l.next === null || l.next * 1000 <= now;
  }

  // The line of league name in LEAGUES' list, or null.
  leagueInfo(name) {
    return (this.leagues || []).find((l) => l.name === name) || null;
  }

  // A * TOURNEY of an event followed that says a league's event is over:
  // the table shown is stale (app.js asks LEAGUES and LEAGUE again), and
  // out.league names the league.
  leagueEvent(f, out) {
    if (f.state !== 'over') return;
    this.lastOver = f.id;
    const l = (this.leagues || []).find((x) => x.tourney === f.id);
    if (!l) return;
    out.league = l.name;
    if (this.league && this.league.name === l.name) this.league.stale = true;
  }

  // An event's line in the lobby's list, replaced or added.
  listed(info) {
    const i = this.tourneys.findIndex((x) => x.id === info.id);
    if (i >= 0) this.tourneys[i] = info;
  }

  // The tournament a game that starts belongs to: the event shown, when
  // the room is one of its pairings' or my pairing there waits for its
  // game (its * TGAME with the room may come after the * START); else null.
  tourneyOf(f) {
    const t = this.tourney;
    if (!t) return null;
    if (t.games.some((x) => x.room === f.room)) return t.id;
    const mine = this.myPairing();
    if (mine && mine.game && mine.game.result === 'pending' && mine.game.room === '-' && [f.black, f.white].includes(mine.opponent)) return t.id;
    return null;
  }

  // My line in the standings of the event shown, or null.
  myStanding() {
    const t = this.tourney;
    if (!t || !this.me) return null;
    return t.players.find((p) => p.user === this.me.name) || null;
  }

  // My pairing in the event shown: null when I am not in it; else {game,
  // opponent, first, bye}: game null while there is none in the round
  // shown (waiting for the round, or for an arena's next pairing).
  myPairing() {
    const t = this.tourney;
    const me = this.myStanding();
    if (!t || !me) return null;
    const mine = t.games.filter((x) => x.first === me.user || x.second === me.user);
    // an arena: the game under way, else the last one
    const game = mine.find((x) => x.result === 'pending') || mine[mine.length - 1] || null;
    if (!game) return { game: null, opponent: null, first: false, bye: false };
    const first = game.first === me.user;
    return { game, opponent: first ? game.second : game.first, first, bye: game.second === '-' };
  }

  // What the Join / Leave button of the event shown does: {act: 'join',
  // 'leave' or null, why: the reason it does nothing, or null}. The
  // server judges the request; these are the cases PROTOCOL.md 5.21 says
  // it refuses, so the page does not offer them.
  tourneyJoin() {
    const t = this.tourney;
    if (!t || !this.me) return { act: null, why: null };
    const i = t.info;
    if (i.state === 'over' || i.state === 'cancelled') return { act: null, why: 'over' };
    const me = this.myStanding();
    if (me && me.status !== 'withdrawn') return { act: 'leave', why: null };
    if (i.entrants === 'bots') return { act: null, why: 'bots' };
    if (i.rated === 'rated' && !this.me.account) return { act: null, why: 'guest' };
    if (i.kind !== 'arena' && (i.state !== 'soon' || me)) return { act: null, why: me ? 'left' : 'started' };
    return { act: 'join', why: null };
  }

  // The players' ranks as shown: "=" before one shared with another.
  rankShared(p) {
    const t = this.tourney;
    return !!t && t.players.filter((x) => x.rank === p.rank).length > 1;
  }

  // The seconds until the event shown (or info) starts, while it is soon;
  // until a running arena ends; else null. now: unix ms.
  tourneyLeft(info, now) {
    if (!info) return null;
    if (info.state === 'soon') return Math.max(0, Math.ceil(info.start - now / 1000));
    if (info.state === 'running' && info.kind === 'arena') return Math.max(0, Math.ceil(info.start + info.length * 60 - now / 1000));
    return null;
  }

  // The rounds a Swiss or round robin plays, as the server says them
  // (a round robin's as its players stand); null for an arena or none yet.
  tourneyRounds(info) {
    if (!info || info.kind === 'arena' || !info.rounds) return null;
    return info.rounds;
  }
}

// Tournaments (PROTOCOL.md 5.21): a TOURNEY line's fields with numbers.
function tourneyInfo(f) {
  return {
    id: f.id, kind: f.kind, state: f.state, rule: f.rule, size: Number(f.size), tc: f.tc, opening: f.opening, rated: f.rated,
    entrants: f.entrants, start: Number(f.start), length: Number(f.length), round: Number(f.round), rounds: Number(f.rounds), players: Number(f.players),
    creator: f.creator, name: f.name || '',
  };
}

// A TPLAYER line: points and tie-breaks in halves (Sonneborn-Berger in
// quarters, an arena's the rating), as sent; words.js says them.
function tplayer(f) {
  return {
    rank: Number(f.rank), user: f.user, rating: f.rating, points: Number(f.points), tiebreaks: f.tiebreaks.split(',').map(Number),
    games: Number(f.games), status: f.status, streak: Number(f.streak),
  };
}

function tgame(f) {
  return { round: Number(f.round), board: Number(f.board), room: f.room, first: f.first, second: f.second, result: f.result };
}

// The engine league (PROTOCOL.md 5.23): a LEAGUE line with numbers;
// tourney and next null for "-" (no event yet; one under way).
function leagueInfo(f) {
  return {
    name: f.name, rule: f.rule, size: Number(f.size), tc: f.tc, players: Number(f.players), games: Number(f.games),
    tourney: f.tourney === '-' ? null : f.tourney, next: f.next === '-' ? null : Number(f.next),
  };
}

// An LRATING line: elo around the league's mean 0, its 95% bar below
// (minus) and above (plus), points in halves (words.js says them halved).
function lrating(f) {
  return {
    rank: Number(f.rank), player: f.player, elo: Number(f.elo), minus: Number(f.minus), plus: Number(f.plus),
    games: Number(f.games), points: Number(f.points), draws: Number(f.draws),
  };
}

// The event shown: its TOURNEY fields (info), standings and pairings.
function newTourney(info) {
  return { id: info.id, info, players: [], games: [] };
}

// An arena's ended games the page keeps listed beside those under way.
const ARENA_ENDED_KEPT = 10;

// A puzzle opened: its fields, the position (start) and the play since
// (moves); state open (a move awaited), judging (SOLVE sent: trying),
// solved, failed (line: the kept solution, step: its stones shown), gone
// (not open on this connection any more: PUZZLE opens it again).
function newPuzzle(f, moves, again) {
  return {
    id: f.id, rule: f.rule, size: Number(f.size), cls: f.cls, plies: Number(f.plies), rating: f.rating,
    start: moves, moves: [...moves], side: colourAt(moves.length), state: 'open', again,
    trying: null, played: null, reply: null, err: null, mine: null, before: null, line: [], step: 0,
    forbidden: [], five: [], asked: null,
  };
}

// A review not yet known: asking (MARKS sent), none (455: REVIEW makes
// one; rejoin: it was under way for this page, ask it again), requested (REVIEW sent), running ({done, total}), fetching
// (REVIEWED ok: MARKS sent), ready ({plies, evals, marks}), failed
// (REVIEWED failed: ask again), refused (err: MARKS said why not).
function newReview(id) {
  return { id, state: 'asking', done: 0, total: 0, plies: 0, evals: [], marks: [], err: null, rejoin: false };
}

export const ANALYSE_LINES = 5; // the engine's best moves an analysis asks for
export const POSITION_MAX = 100; // a move list's most moves (PROTOCOL.md 2)

// A position's POSITION (and ANALYSE) arguments: rule, size, moves (- none).
function positionArgs(a, moves) {
  return [a.rule, String(a.size), moves.length ? moves.join(',') : '-'];
}

// The review's graph: black's chance at each position (per mille, null
// unknown) as points of a w x h box, position 0 at the left, the last at
// the right, 1000 at the top; unknown positions are left out.
export function chancePoints(evals, w, h) {
  const last = Math.max(1, evals.length - 1);
  const out = [];
  evals.forEach((v, i) => {
    if (v !== null && v !== undefined) out.push({ i, x: (i / last) * w, y: h - (v / 1000) * h });
  });
  return out;
}

// The position a click at x on that graph picks: the nearest one.
export function positionAt(x, w, positions) {
  const last = Math.max(1, positions - 1);
  return Math.max(0, Math.min(positions - 1, Math.round((x / w) * last)));
}
