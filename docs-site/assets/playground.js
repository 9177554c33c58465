/**
 * The playground: pick an endpoint and a method, edit parameters (checked live against their
 * schemas), send, and read the response checked against the result schema, with errors and
 * 401s explained from the catalogue. The URL and key are the reader's settings (settings.js).
 * @module
 */
import { checkSchema } from './schema-check.js';
import { answersAtAll, explainAnswer, originRefused } from './explain.js';
import { apiKey, setApiKey, setUrl, urlFor } from './settings.js';
import { copyText } from './site.js';

const data = window.L2NODE_PLAYGROUND;
const $ = (id) => document.getElementById(id);
const state = { surface: 'public', method: null, params: [] };

function surfaceRadios() {
  return [...document.querySelectorAll('input[name="surface"]')];
}

function setSurface(surface, methodName) {
  state.surface = surface;
  surfaceRadios().forEach((r) => {
    r.checked = r.value === surface;
  });
  $('pg-url').value = urlFor(surface);
  $('pg-key-row').hidden = surface === 'public'; // admin and dev methods both live behind the admin key
  const select = $('pg-method');
  const groups = new Map();
  for (const m of data.methods.filter((x) => x.surface === surface))
    groups.set(m.tag, [...(groups.get(m.tag) ?? []), m]);
  select.replaceChildren(
    ...[...groups].map(([tag, ms]) => {
      const g = document.createElement('optgroup');
      g.label = tag;
      g.append(...ms.map((m) => new Option(m.deprecated ? `${m.name} (deprecated)` : m.name, m.name)));
      return g;
    }),
  );
  const preferred =
    methodName ?? { public: 'node_getNodeVersion', admin: 'nodeAdmin_getConfig', dev: 'dev_getL1Info' }[surface];
  if ([...select.options].some((o) => o.value === preferred)) select.value = preferred;
  setMethod(select.value);
}

function setMethod(name) {
  const m = data.methods.find((x) => x.name === name && x.surface === state.surface);
  state.method = m ?? null;
  if (!m) {
    $('pg-params').replaceChildren();
    $('pg-summary').textContent = 'No methods in this document yet.';
    return update();
  }
  if (location.hash.slice(1) !== m.name) history.replaceState(null, '', `#${m.name}`);
  $('pg-summary').innerHTML = `${m.summaryHtml} `; // rendered and escaped at build time
  const doc = document.createElement('a');
  doc.href = `methods/${encodeURIComponent(m.name)}.html`;
  doc.textContent = 'Reference →';
  $('pg-summary').append(doc);
  $('pg-example-row').hidden = m.examples.length < 2;
  $('pg-example').replaceChildren(...m.examples.map((e, i) => new Option(e.name || `Example ${i + 1}`, String(i))));
  fillParams(m.examples[0]?.params ?? []);
}

function fillParams(values) {
  const m = state.method;
  $('pg-params').replaceChildren(
    ...m.params.map((p, i) => {
      const row = document.createElement('div');
      row.className = 'param';
      row.innerHTML = `<label><code class="pname"></code> <span class="req"></span> <span class="schema"></span>
<textarea rows="1" spellcheck="false" data-index="${i}"></textarea></label><p class="check" aria-live="polite"></p>`;
      row.querySelector('.pname').textContent = p.name;
      row.querySelector('.req').textContent = p.required ? 'required' : 'optional';
      row.querySelector('.req').className = p.required ? 'req' : 'req opt';
      row.querySelector('.schema').innerHTML = p.summaryHtml;
      const area = row.querySelector('textarea');
      const value = i < values.length ? values[i] : undefined;
      area.value =
        value === undefined
          ? ''
          : JSON.stringify(
              value,
              null,
              typeof value === 'object' && value !== null && JSON.stringify(value).length > 60 ? 2 : 0,
            );
      area.placeholder = p.required ? 'JSON value' : 'optional: leave empty to omit';
      area.rows = Math.min(12, Math.max(1, area.value.split('\n').length));
      area.addEventListener('input', update);
      return row;
    }),
  );
  if (m.params.length === 0) $('pg-params').innerHTML = '<p class="muted">This method takes no parameters.</p>';
  update();
}

/** Reads and checks every parameter; returns the params array, or null when one is invalid. */
function readParams() {
  const m = state.method;
  const root = data.roots[m.surface];
  const values = [];
  let ok = true;
  document.querySelectorAll('#pg-params .param').forEach((row, i) => {
    const p = m.params[i];
    const text = row.querySelector('textarea').value.trim();
    const out = row.querySelector('.check');
    let problems = [];
    let value;
    if (text === '') {
      if (p.required) problems = ['is required'];
      value = undefined;
    } else {
      try {
        value = JSON.parse(text);
        problems = checkSchema(value, p.schema, root, p.name).map((e) => `${e.path} ${e.message}`);
      } catch {
        problems = [
          /^[\w.:-]+$/.test(text) ? `is not valid JSON: strings need quotes, e.g. "${text}"` : 'is not valid JSON',
        ];
      }
    }
    row.classList.toggle('bad', problems.length > 0);
    out.textContent = problems.length
      ? problems.map((x) => (x.startsWith(p.name) ? x : `${p.name} ${x}`)).join('; ')
      : text === ''
        ? 'omitted'
        : '✓ valid';
    out.className = problems.length ? 'check bad' : 'check ok';
    if (problems.length) ok = false;
    values.push(value);
  });
  while (values.length && values[values.length - 1] === undefined) values.pop();
  return ok ? values.map((v) => (v === undefined ? null : v)) : null;
}

function requestFor(params) {
  return { jsonrpc: '2.0', id: 1, method: state.method.name, params };
}

/** The curl line of the call; the key stays a variable so copying never leaks it. */
export function curlFor(url, surface, body) {
  const lines = [`curl -s -X POST ${url}`, `  -H 'Content-Type: application/json'`];
  if (surface !== 'public') lines.push(`  -H "x-api-key: $ADMIN_API_KEY"`);
  lines.push(`  -d '${JSON.stringify(body).replace(/'/g, `'\\''`)}'`);
  return lines.join(' \\\n');
}

function update() {
  const params = state.method ? readParams() : null;
  const valid = params !== null;
  $('pg-send').disabled = !valid;
  $('pg-invalid').textContent = state.method && !valid ? 'Fix the highlighted parameters before sending.' : '';
  const body = state.method ? requestFor(params ?? []) : null;
  $('pg-request').textContent = body ? JSON.stringify(body, null, 2) : '';
  $('pg-curl').textContent = body ? curlFor($('pg-url').value, state.surface, body) : '';
}

async function send(ev) {
  ev.preventDefault();
  const params = readParams();
  if (params === null || !state.method) return;
  const url = $('pg-url').value.trim();
  const key = $('pg-key').value.trim();
  const headers = { 'content-type': 'application/json' };
  if (state.surface !== 'public' && key) headers['x-api-key'] = key;
  const started = performance.now();
  show('…', '<p class="muted">Sending…</p>', '');
  let res;
  try {
    res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(requestFor(params)) });
  } catch {
    if (await answersAtAll(url)) return show('refused: origin not allowed', originRefused(url, state.surface), '');
    return show(
      'unreachable',
      `<div class="explain bad"><strong>Cannot reach the node at <code></code>.</strong>
<p>Is it running (<code>npm start</code>) and listening on this address and port?</p></div>`,
      '',
      url,
    );
  }
  const ms = Math.round(performance.now() - started);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  show(
    `HTTP ${res.status} · ${ms} ms`,
    explain(res.status, body, key),
    body === undefined ? text : JSON.stringify(body, null, 2),
  );
}

function explain(status, body, key) {
  return explainAnswer({
    status,
    body,
    key,
    surface: state.surface,
    result: state.method.result,
    root: data.roots[state.method.surface],
    errors: data.errors,
  });
}

function show(status, explainHtml, bodyText, urlText) {
  $('pg-response').hidden = false;
  $('pg-status').textContent = status;
  $('pg-explain').innerHTML = explainHtml;
  if (urlText !== undefined) $('pg-explain').querySelector('code').textContent = urlText;
  $('pg-body').textContent = bodyText;
}

function start() {
  $('pg-key').value = apiKey();
  $('pg-key').addEventListener('input', () => setApiKey($('pg-key').value.trim()));
  $('pg-url').addEventListener('input', () => {
    setUrl(state.surface, $('pg-url').value.trim());
    update();
  });
  surfaceRadios().forEach((r) => {
    r.addEventListener('change', () => setSurface(r.value));
  });
  $('pg-method').addEventListener('change', () => setMethod($('pg-method').value));
  $('pg-example').addEventListener('change', () =>
    fillParams(state.method.examples[Number($('pg-example').value)].params),
  );
  $('pg-copy-curl').addEventListener('click', async () => {
    await copyText($('pg-curl').textContent);
    $('pg-copy-curl').textContent = 'Copied';
    setTimeout(() => {
      $('pg-copy-curl').textContent = 'Copy';
    }, 1200);
  });
  $('playground').addEventListener('submit', send);
  const fromHash = () => {
    const wanted = data.methods.find((m) => m.name === decodeURIComponent(location.hash.slice(1)));
    if (wanted && wanted.name === state.method?.name) return;
    setSurface(wanted?.surface ?? 'public', wanted?.name);
  };
  // a link to playground.html#other_method from this very page changes only the hash
  window.addEventListener('hashchange', fromHash);
  fromHash();
}

start();
