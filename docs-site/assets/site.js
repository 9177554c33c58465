/**
 * Every page's behaviour: the small-screen menu, the settings panel (the reader's node URL and
 * key, rewriting every snippet), language tabs, expand and copy on code blocks, and full-text
 * search (MiniSearch over data/search-index.js, loaded on first use; `/` or Ctrl-K focuses it).
 * @module
 */
import {
  apiKey,
  DEFAULT_URLS,
  keyRemembered,
  onSettings,
  rewriteSnippets,
  setApiKey,
  setUrl,
  urlFor,
} from './settings.js';

const root = document.body.dataset.root ?? '';
const $ = (id) => document.getElementById(id);

/* ---------- menu (small screens) ---------- */
function setupMenu() {
  const button = document.querySelector('.menu-toggle');
  const header = document.querySelector('header.top');
  if (!button) return;
  const set = (open) => {
    document.body.classList.toggle('menu-open', open);
    button.setAttribute('aria-expanded', String(open));
    document.documentElement.style.setProperty('--header-h', `${header.getBoundingClientRect().height}px`);
  };
  button.addEventListener('click', () => set(!document.body.classList.contains('menu-open')));
  $('side')?.addEventListener('click', (ev) => {
    if (ev.target.closest('a')) set(false);
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') set(false);
  });
}

/* ---------- settings ---------- */
function setupSettings() {
  const panel = $('settings');
  const toggle = document.querySelector('.settings-toggle');
  if (!panel || !toggle) return;
  const show = (open) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) $('set-public-url').focus();
  };
  toggle.addEventListener('click', () => show(panel.hidden));
  document.addEventListener('click', (ev) => {
    if (ev.target.closest('.open-settings')) show(true);
  });
  const fill = () => {
    $('set-public-url').value = urlFor('public');
    $('set-admin-url').value = urlFor('admin');
    $('set-api-key').value = apiKey();
    $('set-remember-key').checked = keyRemembered();
  };
  fill();
  $('set-public-url').addEventListener('change', () => setUrl('public', $('set-public-url').value.trim()));
  $('set-admin-url').addEventListener('change', () => setUrl('admin', $('set-admin-url').value.trim()));
  $('set-api-key').addEventListener('input', () =>
    setApiKey($('set-api-key').value.trim(), $('set-remember-key').checked),
  );
  $('set-remember-key').addEventListener('change', () =>
    setApiKey($('set-api-key').value.trim(), $('set-remember-key').checked),
  );
  $('set-reset').addEventListener('click', () => {
    setUrl('public', DEFAULT_URLS.public);
    setUrl('admin', DEFAULT_URLS.admin);
    setApiKey('', false);
    fill();
  });
  onSettings(() => rewriteSnippets());
  window.addEventListener('storage', () => {
    fill();
    rewriteSnippets();
  });
}

/* ---------- language tabs ---------- */
const LANG_STORE = 'l2node.snippetLang';
function selectLang(lang, focus) {
  for (const group of document.querySelectorAll('.snippets')) {
    group.classList.add('js');
    for (const tab of group.querySelectorAll('[role=tab]')) {
      const on = tab.dataset.lang === lang;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus === group) tab.focus();
    }
    for (const panel of group.querySelectorAll('[role=tabpanel]'))
      panel.classList.toggle('active', panel.dataset.lang === lang);
  }
}
function setupTabs() {
  if (!document.querySelector('.snippets')) return;
  let lang = 'curl';
  try {
    lang = localStorage.getItem(LANG_STORE) || lang;
  } catch {
    /* default */
  }
  selectLang(lang);
  document.addEventListener('click', (ev) => {
    const tab = ev.target.closest('.snippets [role=tab]');
    if (!tab) return;
    try {
      localStorage.setItem(LANG_STORE, tab.dataset.lang);
    } catch {
      /* not kept */
    }
    selectLang(tab.dataset.lang);
  });
  document.addEventListener('keydown', (ev) => {
    const tab = ev.target.closest?.('.snippets [role=tab]');
    if (!tab || (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft')) return;
    const tabs = [...tab.parentElement.children];
    const next = tabs[(tabs.indexOf(tab) + (ev.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    selectLang(next.dataset.lang, tab.closest('.snippets'));
  });
}

/* ---------- code blocks: copy and expand ---------- */
/** Copies text to the clipboard, falling back to a hidden textarea where the API is refused. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** The full text of a code block, also while it is collapsed. */
export function codeText(block) {
  const full = block.querySelector('template');
  return full ? full.content.textContent : block.querySelector('pre').textContent;
}

function setupCodeBlocks() {
  document.addEventListener('click', async (ev) => {
    const copy = ev.target.closest('button.copy');
    if (copy && copy.id !== 'pg-copy-curl') {
      await copyText(codeText(copy.closest('.code')));
      copy.textContent = 'Copied';
      setTimeout(() => {
        copy.textContent = 'Copy';
      }, 1200);
      return;
    }
    const expand = ev.target.closest('button.expand');
    if (!expand) return;
    const block = expand.closest('.code');
    const code = block.querySelector('pre code');
    const template = block.querySelector('template');
    const open = expand.getAttribute('aria-expanded') !== 'true';
    block.dataset.preview ??= code.innerHTML;
    code.innerHTML = open ? template.innerHTML : block.dataset.preview;
    rewriteSnippets(block);
    block.classList.toggle('expanded', open);
    expand.setAttribute('aria-expanded', String(open));
    expand.dataset.label ??= expand.textContent;
    expand.textContent = open ? 'Collapse' : expand.dataset.label;
  });
}

/* ---------- search ---------- */
/** Splits names as readers type them: `node_getTxReceipt` → node_gettxreceipt, node, gettxreceipt, get, tx, receipt. */
export function tokenize(text) {
  const out = [];
  for (const word of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (!word) continue;
    out.push(word);
    const parts = word
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[\s_]+/)
      .filter(Boolean);
    if (parts.length > 1) out.push(...parts);
    if (word.includes('_') && parts.length > 1) out.push(...word.split('_').filter(Boolean));
  }
  return out;
}

/** How much each kind of entry weighs: methods first, then types and errors, params and fields, guides. */
export const KIND_BOOST = { method: 6, type: 2.5, error: 2.5, param: 1.6, field: 1.4, guide: 1.2 };

/** Builds the MiniSearch index over the entries. */
export function createIndex(MiniSearch, entries) {
  const index = new MiniSearch({
    fields: ['title', 'keys', 'text'],
    storeFields: ['kind', 'title', 'context', 'text', 'href'],
    tokenize,
    processTerm: (t) => t.toLowerCase(),
    searchOptions: {
      boost: { title: 5, keys: 2, text: 1 },
      prefix: true,
      fuzzy: (term) => (term.length > 5 ? 0.15 : 0),
      combineWith: 'AND',
      boostDocument: (_id, _term, stored) => KIND_BOOST[stored?.kind] ?? 1,
    },
  });
  index.addAll(entries);
  return index;
}

/** The order of kinds among the good matches: methods first. */
const KIND_ORDER = ['method', 'param', 'field', 'type', 'error', 'guide'];

/**
 * Searches. Among the good matches (a quarter of the best score or more) methods come first, then
 * params, fields, types, errors and guides, each by score; weaker matches follow by score. An exact
 * name match counts triple.
 */
export function search(index, query, limit = 20) {
  const q = query.trim();
  if (!q) return [];
  const lower = q.toLowerCase();
  const hits = index.search(q).map((r) => {
    const t = r.title.toLowerCase();
    const exact = t === lower || t.replace(/^[a-z]+_/, '') === lower;
    return { ...r, score: r.score * (exact ? 3 : 1) };
  });
  const best = Math.max(0, ...hits.map((h) => h.score));
  const good = (h) => h.score >= best / 4;
  const rank = (h) => (good(h) ? KIND_ORDER.indexOf(h.kind) : KIND_ORDER.length);
  return hits.sort((a, b) => rank(a) - rank(b) || b.score - a.score).slice(0, limit);
}

/** A short excerpt of `text` around the first query word, with the words marked. */
function excerpt(text, query) {
  const words = tokenize(query)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1);
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0), text.length));
  const start = at > 60 ? text.lastIndexOf(' ', at - 40) + 1 : 0;
  const cut = text.slice(start, start + 160);
  const frag = document.createDocumentFragment();
  if (start > 0) frag.append('…');
  const re = words.length
    ? new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi')
    : null;
  for (const piece of re ? cut.split(re) : [cut]) {
    if (re && words.includes(piece.toLowerCase())) {
      const m = document.createElement('mark');
      m.textContent = piece;
      frag.append(m);
    } else frag.append(piece);
  }
  if (start + 160 < text.length) frag.append('…');
  return frag;
}

let indexPromise;
/** Loads MiniSearch and the entries on first use. */
function loadIndex() {
  indexPromise ??= (async () => {
    const [{ default: MiniSearch }] = await Promise.all([
      import(`${new URL('./vendor/minisearch.js', import.meta.url)}`),
      new Promise((ok, fail) => {
        if (window.L2NODE_SEARCH) return ok();
        const s = document.createElement('script');
        s.src = `${root}data/search-index.js`;
        s.onload = ok;
        s.onerror = () => fail(new Error('search index did not load'));
        document.head.append(s);
      }),
    ]);
    return createIndex(MiniSearch, window.L2NODE_SEARCH);
  })();
  return indexPromise;
}

function setupSearch() {
  const input = $('search');
  const list = $('search-results');
  if (!input || !list) return;
  let active = -1;
  let hits = [];
  const render = async () => {
    const q = input.value.trim();
    const index = await loadIndex();
    if (q !== input.value.trim()) return; // typed on meanwhile
    hits = search(index, q, 15);
    list.replaceChildren(
      ...hits.map((e, i) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.id = `search-hit-${i}`;
        li.setAttribute('aria-selected', String(i === active));
        const a = document.createElement('a');
        a.href = root + e.href;
        a.tabIndex = -1;
        a.innerHTML = '<span class="kind"></span><span class="t"></span><span class="d"></span>';
        a.querySelector('.kind').textContent = e.kind;
        a.querySelector('.t').textContent = e.title;
        const d = a.querySelector('.d');
        d.append(`${e.context}${e.text ? ' — ' : ''}`, excerpt(e.text, q));
        if (i === active) li.classList.add('active');
        li.append(a);
        return li;
      }),
    );
    if (q && hits.length === 0) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = `Nothing matches “${q}”.`;
      list.append(li);
    }
    list.hidden = !q;
    input.setAttribute('aria-expanded', String(!!q));
    if (active >= 0) input.setAttribute('aria-activedescendant', `search-hit-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };
  input.addEventListener('input', () => {
    active = -1;
    render();
  });
  input.addEventListener('focus', () => {
    loadIndex();
    if (input.value.trim()) render();
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      active =
        (active + (ev.key === 'ArrowDown' ? 1 : hits.length - 1 + (active < 0 ? 1 : 0))) % Math.max(hits.length, 1);
      render();
    } else if (ev.key === 'Enter' && hits.length) {
      ev.preventDefault();
      location.href = root + hits[Math.max(active, 0)].href;
    } else if (ev.key === 'Escape') {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.blur();
    }
  });
  document.addEventListener('click', (ev) => {
    if (!ev.target.closest('.search')) {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
    }
  });
  // `/` or Ctrl-K (⌘K) jumps to the search box from anywhere but a text field
  document.addEventListener('keydown', (ev) => {
    const typing = ev.target.closest?.('input, textarea, select, [contenteditable]');
    if ((ev.key === '/' && !typing) || (ev.key.toLowerCase() === 'k' && (ev.ctrlKey || ev.metaKey))) {
      ev.preventDefault();
      input.focus();
      input.select();
    }
  });
}

setupMenu();
setupSettings();
setupTabs();
setupCodeBlocks();
setupSearch();
