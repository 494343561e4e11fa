// i18n.js: the web board's texts in the player's language, from the same
// gettext catalogs as the terminal client (po/, docs/i18n.md), served as
// JSON beside this file (i18n/<code>.json, i18n/languages.json).
//
//   t(key, English, ...args)  the text of key in the chosen language, the
//                             English when the catalog lacks it; args fill
//                             its printf directives (%s, %d, %lld, %+d...),
//                             as the C side's formats do
//   N(key, English)           marks a message in a table, said later by say()
//
// `make po` extracts both markers (xgettext's JavaScript keywords t:1c,2 and
// N:1c,2), and index.html's data-t attributes through mk/html2js.pl. The
// language: the one kept in localStorage, else the first of the browser's
// languages with a catalog (zh, zh-CN, zh-Hans, zh-SG: zh_CN), else English.
// No DOM at import: pickLanguage and format run in node too
// (tests/browser/test_i18n.mjs).

const KEEP = 'gomokud.lang';
let catalog = {};
let current = 'en';
let names = { en: 'English' };

// printf's directives, each taking the next argument: flags, width,
// precision and length as C writes them; %% is a percent sign.
const DIRECTIVE = /%([-+ #0]*)([0-9]+)?(?:\.([0-9]+))?(?:hh|h|ll|l|L|z|j|t)?([diouxXsc%])/g;

export function format(text, args) {
  let i = 0;
  return text.replace(DIRECTIVE, (all, flags, width, prec, conv) => {
    if (conv === '%') return '%';
    let v = args[i++];
    let s;
    if (conv === 's' || conv === 'c') {
      s = v === undefined || v === null ? '' : String(v);
      if (prec !== undefined) s = s.slice(0, Number(prec));
    } else {
      v = Math.trunc(Number(v) || 0);
      s = conv === 'x' ? Math.abs(v).toString(16) : conv === 'X' ? Math.abs(v).toString(16).toUpperCase() : String(Math.abs(v));
      if (v < 0) s = `-${s}`;
      else if (flags.includes('+')) s = `+${s}`;
      else if (flags.includes(' ')) s = ` ${s}`;
    }
    const w = Number(width || 0);
    if (s.length < w) s = flags.includes('-') ? s.padEnd(w) : s.padStart(w, flags.includes('0') && conv !== 's' ? '0' : ' ');
    return s;
  });
}

export function t(key, en, ...args) {
  const s = typeof catalog[key] === 'string' && catalog[key] ? catalog[key] : en;
  return format(s, args);
}

export function N(key, en) {
  return { key, en };
}

export function say(msg, ...args) {
  return t(msg.key, msg.en, ...args);
}

// The catalog's code for the browser's languages (navigator.languages:
// BCP 47 tags, best first), among the codes available: a tag's language
// and region (pt-BR: pt_BR), else its language alone (pt); Chinese in
// Simplified characters (zh, zh-CN, zh-Hans, zh-SG, zh-MY) is zh_CN, a
// Traditional one (zh-TW, zh-HK, zh-Hant) only its own catalog. English
// when none has a catalog.
export function pickLanguage(tags, available) {
  const have = new Set(available);
  for (const tag of tags || []) {
    const parts = String(tag).replace(/_/g, '-').split('-');
    const lang = parts[0].toLowerCase();
    const rest = parts.slice(1).map((p) => p.toLowerCase());
    if (lang === 'zh') {
      const trad = rest.includes('hant') || ((rest.includes('tw') || rest.includes('hk') || rest.includes('mo')) && !rest.includes('hans'));
      if (trad) {
        const region = rest.find((p) => p.length === 2);
        if (region && have.has(`zh_${region.toUpperCase()}`)) return `zh_${region.toUpperCase()}`;
        continue;
      }
      if (have.has('zh_CN')) return 'zh_CN';
      continue;
    }
    const region = rest.find((p) => p.length === 2);
    if (region && have.has(`${lang}_${region.toUpperCase()}`)) return `${lang}_${region.toUpperCase()}`;
    if (have.has(lang)) return lang;
  }
  return 'en';
}

// A catalog's code as an HTML lang (zh_CN: zh-CN).
export function htmlLang(code) {
  return code.replace('_', '-');
}

export function language() {
  return current;
}

// {code: its own name} for every catalog served.
export function languages() {
  return names;
}

async function fetchJSON(name) {
  const r = await fetch(new URL(`i18n/${name}.json`, import.meta.url));
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

function kept() {
  try {
    return localStorage.getItem(KEEP);
  } catch {
    return null;
  }
}

// Loads the language list and the catalog of code (the kept choice or the
// browser's when none); English texts stay if a fetch fails.
export async function start() {
  try {
    names = await fetchJSON('languages');
  } catch { /* English only */ }
  const want = kept();
  const code = want && names[want] ? want : pickLanguage(navigator.languages || [navigator.language], Object.keys(names));
  await use(code);
}

// The player's choice from the switch: kept, then loaded.
export async function choose(code) {
  try {
    localStorage.setItem(KEEP, code);
  } catch { /* not kept */ }
  await use(code);
}

async function use(code) {
  let cat = {};
  try {
    cat = await fetchJSON(code);
  } catch {
    code = 'en';
  }
  catalog = cat;
  current = code;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = htmlLang(code);
    translatePage(document);
  }
}

// index.html's texts: an element with data-t="key" shows that message (its
// English is the element's own text, kept in data-en); data-t-aria-label
// does the same for its aria-label.
export function translatePage(root) {
  for (const el of root.querySelectorAll('[data-t]')) {
    if (el.dataset.en === undefined) el.dataset.en = el.textContent;
    el.textContent = t(el.dataset.t, el.dataset.en);
  }
  for (const el of root.querySelectorAll('[data-t-aria-label]')) {
    if (el.dataset.enAriaLabel === undefined) el.dataset.enAriaLabel = el.getAttribute('aria-label') || '';
    el.setAttribute('aria-label', t(el.dataset.tAriaLabel, el.dataset.enAriaLabel));
  }
}
