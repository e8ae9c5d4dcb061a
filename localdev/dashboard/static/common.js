// pumasi dashboard: what every part of the page shares — the session's
// state, the API client and its error headlines, DOM helpers and the
// confirmation dialog — as window.pumasi, which the other scripts (loaded
// after this one, app.js last) use.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  const state = {
    token: null,
    claims: null,
    rooms: [],
    view: null,
    room: null,
    filesEtag: null,
    files: [],
    agentsKey: '',
    pollTimer: null,
    polling: false,
  };

  // hooks are how the parts reach each other: app.js sets signOut and poll,
  // files.js preview and remove, knowledge.js knowledge, history.js history
  // and roomChanged, moderation.js moderation.
  const hooks = {};

  // ERROR_TITLES turns the API's error codes into a short headline; the
  // server's message follows it.
  const ERROR_TITLES = {
    too_large: 'Too large',
    quota_exceeded: 'Room is full',
    unsupported_type: 'Not a text file',
    invalid_name: 'Bad file name',
    name_conflict: 'Name conflict',
    precondition_failed: 'Changed meanwhile',
    invalid_request: 'Invalid request',
    unauthorized: 'Not signed in',
    agent_required: 'Handle required',
    forbidden: 'Not allowed',
    not_found: 'Not found',
    gone: 'Gone for good',
    rate_limited: 'Slow down',
    rejected: 'Rejected',
    internal: 'Server error',
    unavailable: 'Server busy',
    insufficient_storage: 'Disk full',
    network: 'Server unreachable',
  };

  // ApiError carries the contract's {code, message} plus the HTTP status.
  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  // ---------- helpers ----------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function formatSize(n) {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KiB`;
    return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  }

  function relTime(iso) {
    if (!iso) return 'never';
    const t = new Date(iso).getTime();
    if (Number.isNaN(t)) return '—';
    const s = Math.round((Date.now() - t) / 1000);
    if (s < 5) return 'just now';
    if (s < 60) return `${s} s ago`;
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
    return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  }

  function absTime(iso) {
    return iso ? new Date(iso).toLocaleString() : '';
  }

  function errorText(err) {
    const code = err.code || 'network';
    const title = ERROR_TITLES[code] || 'Error';
    return { code, title, message: err.message || '' };
  }

  function showAlert(node, err) {
    if (!err) {
      node.hidden = true;
      node.replaceChildren();
      return;
    }
    const t = errorText(err);
    node.replaceChildren(el('strong', { text: t.title }), ' ', t.message, ' ', el('code', { class: 'code', text: t.code }));
    node.dataset.code = t.code;
    node.hidden = false;
  }

  let toastTimer = null;
  function toast(msg, kind) {
    const t = $('toast');
    t.textContent = msg;
    t.className = `toast ${kind || ''}`;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
  }

  function encPath(s) {
    return encodeURIComponent(s);
  }

  // api sends one request and returns {status, body, headers}; a non-2xx,
  // non-304 answer throws ApiError with the contract's code and message.
  async function api(method, path, { body, headers, auth = true, okStatuses = [] } = {}) {
    const h = new Headers(headers || {});
    if (auth && state.token) h.set('Authorization', `Bearer ${state.token}`);
    let payload = body;
    if (body !== undefined && !(body instanceof FormData) && typeof body !== 'string') {
      h.set('Content-Type', 'application/json');
      payload = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, { method, headers: h, body: payload, cache: 'no-store', credentials: 'omit' });
    } catch (e) {
      throw new ApiError(0, 'network', 'The server did not answer. Is localdev running?');
    }
    let data = null;
    const ct = resp.headers.get('Content-Type') || '';
    if (resp.status !== 204 && resp.status !== 304 && ct.includes('json')) {
      try { data = await resp.json(); } catch (e) { data = null; }
    }
    if (resp.ok || resp.status === 304 || okStatuses.includes(resp.status)) {
      return { status: resp.status, body: data, headers: resp.headers };
    }
    const e = (data && data.error) || {};
    const err = new ApiError(resp.status, e.code || 'internal', e.message || `HTTP ${resp.status}`);
    if (err.code === 'unauthorized' && auth && state.token && hooks.signOut) {
      hooks.signOut('Your token was refused: ' + err.message);
    }
    throw err;
  }

  // ask shows the confirmation dialog and resolves to true for its OK button.
  function ask(title, text, okLabel) {
    const dlg = $('confirm');
    $('confirm-title').textContent = title;
    $('confirm-text').replaceChildren(...text);
    const ok = $('confirm-ok');
    const cancel = $('confirm-cancel');
    ok.textContent = okLabel;
    return new Promise((resolve) => {
      const done = (yes) => {
        ok.onclick = null;
        cancel.onclick = null;
        dlg.onclose = null;
        if (dlg.open) dlg.close();
        resolve(yes);
      };
      ok.onclick = () => done(true);
      cancel.onclick = () => done(false);
      dlg.onclose = () => done(false);
      dlg.showModal();
      cancel.focus();
    });
  }

  window.pumasi = {
    $, api, ApiError, el, encPath, state, hooks, relTime, absTime, formatSize, toast, showAlert, errorText, ask,
    poll: () => hooks.poll && hooks.poll(false),
  };
})();
