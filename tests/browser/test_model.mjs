#!/usr/bin/env node
// test_model.mjs: the web board's model (client/web/model.js) in node, no
// browser, on the transcripts of tests/model/*.txt, which
// tests/unit/test_client_model.c runs through the C client's model too:
// both assert the same states (tests/model/README.md has the format).
// Keys starting "c." are the C model's alone and skipped here; "web." keys
// are this model's alone. Then what the transcripts cannot say: the
// connection's backoff, the takeover, what is sent again after a
// reconnect, the replay; and that model.js reaches no DOM, storage, socket,
// timer or clock. Run from the top of the tree:
//   node tests/browser/test_model.mjs [transcript...]
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as proto from '../../client/web/proto.js';
import { Model, BACKOFF_FIRST, BACKOFF_MAX, ANALYSE_LINES, chancePoints, engineScore, openingChoices, parseRecord, positionAt } from '../../client/web/model.js';
import { eloBar, eloWords, fraction, newsWords, offerFate, pointsWords, tgameWords, tiebreakValues } from '../../client/web/words.js';

const DIR = process.env.MODEL_DIR || 'tests/model';

// key=value and key~=value (contains) pairs; a value may be "quoted".
export function pairs(text) {
  const out = [];
  const re = /\s*([A-Za-z0-9_.]+)(~?=)("([^"]*)"|(\S*))/y;
  let m;
  let at = 0;
  while (at < text.length && text.slice(at).trim() !== '') {
    re.lastIndex = at;
    m = re.exec(text);
    if (!m) throw new Error(`bad expectation at: ${text.slice(at)}`);
    out.push({ key: m[1], op: m[2], want: m[4] !== undefined ? m[4] : m[5] });
    at = re.lastIndex;
  }
  return out;
}

const SIDES = ['black', 'white'];
const dot = (k) => k.length > 1 && k[1] !== '';

// A key's value in the model, as the transcripts spell it (the same
// spelling test_client_model.c gives the C model's); undefined: unknown key.
function value(model, key, now) {
  const g = model.game;
  const k = key.split('.');
  const side = SIDES.includes(k[1]) ? k[1] : null;
  const num = (v) => String(v);
  const list = (name) => ({ rooms: model.lobby.rooms, games: model.lobby.games })[name];
  switch (k[0]) {
    case 'server': return model.server;
    case 'cap': return model.caps.includes(k[1]) ? '1' : '0';
    case 'engines': return model.engines().join(',') || '-';
    case 'nobots': { const v = model.settings['bot-challenges']; return v === undefined ? '-1' : v === 'no' ? '1' : '0'; }
    case 'me': return model.me ? model.me.name : '-';
    case 'token': return model.me ? model.me.token : '-';
    case 'seek': return model.seek ? num(model.seek.id) : '0';
    case 'pending': return num(model.sentQ.length);
    case 'room': return g ? g.room : '-';
    case 'invite': return model.invite ? model.invite.code : '-';
    case 'seq': return g ? num(g.seq) : '0';
    case 'status': return g ? g.status : '-';
    case 'rule': return g ? g.rule : '-';
    case 'size': return g ? num(g.size) : '-';
    case 'black': case 'white': return g ? g[k[0]] : '-';
    case 'side': return model.mySide() || 'none';
    case 'turn': return model.turn();
    case 'moves': return g ? num(g.moves.length) : '0';
    case 'stone': return model.stone(k[1]) || 'empty';
    case 'clock': if (side) { const v = model.clock(side, now); return v === null ? '-' : num(v); } break;
    case 'grace': if (side) return num(model.graceLeft(side, now)); break;
    case 'gone': if (side) { const p = g && g.presence[g[side]]; return p && p.gone ? '1' : '0'; } break;
    case 'spectators': return g ? num(g.spectators) : '0';
    case 'offers': return g ? num(g.offers.size) : '0';
    case 'offer_to_me': { const o = model.offerToMe(); return o ? `${o[0]} ${o[1].kind} ${o[1].from}` : '-'; }
    case 'over': return g && g.result ? '1' : '0';
    case 'result': return g && g.result ? g.result.result : '-';
    case 'reason': return g && g.result ? g.result.reason : '-';
    case 'cells': return g && g.result ? num(g.result.cells.length) : '0';
    case 'win': return g && g.result && g.result.cells.includes(k[1]) ? '1' : '0';
    case 'swap2': return g && g.stage ? '1' : '0';
    case 'stage': return g && g.stage ? g.stage.stage : '-';
    case 'cand': return num(model.candRank(k[1]));
    case 'rating': if (side) return num(g ? g.rating[side] : 0); break;
    case 'provisional': if (side) return g && g.provisional[side] ? '1' : '0'; break;
    case 'rating_before': if (side) return num(g ? g.ratingBefore[side] : 0); break;
    // who is a bot (botaccounts): a name the server marked; a seat's player
    case 'bot': return dot(k) && model.isBot(k.slice(1).join('.')) ? '1' : '0';
    case 'seat_bot': if (side) return g && model.isBot(g[side]) ? '1' : '0'; break;
    case 'challenge': return model.challenge ? num(model.challenge.id) : '0';
    case 'shutdown': return model.shutdown ? '1' : '0';
    case 'motd': return model.motd ?? '-';
    case 'announce': return model.announce ?? '-';
    case 'kicked': return model.kicked ?? '-';
    case 'said': {
      const c = g ? g.chat.filter((x) => x.user) : [];
      const e = c[c.length - 1 - Number(k[1] || 0)];
      return e ? `${e.user}: ${e.text}` : '-';
    }
    case 'chats': return num(g ? g.chat.filter((x) => x.user).length : 0);
    case 'fate': {
      const c = g ? g.chat.filter((x) => x.notice === 'offer') : [];
      return c.length ? offerFate(c[c.length - 1]) : '-';
    }
    case 'rooms': case 'games': {
      const l = list(k[0]);
      if (k.length === 1) return num(l.length);
      const e = l[Number(k[1])];
      return e && k[2] in e ? e[k[2]] : undefined;
    }
    case 'seeks': return num(model.lobby.seeks.length);
    // the engine league (league): LEAGUES' list, the table shown, best first
    case 'leagues': {
      const l = model.leagues || [];
      if (k.length === 1) return num(l.length);
      const e = l[Number(k[1])];
      if (!e || !(k[2] in e)) return undefined;
      return e[k[2]] === null ? '-' : num(e[k[2]]);
    }
    case 'league': return model.league ? model.league.name : '-';
    case 'league_stale': return model.league && model.league.stale ? '1' : '0';
    case 'table': {
      const rows = model.league ? model.league.rows : [];
      if (k.length === 1) return num(rows.length);
      const e = rows[Number(k[1])];
      return e && k[2] in e ? num(e[k[2]]) : undefined;
    }
    case 'seeks_total': return num(model.lobby.seeksTotal);
    case 'record':
      if (k[1] === 'ready') return model.record && model.record.ready ? '1' : '0';
      if (k[1] === 'moves') return model.record ? num(parseRecord(model.record.id, model.record.lines).moves.length) : '0';
      break;
    case 'web':
      // the web model's own: a move's reason as the server gave it
      if (k[1] === 'reason' && g) { const i = g.moves.indexOf(k[2]); return i < 0 ? undefined : g.reasons[i]; }
      // the search as the page shows it: -, human, or the seconds to the bot
      if (k[1] === 'searching') { const q = model.searching(now); return !q ? '-' : q.bot ? num(q.left) : 'human'; }
      // whether a side's clock shows the low-time warning (under 10 s)
      if (k[1] === 'low' && SIDES.includes(k[2])) return model.lowTime(k[2], now) ? '1' : '0';
      // whether a hidden page closes its connection and is kept away
      if (k[1] === 'parkable') return model.parkable() ? '1' : '0';
      // whom a private room waits for, its creator away: USER:SECONDS, or -
      if (k[1] === 'awaiting') { const w = model.awaiting(now); return w ? `${w.user}:${w.left}` : '-'; }
      // the login token the page keeps for the account (REMEMBER, AUTH)
      if (k[1] === 'login') return model.login || '-';
      // whether the page asks REMEMBER now (after a LOGIN or REGISTER)
      if (k[1] === 'remember') return model.wantRemember() ? '1' : '0';
      // the first room * SEATED announced that the page has not opened
      if (k[1] === 'seated') return model.seated.length ? model.seated[0] : '-';
      // whether the page offers to take the Nth listed seek (TAKE)
      if (k[1] === 'cantake' && model.lobby.seeks[k[2]]) return model.canTake(model.lobby.seeks[k[2]]) ? '1' : '0';
      // the sound the last line asked for: paired, start, challenge, turn, move, end, or -
      if (k[1] === 'cue') return model.cue || '-';
      // whether the low-time sound plays now (once a game: reading it marks it played)
      if (k[1] === 'lowcue') return model.lowCue(now) ? '1' : '0';
      // the end in my terms: won, lost, drew, none; - while it runs, or watching
      if (k[1] === 'outcome') { const o = model.outcome(); return o && o.mine ? o.mine : '-'; }
      // my rating's change in that end, signed, or -
      if (k[1] === 'delta') { const o = model.outcome(); return o && o.delta !== null ? (o.delta > 0 ? `+${o.delta}` : num(o.delta)) : '-'; }
      // a candidate's score as shown: SIDE+VALUE in the shown unit, or SIDE:winMOVES
      if (k[1] === 'score' && g && g.think) {
        const c = g.think.cands.find((x) => x.mv === k[2]);
        if (!c) return undefined;
        const v = model.scoreView(c.score, g.think.ply);
        return v.win ? `${v.side}:win${v.win}` : `${v.side}${v.value >= 0 ? '+' : ''}${v.value.toFixed(2)}`;
      }
      // the last LEAGUE's refusal: its code, or -
      if (k[1] === 'lerr') return model.leagueErr ? num(model.leagueErr.code) : '-';
      // whether the league shown still counts its event open though it ended here (asked again)
      if (k[1] === 'league_behind') return model.league && model.leagueBehind(model.leagueInfo(model.league.name), now) ? '1' : '0';
      // a row of the league's table as the page shows it: Elo, its error bar, the points halved
      if (k[1] === 'lrow' && model.league) {
        const r = model.league.rows[Number(k[2])];
        return r ? `${eloWords(r.elo)} ${eloBar(r.minus, r.plus)} ${pointsWords('robin', r.points)}` : '-';
      }
      // the news for the live region, in words: web.news the newest, web.news.N
      // the N-th newest (0 the newest), web.news.count how many; not taken
      if (k[1] === 'news' && k[2] === 'count' && k.length === 3) return num(model.news.length);
      if (k[1] === 'news' && k.length <= 3) { const e = model.news[model.news.length - 1 - Number(k[2] || 0)]; return e ? newsWords(e) : '-'; }
      break;
    default: break;
  }
  return undefined;
}

// Runs one transcript; throws with file:line on the first failure.
export function run(path) {
  const model = new Model();
  let last = 0;
  let n = 0;
  let tag = 0;
  const where = () => `${path}:${n}`;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    n++;
    const line = raw.replace(/\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const sp = line.indexOf(' ');
    const cmd = sp < 0 ? line : line.slice(0, sp);
    const rest = sp < 0 ? '' : line.slice(sp + 1);
    if (cmd === 'sent') {
      const [name, ...args] = rest.split(' ');
      model.sent(name, args, `#t${++tag}`);
    } else if (cmd === 'recv' || cmd === 'resync' || cmd === 'fatal') {
      const m = /^([0-9]+) (.*)$/.exec(rest);
      if (!m) throw new Error(`${where()}: want: ${cmd} <ms> <line>`);
      last = Number(m[1]);
      let msg;
      try {
        msg = proto.parseServer(m[2]);
      } catch (e) {
        throw new Error(`${where()}: the line did not parse: ${e.message}`);
      }
      const out = model.receive(msg, last);
      const want = cmd === 'recv' ? 'ok' : cmd;
      if (out.rc !== want) throw new Error(`${where()}: the model said ${out.rc}, not ${want}: ${m[2]}`);
    } else if (cmd === 'expect') {
      const ps = pairs(rest);
      const at = ps.find((p) => p.key === 'at');
      const now = at ? Number(at.want) : last;
      for (const { key, op, want } of ps) {
        if (key === 'at' || key.startsWith('c.')) continue;
        const got = value(model, key, now);
        if (got === undefined) throw new Error(`${where()}: unknown key ${key}`);
        if (op === '~=' ? !got.includes(want) : got !== want) {
          throw new Error(`${where()}: ${key}: got "${got}", want ${op === '~=' ? 'it to contain ' : ''}"${want}"`);
        }
      }
    } else {
      throw new Error(`${where()}: unknown command ${cmd}`);
    }
  }
}

// ---- the transcripts ----------------------------------------------------------

const files = process.argv.length > 2
  ? process.argv.slice(2)
  : readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort().map((f) => join(DIR, f));
assert.ok(files.length > 0, `no transcripts in ${DIR}`);
let failed = 0;
for (const f of files) {
  try {
    run(f);
    console.log(`ok ${basename(f)}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${e.message}`);
  }
}

// ---- what the transcripts cannot say ---------------------------------------------

function check(what, fn) {
  try {
    fn();
    console.log(`ok ${what}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${what}: ${e.message}`);
  }
}

const line = (m, s, now = 0) => m.receive(proto.parseServer(s), now);

check('hosted engines: the greeting\'s engines= names them, nothing without it (issue 49)', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 swap2 bots bot-fallback=20 engines=rapfi,wine2 tournaments');
  assert.deepEqual(m.engines(), ['rapfi', 'wine2']);
  line(m, '* SERVER gomokud 0.1.0 1 swap2 bots bot-fallback=20');
  assert.deepEqual(m.engines(), []);
  line(m, '* SERVER gomokud 0.1.0 1 engines=Bad,ok,x-y');
  assert.deepEqual(m.engines(), ['ok']);
});

check('bot accounts: TOPBOTS marks every name on it a bot; SETTINGS and SET keep bot-challenges, a new login forgets it', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 swap2 accounts ratings botaccounts');
  m.sent({ name: 'TOPBOTS', args: ['freestyle'] });
  line(m, '= STAT rapfi freestyle 1820 60 established 40 10 2');
  line(m, '= STAT wine freestyle 1700 70 established 30 20 0');
  line(m, 'OK TOPBOTS 2 2');
  assert.deepEqual(m.lobby.top.map((f) => f.user), ['rapfi', 'wine']);
  assert.ok(m.lobby.topBots && m.isBot('rapfi') && m.isBot('wine'));
  m.sent({ name: 'TOP', args: ['freestyle'] });
  line(m, '= STAT alice freestyle 1600 80 established 5 3 0');
  line(m, 'OK TOP 1 1');
  assert.ok(!m.lobby.topBots && !m.isBot('alice'));
  m.sent({ name: 'SETTINGS', args: [] });
  line(m, '= SET bot-challenges yes');
  line(m, 'OK SETTINGS 1');
  assert.equal(m.settings['bot-challenges'], 'yes');
  m.sent({ name: 'SET', args: ['bot-challenges', 'no'] });
  line(m, 'OK SET bot-challenges no');
  assert.equal(m.settings['bot-challenges'], 'no');
  m.sent({ name: 'LOGIN', args: ['bob', 'pw'] });
  line(m, 'OK LOGIN bob 3kQ9fZ0aLm2Xw8pR7tYc1bN4');
  assert.equal(m.settings['bot-challenges'], undefined);
});

check('reconnecting: the backoff doubles to its cap and starts over when signed in', () => {
  const m = new Model();
  const waits = [];
  for (let i = 0; i < 6; i++) waits.push(m.closed().retry);
  assert.deepEqual(waits, [BACKOFF_FIRST, 1000, 2000, 4000, BACKOFF_MAX, BACKOFF_MAX]);
  m.signedIn('alice', 'tok');
  assert.equal(m.closed().retry, BACKOFF_FIRST);
});

check('reconnecting: a takeover is not fought back; another BYE is forgotten at the close', () => {
  const m = new Model();
  assert.equal(line(m, '* BYE takeover signed in elsewhere').bye, 'takeover');
  assert.deepEqual(m.closed(), { takeover: true });
  const n = new Model();
  line(n, '* BYE shutdown restarting');
  assert.equal(n.closed().retry, BACKOFF_FIRST);
  assert.equal(n.conn.bye, null);
});

check('reconnecting: not after a kick or a HELLO refused as banned, until asked back (issue 43)', () => {
  const m = new Model();
  assert.equal(line(m, '* KICKED kicked: flooding').notice, 'kicked');
  assert.equal(m.kicked, 'kicked: flooding');
  assert.deepEqual(m.closed(), { removed: true });
  assert.deepEqual(m.closed(), { removed: true }); // and again: no backoff runs
  m.comeBack();
  assert.equal(m.kicked, null);
  assert.equal(m.closed().retry, BACKOFF_FIRST);
  const n = new Model();
  n.sent('HELLO', [1, 'web/1'], '#w1');
  line(n, 'ERR #w1 414 banned this address is banned until 2026-12-04 10:00 UTC: spam');
  assert.equal(n.banned, 'this address is banned until 2026-12-04 10:00 UTC: spam');
  assert.deepEqual(n.closed(), { removed: true });
  n.comeBack();
  assert.equal(n.banned, null);
  const o = new Model(); // a GUEST refused as banned closes nothing
  o.sent('GUEST', ['mallory'], '#w2');
  line(o, 'ERR #w2 414 banned banned until 2026-12-04 10:00 UTC: spam');
  assert.equal(o.banned, null);
  assert.equal(o.closed().retry, BACKOFF_FIRST);
});

check('reconnecting: RESUME the kept room, else GUEST with the guest\'s name; a lost connection drops its requests', () => {
  const m = new Model();
  assert.deepEqual(m.resumeArgs({ token: 't', room: 'r1', seq: 12, name: 'alice' }), ['t', 'r1', 12]);
  assert.equal(m.resumeArgs({ token: 't', name: 'alice' }), null);
  assert.deepEqual(m.guestArgs({ name: 'alice' }), ['alice']);
  assert.deepEqual(m.guestArgs({ name: 'guest12' }), []);
  assert.deepEqual(m.guestArgs({ name: 'lena', account: true }), []);
  m.sent('STATE', ['r1'], '#w1');
  assert.ok(m.awaitingSnapshot('r1'));
  m.closed();
  assert.ok(!m.awaitingSnapshot('r1'));
  // back in the game shown after a new GUEST, or the lobby: a player asks
  // for its STATE
  assert.equal(m.rejoin('game'), null);
  m.signedIn('alice', 't');
  line(m, '* START r1 1 alice bob freestyle 15 none none casual - -');
  assert.deepEqual(m.rejoin('game'), { name: 'STATE', args: ['r1'] });
  assert.equal(m.rejoin('lobby'), null);
});

check('reconnecting: a spectator watches again (WATCH, or JOIN by the code it came in with), never STATE', () => {
  const m = new Model();
  m.signedIn('carol', 't1');
  m.sent('WATCH', ['r2']);
  line(m, '= ROOM r2 playing freestyle 15 none none casual alice bob 1 1');
  line(m, 'OK WATCH r2 4');
  // the connection drops; the server restarts; a new guest, another name
  m.closed();
  m.signedIn('guest7', 't2');
  assert.deepEqual(m.rejoin('game'), { name: 'WATCH', args: ['r2'] });
  // a private room entered by its link: the code is asked again, then WATCH
  const p = new Model();
  p.signedIn('dave', 't3');
  p.sent('JOIN', ['k3J9xQ2mPz7L']);
  line(p, 'OK JOIN r3');
  p.sent('WATCH', ['r3']);
  line(p, 'OK WATCH r3 9');
  p.closed();
  p.signedIn('guest8', 't4');
  assert.deepEqual(p.rejoin('game'), { name: 'JOIN', args: ['k3J9xQ2mPz7L'] });
  // left: nothing to show again
  p.leave();
  assert.equal(p.rejoin('game'), null);
});

check('the move list: a past position viewed while the game runs, the live board again at its end (issue 44)', () => {
  const m = new Model();
  m.signedIn('alice', 't');
  line(m, '* START r1 1 alice bob freestyle 15 none none casual - -');
  for (const [i, mv] of ['h8', 'i9', 'j10', 'k11'].entries()) line(m, `* MOVE r1 ${i + 2} ${i % 2 ? 'white' : 'black'} ${mv} - -`);
  m.viewAt(1);
  assert.deepEqual(m.shownMoves(), ['h8', 'i9']);
  line(m, '* MOVE r1 6 black l12 - -'); // the game goes on under the view
  assert.deepEqual(m.shownMoves(), ['h8', 'i9']);
  assert.equal(m.game.moves.length, 5);
  m.viewAt(4); // the last ply is the live board
  assert.equal(m.game.view, null);
  assert.equal(m.shownMoves().length, 5);
  m.viewAt(-1); // before the first move: the empty board
  assert.deepEqual(m.shownMoves(), []);
  m.viewAt(null);
  assert.equal(m.shownMoves().length, 5);
  m.viewAt(2);
  line(m, '* START r2 1 alice bob freestyle 15 none none casual - -');
  assert.equal(m.game.view, null, 'a new game shows its live board');
});

check('tap to confirm: the first tap previews, the second on the same point plays, a move in between drops the preview (issue 44)', () => {
  const m = new Model();
  m.signedIn('alice', 't');
  line(m, '* START r1 1 alice bob freestyle 15 none none casual - -');
  assert.equal(m.tap('h8', false), 'play', 'without confirmation a tap plays');
  assert.equal(m.tap('h8', true), 'preview');
  assert.equal(m.preview, 'h8');
  assert.equal(m.tap('i9', true), 'preview', 'another point moves the preview');
  assert.equal(m.tap('i9', true), 'play');
  assert.equal(m.preview, null);
  assert.equal(m.tap('j10', true), 'preview');
  line(m, '* MOVE r1 2 black h8 - -');
  assert.equal(m.preview, null, 'a move changes the position: the preview is gone');
  assert.equal(m.tap('j10', true), 'preview');
  assert.equal(m.tap('h8', true), 'play', 'a taken point is sent at once: the server says why not');
});

check('* MOVED: where the next connection goes; the requests in flight are gone', () => {
  const m = new Model();
  m.sent('RESUME', ['t', 'r1', 0], '#w1');
  assert.deepEqual(line(m, '* MOVED r1 node-a:5555').moved, { room: 'r1', addr: 'node-a:5555' });
  m.follow('node-a:5555');
  assert.equal(m.conn.host, 'node-a:5555');
  assert.equal(m.sentQ.length, 0);
});

check('replies find their request by tag; events of a room whose snapshot is coming are in it', () => {
  const m = new Model();
  line(m, '* START r1 1 alice bob freestyle 15 none none casual - -');
  m.sent('ROOMS', [], '#w1');
  m.sent('STATE', ['r1'], '#w2');
  assert.equal(line(m, '* MOVE r1 3 black h8 - -').rc, 'ok'); // a gap, but the snapshot comes
  assert.equal(m.game.moves.length, 0);
  line(m, '= ROOM r1 playing freestyle 15 none none casual alice bob 0 1');
  line(m, '= MOVES r1 0 h8');
  const out = line(m, 'OK #w2 STATE r1 3');
  assert.equal(out.reply.req.name, 'STATE');
  assert.ok(out.snapshot);
  assert.equal(m.game.seq, 3);
  assert.deepEqual(m.sentQ.map((r) => r.tag), ['#w1']);
});

check('renju: FORBIDDEN asked when black is to move, kept only for the position it was asked in', () => {
  const m = new Model();
  assert.ok(line(m, '* START r1 1 alice bob renju 15 none none casual - -').askForbidden);
  m.sent('FORBIDDEN', ['r1'], '#w1');
  line(m, '= FORBIDDEN r1 h8,i9');
  line(m, 'OK #w1 FORBIDDEN r1 2');
  assert.deepEqual(m.game.forbidden, ['h8', 'i9']);
  assert.ok(!line(m, '* MOVE r1 2 black a1 - -').askForbidden); // white to move
  assert.deepEqual(m.game.forbidden, []);
  assert.ok(line(m, '* MOVE r1 3 white a2 - -').askForbidden);
  m.sent('FORBIDDEN', ['r1'], '#w2');
  line(m, '* MOVE r1 4 black a3 - -');
  line(m, '= FORBIDDEN r1 h8');
  line(m, 'OK #w2 FORBIDDEN r1 1'); // stale: asked one move ago
  assert.deepEqual(m.game.forbidden, []);
});

check('replay: the record opens at its end and steps within it', () => {
  const m = new Model();
  m.sent('EXPORT', ['17', 'text'], '#w1');
  for (const l of ['rule renju', 'size 15', 'black alice 1612', 'moves h8 i9 j10']) line(m, `= RECORD ${l}`);
  line(m, 'OK #w1 EXPORT 17 text');
  const r = m.openReplay();
  assert.equal(r.at, 3);
  assert.equal(r.rec.black, 'alice 1612');
  m.stepReplay(-4);
  assert.equal(m.replay.at, 0);
  m.stepReplay(Infinity);
  assert.equal(m.replay.at, 3);
});

// ---- the analysis board (PROTOCOL.md 5.17, 5.18) ------------------------------

// A request the page sends with the model's arguments, tagged.
function ask(m, name, args, tag) {
  assert.ok(args, `no ${name} to send`);
  m.sent(name, args, tag);
  return args;
}

check('the analysis board: each stone asked with POSITION, kept once the server takes it; the server\'s words kept', () => {
  const m = new Model();
  line(m, 'OK GUEST lena tok');
  assert.deepEqual(ask(m, 'POSITION', m.openAnalysis('renju', 15), '#w1'), ['renju', '15', '-']);
  const a = m.analysis;
  assert.equal(a.toMove, null, 'nobody to move until the server says');
  assert.equal(m.analysisEngine(), null, 'no engine before the server answered');
  line(m, 'OK #w1 POSITION black none 0 -');
  assert.deepEqual([a.toMove, a.result, a.forbidden, a.asked], ['black', 'none', [], null]);
  let n = 2;
  for (const mv of ['h8', 'a1', 'i8', 'a3', 'j9', 'a5', 'j10', 'a7']) {
    const args = ask(m, 'POSITION', m.analysisPlace(mv), `#w${n}`);
    assert.equal(args[2], [...a.moves, mv].join(','));
    assert.equal(a.moves.includes(mv), false, 'a stone tried is not kept before the answer');
    const black = a.moves.length % 2 === 1;
    if (a.moves.length === 7) line(m, '= FORBIDDEN - j8');
    line(m, `OK #w${n++} POSITION ${black ? 'black' : 'white'} none ${a.moves.length === 7 ? 1 : 0} -`);
    assert.equal(a.moves[a.moves.length - 1], mv);
  }
  assert.deepEqual([a.toMove, a.forbidden], ['black', ['j8']]);
  // the forbidden point tried: refused, said with the point; nothing kept
  ask(m, 'POSITION', m.analysisPlace('j8'), '#w20');
  line(m, 'ERR #w20 434 double-three move 9 (j8): double-three');
  assert.deepEqual(a.refusal, { code: 434, text: 'move 9 (j8): double-three', mv: 'j8' });
  assert.equal(a.moves.length, 8);
  assert.deepEqual(a.forbidden, ['j8'], 'the position shown keeps its marks');
  // a stale answer (the board changed since) changes nothing
  ask(m, 'POSITION', m.analysisPlace('k11'), '#w21');
  ask(m, 'POSITION', m.analysisPlace('k12'), '#w22');
  assert.equal(a.refusal, null, 'a new try forgets the refusal');
  line(m, 'OK #w21 POSITION white none 0 -');
  assert.equal(a.moves.length, 8, 'the answer to an older try is stale');
  line(m, 'OK #w22 POSITION white none 0 -');
  assert.deepEqual([a.moves.length, a.moves[8], a.toMove, a.forbidden], [9, 'k12', 'white', []]);
  // undo shows the position at once, the server's words when they come
  assert.deepEqual(ask(m, 'POSITION', m.analysisUndo(), '#w23'), ['renju', '15', 'h8,a1,i8,a3,j9,a5,j10,a7']);
  assert.deepEqual([a.moves.length, a.toMove], [8, null]);
  line(m, '= FORBIDDEN - j8');
  line(m, 'OK #w23 POSITION black none 1 -');
  assert.deepEqual([a.toMove, a.forbidden], ['black', ['j8']]);
  // a five: the result and its line; the engine is not asked about it
  ask(m, 'POSITION', m.analysisClear(), '#w24');
  assert.deepEqual(a.moves, []);
  line(m, 'OK #w24 POSITION black none 0 -');
  m.openAnalysis('freestyle', 15, ['h8', 'a1', 'h9', 'a2', 'h10', 'a3', 'h11', 'a4']);
  ask(m, 'POSITION', m.analysisPlace('h12'), '#w25');
  line(m, 'OK #w25 POSITION none black 0 h12,h11,h10,h9,h8');
  const b = m.analysis;
  assert.deepEqual([b.toMove, b.result, b.five.length, b.moves.length], ['none', 'black', 5, 9]);
  assert.equal(m.analysisEngine(), null, 'the game is over on the board');
  ask(m, 'POSITION', m.analysisPlace('a5'), '#w26');
  line(m, 'ERR #w26 440 game-over move 10 (a5): game over');
  assert.deepEqual([b.refusal.code, b.refusal.mv, b.moves.length], [440, 'a5', 9]);
});

check('the analysis board: a replay\'s position; more than 100 moves not asked', () => {
  const m = new Model();
  const moves = Array.from({ length: 101 }, (_, i) => `a${(i % 15) + 1}`);
  assert.equal(m.openAnalysis('freestyle', 15, moves, { id: '7', at: 101 }), null);
  assert.deepEqual(m.analysis.refusal, { why: 'long', mv: null });
  assert.equal(m.analysis.moves.length, 101, 'shown all the same');
  assert.deepEqual(m.analysis.from, { id: '7', at: 101 });
  assert.deepEqual(m.analysisUndo(), ['freestyle', '15', moves.slice(0, 100).join(',')]);
});

check('the analysis board: ANALYSE of the position shown, its candidates and line; its refusals kept', () => {
  const m = new Model();
  ask(m, 'POSITION', m.openAnalysis('freestyle', 15, ['h8', 'i9']), '#w1');
  line(m, 'OK #w1 POSITION black none 0 -');
  const a = m.analysis;
  assert.deepEqual(ask(m, 'ANALYSE', m.analysisEngine(), '#w2'), ['freestyle', '15', 'h8,i9', ANALYSE_LINES]);
  assert.equal(m.analysisEngine(), null, 'one at a time');
  line(m, 'OK #w2 ANALYSE 5 positional g9:166,i7:166,h10:-29990 g9,f10,g8');
  assert.deepEqual(a.engine, {
    depth: 5, reason: 'positional', pv: ['g9', 'f10', 'g8'], mover: 'black',
    cands: [{ mv: 'g9', score: 166 }, { mv: 'i7', score: 166 }, { mv: 'h10', score: -29990 }],
  });
  // the line stepped: its stones after the position, within its length
  m.analysisLine(2);
  assert.deepEqual(m.analysisShown(), { moves: ['h8', 'i9'], line: ['g9', 'f10'] });
  m.analysisLine(9);
  assert.equal(a.line, 3);
  m.analysisLine(-1);
  assert.deepEqual(m.analysisShown().line, []);
  // a stone placed: the answer was the old position's
  ask(m, 'POSITION', m.analysisPlace('g9'), '#w3');
  assert.equal(a.engine, null);
  line(m, 'OK #w3 POSITION white none 0 -');
  for (const [code, reason] of [[452, 'in-game no analysis while you play a game (r4)'], [453, 'over-limit the next in 12 minutes'], [506, 'server-busy'], [501, 'not-available']]) {
    ask(m, 'ANALYSE', m.analysisEngine(), '#w4');
    line(m, `ERR #w4 ${code} ${reason}`);
    assert.equal(a.engineErr.code, code);
    assert.equal(a.thinking, null);
  }
  // an answer for a position no longer shown is dropped
  ask(m, 'ANALYSE', m.analysisEngine(), '#w5');
  ask(m, 'POSITION', m.analysisUndo(), '#w6');
  line(m, 'OK #w5 ANALYSE 1 open-four h11:29997 h11');
  assert.equal(a.engine, null);
  line(m, 'OK #w6 POSITION black none 0 -');
  assert.deepEqual(a.moves, ['h8', 'i9']);
});

check('an engine\'s score for the side to move: an advantage, a forced win in moves of the winner', () => {
  assert.deepEqual(engineScore(166, 'black'), { side: 'black', value: 1.66 });
  assert.deepEqual(engineScore(-250, 'white'), { side: 'white', value: -2.5 });
  assert.deepEqual(engineScore(29999, 'black'), { side: 'black', win: 1 });
  assert.deepEqual(engineScore(29995, 'white'), { side: 'white', win: 3 });
  assert.deepEqual(engineScore(-29996, 'black'), { side: 'white', win: 2 });
  assert.deepEqual(engineScore(166, 'black', 'white'), { side: 'white', value: -1.66 });
});

// ---- a review (PROTOCOL.md 5.19) ------------------------------------------------

function replayOf(m, id, moves) {
  m.sent('EXPORT', [id, 'text'], '#e');
  for (const l of ['rule freestyle', 'size 15', `moves ${moves.join(' ')}`, 'result black five']) line(m, `= RECORD ${l}`);
  line(m, `OK #e EXPORT ${id} text`);
  return m.openReplay();
}

const GAME = ['h8', 'a1', 'h9', 'a2', 'h10', 'c3', 'h11', 'a4', 'h12'];

check('a review: MARKS at the replay\'s opening; none yet (455); REVIEW, its progress, MARKS when it is stored', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 position analysis review');
  line(m, 'OK GUEST lena tok');
  replayOf(m, '1234', GAME);
  const r = m.review;
  assert.deepEqual([r.id, r.state], ['1234', 'asking']);
  assert.equal(m.reviewAsk(), null, 'not before MARKS said none is stored');
  m.sent('MARKS', ['1234'], '#w1');
  line(m, 'ERR #w1 455 not-reviewed');
  assert.deepEqual([r.state, r.err], ['none', null]);
  assert.deepEqual(ask(m, 'REVIEW', m.reviewAsk(), '#w2'), ['1234']);
  assert.equal(r.state, 'requested');
  assert.equal(m.reviewAsk(), null, 'one at a time');
  line(m, 'OK #w2 REVIEW 1234');
  assert.equal(r.state, 'running');
  line(m, '* REVIEWING 1234 0 10');
  line(m, '* REVIEWING 99 7 10'); // another game's
  line(m, '* REVIEWING 1234 5 10');
  assert.deepEqual([r.state, r.done, r.total], ['running', 5, 10]);
  const out = line(m, '* REVIEWED 1234 ok 9 3');
  assert.equal(out.reviewed, '1234', 'MARKS to ask');
  assert.equal(r.state, 'fetching');
  m.sent('MARKS', ['1234'], '#w3');
  line(m, '= EVAL 1234 0 500,531,488,540,512,602,391');
  line(m, '= EVAL 1234 7 655,1000,1000');
  line(m, '= MARK 1234 turning black 7 h11 h11 655 1000 open-four h11');
  line(m, '= MARK 1234 blunder white 6 c3 h11 612 0 block-open-three h11,h7');
  line(m, '= MARK 1234 missed-win black 5 h10 - 1000 600 positional -');
  line(m, '= MARK 77 blunder white 2 a1 h7 500 0 vcf h7'); // another game's
  line(m, 'OK #w3 MARKS 1234 9 3');
  assert.equal(r.state, 'ready');
  assert.equal(r.plies, 9);
  assert.deepEqual(r.evals, [500, 531, 488, 540, 512, 602, 391, 655, 1000, 1000]);
  assert.deepEqual(r.marks.map((k) => `${k.ply} ${k.kind}`), ['5 missed-win', '6 blunder', '7 turning'], 'by ply');
  assert.deepEqual(r.marks[1], { kind: 'blunder', side: 'white', ply: 6, played: 'c3', better: 'h11', before: 612, after: 0, reason: 'block-open-three', line: ['h11', 'h7'] });
  assert.equal(m.reviewAsk(), null, 'stored: not asked again');
});

check('a review: a stored one shows at once; its refusals kept; a failed one asked again; no review without the capability', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 review');
  replayOf(m, '12', ['h8', 'a1']);
  m.sent('MARKS', ['12'], '#w1');
  line(m, '= EVAL 12 0 500,520,600');
  line(m, 'OK #w1 MARKS 12 2 0');
  assert.deepEqual([m.review.state, m.review.evals, m.review.marks], ['ready', [500, 520, 600], []]);
  for (const [code, state] of [[454, 'refused'], [452, 'refused'], [402, 'refused'], [455, 'none']]) {
    replayOf(m, '13', ['h8']);
    m.sent('MARKS', ['13'], '#w2');
    line(m, `ERR #w2 ${code} x`);
    assert.equal(m.review.state, state, String(code));
  }
  for (const code of [453, 506, 452]) {
    ask(m, 'REVIEW', m.reviewAsk(), '#w3');
    line(m, `ERR #w3 ${code} x`);
    assert.deepEqual([m.review.state, m.review.err.code], ['none', code], 'the button again, the refusal said');
  }
  ask(m, 'REVIEW', m.reviewAsk(), '#w4');
  line(m, 'OK #w4 REVIEW 13');
  line(m, '* REVIEWED 13 failed 0 0');
  assert.equal(m.review.state, 'failed');
  assert.deepEqual(m.reviewAsk(), ['13'], 'asked again');
  // opened again while it ran (a new connection): REVIEW joins it again
  replayOf(m, '13', ['h8']);
  assert.equal(m.review.rejoin, true);
  m.sent('MARKS', ['13'], '#w5');
  line(m, 'ERR #w5 455 not-reviewed');
  assert.deepEqual([m.review.state, m.review.rejoin], ['none', true]);
  assert.deepEqual(m.reviewAsk(), ['13']);
  assert.equal(m.review.rejoin, false);
  replayOf(m, '12', ['h8']);
  assert.equal(m.review.rejoin, false, 'another game');
  const n = new Model();
  line(n, '* SERVER gomokud 0.1.0 1 position');
  replayOf(n, '12', ['h8']);
  assert.equal(n.review, null);
});

check('a review\'s marks on the replay: the position before the move, its better line stone by stone, then back', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 review');
  replayOf(m, '1234', GAME);
  m.sent('MARKS', ['1234'], '#w1');
  line(m, '= MARK 1234 blunder white 6 c3 h11 612 0 block-open-three h11,h7,i9');
  line(m, '= MARK 1234 missed-win black 5 h10 - 1000 600 positional -');
  line(m, 'OK #w1 MARKS 1234 9 2');
  assert.deepEqual(m.replayMark(1), { moves: ['h11', 'h7', 'i9'], shown: 0, mark: 1 });
  assert.equal(m.replay.at, 5);
  assert.deepEqual(m.replayShown(), { moves: GAME.slice(0, 5), line: [] });
  assert.equal(m.replayLineStep(1), true);
  assert.equal(m.replayLineStep(1), true);
  assert.deepEqual(m.replayShown().line, ['h11', 'h7']);
  assert.equal(m.replayLineStep(1), false, 'the whole line shown');
  assert.equal(m.replayLineStep(1), false);
  assert.equal(m.replay.line.shown, 3);
  m.replayLineEnd();
  assert.deepEqual(m.replayShown(), { moves: GAME.slice(0, 5), line: [] });
  assert.equal(m.replayMark(0), null, 'no better move: no line');
  assert.equal(m.replay.at, 4);
  m.replayMark(1);
  m.replayLineStep(1);
  m.stepReplay(9);
  assert.equal(m.replay.line, null, 'stepping the replay ends the line');
});

check('the review\'s graph: a point for each position known, a click picks the nearest', () => {
  assert.deepEqual(chancePoints([500, 1000, null, 0], 300, 100), [{ i: 0, x: 0, y: 50 }, { i: 1, x: 100, y: 0 }, { i: 3, x: 300, y: 100 }]);
  assert.deepEqual(chancePoints([700], 300, 100), [{ i: 0, x: 0, y: 30 }]);
  assert.equal(positionAt(0, 600, 10), 0);
  assert.equal(positionAt(600, 600, 10), 9);
  assert.equal(positionAt(290, 600, 10), 4);
  assert.equal(positionAt(310, 600, 10), 5);
  assert.equal(positionAt(-20, 600, 10), 0);
  assert.equal(positionAt(900, 600, 10), 9);
});

check('swap2: the stones put here until all are placed', () => {
  const m = new Model();
  line(m, 'OK GUEST alice tok');
  line(m, '* START r1 1 alice bob freestyle 15 none swap2 casual - -');
  line(m, '* SWAP2 r1 2 put3 alice');
  assert.equal(m.swap2Need(), 3);
  assert.deepEqual(m.swap2Put('h8'), ['h8']);
  assert.equal(m.swap2Put('h8'), null);
  m.swap2Put('h9');
  assert.deepEqual(m.swap2Put('i9'), ['h8', 'h9', 'i9']);
});

check('the account card: STATS and TOP lines kept as the server sent them; CREATE\'s invitation', () => {
  const m = new Model();
  m.sent('STATS', ['lena'], '#w1');
  line(m, '= STAT lena freestyle 1662 290 provisional 1 0 0');
  line(m, 'OK #w1 STATS 1');
  assert.deepEqual(m.lobby.stats.map((f) => `${f.rule} ${f.rating} ${f.wins}`), ['freestyle 1662 1']);
  m.sent('TOP', ['freestyle'], '#w2');
  line(m, '= STAT mark freestyle 1700 80 established 9 1 0');
  line(m, 'OK #w2 TOP 1 1');
  assert.deepEqual(m.lobby.top.map((f) => f.user), ['mark']);
  m.sent('CREATE', [], '#w3');
  line(m, 'OK #w3 CREATE r7 Ab12Cd34');
  assert.deepEqual(m.invite, { room: 'r7', code: 'Ab12Cd34' });
});

check('a profile: STATS and HISTORY of its user fill it, the account card keeps mine; TOP keeps its rule', () => {
  const m = new Model();
  line(m, 'OK GUEST lena tok');
  m.sent('STATS', ['lena'], '#w1');
  line(m, '= STAT lena freestyle 1500 350 provisional 0 0 0');
  line(m, 'OK #w1 STATS 1');
  m.openProfile('mark');
  assert.deepEqual(m.profile, { user: 'mark', stats: null, games: null });
  m.sent('STATS', ['mark'], '#w2');
  m.sent('HISTORY', ['mark'], '#w3');
  line(m, '= STAT mark freestyle 1662 290 provisional 1 0 0');
  line(m, '= STAT mark renju 1500 350 provisional 0 0 0');
  line(m, 'OK #w2 STATS 2');
  line(m, '= GAME 12 freestyle 15 mark lena black five 9 1796000000');
  line(m, 'OK #w3 HISTORY 1 1');
  assert.deepEqual(m.profile.stats.map((f) => `${f.rule} ${f.rating} ${f.wins}-${f.losses}-${f.draws}`), ['freestyle 1662 1-0-0', 'renju 1500 0-0-0']);
  assert.deepEqual(m.profile.games.map((f) => f.id), ['12']);
  assert.deepEqual(m.lobby.stats.map((f) => f.user), ['lena'], 'the account card is still mine');
  assert.deepEqual(m.lobby.games, [], 'my past games are not the profile\'s');
  // a name without ratings: 421, shown as none
  m.openProfile('nobody');
  m.sent('STATS', ['nobody'], '#w4');
  line(m, 'ERR #w4 421 no-such-user');
  assert.deepEqual(m.profile.stats, []);
  m.sent('TOP', ['renju'], '#w5');
  line(m, '= STAT mark renju 1500 350 provisional 0 0 0');
  line(m, 'OK #w5 TOP 1 1');
  assert.equal(m.lobby.topRule, 'renju');
});

check('an opening rule (rif): each stage, who acts, the colours as they stand, the offers; cleared by COLOURS', () => {
  const m = new Model();
  line(m, 'OK GUEST bob tok');
  line(m, '* START r1 1 alice bob renju 15 300+5 rif casual 300000 300000');
  assert.equal(m.game.status, 'opening');
  assert.equal(m.turn(), 'none');
  assert.equal(m.clock('black', 5000), 300000, 'the opening is untimed');
  line(m, '* OPENING r1 2 place alice black centre 0 - -');
  let o = m.opening();
  assert.deepEqual([o.stage, o.user, o.side, o.area, o.count, o.mine], ['place', 'alice', 'black', 'centre', 0, false]);
  assert.deepEqual(m.openingArea(), ['h8']);
  assert.equal(m.openingRequest('place', 'h8'), null, 'not mine');
  line(m, '* MOVE r1 3 black h8 300000 300000');
  line(m, '* OPENING r1 4 place alice black in3 0 - -');
  assert.deepEqual(m.openingArea().sort(), ['g7', 'g8', 'g9', 'h7', 'h9', 'i7', 'i8', 'i9']);
  assert.equal(m.openingArea(true).length, 9, 'with the stone in it: the area whole');
  line(m, '* MOVE r1 5 white h9 300000 300000');
  line(m, '* OPENING r1 6 place alice black in5 0 - -');
  assert.equal(m.openingArea().length, 23);
  line(m, '* MOVE r1 7 black h10 300000 300000');
  line(m, '* OPENING r1 8 swap bob white - 0 d1 -');
  o = m.opening();
  assert.ok(o.mine);
  assert.equal(o.canon, 'd1');
  assert.deepEqual(m.openingArea(), []);
  assert.deepEqual(m.openingRequest('colour', 'black'), ['colour', 'r1', 'black']);
  assert.equal(m.openingRequest('place', 'a1'), null, 'not this stage\'s act');
  // bob took black: the seats follow the colour the server says he holds
  line(m, '* OPENING r1 9 place alice white any 0 d1 -');
  assert.deepEqual([m.game.black, m.game.white, m.mySide()], ['bob', 'alice', 'black']);
  assert.equal(m.openingArea().length, 222);
  line(m, '* MOVE r1 10 white j9 300000 300000');
  line(m, '* OPENING r1 11 offer bob black any 2 d1 -');
  o = m.opening();
  assert.ok(o.mine);
  assert.equal(m.openingRequest('offer'), null, 'none picked yet');
  assert.deepEqual(m.openingPick('e4'), ['e4']);
  assert.equal(m.openingPick('h8'), null, 'a stone there');
  assert.deepEqual(m.openingPick('l11'), ['e4', 'l11']);
  assert.equal(m.openingPick('a1'), null, 'as many as declared already');
  assert.deepEqual(m.openingPick('e4'), ['l11'], 'picked again: dropped');
  m.openingPick('e5');
  assert.deepEqual(m.openingRequest('offer'), ['offer', 'r1', 'l11,e5']);
  assert.deepEqual(m.opening().picked, ['l11', 'e5']);
  line(m, '* OPENING r1 12 choose alice white offers 2 d1 l11,e5');
  o = m.opening();
  assert.deepEqual([o.stage, o.mine, o.offers, o.picked], ['choose', false, ['l11', 'e5'], []]);
  assert.deepEqual(m.openingArea(), ['l11', 'e5']);
  assert.equal(m.game.pending.length, 0, 'the picks went with the stage');
  line(m, '* MOVE r1 13 black e5 300000 300000');
  line(m, '* COLOURS r1 14 bob alice');
  assert.equal(m.opening(), null);
  assert.equal(m.game.status, 'playing');
  assert.equal(m.game.canon, 'd1', 'the opening\'s name stays for the game');
  assert.equal(m.turn(), 'white');
  assert.equal(m.clock('white', 1000), 299000, 'the clocks start with COLOURS');
});

check('an opening rule: declare and branch are asked with their words; the opponent\'s stage is not mine', () => {
  const m = new Model();
  line(m, 'OK GUEST alice tok');
  line(m, '* START r1 1 alice bob renju 15 none yamaguchi casual - -');
  line(m, '* OPENING r1 2 declare alice black - 10 d4 -');
  assert.equal(m.opening().count, 10, 'at declare: the most');
  assert.deepEqual(m.openingRequest('declare', 3), ['declare', 'r1', 3]);
  line(m, '* OPENING r1 3 swap bob black - 3 d4 -');
  assert.equal(m.opening().mine, false);
  assert.equal(m.mySide(), 'white', 'bob holds black now');
  assert.equal(m.openingRequest('colour', 'black'), null);
  line(m, '* START r2 1 alice bob renju 15 none taraguchi10 casual - -');
  line(m, '* OPENING r2 2 branch alice black - 0 i13 -');
  assert.deepEqual(m.openingRequest('branch', 'ten'), ['branch', 'r2', 'ten']);
  assert.equal(m.game.canon, 'i13');
});

check('an opening rule: pro\'s area outside the centre; a game\'s end ends the opening', () => {
  const m = new Model();
  line(m, 'OK GUEST alice tok');
  line(m, '* START r1 1 alice bob freestyle 15 none pro casual - -');
  line(m, '* OPENING r1 2 place alice black out5 0 - -');
  const a = m.openingArea();
  assert.equal(a.length, 225 - 25);
  assert.ok(!a.includes('h8') && !a.includes('j10') && a.includes('k10') && a.includes('a1'));
  line(m, '* START r2 1 alice bob freestyle 15 none longpro casual - -');
  line(m, '* OPENING r2 2 place alice black out7 0 - -');
  assert.equal(m.openingArea().length, 225 - 49);
  assert.equal(m.game.canon, '-');
  line(m, '* OVER r2 3 white resign -');
  assert.equal(m.opening(), null);
  assert.deepEqual(m.openingArea(), []);
});

check('an opening rule in a snapshot: = OPENING after the moves', () => {
  const m = new Model();
  line(m, 'OK GUEST bob tok');
  m.sent('STATE', ['r1'], '#w1');
  for (const l of ['= ROOM r1 opening renju 15 none soosorv8 casual alice bob 0 4', '= MOVES r1 0 h8,h9,j10,k7',
    '= OPENING r1 choose bob white offers 2 i4 e4,l11']) line(m, l);
  line(m, 'OK #w1 STATE r1 9');
  const o = m.opening();
  assert.deepEqual([o.stage, o.mine, o.side, o.offers.join(','), o.canon], ['choose', true, 'white', 'e4,l11', 'i4']);
  assert.equal(m.game.status, 'opening');
  assert.equal(m.turn(), 'none');
  // the snapshot's seats say alice black, the stage bob white: as they are
  assert.equal(m.mySide(), 'white');
  assert.deepEqual(m.openingRequest('choose', 'l11'), ['choose', 'r1', 'l11']);
  m.sent('STATE', ['r1'], '#w2');
  line(m, '= ROOM r1 playing renju 15 none soosorv8 casual alice bob 0 5');
  line(m, 'OK #w2 STATE r1 12');
  assert.equal(m.opening(), null);
});

check('the opening choosers: what each rule and size take, only what the server plays', () => {
  const all = ['swap2', 'openings'];
  assert.deepEqual(openingChoices('freestyle', 15, all), ['none', 'swap2', 'swap', 'pro', 'longpro']);
  assert.deepEqual(openingChoices('standard', 19, all), ['none', 'swap2', 'swap', 'pro', 'longpro']);
  assert.deepEqual(openingChoices('freestyle', 8, all), ['none', 'swap2', 'swap'], 'pro: odd sizes');
  assert.deepEqual(openingChoices('freestyle', 7, all), ['none', 'swap2', 'swap', 'pro'], 'long pro: 9 and up');
  assert.deepEqual(openingChoices('renju', 15, all), ['none', 'rif', 'yamaguchi', 'soosorv8', 'taraguchi10']);
  assert.deepEqual(openingChoices('renju', 19, all), ['none']);
  assert.deepEqual(openingChoices('renju', 15, ['swap2']), ['none'], 'a server without openings');
  assert.deepEqual(openingChoices('freestyle', 15, ['swap2']), ['none', 'swap2']);
  const m = new Model();
  line(m, 'OK GUEST alice tok');
  line(m, '* START r1 1 alice bob renju 15 none rif casual - -');
  assert.equal(line(m, '* OPENING r1 2 place alice black centre 0 - -').cue, 'turn', 'my stage: the turn\'s sound');
  line(m, '* MOVE r1 3 black h8 - -');
  assert.equal(line(m, '* OPENING r1 4 swap bob white - 0 - -').cue, undefined);
});

// ---- a puzzle (PROTOCOL.md 5.20) ------------------------------------------------

const PZ = 'OK #p1 PUZZLE 1 freestyle 15 vcf 3 1500 h8,a1,i8,a3,j8,a5';

check('a puzzle: OK PUZZLE opens it; each move judged by SOLVE, placed with the defence\'s reply; solved with the rating after it and its five', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 position puzzles');
  line(m, 'OK REGISTER ann tok');
  m.sent('PUZZLE', ['next'], '#p1');
  line(m, PZ);
  const p = m.puzzle;
  assert.deepEqual([p.id, p.rule, p.size, p.cls, p.plies, p.rating, p.side, p.state, p.again], ['1', 'freestyle', 15, 'vcf', 3, '1500', 'black', 'open', false]);
  assert.deepEqual(p.moves, ['h8', 'a1', 'i8', 'a3', 'j8', 'a5']);
  assert.equal(m.puzzlePosition(), null, 'freestyle: no forbidden point to ask');
  // a stone there: sent, and the server's refusal kept with the point
  ask(m, 'SOLVE', m.puzzleTry('h8'), '#s0');
  line(m, 'ERR #s0 432 occupied h8');
  assert.deepEqual([p.state, p.moves.length, p.err], ['open', 6, { code: 432, text: 'h8', mv: 'h8' }]);
  assert.deepEqual(ask(m, 'SOLVE', m.puzzleTry('g8'), '#s1'), ['1', 'g8']);
  assert.deepEqual([p.state, p.trying, p.moves.length], ['judging', 'g8', 6], 'the move shown once judged');
  assert.equal(m.puzzleTry('k8'), null, 'one move at a time');
  line(m, 'OK #s1 SOLVE 1 more f8 - -');
  assert.deepEqual([p.state, p.played, p.reply, p.moves.slice(6)], ['open', 'g8', 'f8', ['g8', 'f8']]);
  assert.equal(m.puzzleUnrated(), null, 'not ended');
  ask(m, 'SOLVE', m.puzzleTry('k8'), '#s2');
  line(m, 'OK #s2 SOLVE 1 solved - 1662? -');
  assert.deepEqual([p.state, p.played, p.mine, p.before, m.puzzleRating, p.line], ['solved', 'k8', '1662?', null, '1662?', []]);
  assert.equal(m.puzzleTry('a15'), null, 'ended: no move');
  // solved: the five as the server names it (POSITION), asked once
  assert.deepEqual(ask(m, 'POSITION', m.puzzlePosition(), '#q1'), ['freestyle', '15', 'h8,a1,i8,a3,j8,a5,g8,f8,k8']);
  line(m, 'OK #q1 POSITION none black 0 k8,j8,i8,h8,g8');
  assert.deepEqual([p.five, p.forbidden], [['k8', 'j8', 'i8', 'h8', 'g8'], []]);
  assert.equal(m.puzzlePosition(), null);
  // the next one: the rating known before it kept for the change
  m.sent('PUZZLE', ['next'], '#p2');
  line(m, 'OK #p2 PUZZLE 2 freestyle 15 vct 5 1480 h8,a1,i8,a15,j9,o1,j10,o15');
  const q = m.puzzle;
  assert.deepEqual([q.id, q.cls, q.again, q.state], ['2', 'vct', false, 'open']);
  ask(m, 'SOLVE', m.puzzleTry('n2'), '#s3');
  line(m, 'OK #s3 SOLVE 2 failed - 1640? j8,j11,k8,g8,l8');
  assert.deepEqual([q.state, q.mine, q.before, q.line], ['failed', '1640?', '1662?', ['j8', 'j11', 'k8', 'g8', 'l8']]);
  assert.deepEqual(q.moves.slice(8), ['n2'], 'the failed move shown');
});

check('a puzzle failed: the kept solution stepped on its position; a retry (the same id) unrated says why; a guest\'s', () => {
  const m = new Model();
  line(m, 'OK REGISTER ann tok');
  m.sent('PUZZLE', ['1'], '#p1');
  line(m, PZ);
  ask(m, 'SOLVE', m.puzzleTry('n2'), '#s1');
  line(m, 'OK #s1 SOLVE 1 failed - 1216? g8,f8,k8');
  const p = m.puzzle;
  assert.deepEqual(m.puzzleShown(), { moves: [...p.start, 'n2'], line: [] });
  m.puzzleStep(1);
  assert.deepEqual(m.puzzleShown(), { moves: p.start, line: ['g8'] }, 'on the puzzle\'s position, the try gone');
  m.puzzleStep(9);
  assert.deepEqual(m.puzzleShown().line, ['g8', 'f8', 'k8']);
  m.puzzleStep(-1);
  assert.equal(p.step, 0);
  m.sent('PUZZLE', ['1'], '#p2');
  line(m, PZ.replace('#p1', '#p2'));
  const again = m.puzzle;
  assert.deepEqual([again.again, again.state, again.moves.length, again.step], [true, 'open', 6, 0]);
  m.puzzleStep(1);
  assert.equal(again.step, 0, 'no solution to step before the end');
  ask(m, 'SOLVE', m.puzzleTry('g8'), '#s2');
  line(m, 'OK #s2 SOLVE 1 more f8 - -');
  ask(m, 'SOLVE', m.puzzleTry('k8'), '#s3');
  line(m, 'OK #s3 SOLVE 1 solved - - -');
  assert.deepEqual([again.mine, m.puzzleRating, m.puzzleUnrated()], ['-', '1216?', 'again']);
  const g = new Model();
  line(g, 'OK GUEST visitor tok');
  g.sent('PUZZLE', ['daily'], '#p1');
  line(g, PZ);
  ask(g, 'SOLVE', g.puzzleTry('n2'), '#s1');
  line(g, 'OK #s1 SOLVE 1 failed - - g8,f8,k8');
  assert.equal(g.puzzleUnrated(), 'guest');
});

check('a puzzle\'s refusals: PUZZLE\'s kept with what it asked; a move refused stays open, 441 is gone; a dropped connection leaves it gone', () => {
  const m = new Model();
  line(m, 'OK GUEST lena tok');
  m.sent('PUZZLE', ['next'], '#p1');
  line(m, 'ERR #p1 456 no-puzzle none left');
  assert.deepEqual([m.puzzle, m.puzzleErr], [null, { code: 456, text: 'none left', ask: 'next' }]);
  m.sent('PUZZLE', ['99'], '#p2');
  line(m, 'ERR #p2 402 bad-argument no such puzzle');
  assert.deepEqual(m.puzzleErr, { code: 402, text: 'no such puzzle', ask: '99' });
  m.sent('PUZZLE', ['1'], '#p3');
  line(m, PZ.replace('#p1', '#p3'));
  assert.equal(m.puzzleErr, null);
  const p = m.puzzle;
  ask(m, 'SOLVE', m.puzzleTry('g8'), '#s1');
  line(m, 'ERR #s1 452 in-game no puzzles while you play a game (r4)');
  assert.deepEqual([p.state, p.trying, p.moves.length, p.err], ['open', null, 6, { code: 452, text: 'no puzzles while you play a game (r4)', mv: 'g8' }]);
  ask(m, 'SOLVE', m.puzzleTry('g8'), '#s2');
  assert.equal(p.err, null, 'a new try forgets the refusal');
  line(m, 'ERR #s2 441 wrong-phase not open');
  assert.equal(p.state, 'gone');
  assert.equal(m.puzzleTry('k8'), null, 'gone: PUZZLE opens it again first');
  // an unreadable puzzle leaves the one shown
  m.sent('PUZZLE', ['next'], '#p4');
  line(m, 'OK #p4 PUZZLE 5 freestyle 15 vcf 3 1500 h8,h8');
  assert.deepEqual([m.puzzle, m.puzzleErr], [p, { unreadable: true }]);
  m.sent('PUZZLE', ['next'], '#p5');
  line(m, 'OK #p5 PUZZLE 5 freestyle 15 vcf 3 1500 h8,p16');
  assert.deepEqual(m.puzzleErr, { unreadable: true }, 'off a 15x15 board');
  // the connection drops while a move is judged: the puzzle is open no more
  m.sent('PUZZLE', ['1'], '#p6');
  line(m, PZ.replace('#p1', '#p6'));
  ask(m, 'SOLVE', m.puzzleTry('g8'), '#s3');
  m.closed();
  assert.deepEqual([m.puzzle.state, m.puzzle.trying, m.puzzle.moves.length], ['gone', null, 6]);
  // an ended one stays as it ended
  line(m, 'OK GUEST lena tok');
  m.sent('PUZZLE', ['1'], '#p7');
  line(m, PZ.replace('#p1', '#p7'));
  ask(m, 'SOLVE', m.puzzleTry('n2'), '#s4');
  line(m, 'OK #s4 SOLVE 1 failed - - g8,f8,k8');
  m.closed();
  assert.equal(m.puzzle.state, 'failed');
});

check('a renju puzzle: black\'s forbidden points asked with POSITION, as the server names them; none for white, nor without `position`', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 position puzzles');
  line(m, 'OK GUEST lena tok');
  m.sent('PUZZLE', ['4'], '#p1');
  line(m, 'OK #p1 PUZZLE 4 renju 15 vct 7 1500 h8,a1,i8,a3,j9,a5,j10,a7');
  const p = m.puzzle;
  assert.deepEqual(ask(m, 'POSITION', m.puzzlePosition(), '#q1'), ['renju', '15', 'h8,a1,i8,a3,j9,a5,j10,a7']);
  line(m, '= FORBIDDEN - j8');
  line(m, 'OK #q1 POSITION black none 1 -');
  assert.deepEqual(p.forbidden, ['j8']);
  assert.equal(m.analysis, null, 'no analysis board made');
  ask(m, 'SOLVE', m.puzzleTry('k11'), '#s1');
  line(m, 'OK #s1 SOLVE 4 more a9 - -');
  assert.deepEqual(p.forbidden, [], 'the marks of the position before');
  // an answer to a position the play has left since is stale
  ask(m, 'POSITION', m.puzzlePosition(), '#q0');
  ask(m, 'SOLVE', m.puzzleTry('m13'), '#s0');
  line(m, 'OK #s0 SOLVE 4 more a11 - -');
  line(m, '= FORBIDDEN - j8');
  line(m, 'OK #q0 POSITION black none 1 -');
  assert.deepEqual([p.forbidden, p.moves.length], [[], 12]);
  const args = ask(m, 'POSITION', m.puzzlePosition(), '#q2');
  assert.equal(args[2], 'h8,a1,i8,a3,j9,a5,j10,a7,k11,a9,m13,a11');
  line(m, '= FORBIDDEN - j8,l12');
  line(m, 'OK #q2 POSITION black none 2 -');
  assert.deepEqual(p.forbidden, ['j8', 'l12']);
  ask(m, 'SOLVE', m.puzzleTry('j8'), '#s2');
  line(m, 'ERR #s2 434 double-three move 13 (j8): double-three');
  assert.deepEqual([p.state, p.err.code, p.err.mv], ['open', 434, 'j8']);
  // white to move: no forbidden point; a server without `position`: none asked
  m.sent('PUZZLE', ['5'], '#p2');
  line(m, 'OK #p2 PUZZLE 5 renju 15 vcf 5 1500 h8,a1,i8');
  assert.equal(m.puzzlePosition(), null);
  const n = new Model();
  line(n, '* SERVER gomokud 0.1.0 1 puzzles');
  n.sent('PUZZLE', ['4'], '#p1');
  line(n, 'OK #p1 PUZZLE 4 renju 15 vct 7 1500 h8,a1,i8,a3,j9,a5,j10,a7');
  assert.equal(n.puzzlePosition(), null);
});

// ---- tournaments (PROTOCOL.md 5.21) ----------------------------------------------

check('tournaments: TLIST fills the lobby\'s list; TWATCH\'s snapshot the standings (shared ranks) and the pairings; Join offered as the rules say', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 tournaments');
  line(m, 'OK GUEST gus tok');
  m.sent('TLIST', [], '#t1');
  line(m, '= TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 2 alice Friday Swiss');
  line(m, '= TOURNEY 5 arena running renju 15 60+1 none rated both 1796000000 30 7 0 9 -');
  line(m, 'OK #t1 TLIST 2');
  assert.deepEqual(m.tourneys.map((x) => [x.id, x.kind, x.state, x.name, x.start, x.length]),
    [['4', 'swiss', 'soon', 'Friday Swiss', 1796000600, 3], ['5', 'arena', 'running', '', 1796000000, 30]]);
  assert.equal(m.tourneyLeft(m.tourneys[0], 1796000000 * 1000 + 500), 600, 'the countdown to the start, whole seconds up');
  assert.equal(m.tourneyLeft(m.tourneys[1], 1796000000 * 1000), 1800, 'a running arena: its time left');
  m.sent('TWATCH', ['4'], '#t2');
  line(m, '= TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 2 alice Friday Swiss');
  line(m, '= TPLAYER 4 1 bob 1500 0 0,0,0,0 0 active 0');
  line(m, '= TPLAYER 4 1 carol 1520? 0 0,0,0,0 0 active 0');
  line(m, 'OK #t2 TWATCH 4');
  const t = m.tourney;
  assert.equal(t.id, '4');
  assert.deepEqual(t.players.map((p) => [p.rank, p.user, m.rankShared(p)]), [[1, 'bob', true], [1, 'carol', true]]);
  assert.deepEqual(m.tourneyJoin(), { act: 'join', why: null }, 'a guest may join a casual Swiss before its start');
  assert.equal(m.myPairing(), null, 'not in it: no pairing');
  assert.equal(m.tourneyRounds(t.info), 3, 'a Swiss: its length in rounds');
  // a rated one is not for a guest; a started Swiss not for anyone new;
  // a bots' event not for a person
  line(m, '* TOURNEY 4 swiss soon freestyle 15 300+0 none rated people 1796000600 3 0 3 2 alice Friday Swiss');
  assert.deepEqual(m.tourneyJoin(), { act: null, why: 'guest' });
  line(m, '* TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 1 3 2 alice Friday Swiss');
  assert.deepEqual(m.tourneyJoin(), { act: null, why: 'started' });
  line(m, '* TOURNEY 4 swiss soon freestyle 15 300+0 none casual bots 1796000600 3 0 3 2 alice Friday Swiss');
  assert.deepEqual(m.tourneyJoin(), { act: null, why: 'bots' });
  assert.equal(m.tourneys[0].entrants, 'bots', 'the lobby\'s line follows the event');
  // the rounds are the server's (a round robin's as its players stand): none for an arena
  assert.equal(m.tourneyRounds({ kind: 'robin', length: 2, rounds: 6, players: 4 }), 6);
  assert.equal(m.tourneyRounds({ kind: 'arena', length: 30, rounds: 0, players: 3 }), null);
});

check('tournaments: events update the standings (re-ranked), a new round\'s pairings replace the last; my pairing, my bye, my game opened by its START', () => {
  const m = new Model();
  line(m, '* SERVER gomokud 0.1.0 1 tournaments');
  line(m, 'OK GUEST bob tok');
  m.sent('TWATCH', ['4'], '#t1');
  line(m, '= TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 2 0 2 3 alice Friday');
  line(m, '= TPLAYER 4 1 bob 1500 0 0,0,0,0 0 active 0');
  line(m, '= TPLAYER 4 1 carol 1500 0 0,0,0,0 0 active 0');
  line(m, '= TPLAYER 4 1 dave 1500 0 0,0,0,0 0 active 0');
  line(m, 'OK #t1 TWATCH 4');
  assert.deepEqual(m.tourneyJoin(), { act: 'leave', why: null }, 'in it: Leave');
  assert.deepEqual(m.myPairing(), { game: null, opponent: null, first: false, bye: false }, 'waiting for the round');
  let out = line(m, '* TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 2 1 2 3 alice Friday');
  assert.equal(out.tourney, '4');
  line(m, '* TGAME 4 1 1 - bob carol pending');
  line(m, '* TGAME 4 1 2 - dave - bye');
  let p = m.myPairing();
  assert.deepEqual([p.opponent, p.first, p.bye, p.game.room], ['carol', true, false, '-']);
  // my game starts (its START before the TGAME with its room): it is the event's
  out = line(m, '* START r7 1 bob carol freestyle 15 300+0 none casual 300000 300000');
  assert.ok(out.started);
  assert.equal(m.game.tourney, '4', 'the board knows its tournament');
  line(m, '* TGAME 4 1 1 r7 bob carol pending');
  assert.equal(m.tourney.games[0].room, 'r7');
  line(m, '* TGAME 4 1 1 r7 bob carol first');
  line(m, '* TPLAYER 4 1 bob 1500 2 0,0,0,0 1 active 0');
  line(m, '* TPLAYER 4 1 dave 1500 2 0,0,0,0 1 active 0');
  line(m, '* TPLAYER 4 3 carol 1500 0 0,2,0,0 1 active 0');
  assert.deepEqual(m.tourney.players.map((x) => `${x.rank} ${x.user} ${x.points}`), ['1 bob 2', '1 dave 2', '3 carol 0'], 'by rank; one rank keeps its order');
  assert.equal(m.rankShared(m.tourney.players[0]), true);
  assert.equal(m.rankShared(m.tourney.players[2]), false);
  assert.deepEqual(m.tourney.players[2].tiebreaks, [0, 2, 0, 0]);
  // round 2: its pairings replace round 1's; I have the bye
  line(m, '* TGAME 4 2 1 - carol dave pending');
  line(m, '* TGAME 4 2 2 - bob - bye');
  assert.deepEqual(m.tourney.games.map((g) => `${g.round}.${g.board} ${g.first}-${g.second} ${g.result}`), ['2.1 carol-dave pending', '2.2 bob-- bye']);
  p = m.myPairing();
  assert.ok(p.bye);
  assert.equal(m.tourneyRounds(m.tourney.info), 2);
  // another event's lines leave this one alone
  line(m, '* TPLAYER 9 1 bob 1500 4 0,0,0,0 1 active 0');
  assert.equal(m.tourney.players[0].points, 2);
  // left after the start: no Join again (a Swiss)
  line(m, '* TPLAYER 4 3 bob 1500 2 0,0,0,0 1 withdrawn 0');
  assert.deepEqual(m.tourneyJoin(), { act: null, why: 'left' });
  m.sent('TUNWATCH', ['4'], '#t2');
  line(m, 'OK #t2 TUNWATCH 4');
  assert.equal(m.tourney, null);
});

check('tournaments: an arena keeps its games under way and the last ended ones; a withdrawn player may join again', () => {
  const m = new Model();
  line(m, 'OK GUEST bob tok');
  m.sent('TWATCH', ['5'], '#t1');
  line(m, '= TOURNEY 5 arena running freestyle 15 60+1 none casual people 1796000000 30 3 0 2 -');
  line(m, '= TPLAYER 5 1 bob 1500 8 1500 3 withdrawn 3');
  line(m, '= TGAME 5 3 1 r9 carol dave pending');
  line(m, 'OK #t1 TWATCH 5');
  assert.deepEqual(m.tourneyJoin(), { act: 'join', why: null });
  assert.equal(m.tourney.players[0].streak, 3);
  for (let r = 4; r < 20; r++) line(m, `* TGAME 5 ${r} 1 - erin fay draw`);
  assert.equal(m.tourney.games.length, 11, 'the one under way and the last 10 ended');
  assert.equal(m.tourney.games[0].room, 'r9');
  assert.equal(m.tourney.games[10].round, 19);
});

check('tournaments\' numbers as shown: a Swiss\'s and a round robin\'s points halved ("2½"), an arena\'s raw; Sonneborn-Berger in quarters; a result with its names', () => {
  assert.equal(pointsWords('swiss', 5), '2½');
  assert.equal(pointsWords('robin', 4), '2');
  assert.equal(pointsWords('swiss', 1), '½');
  assert.equal(pointsWords('swiss', 0), '0');
  assert.equal(pointsWords('arena', 9), '9');
  assert.equal(fraction(7, 4), '1¾');
  assert.equal(fraction(-1, 2), '\u2212½');
  assert.deepEqual(tiebreakValues('swiss', [3, 6, 4, 9]), ['1½', '3', '2', '2¼']);
  assert.deepEqual(tiebreakValues('robin', [10, 2]), ['2½', '2'], 'Sonneborn-Berger in quarters, wins a count');
  assert.deepEqual(tiebreakValues('arena', [1512]), ['1512']);
  assert.equal(tgameWords({ result: 'second', first: 'bob', second: 'carol', room: 'r1' }), 'carol won');
  assert.equal(tgameWords({ result: 'pending', first: 'bob', second: 'carol', room: 'r1' }), 'under way');
  assert.equal(tgameWords({ result: 'first-forfeit', first: 'bob', second: 'carol', room: '-' }), 'bob forfeited');
});

check('the model holds no sentences: a presence notice is a token', () => {
  const m = new Model();
  line(m, '* START r1 1 alice bob freestyle 15 none none casual - -');
  line(m, '* PRESENCE r1 2 carol joined 0');
  assert.deepEqual(m.game.chat, [{ user: '', notice: 'joined', who: 'carol' }]);
  assert.equal(m.game.spectators, 1);
});

check('model.js reaches no DOM, storage, socket, timer or clock, and imports only proto.js', () => {
  const src = readFileSync('client/web/model.js', 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const used = src.match(/\b(document|window|globalThis|localStorage|sessionStorage|WebSocket|XMLHttpRequest|fetch|setTimeout|setInterval|clearTimeout|clearInterval|requestAnimationFrame|performance|Date|location|history|navigator|matchMedia)\b/g);
  assert.equal(used, null, `model.js uses ${used}`);
  const imports = [...src.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
  assert.deepEqual(imports, ['./proto.js']);
});

console.log(failed ? `test_model: ${failed} failed` : 'test_model: all passed');
process.exit(failed ? 1 : 0);
