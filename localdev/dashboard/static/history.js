// pumasi dashboard: a file's history (versions, a line diff between any two,
// restore) and the room log, over GET …/versions, GET …?version=N,
// POST …/restore, GET …/files?deleted=1 and GET /rooms/{room}/log.
'use strict';

(() => {
  const p = window.pumasi;
  if (!p) return;
  const { api, el, encPath, state, relTime, absTime, formatSize, toast, showAlert, errorText, ask } = p;
  const $ = (id) => document.getElementById(id);
  const LOG_SHOWN = 50;

  const hist = { name: null, versions: [], a: null, b: null, bodies: new Map(), logKey: '' };

  // ---------- line diff: Myers' O(ND) edit script, as `pumasi diff` ----------

  function lines(s) {
    if (!s) return [];
    const out = s.split(/(?<=\n)/);
    return out[out.length - 1] === '' ? out.slice(0, -1) : out;
  }

  function myers(a, b) {
    const n = a.length; const m = b.length; const max = n + m; const off = max + 1;
    const v = new Int32Array(2 * max + 2);
    const trace = [];
    for (let d = 0; d <= max; d++) {
      trace.push(v.slice());
      for (let k = -d; k <= d; k += 2) {
        let x = (k === -d || (k !== d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[x] === b[y]) { x++; y++; }
        v[off + k] = x;
        if (x >= n && y >= m) return back(trace, a, b, off, d);
      }
    }
    return [];
  }

  function back(trace, a, b, off, d) {
    const ops = [];
    let x = a.length; let y = b.length;
    for (; d > 0; d--) {
      const v = trace[d]; const k = x - y;
      const pk = (k === -d || (k !== d && v[off + k - 1] < v[off + k + 1])) ? k + 1 : k - 1;
      const px = v[off + pk]; const py = px - pk;
      while (x > px && y > py) { x--; y--; ops.push([' ', a[x]]); }
      if (x === px) { y--; ops.push(['+', b[y]]); } else { x--; ops.push(['-', a[x]]); }
    }
    while (x > 0 && y > 0) { x--; y--; ops.push([' ', a[x]]); }
    return ops.reverse();
  }

  // diffLines matches the common head and tail first, then runs Myers on
  // the middle: the changes stay where a reader looks for them.
  function diffLines(a, b) {
    let h = 0;
    while (h < a.length && h < b.length && a[h] === b[h]) h++;
    let t = 0;
    while (t < a.length - h && t < b.length - h && a[a.length - 1 - t] === b[b.length - 1 - t]) t++;
    const mid = myers(a.slice(h, a.length - t), b.slice(h, b.length - t));
    return [...a.slice(0, h).map((l) => [' ', l]), ...mid, ...a.slice(a.length - t).map((l) => [' ', l])];
  }

  // hunks groups an edit script into unified-diff hunks with ctx lines of
  // context: [{head, ops}].
  function hunks(ops, ctx) {
    const out = [];
    for (let i = 0; i < ops.length;) {
      if (ops[i][0] === ' ') { i++; continue; }
      const start = Math.max(0, i - ctx);
      let end = i;
      while (end < ops.length) {
        if (ops[end][0] !== ' ') { end++; continue; }
        let run = end;
        while (run < ops.length && ops[run][0] === ' ') run++;
        if (run === ops.length || run - end > 2 * ctx) { end = Math.min(ops.length, end + ctx); break; }
        end = run;
      }
      let la = 1; let lb = 1;
      for (const [k] of ops.slice(0, start)) { if (k !== '+') la++; if (k !== '-') lb++; }
      let ca = 0; let cb = 0;
      for (const [k] of ops.slice(start, end)) { if (k !== '+') ca++; if (k !== '-') cb++; }
      const span = (s, c) => (c === 0 ? `${s - 1},0` : c === 1 ? `${s}` : `${s},${c}`);
      out.push({ head: `@@ -${span(la, ca)} +${span(lb, cb)} @@`, ops: ops.slice(start, end) });
      i = end;
    }
    return out;
  }

  // ---------- the history dialog ----------

  async function versionBody(v) {
    if (hist.bodies.has(v.sha256)) return hist.bodies.get(v.sha256);
    const resp = await fetch(`/rooms/${encPath(state.room)}/files/${encPath(hist.name)}?version=${v.version}`,
      { headers: { Authorization: `Bearer ${state.token}` }, cache: 'no-store', credentials: 'omit' });
    if (!resp.ok) {
      let e = {};
      try { e = (await resp.json()).error || {}; } catch (x) { /* not JSON */ }
      throw Object.assign(new Error(e.message || `HTTP ${resp.status}`), { code: e.code || 'internal' });
    }
    const text = await resp.text();
    hist.bodies.set(v.sha256, text);
    return text;
  }

  async function openHistory(name) {
    hist.name = name;
    hist.bodies = new Map();
    $('history-title').textContent = `History of ${name}`;
    showAlert($('history-error'), null);
    $('diff').replaceChildren();
    $('diff-meta').textContent = '';
    if (!$('history').open) $('history').showModal();
    await loadVersions(true);
  }

  async function loadVersions(pickDefaults) {
    try {
      const r = await api('GET', `/rooms/${encPath(state.room)}/files/${encPath(hist.name)}/versions`);
      hist.versions = (r.body && r.body.versions) || [];
    } catch (e) {
      hist.versions = [];
      showAlert($('history-error'), e);
    }
    const content = hist.versions.filter((v) => !v.deleted);
    if (pickDefaults || !content.some((v) => v.version === hist.a) || !content.some((v) => v.version === hist.b)) {
      hist.b = content.length ? content[0].version : null;
      hist.a = content.length > 1 ? content[1].version : hist.b;
    }
    renderVersions();
    await renderDiff();
  }

  function renderVersions() {
    const current = hist.versions.find((v) => v.current);
    const rows = hist.versions.map((v) => {
      const pick = (side) => (v.deleted ? el('td', {}) : el('td', {},
        el('input', {
          type: 'radio', name: `diff-${side}`, value: String(v.version), 'aria-label': `Compare version ${v.version} as ${side.toUpperCase()}`,
          checked: hist[side] === v.version,
          onchange: () => { hist[side] = v.version; renderDiff(); },
        })));
      let note = '';
      if (v.deleted) note = 'deleted';
      else if (v.restored_from) note = `restored v${v.restored_from}`;
      if (v.current) note = note ? `${note} · current` : 'current';
      const canRestore = !v.deleted && !v.current;
      return el('tr', { class: [v.current ? 'current' : '', v.deleted ? 'deleted' : ''].join(' ').trim(), dataset: { version: String(v.version) } },
        pick('a'), pick('b'),
        el('td', { class: 'num', text: `v${v.version}` }),
        el('td', { class: 'by', text: v.uploaded_by || '—' }),
        el('td', {}, el('time', { datetime: v.created_at, title: absTime(v.created_at), text: relTime(v.created_at) })),
        el('td', { class: 'num', text: v.deleted ? '' : formatSize(v.size) }),
        el('td', { class: 'mono', text: v.deleted ? '—' : v.sha256.slice(0, 12), title: v.sha256 }),
        el('td', { class: 'actions' },
          note ? el('span', { class: 'muted small note', text: note }) : null,
          canRestore ? el('button', { type: 'button', class: 'btn small restore-btn', 'aria-label': `Restore version ${v.version}`, onclick: () => restore(v, current) }, 'Restore') : null));
    });
    $('versions-body').replaceChildren(...rows);
  }

  async function renderDiff() {
    const out = $('diff');
    const meta = $('diff-meta');
    const va = hist.versions.find((v) => v.version === hist.a);
    const vb = hist.versions.find((v) => v.version === hist.b);
    if (!va || !vb) {
      out.replaceChildren();
      meta.textContent = 'No version with content to compare.';
      return;
    }
    let a; let b;
    try {
      [a, b] = await Promise.all([versionBody(va), versionBody(vb)]);
    } catch (e) {
      showAlert($('history-error'), e);
      return;
    }
    if (hist.a !== va.version || hist.b !== vb.version) return; // picked again meanwhile
    const hs = hunks(diffLines(lines(a), lines(b)), 3);
    let added = 0; let removed = 0;
    for (const h of hs) for (const [k] of h.ops) { if (k === '+') added++; if (k === '-') removed++; }
    meta.textContent = hs.length ? `v${va.version} → v${vb.version}: +${added} −${removed} lines` : `v${va.version} and v${vb.version} are the same`;
    out.dataset.added = String(added);
    out.dataset.removed = String(removed);
    const nodes = [];
    for (const h of hs) {
      nodes.push(el('span', { class: 'hunk', text: h.head }));
      for (const [k, l] of h.ops) {
        nodes.push(el('span', { class: k === '+' ? 'add' : k === '-' ? 'del' : 'same', text: k + l.replace(/\n$/, '') }));
      }
    }
    out.replaceChildren(...nodes);
  }

  async function restore(v, current) {
    const yes = await ask('Restore this version?', ['Make ', el('strong', { text: `v${v.version}` }), ` of ${hist.name} current again? It becomes a new version, sent to every agent in room ${state.room}; the present one stays in the history.`], 'Restore');
    if (!yes) return;
    const headers = current && !current.deleted ? { 'If-Match': `"${current.sha256}"` } : { 'If-None-Match': '*' };
    try {
      const r = await api('POST', `/rooms/${encPath(state.room)}/files/${encPath(hist.name)}/restore`, { body: { version: v.version }, headers });
      const f = r.body || {};
      toast(f.changed ? `Restored v${v.version} of ${hist.name} as v${f.version}` : `${hist.name} already holds v${v.version}'s content`, 'ok');
    } catch (e) {
      const t = errorText(e);
      showAlert($('history-error'), e);
      toast(`${t.title}: ${t.message}`, 'bad');
    }
    await loadVersions(true);
    p.poll();
  }

  // ---------- the room log and deleted files ----------

  function describe(c) {
    const sha = (s) => (s ? s.slice(0, 12) : '');
    switch (c.kind) {
      case 'upload': return [el('code', { text: c.name }), ` v${c.version} `, c.from_sha256 ? `${sha(c.from_sha256)} → ` : '(new) → ', sha(c.to_sha256)];
      case 'delete': return [el('code', { text: c.name }), ` v${c.version} (was ${sha(c.from_sha256)})`];
      case 'restore': return [el('code', { text: c.name }), ` v${c.version} from v${c.restored_from} `, `→ ${sha(c.to_sha256)}`];
      case 'place': return [el('strong', { text: c.agent_id }), ` on ${c.machine_id}`];
      case 'unplace': return [el('strong', { text: c.agent_id }), ` from ${c.machine_id}`];
      case 'move':
        if (c.from_room) return [el('strong', { text: c.agent_id }), ` in from room ${c.from_room}`];
        if (c.to_room) return [el('strong', { text: c.agent_id }), ` out to room ${c.to_room}`];
        return [el('strong', { text: c.agent_id }), ` ${c.from_machine} → ${c.machine_id}`];
      default: return [c.kind];
    }
  }

  async function refreshLog(room, rev) {
    try {
      const since = Math.max(0, rev - 4 * LOG_SHOWN);
      const [log, del] = await Promise.all([
        api('GET', `/rooms/${encPath(room)}/log?since=${since}&limit=1000`),
        api('GET', `/rooms/${encPath(room)}/files?deleted=1`),
      ]);
      if (room !== state.room) return;
      const changes = ((log.body && log.body.changes) || []).slice(-LOG_SHOWN).reverse();
      $('log-empty').hidden = changes.length > 0;
      $('room-log').replaceChildren(...changes.map((c) => el('li', { dataset: { rev: String(c.rev), kind: c.kind } },
        el('span', { class: `kind kind-${c.kind}`, text: c.kind }), ' ', ...describe(c),
        el('div', { class: 'muted small' }, 'by ', el('span', { class: 'by', text: c.by || '—' }), ' · ',
          el('time', { datetime: c.at, title: absTime(c.at), text: relTime(c.at) }), ` · rev ${c.rev}`))));
      const files = (del.body && del.body.files) || [];
      $('deleted').hidden = files.length === 0;
      $('deleted-count').textContent = String(files.length);
      $('deleted-list').replaceChildren(...files.map((f) => el('li', { dataset: { name: f.name } },
        el('span', {}, el('code', { text: f.name }), el('span', { class: 'muted small', text: ` deleted by ${f.deleted_by} ${relTime(f.deleted_at)}` })),
        el('span', {},
          el('button', { type: 'button', class: 'btn ghost small', 'aria-label': `History of ${f.name}`, onclick: () => openHistory(f.name) }, 'History'),
          el('button', {
            type: 'button', class: 'btn small undelete-btn', 'aria-label': `Restore ${f.name}`,
            onclick: async () => { await openHistory(f.name); const v = hist.versions.find((x) => x.version === f.last_version); if (v) restore(v, hist.versions.find((x) => x.current)); },
          }, 'Restore')))));
      hist.logKey = `${room}@${rev}`;
    } catch (e) {
      // The log needs a room or admin token; the files card shows other errors.
    }
  }

  p.hooks.history = openHistory;
  p.hooks.roomChanged = (room, rev) => {
    if (`${room}@${rev}` !== hist.logKey) refreshLog(room, rev);
    if ($('history').open && hist.name) loadVersions(false);
  };
  // A listing shown before this script ran is not missed.
  if (state.room && state.rev !== undefined) refreshLog(state.room, state.rev);
  $('history-close').addEventListener('click', () => $('history').close());
  $('history').addEventListener('click', (ev) => { if (ev.target === $('history')) $('history').close(); });
})();
