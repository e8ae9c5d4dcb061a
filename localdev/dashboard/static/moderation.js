// pumasi dashboard: the admin's moderation view over GET /knowledge/moderation
// (flagged and quarantined entries, recent merges), with quarantine (an
// admin's POST /knowledge/{id}/flag), restore (POST /knowledge/{id}/restore),
// redact (DELETE /knowledge/{id}) and undo a merge (POST
// /knowledge/{id}/unmerge); redact, quarantine and undo ask first.
'use strict';

(() => {
  const p = window.pumasi;
  if (!p) return;
  const { api, el, encPath, relTime, absTime, toast, showAlert, ask } = p;
  const $ = (id) => document.getElementById(id);
  let loading = false;
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
        button('Redact', 'danger', () => redact(e), `Redact ${e.id}`)));
  }

  function mergeItem(m) {
    const sim = typeof m.similarity === 'number' ? ` · similarity ${m.similarity.toFixed(2)}` : '';
    return el('li', { class: 'moditem', dataset: { id: m.entry_id, list: 'merges', into: m.merged_into } },
      el('h3', { text: m.title || m.entry_id }),
      el('div', { class: 'muted small' }, `into `, el('code', { text: m.merged_into }), ` by ${m.via || 'a merge'}${sim} · `, when(m.at)),
      el('div', { class: 'actions' },
        button('Undo merge', '', () => unmerge(m), `Undo merge of ${m.entry_id}`)));
  }

  function fill(name, items) {
    $(`${name}-count`).textContent = String(items.length);
    $(`${name}-empty`).hidden = items.length > 0;
    $(`${name}-list`).replaceChildren(...items);
  }

  async function load() {
    if (loading) return;
    loading = true;
    try {
      const r = await api('GET', '/knowledge/moderation');
      const d = (r.body && r.body.data) || {};
      showAlert($('moderation-error'), null);
      fill('flagged', (d.flagged || []).map((e) => entryItem(e, 'flagged')));
      fill('quarantined', (d.quarantined || []).map((e) => entryItem(e, 'quarantined')));
      fill('merges', (d.merges || []).map(mergeItem));
      $('moderation-view').dataset.loaded = String(Date.now());
    } catch (e) {
      showAlert($('moderation-error'), e);
    } finally {
      loading = false;
    }
  }

  $('moderation-refresh').addEventListener('click', load);
  p.hooks.moderation = load;
  // A page opened on #/moderation routed before this script ran.
  if (p.state.view === 'moderation') load();
})();
