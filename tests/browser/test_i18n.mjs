#!/usr/bin/env node
// test_i18n.mjs: the web board's language code in node (client/web/i18n.js,
// words.js; docs/i18n.md): the browser's languages to a catalog, the
// printf directives the C formats use, the English when a key is missing,
// and a word for every error code of PROTOCOL.md and every game-end
// reason, never the raw token. Run from the top of the tree:
// node tests/browser/test_i18n.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { format, htmlLang, pickLanguage, t } from '../../client/web/i18n.js';
import {
  botWhy, canonWords, engineWords, errorWords, known, lineWords, markWords, openingWords, puzzleErrorWords, puzzleRatingWords, puzzleStateWords,
  puzzleWords, refusalWords, reviewErrorWords, tcWords, tourneyLeaveAsk, word,
} from '../../client/web/words.js';

// Leave's question says what leaving costs: nothing before the start; no
// more pairings (and no way back) once a Swiss or round robin started; an
// arena's player may come back
assert.equal(tourneyLeaveAsk({ kind: 'swiss', state: 'soon' }), 'Leave this tournament before it starts?');
assert.equal(tourneyLeaveAsk({ kind: 'arena', state: 'soon' }), 'Leave this tournament before it starts?');
for (const kind of ['swiss', 'robin']) {
  assert.match(tourneyLeaveAsk({ kind, state: 'running' }), /^It has started: if you leave, you get no more pairings and cannot join again/, kind);
}
assert.match(tourneyLeaveAsk({ kind: 'arena', state: 'running' }), /no more games until you join again/);
console.log('ok Leave\'s question: before the start, a Swiss\'s or round robin\'s after it (no more pairings), an arena\'s');

const have = ['en', 'zh_CN'];
for (const [tags, want] of [
  [['zh'], 'zh_CN'], [['zh-CN'], 'zh_CN'], [['zh-Hans'], 'zh_CN'], [['zh-SG'], 'zh_CN'],
  [['zh-Hans-CN'], 'zh_CN'], [['zh-cn'], 'zh_CN'], [['zh_CN'], 'zh_CN'],
  [['zh-TW'], 'en'], [['zh-Hant'], 'en'], [['zh-HK', 'zh-CN'], 'zh_CN'],
  [['en-US', 'zh-CN'], 'en'], [['fr-FR', 'zh'], 'zh_CN'], [['ja', 'ko'], 'en'], [[], 'en'],
]) {
  assert.equal(pickLanguage(tags, have), want, `${tags.join(',')}`);
}
assert.equal(pickLanguage(['pt-BR'], ['en', 'pt']), 'pt');
assert.equal(pickLanguage(['pt-BR'], ['en', 'pt', 'pt_BR']), 'pt_BR');
assert.equal(pickLanguage(['zh-TW'], ['en', 'zh_CN', 'zh_TW']), 'zh_TW');
assert.equal(htmlLang('zh_CN'), 'zh-CN');
assert.equal(htmlLang('en'), 'en');
console.log('ok the browser\'s languages to a catalog: zh, zh-CN, zh-Hans, zh-SG are zh_CN, the rest English');

assert.equal(format('%s vs %s', ['a', 'b']), 'a vs b');
assert.equal(format(' #%-6lld %s %2d', [42, 'x', 5]), ' #42     x  5');
assert.equal(format('%+d|%+d|%d%%', [3, -2, 7]), '+3|-2|7%');
assert.equal(format('%.3s|%5s|%-3s|', ['abcdef', 'ab', 'c']), 'abc|   ab|c  |');
assert.equal(format('%02lld:%02lld', [5, 7]), '05:07');
assert.equal(t('no.such.key', 'Room %s is played at %s', 'a1', 'b:5555'), 'Room a1 is played at b:5555');
console.log('ok printf directives as the C formats write them; the English when the catalog lacks a key');

const codes = readFileSync('proto/PROTOCOL.md', 'utf8').split('\n')
  .map((l) => /^\| ([0-9]{3}) \| `[a-z-]*` \|/.exec(l)).filter(Boolean).map((m) => Number(m[1]));
assert.ok(codes.length > 40, 'no error codes read from PROTOCOL.md');
const other = errorWords(999);
for (const c of codes) {
  const w = errorWords(c);
  assert.notEqual(w, other, `error ${c} has no words`);
  assert.doesNotMatch(w, /^[0-9]|[a-z]+-[a-z]+$/, `error ${c}: ${w}`);
}
assert.match(errorWords(414, 'until 2026-12-08'), /banned.*\(until 2026-12-08\)$/);
for (const r of ['five', 'resign', 'time', 'forbidden', 'draw-agreed', 'board-full', 'abandoned', 'aborted']) assert.ok(known('reason', r), r);
for (const f of ['black', 'white', 'draw', 'none']) assert.ok(known('result', f), f);
assert.equal(word('reason', 'draw-agreed'), 'draw agreed');
assert.equal(word('reason', 'no-such-reason'), '?');
assert.equal(word('botwhy', 'something-new'), 'its own reasons');
// a bot's reason with its count, as the attacker's moves (every other ply)
assert.equal(botWhy('vcf 7'), 'wins by fours in 4 moves');
assert.equal(botWhy('vct 9'), 'wins by threats in 5 moves');
assert.equal(botWhy('vcf'), 'wins by continuous fours');
assert.equal(botWhy('block-five'), 'blocks a four');
assert.equal(botWhy('block-open-three'), 'answers an open three');
assert.equal(tcWords('300+5'), '5 min + 5 s');
assert.equal(tcWords('none'), 'no clock');
console.log(`ok words for all ${codes.length} error codes of PROTOCOL.md and every game-end reason; an unknown token is never shown raw`);

// the opening rules (PROTOCOL.md 5.16): a word for every rule, a name for
// every canonical renju opening the server may name, words for every stage
const spec = readFileSync('proto/PROTOCOL.md', 'utf8');
const rules = /\| opening \| (`[a-z0-9]+`(?: \\\| `[a-z0-9]+`)*) \|/.exec(spec);
assert.ok(rules && rules[1].match(/[a-z0-9]+/g).length === 9, 'the nine opening tokens not read from PROTOCOL.md');
for (const tok of rules[1].match(/[a-z0-9]+/g)) assert.ok(known('opening', tok), `opening ${tok} has no words`);
for (const d of ['d', 'i']) for (let n = 1; n <= 13; n++) assert.ok(known('canon', `${d}${n}`), `${d}${n} has no name`);
assert.equal(canonWords('d1'), 'D1 Kansei 寒星');
assert.equal(canonWords('i13'), 'I13 Suisei 彗星');
assert.equal(canonWords('-'), '');
const stages = ['place', 'swap', 'swap-or-place', 'declare', 'offer', 'choose', 'branch'];
for (const stage of stages) {
  for (const mine of [true, false]) {
    const w = openingWords({ stage, mine, user: 'bob', side: 'white', area: 'in7', count: 2, offers: [], picked: [] }, 3);
    assert.doesNotMatch(w, /\?|undefined|%/, `${stage}: ${w}`);
  }
}
assert.equal(openingWords({ stage: 'place', mine: true, area: 'in7' }, 3), 'Place the 4th stone in the central 7×7');
assert.equal(openingWords({ stage: 'place', mine: true, area: 'out5' }, 2), 'Place the 3rd stone outside the central 5×5');
assert.equal(openingWords({ stage: 'place', mine: true, area: 'centre' }, 0), 'Place the 1st stone on the centre point');
assert.equal(openingWords({ stage: 'offer', mine: true, count: 10, picked: ['a1'] }, 4), 'Offer 10 fifth moves: tap them, then confirm (1 picked)');
assert.equal(openingWords({ stage: 'declare', mine: true, count: 8 }, 4), 'Declare how many fifth moves you will offer (1–8)');
console.log('ok words for every opening rule, every canonical renju opening (D1 Kansei 寒星 ... I13 Suisei 彗星) and every opening stage');

// the analysis board and the review (PROTOCOL.md 5.17-5.19): a word for
// every mark kind and every reason word of the engine, the marks phrased
// from their fields, every refusal of 5.19's table in words
const at19 = spec.indexOf('### 5.19');
const s19 = spec.slice(at19, spec.indexOf('\n#', at19 + 1)); // to the next heading
const kinds = [...s19.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
assert.deepEqual(kinds, ['missed-win', 'blunder', 'turning'], 'the mark kinds not read from PROTOCOL.md');
for (const k of kinds) assert.ok(known('mark', k), `mark ${k} has no words`);
assert.equal(word('mark', 'new-kind'), 'marked move');
const reasons = /`reason` the engine's word for `better`\s*\(([^)]*)\)/.exec(s19);
assert.ok(reasons, 'the reason words not read from PROTOCOL.md');
const said = new Set();
for (const r of reasons[1].match(/`[a-z-]+`/g).map((x) => x.slice(1, -1))) {
  const w = lineWords(r, 'black', ['j9', 'k10']);
  assert.match(w, /^black.*: j9, k10$/, `${r}: ${w}`);
  said.add(w.replace(/: j9, k10$/, ''));
}
assert.equal(said.size, 8, 'two reason words said the same');
assert.equal(lineWords('vcf', 'black', ['j9', 'k10', 'l11']), 'black wins by fours (VCF): j9, k10, l11');
assert.equal(lineWords('something-new', 'white', ['a1']), 'white\'s best line: a1');
assert.equal(markWords({ kind: 'blunder', side: 'white', ply: 8, played: 'c3', better: 'j9', before: 612, after: 0, reason: 'vcf', line: ['j9', 'k10', 'l11'] }),
  'Move 8, white: blunder (61% → 0%). Better: j9 — white wins by fours (VCF): j9, k10, l11');
assert.equal(markWords({ kind: 'missed-win', side: 'black', ply: 5, played: 'h10', better: '-', before: 1000, after: 600, reason: 'positional', line: [] }),
  'Move 5, black: missed win (100% → 60%)');
assert.equal(markWords({ kind: 'turning', side: 'black', ply: 7, played: 'h11', better: 'h11', before: 655, after: 1000, reason: 'open-four', line: ['h11'] }),
  'Move 7, black: turning point (66% → 100%)', 'the move played was the best: no better one');
assert.equal(markWords({ kind: 'blunder', side: 'white', ply: 2, played: 'a1', better: 'h9', before: 498, after: 120, reason: 'positional', line: [] }),
  'Move 2, white: blunder (50% → 12%). Better: h9 — white\'s best line: h9', 'a line of another node: its better move alone');
// ANALYSE's answer: its reason word; a forced result its word does not say
assert.equal(engineWords({ reason: 'vcf', mover: 'black', pv: ['j9', 'k10'] }, { side: 'black', win: 2 }), 'black wins by fours (VCF): j9, k10');
assert.equal(engineWords({ reason: 'positional', mover: 'white', pv: ['a1', 'b2'] }, { side: 'white', win: 4 }), 'white: forced win found: a1, b2');
assert.equal(engineWords({ reason: 'block-five', mover: 'white', pv: ['a1'] }, { side: 'black', win: 2 }), 'white loses by force; the longest defence: a1');
assert.equal(engineWords({ reason: 'positional', mover: 'black', pv: ['g9', 'f10'] }, { side: 'black', value: 1.6 }), 'black\'s best line: g9, f10');
// the board's refusals, the point first; the server's English text not shown
assert.equal(refusalWords({ code: 434, text: 'move 9 (j8): double-three', mv: 'j8' }), 'j8: Forbidden for black under renju: a double three');
assert.equal(refusalWords({ code: 432, text: 'move 9 (h8): occupied', mv: 'h8' }), 'h8: That point is already taken');
assert.equal(refusalWords({ code: 440, text: 'x', mv: 'a5' }), 'a5: The game is over in this position');
assert.equal(refusalWords({ code: 402, text: 'no such board for that rule', mv: null }), 'A value in that request is out of range');
assert.equal(refusalWords({ why: 'long', mv: 'a1' }), 'A position of more than 100 moves cannot be analysed');
const s19codes = [...s19.matchAll(/\| `([0-9]{3}) [a-z-]+` \|$/gm)].map((m) => Number(m[1]));
assert.deepEqual([...new Set(s19codes)].sort(), [402, 452, 453, 454, 455, 506], 'the codes of 5.19 not read from PROTOCOL.md');
const rw = new Set();
for (const c of s19codes) {
  const w = reviewErrorWords(c, 'the next in 12 minutes');
  assert.notEqual(w, errorWords(999), `review error ${c} has no words`);
  assert.doesNotMatch(w, /minutes|[0-9]{3}/, `review error ${c}: ${w}`);
  rw.add(w);
}
assert.equal(rw.size, 6);
assert.match(reviewErrorWords(453), /reviews/);
assert.match(reviewErrorWords(455), /not been reviewed/);
console.log(`ok words for the ${kinds.length} mark kinds, the engine's ${said.size} reason words, a mark phrased from its fields, the board's refusals and the ${rw.size} review refusals`);

// a puzzle (PROTOCOL.md 5.20): its class words for both classes of 5.20's
// table, its heading, where it stands, its end and rating, and every
// refusal of 5.20's table in the puzzles' own words
const at20 = spec.indexOf('### 5.20');
const s20 = spec.slice(at20, spec.indexOf('\n#', at20 + 1));
const classes = [...s20.matchAll(/^\| `([a-z]+)` \| [a-z]/gm)].map((m) => m[1]);
assert.deepEqual(classes, ['vcf', 'vct'], 'the puzzle classes not read from PROTOCOL.md');
for (const c of classes) assert.ok(known('pclass', c), `class ${c} has no words`);
const pz = { id: '17', rule: 'freestyle', size: 15, cls: 'vcf', plies: 3, rating: '1500', side: 'black', state: 'open', again: false, reply: null };
assert.deepEqual(puzzleWords(pz), { head: 'Puzzle 17, rated 1500', cls: 'VCF: win by fours', goal: 'Black to move: five within 3 plies' });
assert.equal(puzzleWords({ ...pz, cls: 'vct', side: 'white', plies: 11 }).goal, 'White to move: five within 11 plies');
assert.equal(puzzleWords({ ...pz, cls: 'vct' }).cls, 'VCT: win by fours and threes');
assert.equal(puzzleStateWords(pz), 'Puzzle 17: black to move and win');
assert.equal(puzzleStateWords({ ...pz, again: true }), 'Puzzle 17 again: black to move and win');
assert.equal(puzzleStateWords({ ...pz, state: 'judging', trying: 'g8' }), 'Judging g8...');
assert.equal(puzzleStateWords({ ...pz, played: 'g8', reply: 'f8' }), 'g8 holds; the defence answers f8. Your move');
assert.equal(puzzleStateWords({ ...pz, state: 'solved', played: 'k8' }), 'Solved: k8 makes five!');
assert.equal(puzzleStateWords({ ...pz, state: 'failed', played: 'n2' }), 'Failed: after n2 the win by fours is gone (each move must be a four)');
assert.equal(puzzleStateWords({ ...pz, cls: 'vct', state: 'failed', played: 'n2' }), 'Failed: after n2 the win is gone');
assert.match(puzzleStateWords({ ...pz, state: 'gone' }), /not open on this connection any more/);
assert.equal(puzzleRatingWords(pz, null), '', 'no rating before the end');
assert.equal(puzzleRatingWords({ ...pz, state: 'solved', mine: '1662?', before: null }, null), 'Your puzzle rating: 1662?');
assert.equal(puzzleRatingWords({ ...pz, state: 'failed', mine: '1640?', before: '1662?' }, null), 'Your puzzle rating: 1640? (-22)');
assert.equal(puzzleRatingWords({ ...pz, state: 'solved', mine: '1700', before: '1662?' }, null), 'Your puzzle rating: 1700 (+38)');
assert.equal(puzzleRatingWords({ ...pz, state: 'solved', mine: '-' }, 'guest'), 'Not rated: a guest has no puzzle rating (an account has one)');
assert.equal(puzzleRatingWords({ ...pz, state: 'failed', mine: '-' }, 'again'), 'Not rated: you had tried this puzzle before; only a first try is rated');
const s20codes = [...new Set([...s20.matchAll(/\| `([0-9]{3}) [a-z-]+` \|$/gm)].map((m) => Number(m[1])))].sort();
assert.deepEqual(s20codes, [402, 441, 452, 456, 506], 'the codes of 5.20 not read from PROTOCOL.md');
const pw = new Set();
for (const c of s20codes) {
  const w = puzzleErrorWords({ code: c, text: 'no puzzles while you play a game (r4)', ask: 'daily' });
  assert.notEqual(w, errorWords(999), `puzzle error ${c} has no words`);
  assert.notEqual(w, errorWords(c), `puzzle error ${c}: the general words, not the puzzles'`);
  assert.doesNotMatch(w, /r4/, `puzzle error ${c}: ${w}`);
  pw.add(w);
}
assert.equal(pw.size, s20codes.length);
assert.equal(puzzleErrorWords({ code: 456, ask: 'next' }), 'No puzzle for you now: none left, or none yet');
assert.equal(puzzleErrorWords({ code: 402, ask: '99' }), 'There is no puzzle of that number');
assert.equal(puzzleErrorWords({ code: 432, text: 'occupied', mv: 'h8' }), 'h8: That point is already taken');
assert.equal(puzzleErrorWords({ code: 434, text: 'move 9 (j8): double-three', mv: 'j8' }), 'j8: Forbidden for black under renju: a double three');
assert.equal(puzzleErrorWords({ unreadable: true }), 'The server sent a puzzle that cannot be read');
console.log(`ok words for the ${classes.length} puzzle classes, a puzzle's heading, its states, its end's rating or why unrated, and the ${pw.size} refusals of 5.20 (and a move's)`);
