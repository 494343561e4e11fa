// board.js: the board as SVG. It only draws what it is given (stones, the
// last move, the winning line, forbidden points, a bot's candidates, an
// opening stage's area and fifth-move offers, an engine's line numbered on
// its stones, the cursor) and reports
// which point was picked; the rules are the server's.
// Its screen-reader labels come from the catalog (i18n.js).
import { xyToMove } from './proto.js';
import { t } from './i18n.js';
import { word } from './words.js';

const NS = 'http://www.w3.org/2000/svg';
const C = 40; // one cell in SVG units; the SVG scales to its box

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function stars(n) {
  if (n < 9) return [];
  const a = n >= 13 ? 3 : 2;
  const b = n - 1 - a;
  const m = (n - 1) / 2;
  const pts = [[a, a], [a, b], [b, a], [b, b]];
  if (n % 2 === 1) pts.push([m, m]);
  return pts;
}

// A point's label: "h8 black, last move" (the notation stays the game's).
function cellLabel(mv, side, marks) {
  const label = t('web.cell', '%s %s', mv, side ? word('colour', side) : t('web.cell.empty', 'empty'));
  return marks.reduce((l, m) => t('web.cell.and', '%s, %s', l, m), label);
}

export class Board {
  // svg: the <svg> element; onPick(move) when a point is clicked or Enter
  // is pressed on it.
  constructor(svg, onPick) {
    this.svg = svg;
    this.onPick = onPick;
    this.n = 0;
    this.cursor = null;
    this.hover = null;
    this.view = { stones: new Map(), last: null, win: [], forbidden: [], cands: [], canPlay: false, toMove: 'black', area: [], fifths: [], picked: [], numbered: [] };
    svg.setAttribute('tabindex', '0');
    // a grid (rows of gridcells) rather than an application: Chromium maps
    // it to a table a screen reader can also read row by row in browse
    // mode, and follows aria-activedescendant in it (the cursor's point is
    // spoken by its own name, "h8 black"); an application would hide the
    // points from browse mode and leave every reader to the label alone
    svg.setAttribute('role', 'grid');
    svg.addEventListener('keydown', (e) => this.key(e));
    svg.addEventListener('pointerleave', () => { this.hover = null; this.drawMarks(); });
  }

  setSize(n) {
    if (n === this.n) return;
    this.n = n;
    const svg = this.svg;
    svg.replaceChildren();
    const W = (n + 1) * C;
    svg.setAttribute('viewBox', `0 0 ${W} ${W}`);
    el('rect', { x: 0, y: 0, width: W, height: W, class: 'wood' }, svg);
    const grid = el('g', { class: 'grid' }, svg);
    for (let i = 0; i < n; i++) {
      const p = C + i * C;
      el('line', { x1: C, y1: p, x2: C * n, y2: p }, grid);
      el('line', { x1: p, y1: C, x2: p, y2: C * n }, grid);
    }
    for (const [x, y] of stars(n)) el('circle', { cx: C + x * C, cy: C + y * C, r: 4, class: 'star' }, grid);
    // the coordinates' type grows with the board, which the page shrinks
    // to its box: about 10 CSS px at 19x19 on a 360 px phone
    const fs = n >= 17 ? 24 : n >= 13 ? 19 : 16;
    const labels = el('g', { class: 'coord', 'aria-hidden': 'true', 'font-size': fs }, svg);
    for (let i = 0; i < n; i++) {
      const t1 = el('text', { x: C + i * C, y: C * 0.2 + fs * 0.6 }, labels);
      t1.textContent = String.fromCharCode(97 + i);
      const t2 = el('text', { x: C * 0.36, y: C + i * C + fs * 0.35 }, labels);
      t2.textContent = String(n - i);
    }
    this.shade = el('g', { class: 'area' }, svg); // under the stones
    this.layer = el('g', {}, svg);
    this.marks = el('g', {}, svg);
    const hits = el('g', { class: 'hits' }, svg);
    this.cells = new Map();
    for (let y = 0; y < n; y++) {
      const row = el('g', { role: 'row' }, hits);
      for (let x = 0; x < n; x++) {
        const mv = xyToMove(x, y, n);
        const r = el('rect', {
          x: C / 2 + x * C, y: C / 2 + y * C, width: C, height: C,
          role: 'gridcell', 'data-mv': mv, 'aria-label': cellLabel(mv, null, []), id: this.cellId(mv),
        }, row);
        r.addEventListener('click', () => { this.cursor = { x, y }; this.activate(); this.pick(mv); });
        r.addEventListener('pointerenter', () => { this.hover = { x, y }; this.drawMarks(); });
        this.cells.set(mv, r);
      }
    }
    this.cursor = null;
    this.activate();
  }

  // A point's element id: the board's id and the point ("board-h8").
  cellId(mv) {
    return `${this.svg.id || 'board'}-${mv}`;
  }

  // The point a screen reader is on (aria-activedescendant): the cursor's,
  // else the centre, where the arrow keys start from.
  activate() {
    const n = this.n;
    const c = this.cursor || { x: (n - 1) >> 1, y: (n - 1) >> 1 };
    this.svg.setAttribute('aria-activedescendant', this.cellId(xyToMove(c.x, c.y, n)));
  }

  // Only when it is the player's turn; an occupied or forbidden point is
  // still sent, and the server says why not.
  pick(mv) {
    if (this.view.canPlay) this.onPick(mv);
  }

  key(e) {
    const n = this.n;
    if (!n) return;
    const c = this.cursor || { x: (n - 1) >> 1, y: (n - 1) >> 1 };
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (d) {
      this.cursor = { x: Math.min(n - 1, Math.max(0, c.x + d[0])), y: Math.min(n - 1, Math.max(0, c.y + d[1])) };
      e.preventDefault();
      this.drawMarks();
      this.activate();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.cursor = c;
      e.preventDefault();
      this.pick(xyToMove(c.x, c.y, n));
    }
  }

  // view: stones (Map move -> 'black'|'white'), last, win (moves),
  // forbidden (moves), cands ([{mv, score}]: score, the mark shown),
  // canPlay, toMove, preview (a point tapped once, or null); an opening
  // stage's: area (the points its stone may go to, shaded), fifths (the
  // fifth moves offered) and picked (those picked to offer), numbered;
  // numbered: the stones of a line shown, in order, each with its number.
  render(view) {
    this.view = { area: [], fifths: [], picked: [], numbered: [], ...view };
    view = this.view;
    const layer = this.layer;
    layer.replaceChildren();
    this.shade.replaceChildren();
    for (const mv of view.area) {
      const r = this.cells.get(mv);
      if (r) el('rect', { x: r.getAttribute('x'), y: r.getAttribute('y'), width: C, height: C, 'data-area': mv }, this.shade);
    }
    for (const [mv, side] of view.stones) {
      const r = this.cells.get(mv);
      if (!r) continue;
      const cx = Number(r.getAttribute('x')) + C / 2;
      const cy = Number(r.getAttribute('y')) + C / 2;
      el('circle', { cx, cy, r: C * 0.44, class: `stone ${side}`, 'data-stone': mv }, layer);
    }
    for (const [mv, r] of this.cells) {
      const marks = [];
      if (mv === view.last) marks.push(t('web.cell.last', 'last move'));
      if (view.win.includes(mv)) marks.push(t('web.cell.win', 'winning line'));
      if (view.forbidden.includes(mv)) marks.push(t('web.cell.forbidden', 'forbidden for black'));
      if (view.fifths.includes(mv)) marks.push(t('web.cell.fifth', 'offered fifth move %d', view.fifths.indexOf(mv) + 1));
      if (view.picked.includes(mv)) marks.push(t('web.cell.picked', 'picked to offer, %d', view.picked.indexOf(mv) + 1));
      if (view.numbered.includes(mv)) marks.push(t('web.cell.line', 'move %d of the line', view.numbered.indexOf(mv) + 1));
      if (view.area.includes(mv) && !view.fifths.includes(mv) && !view.stones.has(mv)) marks.push(t('web.cell.area', 'allowed now'));
      r.setAttribute('aria-label', cellLabel(mv, view.stones.get(mv), marks));
    }
    this.drawMarks();
  }

  drawMarks() {
    const v = this.view;
    const m = this.marks;
    if (!m) return;
    m.replaceChildren();
    const at = (mv) => {
      const r = this.cells.get(mv);
      return r && { cx: Number(r.getAttribute('x')) + C / 2, cy: Number(r.getAttribute('y')) + C / 2 };
    };
    for (const mv of v.win) {
      const p = at(mv);
      if (p) el('circle', { ...p, r: C * 0.47, class: 'win', 'data-win': mv }, m);
    }
    if (v.last && at(v.last)) el('circle', { ...at(v.last), r: C * 0.12, class: `last ${v.stones.get(v.last) || ''}`, 'data-last': v.last }, m);
    if (v.toMove === 'black') {
      for (const mv of v.forbidden) {
        const p = at(mv);
        if (!p) continue;
        const g = el('g', { class: 'forbidden', 'data-forbidden': mv }, m);
        el('line', { x1: p.cx - 9, y1: p.cy - 9, x2: p.cx + 9, y2: p.cy + 9 }, g);
        el('line', { x1: p.cx - 9, y1: p.cy + 9, x2: p.cx + 9, y2: p.cy - 9 }, g);
      }
    }
    for (const c of v.cands) {
      const p = at(c.mv);
      if (!p) continue;
      const g = el('g', { class: 'cand', 'data-cand': c.mv }, m);
      el('circle', { ...p, r: C * 0.3 }, g);
      const t = el('text', { x: p.cx, y: p.cy + 4 }, g);
      t.textContent = String(c.score);
    }
    // the fifth moves offered, or picked to offer: a dashed black ghost
    // with its number, so they are told apart without colour
    for (const [list, kind] of [[v.fifths, 'offered'], [v.picked, 'picked']]) {
      list.forEach((mv, i) => {
        const p = at(mv);
        if (!p || v.stones.has(mv)) return;
        const g = el('g', { class: `fifth ${kind}`, [kind === 'offered' ? 'data-fifth' : 'data-picked']: mv }, m);
        el('circle', { ...p, r: C * 0.4 }, g);
        const n = el('text', { x: p.cx, y: p.cy + 6 }, g);
        n.textContent = String(i + 1);
      });
    }
    // a line's stones, numbered from 1 in the colour that shows on them
    v.numbered.forEach((mv, i) => {
      const p = at(mv);
      if (!p) return;
      const n = el('text', { x: p.cx, y: p.cy + 6, class: `num ${v.stones.get(mv) || ''}`, 'data-line': mv }, m);
      n.textContent = String(i + 1);
    });
    // a point tapped once, awaiting the tap that plays it
    if (v.preview && at(v.preview)) el('circle', { ...at(v.preview), r: C * 0.44, class: ['ghost', 'preview', v.toMove].join(' '), 'data-preview': v.preview }, m);
    const h = this.hover;
    if (h && v.canPlay && !v.preview) {
      const mv = xyToMove(h.x, h.y, this.n);
      if (!v.stones.has(mv)) el('circle', { ...at(mv), r: C * 0.44, class: `ghost ${v.toMove}` }, m);
    }
    if (this.cursor) {
      const p = at(xyToMove(this.cursor.x, this.cursor.y, this.n));
      if (p) el('rect', { x: p.cx - C / 2 + 2, y: p.cy - C / 2 + 2, width: C - 4, height: C - 4, class: 'cursor' }, m);
    }
  }
}
