/**
 * Explains a node's answer to a call made from the page (the playground and "Try it"): a 401,
 * an error with its catalogue entry, or a result checked against the method's result schema.
 * @module
 */
import { checkSchema } from './schema-check.js';

export function escapeHtml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}

/** A readable name of a result schema: its type's name, "array of X", its title; '' when it has none. */
export function schemaName(schema) {
  if (!schema || typeof schema !== 'object') return '';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop();
  if (schema.type === 'array' && schema.items?.$ref) return `array of ${schema.items.$ref.split('/').pop()}`;
  return typeof schema.title === 'string' ? schema.title : '';
}

/**
 * The explanation's HTML. `o`: { status, body, key, surface, result (schema or null), root (for
 * $refs), errors (catalogue by code), siteRoot (relative link prefix) }.
 */
export function explainAnswer(o) {
  const { status, body, key, surface, siteRoot = '' } = o;
  if (body === undefined)
    return '<div class="explain bad"><strong>The answer is not JSON.</strong> Is this URL a JSON-RPC endpoint of the node?</div>';
  if (status === 401 || (surface !== 'public' && body.error?.code === -32000)) {
    const why = key
      ? 'The node rejected this API key: it does not match the hash in <code>&lt;dataDirectory&gt;/admin/api_key_hash</code>. Use the key the node printed on first start, or restart it with <code>--reset-admin-api-key</code> to get a new one.'
      : 'No API key was sent. Admin methods need the key the node printed once on its first start; enter it in the API key field.';
    return `<div class="explain bad"><strong>401 Unauthorized: ${key ? 'wrong API key' : 'missing API key'}.</strong><p>${why}</p><p><a href="${siteRoot}guides/admin-api-key.html">How the admin API key works</a></p></div>`;
  }
  if (body.error) {
    const e = o.errors[body.error.code];
    const name = e ? `${body.error.code} ${e.key}` : `${body.error.code} (not in the catalogue)`;
    const link = e
      ? ` <a href="${siteRoot}errors.html#${encodeURIComponent(e.key)}">See ${escapeHtml(e.key)} in the error catalogue.</a>`
      : '';
    // descriptionHtml was rendered and escaped at build time
    return `<div class="explain bad"><strong>Error ${escapeHtml(name)}</strong>: ${escapeHtml(body.error.message ?? '')}<p>${e?.descriptionHtml ?? ''}${link}</p></div>`;
  }
  if ('result' in body) {
    if (!o.result) return '<div class="explain ok">✓ Success.</div>';
    const problems = checkSchema(body.result, o.result, o.root, 'result');
    const name = schemaName(o.result);
    return problems.length === 0
      ? `<div class="explain ok">✓ The result matches the documented result schema${name ? ` (<code>${escapeHtml(name)}</code>)` : ''}.</div>`
      : `<div class="explain bad"><strong>The result does not match the result schema:</strong><ul>${problems.map((p) => `<li><code>${escapeHtml(p.path)}</code> ${escapeHtml(p.message)}</li>`).join('')}</ul></div>`;
  }
  return '<div class="explain bad">The answer has neither <code>result</code> nor <code>error</code>.</div>';
}

/**
 * After a failed call: whether the node answers at all. An opaque (no-cors) GET /status succeeds
 * whenever a server answers, so a failure of the real call then means the browser refused it: the
 * node does not allow this page's origin (its preflight got 403 and no CORS header).
 */
export async function answersAtAll(url) {
  try {
    await fetch(new URL('/status', url), { mode: 'no-cors' });
    return true;
  } catch {
    return false;
  }
}

/** What the operator must change so that this page may call the node (docs/OPERATIONS.md "Browser safety and hostile callers"). */
export function originRefused(url, surface, siteRoot = '') {
  const admin = surface !== 'public';
  const [corsFlag, hostFlag] = admin ? ['--admin-cors-origin', '--admin-vhosts'] : ['--cors-origin', '--vhosts'];
  const origin = escapeHtml(location.origin);
  return `<div class="explain bad"><strong>The node answered, but refused calls from this page (CORS).</strong>
<p>The node at <code>${escapeHtml(url)}</code> does not allow pages from <code>${origin}</code>.${admin ? ' Its admin port answers no web page unless the operator names the page&#39;s origin.' : ''}
To call it from this site, the node&#39;s operator adds this origin and restarts it:</p>
<pre><code>npm start -- ${corsFlag} ${origin}</code></pre>
<p>(several origins are comma-separated; the variable is <code>${admin ? 'ADMIN_CORS_ORIGIN' : 'CORS_ORIGIN'}</code>). If you reach the node by a name other than
<code>localhost</code> or <code>127.0.0.1</code>, that name must also be in <code>${hostFlag}</code>.</p>
<p><a href="${siteRoot}guides/operations.html#browser-safety-and-hostile-callers">Browser safety and hostile callers</a></p></div>`;
}
