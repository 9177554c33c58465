/**
 * The playground page's static markup; assets/playground.js fills and drives it from
 * data/playground-data.js.
 * @module
 */
import { layout } from './html.ts';
import type { SiteModel } from './model.ts';

/** Renders playground.html. */
export function renderPlaygroundPage(site: SiteModel): string {
  const body = `<h1>Playground</h1>
<p class="lead">Call a running node from this page. Parameters start from the documented examples and are checked against their schemas as you type.</p>
<form id="playground" class="playground" autocomplete="off" novalidate>
  <fieldset class="endpoint"><legend>Endpoint</legend>
    <label class="radio"><input type="radio" name="surface" value="public" checked> Public API</label>
    <label class="radio"><input type="radio" name="surface" value="admin"> Admin API</label>
    <label class="radio"><input type="radio" name="surface" value="dev"> Development API</label>
    <label class="field">URL <input id="pg-url" type="url" spellcheck="false"></label>
    <label class="field" id="pg-key-row" hidden>API key <input id="pg-key" type="password" spellcheck="false" placeholder="printed once by the node on first start">
      <span class="hint">Sent as <code>x-api-key</code>. The site's Node settings (⚙) share it; it stays in this tab unless you ask there to remember it.</span></label>
  </fieldset>
  <fieldset><legend>Method</legend>
    <select id="pg-method" aria-label="Method"></select>
    <p id="pg-summary" class="muted"></p>
    <label class="field" id="pg-example-row" hidden>Example <select id="pg-example"></select></label>
  </fieldset>
  <fieldset><legend>Parameters</legend><div id="pg-params"></div></fieldset>
  <div class="actions"><button type="submit" id="pg-send" class="button">Send</button>
    <span id="pg-invalid" class="invalid-note" role="status"></span></div>
  <details class="raw"><summary>Request and curl</summary>
    <div class="code"><span class="code-label">Request</span><pre><code id="pg-request"></code></pre></div>
    <div class="code"><span class="code-label">curl</span><button type="button" class="copy" id="pg-copy-curl">Copy</button><pre><code id="pg-curl"></code></pre></div>
  </details>
</form>
<section id="pg-response" class="response" hidden aria-live="polite">
  <h2>Response <span id="pg-status" class="status"></span></h2>
  <div id="pg-explain"></div>
  <pre><code id="pg-body"></code></pre>
</section>`;
  return layout(site, {
    title: 'Playground',
    root: '',
    current: 'playground.html',
    body,
    scripts: ['data/playground-data.js', 'assets/playground.js'],
  });
}
