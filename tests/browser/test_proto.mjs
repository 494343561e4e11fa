#!/usr/bin/env node
// test_proto.mjs: the web client's protocol parser (client/web/proto.js)
// against every transcript line of proto/PROTOCOL.md, as tests/unit/
// test_proto.c does for the C library: each parses and formats back to
// itself. Then lines it must refuse, and lines it must tolerate.
// Run from the top of the tree: node tests/browser/test_proto.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as proto from '../../client/web/proto.js';
import { errorWords } from '../../client/web/words.js';

const md = readFileSync('proto/PROTOCOL.md', 'utf8').split('\n');
let n = 0;
for (const line of md) {
  let msg;
  let server;
  if (line.startsWith('    S\u2192C') && line.length > 10) {
    server = true;
    msg = line.slice(10);
  } else if (line.startsWith('    C') && line[9] === ' ' && line.length > 10 && line[10] !== ' ') {
    server = false;
    msg = line.slice(10);
  } else {
    continue;
  }
  if (msg.includes('...') || msg.startsWith('(')) continue;
  if (server) {
    let m;
    try {
      m = proto.parseServer(msg);
    } catch (e) {
      assert.fail(`PROTOCOL.md "${msg}": ${e.message}`);
    }
    assert.ok(!m.unknown, `PROTOCOL.md "${msg}": not in the table`);
    assert.equal(proto.formatServer(m), msg);
  } else {
    const r = proto.parseRequest(msg);
    assert.equal(proto.formatRequest(r), msg);
  }
  n++;
}
assert.ok(n > 50, `only ${n} transcript lines`);
console.log(`ok PROTOCOL.md: ${n} transcript lines parse and format back`);

// fields are checked, not only split
const bad = [
  '* MOVE r1 2 black z99 100 100',
  '* MOVE R1 2 black h8 100 100',
  '* START r1 1 alice bob gomoku 15 60+1 none casual 60000 60000',
  '* OVER r1 14 black five h8,i8,j8,k8,l8 extra',
  '= CLOCK r1 58100',
  'OK',
  'ERR 4x bad',
  'hello',
  '* SAY r1 4 bob hi\u0007',
  '* THINK r1 3 bot5 4 h8:12,zz:3',
];
for (const l of bad) assert.throws(() => proto.parseServer(l), `accepted "${l}"`);
console.log(`ok ${bad.length} malformed server lines refused`);

// what it does not know it keeps, for a newer server's lines
const u = proto.parseServer('* NEWS welcome to the server');
assert.equal(u.unknown, true);
assert.equal(u.name, 'NEWS');
assert.deepEqual(u.args, ['welcome', 'to', 'the', 'server']);
const s = proto.parseServer('* SAY r1 4 bob  two  spaces ');
assert.equal(s.fields.text, 'two  spaces ');
for (const l of ['* BYE takeover', '* BYE shutdown server restarting', '* SEATED r12',
  '* CHALLENGE 3 alice bob freestyle 15 300+5 white rated swap2', '* CHALLENGEEND 3 expired',
  '= SEEK 4 alice renju 15 300+5 black rated none human', '* MOVED alpha12 play2.example.org:5555']) {
  const m = proto.parseServer(l);
  assert.ok(!m.unknown, `"${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
assert.equal(proto.parseServer('* BYE shutdown server restarting').fields.text, 'server restarting');
assert.equal(proto.parseServer('* MOTD welcome to the server').fields.text, 'welcome to the server');
assert.match(errorWords(414, 'until 2026-12-08 10:00 UTC: spam'), /banned .*until 2026-12-08/);
const e = proto.parseServer('ERR #w7 434 double-three forbidden for black');
assert.deepEqual([e.tag, e.code, e.reason, e.text], ['#w7', 434, 'double-three', 'forbidden for black']);
assert.match(errorWords(434), /double three/);
assert.equal(proto.parseRequest('#t SAY r1 hello  world').args[1], 'hello  world');
assert.throws(() => proto.formatRequest({ name: 'SAY', args: ['r1', 'a\nb'] }));
assert.deepEqual(proto.moveToXY('a1', 15), { x: 0, y: 14 });
assert.equal(proto.xyToMove(7, 7, 15), 'h8');
assert.equal(proto.moveToXY('p1', 15), null);
console.log('ok unknown events kept, free text kept, requests formatted, moves mapped');

// the opening rules (`openings`, PROTOCOL.md 5.16): the C parser's forms
// (tests/unit/test_proto.c), field for field
for (const l of [
  '* OPENING r3 5 declare alice black - 8 i13 -',
  '* OPENING r3 6 swap-or-place bob white any 0 - -',
  '* OPENING r3 7 place bob white in7 0 d1 -',
  '* OPENING r3 12 choose bob white offers 2 d4 e4,l11',
  '* OPENING r3 4 branch alice black - 0 d10 -',
  '* OPENING r3 2 place alice black out5 0 - -',
  '= OPENING r3 choose bob white offers 2 d4 e4,l11',
  '= OPENING r3 offer alice black any 10 i7 -',
  'OK OPENING r3 9',
]) {
  const m = proto.parseServer(l);
  assert.ok(!m.unknown, `"${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
const op = proto.parseServer('* OPENING r3 12 choose bob white offers 2 d4 e4,l11').fields;
assert.deepEqual([op.stage, op.user, op.side, op.area, op.count, op.opening, proto.moveList(op.offers)],
  ['choose', 'bob', 'white', 'offers', '2', 'd4', ['e4', 'l11']]);
for (const l of [
  '* OPENING r3 5 done alice black - 0 - -', // no such stage
  '* OPENING r3 5 place alice black in11 0 - -', // no such area
  '* OPENING r3 5 swap alice black - 0 d14 -', // no such opening
  '* OPENING r3 5 swap alice black - 0 d0 -',
  '* OPENING r3 5 swap alice grey - 0 - -',
  '* OPENING r3 5 swap alice black - 0 -', // a field missing
  '* OPENING r3 5 swap alice black - 0 - - x',
  '= OPENING r3 5 swap alice black - 0 - -', // a snapshot's has no seq
]) assert.throws(() => proto.parseServer(l), `accepted "${l}"`);
for (const l of ['OPENING place r3 h8', 'OPENING colour r3 white', 'OPENING declare r3 10', 'OPENING offer r3 e4,l11',
  'OPENING choose r3 l11', 'OPENING branch r3 ten']) {
  assert.equal(proto.formatRequest(proto.parseRequest(l)), l);
}
console.log('ok the opening rules\' lines: * OPENING, = OPENING, OK OPENING and the requests, as the C parser reads them');

// the analysis board's and the review's lines (`position`, `analysis`,
// `review`; PROTOCOL.md 5.17-5.19): each parses to its fields and formats
// back; the replies the page reads by name get their fields
for (const l of [
  '* REVIEWING 1234 0 12', '* REVIEWED 1234 ok 11 2', '* REVIEWED 1234 failed 0 0',
  '= EVAL 1234 0 500,531,488,540,512,602,391,655,1000,1000,0,1000', '= EVAL 7 50 0',
  '= MARK 1234 blunder white 8 c3 j9 612 0 vcf j9,k10,l11,m12', '= MARK 9 missed-win black 3 a1 - 1000 500 positional -',
  '= FORBIDDEN - j8,k9',
]) {
  const m = proto.parseServer(l);
  assert.ok(!m.unknown, `"${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
const ev = proto.parseServer('* REVIEWING 1234 5 12').fields;
assert.deepEqual([ev.id, ev.done, ev.total], ['1234', '5', '12']);
const ed = proto.parseServer('* REVIEWED 1234 ok 11 2').fields;
assert.deepEqual([ed.id, ed.how, ed.plies, ed.marks], ['1234', 'ok', '11', '2']);
const evl = proto.parseServer('= EVAL 1234 50 500,1000,0').fields;
assert.deepEqual([evl.id, evl.index, evl.chances], ['1234', '50', '500,1000,0']);
const mk = proto.parseServer('= MARK 1234 turning white 8 c3 j9 612 0 vcf j9,k10,l11,m12').fields;
assert.deepEqual([mk.kind, mk.side, mk.ply, mk.played, mk.better, mk.before, mk.after, mk.reason, proto.moveList(mk.line)],
  ['turning', 'white', '8', 'c3', 'j9', '612', '0', 'vcf', ['j9', 'k10', 'l11', 'm12']]);
for (const [l, want] of [
  ['OK POSITION black none 1 -', { tomove: 'black', result: 'none', n: '1', five: '-' }],
  ['OK #w3 POSITION none black 0 h12,h11,h10,h9,h8', { tomove: 'none', result: 'black', n: '0', five: 'h12,h11,h10,h9,h8' }],
  ['OK POSITION none draw 0 -', { tomove: 'none', result: 'draw', n: '0', five: '-' }],
  ['OK ANALYSE 5 positional g9:166,i7:166,h10:110 g9,f10,g8,h10,e8,f8', { depth: '5', reason: 'positional', lines: 'g9:166,i7:166,h10:110', pv: 'g9,f10,g8,h10,e8,f8' }],
  ['OK ANALYSE 1 open-four h11:29997 h11', { depth: '1', reason: 'open-four', lines: 'h11:29997', pv: 'h11' }],
  ['OK ANALYSE 3 block-five a1:-29996 a1', { depth: '3', reason: 'block-five', lines: 'a1:-29996', pv: 'a1' }],
  ['OK REVIEW 1234', { id: '1234' }],
  ['OK #w9 MARKS 1234 11 2', { id: '1234', plies: '11', n: '2' }],
]) {
  const m = proto.parseServer(l);
  assert.deepEqual(m.fields, want, l);
  assert.equal(proto.formatServer(m), l);
}
for (const l of [
  '* REVIEWING 1234 5', '* REVIEWING x 5 12', '* REVIEWED 1234 ok 11', '= EVAL 1234 0 500,1001', '= EVAL 1234 0 0500',
  '= EVAL 1234 0 500,', '= EVAL 1234 0 ' + Array(51).fill('1').join(','),
  '= MARK 1234 blunder grey 8 c3 j9 612 0 vcf j9', '= MARK 1234 blunder white 8 - j9 612 0 vcf j9', '= MARK 1234 blunder white 8 c3 j9 612 0 vcf',
  '= MARK 1234 blunder white 8 c3 zz 612 0 vcf j9',
]) assert.throws(() => proto.parseServer(l), `accepted "${l}"`);
// a reply whose tokens do not fit still answers its request: fields null
for (const l of ['OK POSITION black', 'OK POSITION grey none 0 -', 'OK ANALYSE 5 positional g9 g9', 'OK MARKS 1234']) {
  const m = proto.parseServer(l);
  assert.equal(m.kind, 'ok', l);
  assert.equal(m.fields, null, l);
}
for (const l of ['POSITION renju 15 h8,a1,i8', 'POSITION freestyle 15 -', 'ANALYSE freestyle 15 h8,i9 5', 'REVIEW 1234', 'MARKS 1234']) {
  assert.equal(proto.formatRequest(proto.parseRequest(l)), l);
}
console.log('ok the analysis board\'s and the review\'s lines: = EVAL, = MARK, * REVIEWING, * REVIEWED, OK POSITION, OK ANALYSE, OK REVIEW, OK MARKS read by field; malformed ones refused');

// the puzzles' replies (`puzzles`, PROTOCOL.md 5.20): OK PUZZLE and OK
// SOLVE read by field, as the C parser reads them; malformed ones answer
// their request with no fields
for (const [l, want] of [
  ['OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15', { id: '17', rule: 'freestyle', size: '15', cls: 'vct', plies: '5', rating: '1500', moves: 'h8,a1,i8,a15,j9,o1,j10,o15' }],
  ['OK #w4 PUZZLE 3 renju 15 vcf 31 1249 h8,a1', { id: '3', rule: 'renju', size: '15', cls: 'vcf', plies: '31', rating: '1249', moves: 'h8,a1' }],
  ['OK SOLVE 17 more j11 - -', { id: '17', how: 'more', reply: 'j11', rating: '-', line: '-' }],
  ['OK SOLVE 17 solved - 1523? -', { id: '17', how: 'solved', reply: '-', rating: '1523?', line: '-' }],
  ['OK #w9 SOLVE 1 failed - 1216? g8,f8,k8', { id: '1', how: 'failed', reply: '-', rating: '1216?', line: 'g8,f8,k8' }],
  ['OK SOLVE 1 failed - - g8,f8,k8', { id: '1', how: 'failed', reply: '-', rating: '-', line: 'g8,f8,k8' }],
]) {
  const m = proto.parseServer(l);
  assert.deepEqual(m.fields, want, l);
  assert.equal(proto.formatServer(m), l);
}
for (const l of [
  'OK PUZZLE 17 freestyle 15 vcx 5 1500 h8', 'OK PUZZLE 17 gomoku 15 vcf 5 1500 h8', 'OK PUZZLE 17 freestyle 15 vcf 5 1500',
  'OK PUZZLE 17 freestyle 15 vcf 5 1500 h8,zz', 'OK SOLVE 17 maybe j11 - -', 'OK SOLVE 17 more j11 -', 'OK SOLVE 17 solved - 15x3 -',
  'OK SOLVE x more j11 - -',
]) {
  const m = proto.parseServer(l);
  assert.equal(m.kind, 'ok', l);
  assert.equal(m.fields, null, l);
}
for (const l of ['PUZZLE next', 'PUZZLE daily', 'PUZZLE 17', 'SOLVE 17 j8']) assert.equal(proto.formatRequest(proto.parseRequest(l)), l);
console.log('ok the puzzles\' lines: OK PUZZLE and OK SOLVE read by field (a provisional rating "1523?", - for none); malformed ones answer with no fields');

// bot accounts (`botaccounts`, PROTOCOL.md 5.22): = BOT, = KINDS and
// * KINDS as the C parser reads them (tests/unit/test_proto.c's lines),
// field for field; and every server line of section 5.22's example (a
// transcript, replayed above too)
for (const l of ['= BOT rapfi', '= KINDS r3 alice human rapfi bot', '* KINDS r3 3 bot5 bot rapfi bot', 'OK BOTUPGRADE rapfi']) {
  const m = proto.parseServer(l);
  assert.ok(!m.unknown, `"${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
const kd = proto.parseServer('* KINDS r9 3 alice human rapfi bot').fields;
assert.deepEqual([kd.room, kd.seq, kd.black, kd.bkind, kd.white, kd.wkind], ['r9', '3', 'alice', 'human', 'rapfi', 'bot']);
assert.deepEqual(proto.parseServer('= KINDS r9 bot3 bot bob human').fields, { room: 'r9', black: 'bot3', bkind: 'bot', white: 'bob', wkind: 'human' });
assert.equal(proto.parseServer('= BOT rapfi').fields.user, 'rapfi');
for (const l of ['* KINDS r3 3 alice person bob bot', '* KINDS r3 3 alice human bob', '* KINDS r3 alice human bob bot',
  '= KINDS r3 alice human bob bot x', '= KINDS r3 3 alice human bob bot', '= BOT', '= BOT rapfi bob', '= BOT 9lives']) {
  assert.throws(() => proto.parseServer(l), `accepted "${l}"`);
}
const sec = md.slice(md.findIndex((l) => l.startsWith('### 5.22 ')));
const example = sec.slice(0, sec.findIndex((l, i) => i > 0 && /^##/.test(l))).map((l) => l.replace(/^    /, '')).filter((l) => /^S\u2192C[0-9]  /.test(l)).map((l) => l.slice(6));
assert.ok(example.some((l) => l.startsWith('* KINDS ')) && example.some((l) => l.startsWith('= BOT ')), 'section 5.22 has no example of the marks');
for (const l of example) {
  const m = proto.parseServer(l);
  if (m.kind === 'event' || m.kind === 'data') assert.ok(!m.unknown, `PROTOCOL.md 5.22 "${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
console.log(`ok bot accounts' lines: = BOT, = KINDS, * KINDS as the C parser reads them, a kind other than human|bot refused; section 5.22's ${example.length} server lines`);

// the engine league (`league`, PROTOCOL.md 5.23): = LEAGUE (an event's id
// or -, the next start or -) and = LRATING (an Elo below the mean too), as
// the C parser reads them; a malformed one refused
for (const l of ['= LEAGUE engines freestyle 15 60+1 3 6 12 -', '= LEAGUE blitz renju 15 30+0 0 0 - 1796000000',
  '= LRATING engines 1 rapfi 112 35 28 4 7 1', '= LRATING engines 3 bot3 -100 52 40 4 1 1', '= LRATING engines 2 bot5 0 0 0 0 0 0',
  'OK LEAGUES 2', 'OK LEAGUE engines 3']) {
  const m = proto.parseServer(l);
  assert.ok(!m.unknown, `"${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
assert.deepEqual(proto.parseServer('= LEAGUE engines freestyle 15 60+1 3 6 12 -').fields,
  { name: 'engines', rule: 'freestyle', size: '15', tc: '60+1', players: '3', games: '6', tourney: '12', next: '-' });
assert.deepEqual(proto.parseServer('= LRATING engines 3 bot3 -100 52 40 4 1 1').fields,
  { name: 'engines', rank: '3', player: 'bot3', elo: '-100', minus: '52', plus: '40', games: '4', points: '1', draws: '1' });
for (const l of ['= LRATING engines 1 rapfi -0 35 28 4 7 1', '= LRATING engines 1 rapfi 1.5 35 28 4 7 1', '= LRATING engines 1 rapfi 112 -35 28 4 7 1',
  '= LRATING engines 1 rapfi 112 35 28 4 7', '= LEAGUE engines freestyle 15 60+1 3 6 12', '= LEAGUE engines gomoku 15 60+1 3 6 12 -',
  '= LEAGUE engines freestyle 15 60+1 3 6 x -']) {
  assert.throws(() => proto.parseServer(l), `accepted "${l}"`);
}
const lsec = md.slice(md.findIndex((l) => l.startsWith('### 5.23 ')));
const lex = lsec.slice(0, lsec.findIndex((l, i) => i > 0 && /^##/.test(l))).map((l) => l.replace(/^    /, '')).filter((l) => /^S\u2192C[0-9]  /.test(l)).map((l) => l.slice(6));
assert.ok(lex.some((l) => l.startsWith('= LEAGUE ')) && lex.some((l) => l.startsWith('= LRATING ')), 'section 5.23 has no example of the league\'s lines');
for (const l of lex) {
  const m = proto.parseServer(l);
  if (m.kind === 'event' || m.kind === 'data') assert.ok(!m.unknown, `PROTOCOL.md 5.23 "${l}": not in the table`);
  assert.equal(proto.formatServer(m), l);
}
console.log(`ok the engine league's lines: = LEAGUE, = LRATING (a signed Elo, its bar), OK LEAGUES, OK LEAGUE; malformed ones refused; section 5.23's ${lex.length} server lines`);
