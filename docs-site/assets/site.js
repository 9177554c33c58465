/**
 * Every page's behaviour: the client-side search box (over data/search-index.js) and the copy
 * buttons on code blocks.
 * @module
 */

const root = document.body.dataset.root ?? '';

/** Ranks one entry for a query; 0 means no match. Exact and prefix matches on names come first. */
export function score(entry, q) {
  const title = entry.title.toLowerCase();
  const short = title.replace(/^[a-z]+_/, '');
  if (title === q || short === q) return 100;
  if (title.startsWith(q) || short.startsWith(q)) return 80 - Math.min(title.length, 40) / 4;
  if (title.includes(q)) return 60 - Math.min(title.length, 40) / 4;
  const words = q.split(/\s+/).filter(Boolean);
  const hay = `${title} ${entry.keys} ${entry.text}`.toLowerCase();
  if (words.every((w) => hay.includes(w))) return 30;
  return 0;
}

function setupSearch() {
  const input = document.getElementById('search');
  const list = document.getElementById('search-results');
  if (!input || !list) return;
  let active = -1;
  const render = () => {
    const q = input.value.trim().toLowerCase();
    const index = window.L2NODE_SEARCH ?? [];
    const hits = q ? index.map((e) => [score(e, q), e]).filter(([s]) => s > 0).sort((a, b) => b[0] - a[0]).slice(0, 12) : [];
    list.replaceChildren(...hits.map(([, e], i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      const a = document.createElement('a');
      a.href = root + e.href;
      a.innerHTML = `<span class="kind kind-${e.kind}"></span><span class="t"></span><span class="d"></span>`;
      a.querySelector('.kind').textContent = e.kind;
      a.querySelector('.t').textContent = e.title;
      a.querySelector('.d').textContent = e.text;
      if (i === active) li.classList.add('active');
      li.append(a);
      return li;
    }));
    if (q && hits.length === 0) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = `Nothing matches “${input.value.trim()}”.`;
      list.append(li);
    }
    list.hidden = !q;
  };
  input.addEventListener('input', () => { active = -1; render(); });
  input.addEventListener('keydown', (ev) => {
    const links = [...list.querySelectorAll('a')];
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      active = (active + (ev.key === 'ArrowDown' ? 1 : links.length - 1)) % Math.max(links.length, 1);
      render();
    } else if (ev.key === 'Enter' && links.length) {
      location.href = links[Math.max(active, 0)].href;
    } else if (ev.key === 'Escape') {
      list.hidden = true;
    }
  });
  document.addEventListener('click', (ev) => { if (!ev.target.closest('.search')) list.hidden = true; });
  input.addEventListener('focus', () => { if (input.value.trim()) render(); });
}

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

function setupCopyButtons() {
  document.addEventListener('click', async (ev) => {
    const button = ev.target.closest('button.copy');
    if (!button || button.id === 'pg-copy-curl') return;
    await copyText(button.parentElement.querySelector('pre').textContent);
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = 'Copy'; }, 1200);
  });
}

setupSearch();
setupCopyButtons();
