// words.js: the protocol's tokens and error codes said in words, from the
// same catalog keys as the terminal client's (client/i18n.c): err.<code>,
// reason.*, result.*, offer.*, stage.*, rule.*, colour.*, status.*,
// ustate.*, botwhy.*, mark.kind.*, pclass.*, and the puzzles' puzzle.*
// and model.puzzle_* (model.err.puzzle_*). A token this table does not know is
// said as "?", never shown raw. Its English must stay the C side's, word for word: a key
// has one English (tests/i18n/test_catalogs.sh).
import { N, say, t } from './i18n.js';

const ERRORS = {
  400: N('err.400', 'The server could not read that request'),
  401: N('err.401', 'The server does not know that request'),
  402: N('err.402', 'A value in that request is out of range'),
  403: N('err.403', 'That line was too long; disconnected'),
  404: N('err.404', 'That text holds characters the server refuses'),
  405: N('err.405', 'The greeting must come first'),
  406: N('err.406', 'This client and the server speak different protocol versions'),
  407: N('err.407', 'Too fast: wait a moment before sending more'),
  410: N('err.410', 'Choose a name or log in first'),
  411: N('err.411', 'You already have a name on this connection'),
  412: N('err.412', 'That name is taken (or reserved); pick another'),
  413: N('err.413', 'Wrong name or password'),
  414: N('err.414', 'You are banned from this server'),
  415: N('err.415', 'You are muted: chat is closed to you for now'),
  416: N('err.416', 'Only the server\'s admins can do that'),
  417: N('err.417', 'Rated games need an account: register or log in to play rated, or play casual'),
  420: N('err.420', 'That room does not exist (any more)'),
  421: N('err.421', 'Nobody of that name is online'),
  422: N('err.422', 'No private room has that invite code; check it'),
  423: N('err.423', 'That offer or challenge is no longer open'),
  424: N('err.424', 'You have no seek to cancel'),
  430: N('err.430', 'Only the players can do that'),
  431: N('err.431', 'It is not your turn'),
  432: N('err.432', 'That point is already taken'),
  433: N('err.433', 'That point is off the board'),
  434: N('err.434', 'Forbidden for black under renju: a double three'),
  435: N('err.435', 'Forbidden for black under renju: a double four'),
  436: N('err.436', 'Forbidden for black under renju: six or more in a row'),
  437: N('err.437', 'Not there: under renju black\'s first stone goes on the centre point'),
  438: N('err.438', 'That is not the number of fifth-move offers this stage takes'),
  439: N('err.439', 'Two of those offers are the same move by the board\'s symmetry'),
  440: N('err.440', 'No game is being played there'),
  441: N('err.441', 'Not now: the game is in another phase'),
  442: N('err.442', 'There is already one of those waiting for an answer'),
  443: N('err.443', 'Too late to abort: both sides have moved'),
  444: N('err.444', 'That room is full'),
  445: N('err.445', 'Not while you (or they) are seeking or playing a game'),
  446: N('err.446', 'You are not in that room'),
  447: N('err.447', 'Your opponent is here or still within the grace period'),
  448: N('err.448', 'Your seat could not be taken back (the game ended or the session expired)'),
  449: N('err.449', 'Too many open seeks from your address; wait for one of them to be paired'),
  450: N('err.450', 'They are away (their connection dropped); try again when they are back'),
  451: N('err.451', 'That fifth move was not offered'),
  452: N('err.452', 'No analysis while you play a game, nor of a game being played'),
  453: N('err.453', "You have used this hour's analyses; try again later"),
  454: N('err.454', 'That game was played in a private room you were not in'),
  455: N('err.455', 'That game has not been reviewed yet; a review request makes one'),
  456: N('err.456', 'No puzzle for you now: none left, or none yet'),
  457: N('err.457', 'There is no such tournament'),
  458: N('err.458', 'That tournament is not open for this now: it has started, ended or is full'),
  459: N('err.459', 'That tournament is not open to you'),
  460: N('err.460', 'There is no engine league of that name'),
  500: N('err.500', 'The server could not do that; try again'),
  501: N('err.501', 'This server does not offer that'),
  502: N('err.502', 'The server is restarting; try again in a moment'),
  503: N('err.503', 'The server is full; try again later'),
  504: N('err.504', 'Disconnected after a long silence'),
  505: N('err.505', 'Disconnected: the connection could not keep up'),
  506: N('err.506', 'The server is busy; try again shortly'),
  507: N('err.507', 'No new games now: the server is about to restart'),
  508: N('err.508', 'The server cannot reach its database; nothing changed, try again shortly'),
};

const TABLES = {
  reason: {
    five: N('reason.five', 'five'),
    resign: N('reason.resign', 'resign'),
    time: N('reason.time', 'time'),
    forbidden: N('reason.forbidden', 'forbidden move'),
    'draw-agreed': N('reason.draw-agreed', 'draw agreed'),
    'board-full': N('reason.board-full', 'board full'),
    abandoned: N('reason.abandoned', 'abandoned'),
    aborted: N('reason.aborted', 'aborted'),
  },
  result: {
    black: N('result.black', 'black'),
    white: N('result.white', 'white'),
    draw: N('result.draw', 'draw'),
    none: N('result.none', 'no result'),
  },
  end: {
    accepted: N('end.accepted', 'accepted'),
    declined: N('end.declined', 'declined'),
    withdrawn: N('end.withdrawn', 'withdrawn'),
    expired: N('end.expired', 'expired'),
  },
  offer: {
    draw: N('offer.draw', 'draw'),
    undo: N('offer.undo', 'undo'),
    rematch: N('offer.rematch', 'rematch'),
  },
  status: {
    waiting: N('status.waiting', 'waiting'),
    opening: N('status.opening', 'opening'),
    playing: N('status.playing', 'playing'),
    over: N('status.over', 'over'),
  },
  ustate: {
    idle: N('ustate.idle', 'idle'),
    seeking: N('ustate.seeking', 'seeking'),
    playing: N('ustate.playing', 'playing'),
    watching: N('ustate.watching', 'watching'),
  },
  colour: {
    black: N('colour.black', 'black'),
    white: N('colour.white', 'white'),
    any: N('colour.any', 'any'),
  },
  opening: {
    none: N('opening.none', 'none'),
    swap2: N('opening.swap2', 'swap2'),
    swap: N('opening.swap', 'swap'),
    pro: N('opening.pro', 'pro'),
    longpro: N('opening.longpro', 'long pro'),
    rif: N('opening.rif', 'RIF'),
    yamaguchi: N('opening.yamaguchi', 'Yamaguchi'),
    soosorv8: N('opening.soosorv8', 'Soosõrv-8'),
    taraguchi10: N('opening.taraguchi10', 'Taraguchi-10'),
  },
  // the 26 canonical renju openings (* OPENING's opening: PROTOCOL.md
  // 5.16, in the order of rules/opening.c), by their Japanese names
  canon: {
    d1: N('canon.d1', 'Kansei 寒星'),
    d2: N('canon.d2', 'Keigetsu 渓月'),
    d3: N('canon.d3', 'Sosei 疎星'),
    d4: N('canon.d4', 'Kagetsu 花月'),
    d5: N('canon.d5', 'Zangetsu 残月'),
    d6: N('canon.d6', 'Ugetsu 雨月'),
    d7: N('canon.d7', 'Kinsei 金星'),
    d8: N('canon.d8', 'Shogetsu 松月'),
    d9: N('canon.d9', 'Kyugetsu 丘月'),
    d10: N('canon.d10', 'Shingetsu 新月'),
    d11: N('canon.d11', 'Zuisei 瑞星'),
    d12: N('canon.d12', 'Sangetsu 山月'),
    d13: N('canon.d13', 'Yusei 遊星'),
    i1: N('canon.i1', 'Chosei 長星'),
    i2: N('canon.i2', 'Kyogetsu 峡月'),
    i3: N('canon.i3', 'Kosei 恒星'),
    i4: N('canon.i4', 'Suigetsu 水月'),
    i5: N('canon.i5', 'Ryusei 流星'),
    i6: N('canon.i6', 'Ungetsu 雲月'),
    i7: N('canon.i7', 'Hogetsu 浦月'),
    i8: N('canon.i8', 'Rangetsu 嵐月'),
    i9: N('canon.i9', 'Gingetsu 銀月'),
    i10: N('canon.i10', 'Myojo 明星'),
    i11: N('canon.i11', 'Shagetsu 斜月'),
    i12: N('canon.i12', 'Meigetsu 名月'),
    i13: N('canon.i13', 'Suisei 彗星'),
  },
  // the opening stones' numbers in the stage's words (5.16: five at most)
  ord: {
    1: N('web.ord.1', '1st'),
    2: N('web.ord.2', '2nd'),
    3: N('web.ord.3', '3rd'),
    4: N('web.ord.4', '4th'),
    5: N('web.ord.5', '5th'),
  },
  rule: {
    freestyle: N('rule.freestyle', 'freestyle'),
    standard: N('rule.standard', 'standard'),
    renju: N('rule.renju', 'renju'),
  },
  stage: {
    put3: N('stage.put3', 'place 3 stones'),
    choose: N('stage.choose', 'choose a colour or place 2'),
    put2: N('stage.put2', 'place 2 stones'),
    choose2: N('stage.choose2', 'choose a colour'),
  },
  botwhy: {
    five: N('botwhy.five', 'makes five'),
    'block-five': N('botwhy.block-five', 'blocks a four'),
    'open-four': N('botwhy.open-four', 'makes an open four'),
    'four-three': N('botwhy.four-three', 'makes a four-three'),
    vcf: N('botwhy.vcf', 'wins by continuous fours'),
    vct: N('botwhy.vct', 'wins by continuous threats'),
    'block-open-three': N('botwhy.block-open-three', 'answers an open three'),
    positional: N('botwhy.positional', 'a positional move'),
  },
  // a review's marks (PROTOCOL.md 5.19), the terminal client's words
  mark: {
    'missed-win': N('mark.kind.missed-win', 'missed win'),
    blunder: N('mark.kind.blunder', 'blunder'),
    turning: N('mark.kind.turning', 'turning point'),
  },
  // a puzzle's class (PROTOCOL.md 5.20), the terminal client's words
  pclass: {
    vcf: N('pclass.vcf', 'VCF: win by fours'),
    vct: N('pclass.vct', 'VCT: win by fours and threes'),
  },
};

// A token of a family (reason, result, offer, status, ustate, colour,
// opening, canon, ord, rule, stage, botwhy, mark, pclass) in words.
export function word(family, token) {
  const m = TABLES[family] && Object.hasOwn(TABLES[family], token) ? TABLES[family][token] : null;
  if (m) return say(m);
  if (family === 'botwhy') return t('botwhy.other', 'its own reasons');
  if (family === 'mark') return t('web.mark.other', 'marked move');
  return '?';
}

// A bot's move reason as MOVE carries it ("vcf 7": a word, then the
// plies to the win) in words, the count said as the attacker's moves,
// every other ply ("wins by fours in 4 moves"); the C side's
// i18n_botwhy_text says the same.
export function botWhy(reason) {
  const [w, n] = String(reason || '').split(' ');
  const plies = Number(n);
  if ((w === 'vcf' || w === 'vct') && Number.isInteger(plies) && plies > 0) {
    const moves = Math.floor((plies + 1) / 2);
    return w === 'vcf' ? t('botwhy.vcf.n', 'wins by fours in %d moves', moves) : t('botwhy.vct.n', 'wins by threats in %d moves', moves);
  }
  return word('botwhy', w);
}

// Whether a family has a token (the tests: every word the server sends).
export function known(family, token) {
  return !!(TABLES[family] && Object.hasOwn(TABLES[family], token));
}

// What an error code means (PROTOCOL.md section 7). A ban's or a mute's
// text says until when and why: it goes with the words.
const DETAIL = new Set([402, 407, 412, 414, 415]);

export function errorWords(code, text) {
  const m = ERRORS[code];
  if (!m) return t('err.other', 'The server refused that');
  // the server's own words name what broke (which value, which rule, until
  // when): the page keeps no second copy of the name and password rules
  if (DETAIL.has(code) && text) return t('web.paren', '%s (%s)', say(m), text);
  return say(m);
}

// A time control token (300+5, none) in words.
export function tcWords(tc) {
  const m = /^([0-9]+)\+([0-9]+)$/.exec(tc);
  if (!m) return t('web.tc.none', 'no clock');
  const base = Number(m[1]);
  if (base % 60 === 0) return t('web.tc.min', '%d min + %d s', base / 60, Number(m[2]));
  return t('web.tc.sec', '%d s + %d s', base, Number(m[2]));
}

// An offer's fate in the game log (model.js offerEnded's notice), the
// terminal client's words (client/model.c offer_ended): who accepted or
// declined it, whose was withdrawn or expired, and how many moves an
// accepted undo took back.
export function offerFate(e) {
  if (!e.kind) return t('model.offer_end', '* Offer %lld %s', Number(e.id), word('end', e.end));
  const what = word('offer', e.kind);
  if (e.end === 'accepted' && e.kind === 'undo') {
    return e.plies === 1
      ? t('fate.undone_1', '%s accepted the undo: %d move taken back', e.who, e.plies)
      : t('fate.undone', '%s accepted the undo: %d moves taken back', e.who, e.plies);
  }
  if (e.end === 'accepted') return t('fate.accepted', '%s accepted the %s', e.who, what);
  if (e.end === 'declined') return t('fate.declined', '%s declined the %s', e.who, what);
  if (e.end === 'withdrawn') return t('fate.withdrawn', '%s\'s %s offer was withdrawn', e.who, what);
  return t('fate.expired', '%s\'s %s offer expired', e.who, what);
}

// A bot's candidate score as model.scoreView gives it ({side, value} or
// {side, win}): "black +1.2", "white wins in 3 moves"; short: the board's
// mark on the point, "+1.2" or "W3" (the side as the page's player sees it).
export function scoreWords(v) {
  if (v.win) return t('web.score.win', '%s wins in %d moves', word('colour', v.side), v.win);
  return t('web.score', '%s %s', word('colour', v.side), signed(v.value));
}

export function scoreMark(v, side) {
  if (v.win) return `${v.side === side ? 'W' : 'L'}${v.win}`;
  return signed(v.side === side ? v.value : -v.value);
}

function signed(x) {
  const s = Math.abs(x).toFixed(1);
  return x < 0 && s !== '0.0' ? `\u2212${s}` : `+${s}`;
}

// A game's end: who won and why (the result line, the news, the lists).
export function overWords(result, reason) {
  const why = word('reason', reason);
  if (result === 'black') return t('web.over.black', 'Black wins (%s)', why);
  if (result === 'white') return t('web.over.white', 'White wins (%s)', why);
  if (result === 'draw') return t('web.over.draw', 'Draw (%s)', why);
  return t('web.over.none', 'No result (%s)', why);
}

// The model's news (model.js hear) in words, for the live region that a
// screen reader speaks: "white h9", the start, offers, their fates, the end.
export function newsWords(e) {
  switch (e.what) {
    case 'move': return t('web.news.move', '%s %s', word('colour', e.side), e.mv);
    case 'start': return t('web.news.start', 'The game starts: %s plays black, %s white', e.black, e.white);
    case 'offer': return t('web.offer.theirs', '%s offers: %s.', e.from, word('offer', e.kind));
    case 'fate': return offerFate(e);
    case 'over': return overWords(e.result, e.reason);
    default: return '?';
  }
}

// A canonical renju opening (d1..i13) as the page names it: "D1 Kansei
// 寒星"; '' for none ("-").
export function canonWords(code) {
  if (!known('canon', code)) return '';
  return t('web.canon', '%s %s', code.toUpperCase(), word('canon', code));
}

// The stone a stage places, by its number: "4th" (the number itself past
// the table).
function ordWords(n) {
  return known('ord', String(n)) ? word('ord', String(n)) : String(n);
}

// Where a stage's stone may go (its area token) for the instructions: the
// central KxK, outside it; K from the token itself.
function placeWords(area, ord) {
  const m = /^(in|out)([0-9]+)$/.exec(area);
  if (m && m[1] === 'in') return t('web.open.place.in', 'Place the %s stone in the central %d×%d', ord, Number(m[2]), Number(m[2]));
  if (m) return t('web.open.place.out', 'Place the %s stone outside the central %d×%d', ord, Number(m[2]), Number(m[2]));
  if (area === 'centre') return t('web.open.place.centre', 'Place the %s stone on the centre point', ord);
  return t('web.open.place.any', 'Place the %s stone anywhere', ord);
}

// An opening rule's stage in words (model.js opening(): its tokens), for
// the player who acts (mine) or anyone else: what to do now. plies: the
// stones on the board; picked: the fifth moves picked so far.
export function openingWords(o, plies) {
  const ord = ordWords(plies + 1);
  if (o.mine) {
    switch (o.stage) {
      case 'place': return placeWords(o.area, ord);
      case 'swap': return t('web.open.swap', 'Choose your colour (you hold %s now)', word('colour', o.side));
      case 'declare': return t('web.open.declare', 'Declare how many fifth moves you will offer (1–%d)', o.count);
      case 'offer':
        return o.count === 1
          ? t('web.open.offer1', 'Offer 1 fifth move: tap it, then confirm')
          : t('web.open.offer', 'Offer %d fifth moves: tap them, then confirm (%d picked)', o.count, o.picked.length);
      case 'choose': return t('web.open.choose', 'Choose one of the offered fifth moves');
      case 'branch': return t('web.open.branch', 'Taraguchi: one fifth move in the centre 9×9, or ten offers');
      default: return t('web.open.act', 'Opening: your turn');
    }
  }
  switch (o.stage) {
    case 'place': return t('web.open.other.place', '%s places the %s stone', o.user, ord);
    case 'swap': return t('web.open.other.swap', '%s chooses a colour', o.user);
    case 'declare': return t('web.open.other.declare', '%s declares how many fifth moves to offer', o.user);
    case 'offer': return t('web.open.other.offer', '%s offers %d fifth moves', o.user, o.count);
    case 'choose': return t('web.open.other.choose', '%s chooses one of the offered fifth moves', o.user);
    case 'branch': return t('web.open.other.branch', '%s chooses: one fifth move, or ten offers', o.user);
    default: return t('web.open.other', 'Opening: %s to act', o.user);
  }
}

// ---- the analysis board and the review (PROTOCOL.md 5.17-5.19) ------------

// An engine's line for side (the side to move where it starts) as its
// reason word says it: "black wins by fours (VCF): j9, k10, l11". The
// moves are the game's notation, never translated.
export function lineWords(reason, side, line) {
  const who = word('colour', side);
  const moves = line.join(', ');
  switch (reason) {
    case 'five': return t('web.line.five', '%s makes five: %s', who, moves);
    case 'open-four': return t('web.line.open-four', '%s makes an open four: %s', who, moves);
    case 'four-three': return t('web.line.four-three', '%s wins with a four-three: %s', who, moves);
    case 'vcf': return t('web.line.vcf', '%s wins by fours (VCF): %s', who, moves);
    case 'vct': return t('web.line.vct', '%s wins by threats (VCT): %s', who, moves);
    case 'block-five': return t('web.line.block-five', '%s must block the four: %s', who, moves);
    case 'block-open-three': return t('web.line.block-open-three', '%s answers the open three: %s', who, moves);
    default: return t('web.line.best', '%s\'s best line: %s', who, moves);
  }
}

// ANALYSE's answer (model.js analysis.engine) in words: its reason word
// phrased with its line; a forced result its word does not say (a search
// that proved it) said as one: "white: forced win found: ...".
export function engineWords(e, top) {
  const said = ['five', 'open-four', 'four-three', 'vcf', 'vct'];
  if (top && top.win && !said.includes(e.reason)) {
    const moves = e.pv.join(', ');
    if (top.side === e.mover) return t('web.line.win', '%s: forced win found: %s', word('colour', e.mover), moves);
    return t('web.line.loss', '%s loses by force; the longest defence: %s', word('colour', e.mover), moves);
  }
  return lineWords(e.reason, e.mover, e.pv);
}

// A chance per mille as a whole percentage.
function percent(pm) {
  return Math.round(pm / 10);
}

// A review's mark (model.js review.marks) in words: "Move 8, white:
// blunder (61% → 0%). Better: j9 — white wins by fours (VCF): j9, k10".
export function markWords(m) {
  const head = t('web.mark', 'Move %d, %s: %s (%d%% → %d%%)', m.ply, word('colour', m.side), word('mark', m.kind), percent(m.before), percent(m.after));
  if (m.better === '-' || m.better === m.played) return head;
  const line = m.line.length ? m.line : [m.better];
  return t('web.mark.better', '%s. Better: %s — %s', head, m.better, lineWords(m.reason, m.side, line));
}

// Why the analysis board refused a stone (model.js analysis.refusal):
// the point and the server's reason.
export function refusalWords(r) {
  if (r.why === 'long') return t('web.ana.long', 'A position of more than 100 moves cannot be analysed');
  const why = r.code === 440 ? t('web.ana.over', 'The game is over in this position') : errorWords(r.code, r.code === 402 ? '' : r.text);
  return r.mv ? t('web.ana.refused', '%s: %s', r.mv, why) : why;
}

// A refusal of REVIEW or MARKS (PROTOCOL.md 5.19's table) in words.
const REVIEW_ERRORS = {
  402: N('web.review.402', 'There is no finished game with that number'),
  452: N('web.review.452', 'No review while you play a game, nor of a game still being played'),
  453: N('web.review.453', "You have used this hour's reviews; try again later"),
  506: N('web.review.506', 'Too many reviews are under way; try again shortly'),
};

export function reviewErrorWords(code, text) {
  return REVIEW_ERRORS[code] ? say(REVIEW_ERRORS[code]) : errorWords(code, text);
}

// ---- puzzles (PROTOCOL.md 5.20) ------------------------------------------------

// A puzzle's heading (model.js newPuzzle) in the terminal client's words:
// head "Puzzle 17, rated 1500" (the puzzle's rating), cls "VCF: win by
// fours", goal "Black to move: five within 3 plies".
export function puzzleWords(p) {
  const side = p.side === 'white' ? t('puzzle.white', 'White') : t('puzzle.black', 'Black');
  return {
    head: t('puzzle.head', 'Puzzle %lld, rated %d', Number(p.id), parseInt(p.rating, 10) || 0),
    cls: word('pclass', p.cls),
    goal: t('puzzle.goal', '%s to move: five within %d plies', side, p.plies),
  };
}

// Where the puzzle stands: the move awaited (after the defence's reply,
// said with it), the move judged, the end; the terminal client's words
// where it has them.
export function puzzleStateWords(p) {
  switch (p.state) {
    case 'judging': return t('puzzle.judging', 'Judging %s...', p.trying);
    case 'solved': return t('model.puzzle_solved', 'Solved: %s makes five!', p.played);
    case 'failed':
      return p.cls === 'vcf'
        ? t('web.puzzle.failed_vcf', 'Failed: after %s the win by fours is gone (each move must be a four)', p.played)
        : t('web.puzzle.failed', 'Failed: after %s the win is gone', p.played);
    case 'gone': return t('web.puzzle.gone', 'This puzzle is not open on this connection any more: Try again opens it again.');
    default:
      if (p.reply) return t('model.puzzle_more', '%s holds; the defence answers %s. Your move', p.played, p.reply);
      if (p.again) return t('model.puzzle_again', 'Puzzle %lld again: %s to move and win', Number(p.id), word('colour', p.side));
      return t('model.puzzle_open', 'Puzzle %lld: %s to move and win', Number(p.id), word('colour', p.side));
  }
}

// The end's rating: mine after it as the server wrote it ("1523?": still
// provisional, as the page shows game ratings), with its change when the
// page knew it before; or why the try was not rated (model.js
// puzzleUnrated: guest, again). Empty before the end.
export function puzzleRatingWords(p, unrated) {
  if (p.state !== 'solved' && p.state !== 'failed') return '';
  if (p.mine && p.mine !== '-') {
    if (!p.before) return t('web.puzzle.rating', 'Your puzzle rating: %s', p.mine);
    return t('web.puzzle.rating_change', 'Your puzzle rating: %s (%+d)', p.mine, parseInt(p.mine, 10) - parseInt(p.before, 10));
  }
  if (unrated === 'guest') return t('puzzle.unrated_guest', 'Not rated: a guest has no puzzle rating (an account has one)');
  if (unrated === 'again') return t('puzzle.unrated_again', 'Not rated: you had tried this puzzle before; only a first try is rated');
  return t('puzzle.unrated', 'Not rated: only an account\'s first try of a puzzle is');
}

// A refusal of PUZZLE or SOLVE (PROTOCOL.md 5.20's table) in words, the
// move refused before it; a PUZZLE next with none left for me is said as
// err.456 says it, the others in the puzzles' own words.
const PUZZLE_ERRORS = {
  402: N('model.err.puzzle_402', 'There is no puzzle of that number'),
  441: N('web.puzzle.441', 'That puzzle is not open on this connection any more; Try again opens it again'),
  452: N('model.err.puzzle_452', 'No puzzles while you play a game; finish it first'),
  456: N('model.err.puzzle_456', 'No puzzle yet: puzzles are made from the missed wins of reviewed public games'),
  506: N('model.err.puzzle_506', 'The solvers are all busy; try again shortly'),
};

export function puzzleErrorWords(e) {
  if (e.unreadable) return t('model.puzzle_unreadable', 'The server sent a puzzle that cannot be read');
  let why;
  if (e.code === 456 && e.ask === 'next') why = errorWords(456);
  else why = PUZZLE_ERRORS[e.code] ? say(PUZZLE_ERRORS[e.code]) : errorWords(e.code, e.text);
  return e.mv ? t('web.ana.refused', '%s: %s', e.mv, why) : why;
}

// ---- tournaments (PROTOCOL.md 5.21) ---------------------------------------------

const TOURNEY = {
  kind: {
    arena: N('web.tourney.kind.arena', 'arena'),
    swiss: N('web.tourney.kind.swiss', 'Swiss'),
    robin: N('web.tourney.kind.robin', 'round robin'),
  },
  state: {
    soon: N('web.tourney.state.soon', 'starting soon'),
    running: N('web.tourney.state.running', 'under way'),
    over: N('web.tourney.state.over', 'over'),
    cancelled: N('web.tourney.state.cancelled', 'cancelled'),
  },
  entrants: {
    people: N('web.tourney.entrants.people', 'people'),
    bots: N('web.tourney.entrants.bots', 'bots'),
    both: N('web.tourney.entrants.both', 'people and bots'),
  },
  pstatus: {
    active: N('web.tourney.pstatus.active', 'waiting'),
    playing: N('web.tourney.pstatus.playing', 'playing'),
    withdrawn: N('web.tourney.pstatus.withdrawn', 'withdrawn'),
  },
  // why Join is not offered (model.js tourneyJoin)
  why: {
    over: N('web.tourney.why.over', 'This tournament is over.'),
    bots: N('web.tourney.why.bots', 'This tournament is for bots only.'),
    guest: N('web.tourney.why.guest', 'A rated tournament needs an account: register or log in to join.'),
    started: N('web.tourney.why.started', 'It has started: players join a Swiss or a round robin before its start.'),
    left: N('web.tourney.why.left', 'You left it: a Swiss or a round robin cannot be joined again.'),
  },
};

// The tie-breaks of each kind, in the order TPLAYER sends them: a short
// column head, its full name, and the unit the value is sent in (2:
// halves, 4: quarters, 1: a count or a rating).
const TIEBREAKS = {
  swiss: [
    [N('web.tourney.tb.bhc1', 'BH-1'), N('web.tourney.tb.bhc1.name', 'Buchholz Cut-1'), 2],
    [N('web.tourney.tb.bh', 'BH'), N('web.tourney.tb.bh.name', 'Buchholz'), 2],
    [N('web.tourney.tb.mbh', 'MBH'), N('web.tourney.tb.mbh.name', 'Median Buchholz'), 2],
    [N('web.tourney.tb.sb', 'SB'), N('web.tourney.tb.sb.name', 'Sonneborn-Berger'), 4],
  ],
  robin: [
    [N('web.tourney.tb.sb', 'SB'), N('web.tourney.tb.sb.name', 'Sonneborn-Berger'), 4],
    [N('web.tourney.tb.wins', 'Wins'), N('web.tourney.tb.wins.name', 'Games won'), 1],
  ],
  arena: [
    [N('web.tourney.tb.rating', 'Rating'), N('web.tourney.tb.rating.name', 'Rating'), 1],
  ],
};

// A tournament's token of a family (kind, state, entrants, pstatus, why).
export function tourneyWord(family, token) {
  const m = TOURNEY[family] && Object.hasOwn(TOURNEY[family], token) ? TOURNEY[family][token] : null;
  return m ? say(m) : '?';
}

// A value sent in units of 1/unit, said with its fraction: 5 halves
// "2½", 7 quarters "1¾", -1 half "−½".
export function fraction(v, unit) {
  const neg = v < 0;
  const a = Math.abs(v);
  const whole = Math.floor(a / unit);
  const part = { 0: '', 1: '¼', 2: '½', 3: '¾' }[((a % unit) * 4) / unit] || '';
  const s = whole || !part ? `${whole}${part}` : part;
  return neg ? `\u2212${s}` : s;
}

// Points as shown: a Swiss's and a round robin's halved, an arena's as
// counted (its wins 2, its draws 1, doubled on a streak).
export function pointsWords(kind, points) {
  return kind === 'arena' ? String(points) : fraction(points, 2);
}

// The tie-breaks' columns of a kind: [{head, name}].
export function tiebreakHeads(kind) {
  return (TIEBREAKS[kind] || []).map(([head, name]) => ({ head: say(head), name: say(name) }));
}

// A player's tie-breaks in their units.
export function tiebreakValues(kind, vals) {
  return (TIEBREAKS[kind] || []).map(([, , unit], i) => (vals[i] === undefined ? '' : fraction(vals[i], unit)));
}

// A pairing's result in words (TGAME's result: pending, first, second,
// draw, the forfeits, bye), with the players' names.
export function tgameWords(g) {
  switch (g.result) {
    case 'pending': return g.room === '-' ? t('web.tourney.res.soon', 'about to start') : t('web.tourney.res.pending', 'under way');
    case 'first': return t('web.tourney.res.won', '%s won', g.first);
    case 'second': return t('web.tourney.res.won', '%s won', g.second);
    case 'draw': return t('web.tourney.res.draw', 'draw');
    case 'first-forfeit': return t('web.tourney.res.forfeit', '%s forfeited', g.first);
    case 'second-forfeit': return t('web.tourney.res.forfeit', '%s forfeited', g.second);
    case 'both-forfeit': return t('web.tourney.res.both', 'both forfeited');
    case 'bye': return t('web.tourney.res.bye', 'bye');
    default: return '?';
  }
}

// Seconds as a countdown: "4:05", "1:02:09".
export function countdown(s) {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

// An event's line: its name (or its kind), its kind, rule, size and time.
export function tourneyTitle(i) {
  return i.name || t('web.tourney.unnamed', '%s %lld', tourneyWord('kind', i.kind), Number(i.id));
}

export function tourneyWhat(i) {
  return t('web.tourney.what', '%s · %s %d×%d · %s', tourneyWord('kind', i.kind), word('rule', i.rule), i.size, i.size, tcWords(i.tc));
}

// Its length: an arena's minutes, a Swiss's rounds, a round robin's cycles.
export function tourneyLength(i) {
  if (i.kind === 'arena') return t('web.tourney.len.arena', '%d minutes', i.length);
  if (i.kind === 'swiss') return i.length === 1 ? t('web.tourney.len.swiss1', 'one round') : t('web.tourney.len.swiss', '%d rounds', i.length);
  return i.length === 1 ? t('web.tourney.len.robin1', 'one cycle') : t('web.tourney.len.robin', '%d cycles', i.length);
}

// Where it stands: the countdown to its start, an arena's time left, the
// round of a Swiss or round robin (rounds: its count, null unknown), or
// its end. left: seconds (model.js tourneyLeft).
export function tourneyWhen(i, left, rounds) {
  if (i.state === 'soon') return t('web.tourney.when.soon', 'Starts in %s', countdown(left || 0));
  if (i.state === 'running' && i.kind === 'arena') return t('web.tourney.when.arena', 'Under way: %s left', countdown(left || 0));
  if (i.state === 'running') {
    return rounds ? t('web.tourney.when.round', 'Round %d of %d', i.round, rounds) : t('web.tourney.when.round1', 'Round %d', i.round);
  }
  return tourneyWord('state', i.state);
}

// Its players: "one player", "5 players".
export function tourneyPlayers(n) {
  return n === 1 ? t('web.tourney.players1', 'one player') : t('web.tourney.players', '%d players', n);
}

// The question Leave asks before TLEAVE (PROTOCOL.md 5.21): before the
// start it only takes the player out; after the start of a Swiss or a
// round robin the player is paired no more and cannot join again; an
// arena's player may join again until its end. A game under way plays on.
export function tourneyLeaveAsk(i) {
  if (i.state === 'soon') return t('web.tourney.ask.soon', 'Leave this tournament before it starts?');
  if (i.kind === 'arena') return t('web.tourney.ask.arena', 'Leave the arena? You get no more games until you join again (a game under way plays on).');
  return t('web.tourney.ask.started', 'It has started: if you leave, you get no more pairings and cannot join again (a game under way plays on). Leave?');
}

// TCREATE's refusals (PROTOCOL.md 5.21) in the tournaments' words; the
// others as any error.
const TOURNEY_ERRORS = {
  402: N('web.tourney.err.402', 'That tournament cannot be made: it needs a clock, a start from 5 seconds to a week, a length in range and a name of at most 120 bytes'),
  417: N('web.tourney.err.417', 'Only accounts create tournaments: register or log in'),
  453: N('web.tourney.err.453', 'You have as many tournaments not yet over as you may'),
};

export function tourneyErrorWords(code, text) {
  return TOURNEY_ERRORS[code] ? say(TOURNEY_ERRORS[code]) : errorWords(code, text);
}

// ---- the engine league (PROTOCOL.md 5.23) ---------------------------------------

// What a league plays: its rule, board and clock.
export function leagueWhat(l) {
  return t('web.league.what', '%s %d×%d · %s', word('rule', l.rule), l.size, l.size, tcWords(l.tc));
}

// Its table's size and its rated games so far.
export function leagueCount(l) {
  return t('web.league.count', '%d players · %d rated games', l.players, l.games);
}

// An Elo around the league's mean 0, signed: "+112", "−12", "0".
export function eloWords(elo) {
  if (elo > 0) return `+${elo}`;
  return elo < 0 ? `\u2212${-elo}` : '0';
}

// Its 95% error bar, above and below: "+28 / −35", or "±30" when even.
export function eloBar(minus, plus) {
  if (minus === plus) return t('web.league.bar.even', '±%d', plus);
  return t('web.league.bar', '+%d / \u2212%d', plus, minus);
}

// The bar in words, for a screen reader and a tooltip.
export function eloRange(r) {
  return t('web.league.range', 'Elo %s; 95%% sure it lies from %s to %s', eloWords(r.elo), eloWords(r.elo - r.minus), eloWords(r.elo + r.plus));
}

// Where its events stand: the next one's start (seconds from now), or the
// one under way; "" before any is planned.
export function leagueNext(l, left) {
  if (l.next !== null) return t('web.league.next', 'Next event in %s', countdown(Math.max(0, left)));
  return l.tourney !== null ? t('web.league.running', 'An event is under way') : '';
}

// LEAGUE's refusal: the error's words with the server's own (the name it
// does not know).
export function leagueErrorWords(code, text) {
  return text ? t('web.paren', '%s (%s)', errorWords(code), text) : errorWords(code);
}
