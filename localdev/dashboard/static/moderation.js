// pumasi dashboard: the admin's moderation view over GET /knowledge/moderation
// (flagged and quarantined entries, recent merges, a page of each; "Show
// more" reads a list's next page by its cursor), with quarantine (an
// admin's POST /knowledge/{id}/flag), restore (POST /knowledge/{id}/restore),
// redact (DELETE /knowledge/{id}) and undo a merge (POST
// /knowledge/{id}/unmerge); redact, quarantine and undo ask first. Each
// entry's history (GET /knowledge/{id}/history: who flagged it and why) opens
// under it.
'use strict';

(() => {
  const p = window.pumasi;
  if (!p) return;
  const { api, el, encPath, relTime, absTime, toast, showAlert, errorText, ask } = p;
  const $ = (id) => document.getElementById(id);
  // inflight is the load under way; again asks it to load once more, so an
  // action's reload is never lost to a refresh already running.
  let inflight = null;
  let again = false;
  // REASONS are the reasons a flag may give (POST /knowledge/{id}/flag).
  const REASONS = [['harmful', 'harmful'], ['wrong', 'wrong'], ['outdated', 'outdated'], ['duplicate', 'a duplicate'], ['pii', 'personal data']];

  function when(iso) {
    return iso ? el('time', { datetime: iso, title: absTime(iso), text: relTime(iso) }) : null;
  }

  function button(label, cls, onclick, aria) {
    return el('button', { type: 'button', class: `btn small ${cls || ''}`, 'aria-label': aria || label, onclick }, label);
  }

  // act runs one moderation request, says how it went and reloads the view.
  async function act(what, method, path, body) {
    let failed = null;
    try {
      await api(method, path, { body });
    } catch (e) {
      failed = e;
    }
    await load();
    if (failed) showAlert($('moderation-error'), failed);
    else toast(what, 'ok');
  }

  async function redact(e) {
    const yes = await ask('Redact entry?', [
      'Its title, content, tags and vectors are deleted for good; a tombstone keeps the id, which answers 410 afterwards: ',
      el('strong', { text: e.title || e.id }), '.'], 'Redact');
    if (yes) act(`Redacted ${e.id}`, 'DELETE', `/knowledge/${encPath(e.id)}`);
  }

  // quarantine takes a flagged entry out of queries at once: an admin's
  // flag, with the reason the admin picks.
  async function quarantine(e) {
    const reason = el('select', { name: 'reason', 'aria-label': 'Reason' },
      ...REASONS.map(([v, label]) => el('option', { value: v, text: label })));
    const yes = await ask('Quarantine entry?', [
      'Queries, MCP and the hooks leave out ', el('strong', { text: e.title || e.id }),
      ' until an admin restores it. Reason: ', reason], 'Quarantine');
    if (yes) act(`Quarantined ${e.id}`, 'POST', `/knowledge/${encPath(e.id)}/flag`, { reason: reason.value });
  }

  // unmerge undoes a merge; the sweep never merges the two again, so the
  // page asks first.
  async function unmerge(m) {
    const yes = await ask('Undo merge?', [
      el('strong', { text: m.title || m.entry_id }), ' (', el('code', { text: m.entry_id }),
      ') becomes a live entry again, with its own contributions and counts taken back out of ',
      el('code', { text: m.merged_into }), '. The sweep will not merge the two again.'], 'Undo merge');
    if (yes) act(`Unmerged ${m.entry_id}`, 'POST', `/knowledge/${encPath(m.entry_id)}/unmerge`);
  }

  function eventItem(ev) {
    const bits = [el('strong', { text: ev.kind.replace('_', ' ') })];
    if (ev.by) bits.push(` by ${ev.by}`);
    if (ev.other_id) bits.push(' ', el('code', { text: ev.other_id }));
    if (ev.reason) bits.push(`: ${ev.reason}`);
    if (ev.note) bits.push(' — ', el('q', { text: ev.note }));
    bits.push(' · ', when(ev.at));
    return el('li', { dataset: { kind: ev.kind } }, ...bits);
  }

  // history is an entry's lifecycle, fetched when first opened.
  function history(id) {
    const list = el('ol', { class: 'modhist-list small' });
    const d = el('details', { class: 'modhist' }, el('summary', { class: 'small' }, 'History'), list);
    d.addEventListener('toggle', async () => {
      if (!d.open || d.dataset.loaded) return;
      try {
        const r = await api('GET', `/knowledge/${encPath(id)}/history`);
        const evs = (r.body && r.body.data && r.body.data.events) || [];
        list.replaceChildren(...(evs.length ? evs.map(eventItem) : [el('li', { class: 'muted', text: 'Nothing recorded.' })]));
        d.dataset.loaded = String(Date.now());
      } catch (e) {
        list.replaceChildren(el('li', { class: 'error', text: errorText(e).message }));
      }
    });
    return d;
  }

  function entryItem(e, list) {
    const quarantined = list === 'quarantined';
    return el('li', { class: 'moditem', dataset: { id: e.id, list } },
      el('h3', { text: e.title || '(untitled)' }),
      el('div', { class: 'why small' },
        el('span', { class: `badge ${quarantined ? 'bad' : 'warn'}`, text: quarantined ? 'quarantined' : 'flagged' }),
        el('span', { class: 'muted', text: `${e.flags || 0} flagger${e.flags === 1 ? '' : 's'} · hive ${e.hive || 'academy'}` })),
      el('p', { class: 'content small', text: (e.content || '').slice(0, 280) }),
      el('div', { class: 'actions' },
        // A flagged entry is still served: restore would change nothing.
        quarantined
          ? button('Restore', '', () => act(`Restored ${e.id}`, 'POST', `/knowledge/${encPath(e.id)}/restore`), `Restore ${e.id}`)
          : button('Quarantine', '', () => quarantine(e), `Quarantine ${e.id}`),
        button('Redact', 'danger', () => redact(e), `Redact ${e.id}`)),
      history(e.id));
  }

  function mergeItem(m) {
    const sim = typeof m.similarity === 'number' ? ` · similarity ${m.similarity.toFixed(2)}` : '';
    return el('li', { class: 'moditem', dataset: { id: m.entry_id, list: 'merges', into: m.merged_into } },
      el('h3', { text: m.title || m.entry_id }),
      el('div', { class: 'muted small' }, `into `, el('code', { text: m.merged_into }), ` by ${m.via || 'a merge'}${sim} · `, when(m.at)),
      el('div', { class: 'actions' },
        button('Undo merge', '', () => unmerge(m), `Undo merge of ${m.entry_id}`)),
      history(m.entry_id));
  }

  // pageSize is how many of each list a page holds: the server's cap
  // unless the view's data-page says fewer.
  function pageSize() {
    const n = Number($('moderation-view').dataset.page);
    return Number.isInteger(n) && n > 0 ? Math.min(n, 50) : 50;
  }

  // MAKE builds a list's items.
  const MAKE = {
    flagged: (e) => entryItem(e, 'flagged'),
    quarantined: (e) => entryItem(e, 'quarantined'),
    merges: mergeItem,
  };

  // fill shows a list's first page (append false) or adds its next page,
  // with a "Show more" button while the server has more (next).
  function fill(name, items, next, append) {
    const list = $(`${name}-list`);
    if (append) list.append(...items);
    else list.replaceChildren(...items);
    const n = list.children.length;
    $(`${name}-count`).textContent = next ? `${n}+` : String(n);
    $(`${name}-empty`).hidden = n > 0;
    const more = $(`${name}-more`);
    more.hidden = !next;
    more.dataset.cursor = next || '';
  }

  // more reads a list's next page from the cursor the last page gave.
  async function more(name) {
    const b = $(`${name}-more`);
    if (!b.dataset.cursor || b.disabled) return;
    b.disabled = true;
    try {
      const r = await api('GET', `/knowledge/moderation?list=${name}&limit=${pageSize()}&cursor=${encodeURIComponent(b.dataset.cursor)}`);
      const d = (r.body && r.body.data) || {};
      showAlert($('moderation-error'), null);
      fill(name, (d[name] || []).map(MAKE[name]), (d.next || {})[name], true);
    } catch (e) {
      showAlert($('moderation-error'), e);
    } finally {
      b.disabled = false;
    }
  }

  async function load() {
    if (inflight) {
      again = true;
      return inflight;
    }
    inflight = (async () => {
      do {
        again = false;
        await loadOnce();
      } while (again);
    })();
    try {
      await inflight;
    } finally {
      inflight = null;
    }
  }

  async function loadOnce() {
    try {
      const r = await api('GET', `/knowledge/moderation?limit=${pageSize()}`);
      const d = (r.body && r.body.data) || {};
      showAlert($('moderation-error'), null);
      for (const name of Object.keys(MAKE)) fill(name, (d[name] || []).map(MAKE[name]), (d.next || {})[name], false);
      $('moderation-view').dataset.loaded = String(Date.now());
    } catch (e) {
      showAlert($('moderation-error'), e);
    }
  }

  $('moderation-refresh').addEventListener('click', load);
  for (const name of Object.keys(MAKE)) $(`${name}-more`).addEventListener('click', () => more(name));
  p.hooks.moderation = load;
  // A page opened on #/moderation routed before this script ran.
  if (p.state.view === 'moderation') load();
})();
