/**
 * The "Try it" panel of a method page: one field per parameter (starting from the first example),
 * checked against its schema, sent to the reader's node (settings.js) and the answer explained.
 * @module
 */
import { checkSchema } from './schema-check.js';
import { answersAtAll, explainAnswer, escapeHtml, originRefused } from './explain.js';
import { apiKey, urlFor } from './settings.js';

const panel = document.getElementById('try-it');
const data = panel && JSON.parse(panel.querySelector('.tryit-data').textContent);

/** Reads and checks the fields; returns the params array, or the problems. */
function readParams(form) {
  const values = [];
  const problems = [];
  form.querySelectorAll('textarea').forEach((area, i) => {
    const p = data.params[i];
    const text = area.value.trim();
    let value;
    if (text === '') {
      if (p.required) problems.push(`${p.name} is required`);
    } else {
      try {
        value = JSON.parse(text);
        problems.push(...checkSchema(value, p.schema, data.root, p.name).map((e) => `${e.path} ${e.message}`));
      } catch {
        problems.push(
          /^[\w.:-]+$/.test(text)
            ? `${p.name} is not valid JSON: strings need quotes, e.g. "${text}"`
            : `${p.name} is not valid JSON`,
        );
      }
    }
    area.setAttribute('aria-invalid', String(problems.some((x) => x.startsWith(p.name))));
    values.push(value);
  });
  while (values.length && values[values.length - 1] === undefined) values.pop();
  return { params: values.map((v) => (v === undefined ? null : v)), problems };
}

async function send(form) {
  const { params, problems } = readParams(form);
  const check = form.querySelector('.check');
  check.textContent = problems.join('; ');
  check.className = problems.length ? 'check bad' : 'check';
  if (problems.length) return;
  const out = panel.querySelector('.tryit-response');
  const status = out.querySelector('.status');
  const box = out.querySelector('.explain-box');
  const code = out.querySelector('pre code');
  out.hidden = false;
  status.textContent = 'Sending…';
  box.innerHTML = '';
  code.textContent = '';
  const url = urlFor(data.surface);
  const key = apiKey();
  const headers = { 'content-type': 'application/json' };
  if (data.surface !== 'public' && key) headers['x-api-key'] = key;
  let res;
  const started = performance.now();
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: data.name, params }),
    });
  } catch {
    if (await answersAtAll(url)) {
      status.textContent = 'refused: origin not allowed';
      box.innerHTML = originRefused(url, data.surface, '../');
      return;
    }
    status.textContent = 'unreachable';
    box.innerHTML = `<div class="explain bad"><strong>Cannot reach the node at <code>${escapeHtml(url)}</code>.</strong><p>Is it running and listening there? Set your node's URL with “change” above.</p></div>`;
    return;
  }
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  status.textContent = `HTTP ${res.status} · ${Math.round(performance.now() - started)} ms`;
  box.innerHTML = explainAnswer({
    status: res.status,
    body,
    key,
    surface: data.surface,
    result: data.result,
    root: data.root,
    errors: data.errors,
    siteRoot: '../',
  });
  code.textContent = body === undefined ? text : JSON.stringify(body, null, 2);
}

if (panel) {
  const form = panel.querySelector('form');
  form.querySelectorAll('textarea').forEach((area, i) => {
    const v = data.example[i];
    area.value = v === undefined ? '' : JSON.stringify(v, null, JSON.stringify(v).length > 60 ? 2 : 0);
    area.rows = Math.min(8, Math.max(1, area.value.split('\n').length));
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    send(form);
  });
}
