/**
 * The reader's node: one public URL, one admin URL and one API key, kept in this browser and used
 * by every snippet, "Try it" panel and the playground. URLs live in localStorage; the key lives in
 * sessionStorage (this tab) unless the reader asks to remember it (localStorage).
 * @module
 */

export const DEFAULT_URLS = { public: 'http://127.0.0.1:8080', admin: 'http://127.0.0.1:8880' };
const URL_KEY = { public: 'l2node.url.public', admin: 'l2node.url.admin' };
const API_KEY = 'l2node.adminApiKey';
const listeners = new Set();

/** Storage that may be refused (private windows, file://): reads and writes never throw. */
function read(store, key) {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}
function write(store, key, value) {
  try {
    if (value) store.setItem(key, value);
    else store.removeItem(key);
  } catch {
    /* not kept */
  }
}

/** The admin port serves both the admin and the development methods. */
export const portOf = (surface) => (surface === 'public' ? 'public' : 'admin');

/** The URL to call for a surface. */
export function urlFor(surface) {
  const port = portOf(surface);
  return read(localStorage, URL_KEY[port]) || DEFAULT_URLS[port];
}

/** The API key, or '' when none is set. */
export function apiKey() {
  return read(sessionStorage, API_KEY) || read(localStorage, API_KEY) || '';
}

/** Whether the key is remembered across tabs. */
export function keyRemembered() {
  return !!read(localStorage, API_KEY);
}

export function setUrl(surface, url) {
  const port = portOf(surface);
  write(localStorage, URL_KEY[port], url && url !== DEFAULT_URLS[port] ? url : '');
  changed();
}

export function setApiKey(key, remember = keyRemembered()) {
  write(sessionStorage, API_KEY, key);
  write(localStorage, API_KEY, remember ? key : '');
  changed();
}

/** Calls `fn` now and whenever a setting changes (in this tab). */
export function onSettings(fn) {
  listeners.add(fn);
  fn();
}

function changed() {
  for (const fn of listeners) fn();
}

/** The key as a literal of each snippet language, replacing the environment read. */
export function keyLiteral(lang, key) {
  if (lang === 'curl') return key.replace(/["\\$`]/g, '\\$&');
  if (lang === 'typescript') return `'${key.replace(/['\\]/g, '\\$&')}'`;
  return JSON.stringify(key); // Python and Go string literals
}

/** Puts the reader's URLs and key into every marked snippet under `root`. */
export function rewriteSnippets(root = document) {
  for (const el of root.querySelectorAll('.u-url')) el.textContent = urlFor(el.dataset.surface);
  const key = apiKey();
  for (const el of root.querySelectorAll('.k-expr')) {
    el.dataset.original ??= el.innerHTML;
    if (key) el.textContent = keyLiteral(el.dataset.lang, key);
    else el.innerHTML = el.dataset.original;
  }
  for (const t of root.querySelectorAll('template')) rewriteSnippets(t.content);
}
