// proto.js: the gomokud protocol v1 (proto/PROTOCOL.md) for the browser:
// parse a server line into a message, format a request. One table of the
// server's forms, read by both the parser and the formatter, so they cannot
// disagree. Lines of a kind or name this table does not know are returned
// as {unknown: true} with their tokens: a v1 client ignores what it does
// not know (PROTOCOL.md section 3). It says nothing to the player:
// words.js says its tokens and error codes in the player's language.

const RE = {
  room: /^[a-z0-9]{1,16}$/,
  roomd: /^([a-z0-9]{1,16}|-)$/, // a room, or - for none (= FORBIDDEN after POSITION)
  num: /^(0|[1-9][0-9]*)$/,
  ms: /^(0|[1-9][0-9]*|-)$/,
  user: /^([A-Za-z][A-Za-z0-9_-]{0,19}|-)$/,
  move: /^[a-t]([1-9]|1[0-9]|20)$/,
  moves: /^(-|[a-t]([1-9]|1[0-9]|20)(,[a-t]([1-9]|1[0-9]|20)){0,99})$/,
  rule: /^(freestyle|standard|renju)$/,
  tc: /^(none|[1-9][0-9]*\+(0|[1-9][0-9]*))$/,
  side: /^(black|white)$/,
  word: /^[!-~]+$/,
  cands: /^[a-t]([1-9]|1[0-9]|20):-?[0-9]+(,[a-t]([1-9]|1[0-9]|20):-?[0-9]+){0,7}$/,
  tag: /^#[A-Za-z0-9._-]{1,16}$/,
  rating: /^((0|[1-9][0-9]{0,3})\??|-)$/,
  // the opening rules' tokens (PROTOCOL.md 5.16; proto/proto.c's sets)
  ostage: /^(place|swap|swap-or-place|declare|offer|choose|branch)$/,
  oarea: /^(-|any|centre|in3|in5|in7|in9|out5|out7|offers)$/,
  canon: /^(-|[di]([1-9]|1[0-3]))$/,
  // a review (`review`, PROTOCOL.md 5.19): a move or - (a mark's better
  // move), black's chances per mille (50 a line), a result's word
  moved: /^(-|[a-t]([1-9]|1[0-9]|20))$/,
  chances: /^(1000|0|[1-9][0-9]{0,2})(,(1000|0|[1-9][0-9]{0,2})){0,49}$/,
  tomove: /^(black|white|none)$/,
  outcome: /^(black|white|draw|none)$/,
  // a puzzle (`puzzles`, PROTOCOL.md 5.20): its class, a move's judgement
  pclass: /^(vcf|vct)$/,
  judged: /^(more|solved|failed)$/,
  // tournaments (`tournaments`, PROTOCOL.md 5.21): tie-breaks, in halves
  vals: /^-?[0-9]+(,-?[0-9]+){0,49}$/,
  // bot accounts (`botaccounts`, PROTOCOL.md 5.22): a seat's kind
  kind: /^(human|bot)$/,
  // the engine league (`league`, PROTOCOL.md 5.23): a rating around the
  // league's mean 0 (signed), a number or - for none
  int: /^(0|-?[1-9][0-9]*)$/,
  numd: /^(0|[1-9][0-9]*|-)$/,
};

// Each form: field names with their type after a colon; a last field
// ending in "..." takes the rest of the line (free text, may be empty when
// marked "?..."); "?" marks an optional last field.
const EVENTS = {
  SERVER: 'name:word version:word proto:num caps?...',
  START: 'room:room seq:num black:user white:user rule:rule size:num tc:tc opening:word rated:word bms:ms wms:ms',
  SWAP2: 'room:room seq:num stage:word user:user',
  COLOURS: 'room:room seq:num black:user white:user',
  MOVE: 'room:room seq:num side:side move:move bms:ms wms:ms reason?...',
  UNDO: 'room:room seq:num plies:num bms:ms wms:ms',
  OFFER: 'room:room seq:num id:num kind:word from:user',
  OFFEREND: 'room:room seq:num id:num how:word',
  SAY: 'room:room seq:num user:user text?...',
  TELL: 'from:user text?...',
  PRESENCE: 'room:room seq:num user:user what:word ms:num',
  THINK: 'room:room seq:num bot:user depth:num cands:cands',
  OVER: 'room:room seq:num result:word reason:word cells:moves',
  SHUTDOWN: 'ms:num text?...',
  MOTD: 'text?...',
  ANNOUNCE: 'text?...',
  KICKED: 'text?...',
  BYE: 'reason:word text?...',
  SEATED: 'room:room',
  CHALLENGE: 'id:num from:user to:user rule:rule size:num tc:tc colour:word rated:word opening:word',
  CHALLENGEEND: 'id:num how:word',
  MOVED: 'room:room addr:word',
  CLOSED: 'room:room seq:num why:word', // a private room closed before its game (away)
  RATINGS: 'room:room seq:num black:user brating:rating white:user wrating:rating',
  RATED: 'room:room seq:num black:user bbefore:num bafter:num white:user wbefore:num wafter:num',
  // an opening rule's stage and who acts (`openings`, section 5.16)
  OPENING: 'room:room seq:num stage:ostage user:user side:side area:oarea count:num opening:canon offers:moves',
  // a review's progress and end (`review`, section 5.19)
  REVIEWING: 'id:num done:num total:num',
  REVIEWED: 'id:num how:word plies:num marks:num',
  // a tournament followed (`tournaments`, section 5.21)
  TOURNEY: 'id:num kind:word state:word rule:rule size:num tc:tc opening:word rated:word entrants:word start:num length:num round:num rounds:num players:num creator:user name?...',
  TPLAYER: 'id:num rank:num user:user rating:rating points:num tiebreaks:vals games:num status:word streak:num',
  TGAME: 'id:num round:num board:num room:roomd first:user second:user result:word',
  // each player a person or a bot, after START and RATINGS (`botaccounts`, 5.22)
  KINDS: 'room:room seq:num black:user bkind:kind white:user wkind:kind',
};

const DATA = {
  ROOM: 'room:room status:word rule:rule size:num tc:tc opening:word rated:word black:user white:user spectators:num moves:num',
  CLOCK: 'room:room bms:ms wms:ms side:word',
  SEAT: 'room:room colour:side user:user presence:word grace:num',
  MOVES: 'room:room index:num moves:moves',
  SWAP2: 'room:room stage:word user:user',
  OFFER: 'room:room id:num kind:word from:user',
  RESULT: 'room:room result:word reason:word cells:moves',
  USER: 'user:user state:word room?:room',
  GAME: 'id:num rule:rule size:num black:user white:user result:word reason:word plies:num ended:num',
  RECORD: 'text?...',
  FORBIDDEN: 'room:roomd moves:moves',
  STAT: 'user:user rule:rule rating:num deviation:num standing:word wins:num losses:num draws:num',
  SEEK: 'id:num user:user rule:rule size:num tc:tc colour:word rated:word opening:word who:word',
  BAN: 'what:word target:word until:num by:user text?...',
  SAY: 'room:room user:user text?...', // a kept line of chat in a snapshot (chatlog)
  CODE: 'room:room code:word', // a private room's invite code in its snapshot (away)
  RATINGS: 'room:room black:user brating:rating white:user wrating:rating', // ratings
  OPENING: 'room:room stage:ostage user:user side:side area:oarea count:num opening:canon offers:moves', // openings
  // a stored review (MARKS, section 5.19): black's chances, the marks
  EVAL: 'id:num index:num chances:chances',
  MARK: 'id:num kind:word side:side ply:num played:move better:moved before:num after:num reason:word line:moves',
  // tournaments (section 5.21)
  TOURNEY: 'id:num kind:word state:word rule:rule size:num tc:tc opening:word rated:word entrants:word start:num length:num round:num rounds:num players:num creator:user name?...',
  TPLAYER: 'id:num rank:num user:user rating:rating points:num tiebreaks:vals games:num status:word streak:num',
  TGAME: 'id:num round:num board:num room:roomd first:user second:user result:word',
  // bot accounts (`botaccounts`, section 5.22): the next = USER lines (WHO)
  // or the STATS reply are a bot's; a snapshot's seats' kinds
  BOT: 'user:user',
  SET: 'key:word value:word', // a setting (SETTINGS)
  KINDS: 'room:room black:user bkind:kind white:user wkind:kind',
  // the engine league (`league`, section 5.23): a league (LEAGUES), its
  // table best first (LEAGUE): Elo with its 95% bar, points in halves
  LEAGUE: 'name:word rule:rule size:num tc:tc players:num games:num tourney:numd next:numd',
  LRATING: 'name:word rank:num player:user elo:int minus:num plus:num games:num points:num draws:num',
};

// The OK replies whose arguments the page reads by name (the others keep
// their tokens alone): the analysis board's (`position`, `analysis`,
// sections 5.17, 5.18), the review's (`review`, 5.19) and the puzzles'
// (`puzzles`, 5.20).
const REPLIES = {
  POSITION: 'tomove:tomove result:outcome n:num five:moves',
  ANALYSE: 'depth:num reason:word lines:cands pv:moves',
  REVIEW: 'id:num',
  MARKS: 'id:num plies:num n:num',
  PUZZLE: 'id:num rule:rule size:num cls:pclass plies:num rating:rating moves:moves',
  SOLVE: 'id:num how:judged reply:moved rating:rating line:moves',
};

const compiled = new Map();
function schema(src) {
  if (!compiled.has(src)) {
    compiled.set(src, src.split(' ').map((f) => {
      const [name, type = ''] = f.split(':');
      return {
        name: name.replace('?', '').replace('...', ''),
        optional: f.includes('?'),
        rest: f.endsWith('...'),
        type: type.replace('?', '').replace('...', ''),
      };
    }));
  }
  return compiled.get(src);
}

function splitTokens(s) {
  return s.split(' ').filter((t) => t !== '');
}

// The fields of a form from the text after its name; throws on a mismatch.
function readFields(src, text) {
  const fields = {};
  let rest = text;
  for (const f of schema(src)) {
    rest = rest.replace(/^ +/, '');
    if (f.rest) {
      if (rest === '' && !f.optional) throw new Error(`missing ${f.name}`);
      fields[f.name] = rest;
      rest = '';
      break;
    }
    const m = /^[^ ]+/.exec(rest);
    if (!m) {
      if (f.optional) break;
      throw new Error(`missing ${f.name}`);
    }
    if (!RE[f.type].test(m[0])) throw new Error(`bad ${f.name}: ${m[0]}`);
    fields[f.name] = m[0];
    rest = rest.slice(m[0].length);
  }
  if (rest.trim() !== '') throw new Error(`extra fields: ${rest.trim()}`);
  return fields;
}

function writeFields(src, fields) {
  const out = [];
  for (const f of schema(src)) {
    const v = fields[f.name];
    if (v === undefined || v === '') {
      if (f.optional) break;
      throw new Error(`missing ${f.name}`);
    }
    out.push(String(v));
  }
  return out.join(' ');
}

// One server line (without its LF) as a message:
//   {kind: 'event'|'data', name, fields}
//   {kind: 'ok', tag, name, args}          args: the tokens after the name;
//                                          fields too for a reply of REPLIES
//                                          (null when its tokens do not fit)
//   {kind: 'err', tag, code, reason, text}
//   {kind: 'event'|'data', name, args, unknown: true}
// Throws on a line that is none of these.
export function parseServer(line) {
  if (line.length > 511) throw new Error('line too long');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(line)) throw new Error('control character');
  const first = line.split(' ', 1)[0];
  if (first === '*' || first === '=') {
    const kind = first === '*' ? 'event' : 'data';
    const m = /^[*=] ([A-Z0-9]+)(.*)$/.exec(line);
    if (!m) throw new Error('no name');
    const table = kind === 'event' ? EVENTS : DATA;
    if (!table[m[1]]) return { kind, name: m[1], args: splitTokens(m[2]), unknown: true };
    return { kind, name: m[1], fields: readFields(table[m[1]], m[2]) };
  }
  if (first === 'OK' || first === 'ERR') {
    const toks = splitTokens(line.slice(first.length));
    let tag = '';
    if (toks.length && toks[0].startsWith('#')) {
      if (!RE.tag.test(toks[0])) throw new Error('bad tag');
      tag = toks.shift();
    }
    if (first === 'OK') {
      if (!toks.length || !/^[A-Z0-9]+$/.test(toks[0])) throw new Error('no reply name');
      const ok = { kind: 'ok', tag, name: toks[0], args: toks.slice(1) };
      if (REPLIES[ok.name]) {
        try {
          ok.fields = readFields(REPLIES[ok.name], ok.args.join(' '));
        } catch {
          ok.fields = null; // answered all the same: its request is not left waiting
        }
      }
      return ok;
    }
    const m = /^ *(?:#[^ ]+ +)?([0-9]{3}) +([a-z0-9-]+)(?: (.*))?$/.exec(line.slice(3));
    if (!m) throw new Error('bad error line');
    return { kind: 'err', tag, code: Number(m[1]), reason: m[2], text: m[3] || '' };
  }
  throw new Error(`not a server line: ${first}`);
}

// A parsed server message back in its canonical form.
export function formatServer(msg) {
  if (msg.kind === 'event' || msg.kind === 'data') {
    const head = `${msg.kind === 'event' ? '*' : '='} ${msg.name}`;
    if (msg.unknown) return [head, ...msg.args].join(' ');
    const body = writeFields((msg.kind === 'event' ? EVENTS : DATA)[msg.name], msg.fields);
    return body ? `${head} ${body}` : head;
  }
  const tag = msg.tag ? ` ${msg.tag}` : '';
  if (msg.kind === 'ok') return [`OK${tag} ${msg.name}`, ...msg.args].join(' ');
  return `ERR${tag} ${msg.code} ${msg.reason}${msg.text ? ` ${msg.text}` : ''}`;
}

// Requests whose last field is free text (it may hold spaces).
const TEXT_AT = { SAY: 1, TELL: 1 };

// A client line as {tag, name, args} (name upper-cased: commands are
// case-insensitive); the inverse of formatRequest.
export function parseRequest(line) {
  const toks = splitTokens(line);
  let tag = '';
  if (toks.length && toks[0].startsWith('#')) {
    if (!RE.tag.test(toks[0])) throw new Error('bad tag');
    tag = toks.shift();
  }
  if (!toks.length || !/^[A-Za-z0-9]+$/.test(toks[0])) throw new Error('no command');
  const name = toks[0].toUpperCase();
  let args = toks.slice(1);
  if (TEXT_AT[name] !== undefined && args.length > TEXT_AT[name]) {
    const keep = args.slice(0, TEXT_AT[name]);
    const re = new RegExp(`^ *(?:#[^ ]+ +)?[^ ]+${' +[^ ]+'.repeat(keep.length)} (.*)$`);
    args = [...keep, re.exec(line)[1]];
  }
  return { tag, name, args };
}

export function formatRequest(req) {
  const parts = req.tag ? [req.tag, req.name] : [req.name];
  const line = [...parts, ...req.args.map(String)].join(' ');
  if (line.length > 511) throw new Error('line too long');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(line)) throw new Error('control character');
  return line;
}

// Moves: "h8" <-> {x, y} with x from the left and y from the top, on a
// board of size n (the protocol counts rows from the bottom).
export function moveToXY(mv, n) {
  const m = RE.move.exec(mv) && /^([a-t])([0-9]+)$/.exec(mv);
  if (!m) return null;
  const x = m[1].charCodeAt(0) - 97;
  const y = n - Number(m[2]);
  return x < n && y >= 0 ? { x, y } : null;
}

export function xyToMove(x, y, n) {
  return String.fromCharCode(97 + x) + String(n - y);
}

export function moveList(s) {
  return s === '-' || s === '' ? [] : s.split(',');
}
