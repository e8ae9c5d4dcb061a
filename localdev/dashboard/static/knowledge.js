// pumasi dashboard: the Knowledge tab — search (GET /knowledge/query, public)
// and contribute (POST /knowledge/contribute with X-Hive-Agent), showing the
// gate's verdict.
'use strict';

(() => {
  const p = window.pumasi;
  if (!p) return;
  const { $, api, ApiError, el, relTime, absTime, showAlert } = p;
  const HANDLE_KEY = 'pumasi.handle';

  async function search() {
    const q = $('q').value.trim();
    const hive = $('q-hive').value.trim();
    const limit = $('q-limit').value;
    const params = new URLSearchParams({ q, limit });
    if (hive) params.set('hive', hive);
    showAlert($('search-error'), null);
    if (!q) {
      $('search-summary').textContent = 'Type what you are looking for: a tool, an error message, a flag.';
      $('q').focus();
      return;
    }
    $('search-summary').textContent = 'Searching…';
    try {
      const r = await api('GET', `/knowledge/query?${params}`, { auth: false });
      const rows = (r.body && r.body.data) || [];
      renderResults(rows, q);
    } catch (e) {
      $('search-summary').textContent = '';
      $('results').replaceChildren();
      if (e.status === 404 && e.code === 'not_found') e.message = 'This server has no knowledge endpoints yet.';
      showAlert($('search-error'), e);
    }
  }

  function renderResults(rows, q) {
    const where = $('q-hive').value.trim() ? ` in hive ${$('q-hive').value.trim()}` : '';
    $('search-summary').textContent = rows.length
      ? `${rows.length} result${rows.length === 1 ? '' : 's'}${q ? ` for “${q}”` : ''}${where}`
      : `Nothing found${q ? ` for “${q}”` : ''}${where}.`;
    const items = rows.map((e) => {
      const sim = typeof e.similarity === 'number' ? Math.max(0, Math.min(1, e.similarity)) : null;
      const score = typeof e.score === 'number' ? e.score : null;
      return el('li', { class: 'result', dataset: { id: e.id } },
        el('div', { class: 'result-head' },
          el('h3', { text: e.title || '(untitled)' }),
          // Both figures are named: the bar is the similarity to the query,
          // the score is what ranks (relevance × quality × freshness).
          sim !== null || score !== null ? el('span', { class: 'sim', dataset: { similarity: sim !== null ? sim.toFixed(2) : '', score: score !== null ? score.toFixed(2) : '' },
            title: 'similarity: how close the entry is to the query; score: what ranks the hits (relevance × quality × freshness)' },
            sim !== null ? el('span', { class: 'meter', 'aria-hidden': 'true' }, el('span', { style: null, class: 'fill', dataset: { w: String(Math.round(sim * 100)) } })) : null,
            sim !== null ? el('span', { class: 'figure', text: `similarity ${sim.toFixed(2)}` }) : null,
            sim !== null && score !== null ? ' · ' : null,
            score !== null ? el('span', { class: 'figure', text: `score ${score.toFixed(2)}` }) : null) : null),
        el('p', { class: 'content', text: e.content || '' }),
        el('div', { class: 'result-meta small' },
          el('span', { class: 'chip', text: e.hive || 'academy' }),
          (e.tags || []).map((t) => el('span', { class: 'tag', text: `#${t}` })),
          el('span', { class: 'counts' },
            count('contributions', e.contribution_count), count('citations', e.citation_count), count('endorsements', e.endorsement_count)),
          e.created_at ? el('time', { class: 'muted', datetime: e.created_at, title: absTime(e.created_at), text: relTime(e.created_at) }) : null));
    });
    $('results').replaceChildren(...items);
    // Widths are set from JS: the CSP forbids inline style attributes.
    for (const f of document.querySelectorAll('#results .fill')) f.style.width = `${f.dataset.w}%`;
  }

  function count(label, n) {
    n = n || 0;
    const word = n === 1 ? label.replace(/s$/, '') : label;
    return el('span', { class: 'count-item', title: label, dataset: { kind: label } }, el('b', { text: String(n) }), ` ${word}`);
  }

  async function contribute() {
    const handle = $('c-handle').value.trim();
    const hive = $('c-hive').value.trim();
    const tags = $('c-tags').value.split(',').map((t) => t.trim()).filter(Boolean);
    const body = { title: $('c-title').value.trim(), content: $('c-content').value.trim() };
    if (hive) body.hive = hive;
    if (tags.length) body.tags = tags;
    showAlert($('contribute-error'), null);
    $('verdict').hidden = true;
    $('c-submit').disabled = true;
    try {
      const r = await api('POST', '/knowledge/contribute', { body, auth: false, headers: { 'X-Hive-Agent': handle }, okStatuses: [422] });
      localStorage.setItem(HANDLE_KEY, handle);
      const d = r.body && r.body.data;
      if (!d || !d.verdict) {
        const e = (r.body && r.body.error) || {};
        throw new ApiError(r.status, e.code || 'internal', e.message || 'The server answered without a verdict.');
      }
      renderVerdict(d);
      if (d.verdict !== 'rejected' && $('q').value.trim()) search();
    } catch (e) {
      if (e.status === 404 && e.code === 'not_found') e.message = 'This server has no knowledge endpoints yet.';
      showAlert($('contribute-error'), e);
    } finally {
      $('c-submit').disabled = false;
    }
  }

  // STAGES names the gate's stages (DESIGN.md §6) for people.
  const STAGES = { pii: 'personal data', narrative: 'narrative', specificity: 'specificity' };

  function renderVerdict(d) {
    const v = $('verdict');
    const entry = d.entry || {};
    const parts = [el('div', { class: 'verdict-head' }, el('span', { class: `badge ${d.verdict === 'rejected' ? 'bad' : d.verdict === 'merged' ? 'info' : 'ok'}`, text: d.verdict }))];
    if (d.verdict === 'accepted') {
      parts.push(el('p', {}, 'Saved as a new entry', entry.id ? [' ', el('code', { text: entry.id })] : null, '.'));
    } else if (d.verdict === 'merged') {
      parts.push(el('p', {}, 'Merged into ', el('strong', { text: entry.title || entry.id || 'an existing entry' }),
        typeof d.similarity === 'number' ? ` (similarity ${d.similarity.toFixed(2)})` : '',
        entry.contribution_count ? `; it now has ${entry.contribution_count} contributions.` : '.'));
    }
    if (d.stage) parts[0].append(el('span', { class: 'muted small stage', text: `stopped at the ${STAGES[d.stage] || d.stage} check` }));
    if (d.reason) parts.push(el('p', { class: 'reason' }, el('span', { class: 'label', text: 'Reason: ' }), d.reason));
    if (Array.isArray(d.details) && d.details.length) {
      parts.push(el('ul', { class: 'details' }, d.details.map((x) => el('li', { text: typeof x === 'string' ? x : JSON.stringify(x) }))));
    }
    v.replaceChildren(...parts);
    v.className = `verdict ${d.verdict}`;
    v.dataset.verdict = d.verdict;
    v.hidden = false;
  }

  // knowledge runs when the tab opens: the handle used last is filled in.
  p.hooks.knowledge = () => {
    const saved = localStorage.getItem(HANDLE_KEY);
    if (saved && !$('c-handle').value) $('c-handle').value = saved;
  };
  $('search-form').addEventListener('submit', (ev) => { ev.preventDefault(); search(); });
  $('contribute-form').addEventListener('submit', (ev) => { ev.preventDefault(); contribute(); });
})();
