// pumasi dashboard: plain JavaScript over the HTTP API (DESIGN.md §4, §6).
// The token lives in sessionStorage only; nothing is loaded from elsewhere.
'use strict';

(() => {
  const TOKEN_KEY = 'pumasi.token';
  const ROOMS_KEY = 'pumasi.rooms';
  const HANDLE_KEY = 'pumasi.handle';
  const MAX_FILE = 262144; // DESIGN.md §3: 256 KiB
  const POLL_MS = 2000;
  const ID_RE = /^[a-z0-9][a-z0-9._-]{0,62}$/;

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
    if (err.code === 'unauthorized' && auth && state.token) {
      signOut('Your token was refused: ' + err.message);
    }
    throw err;
  }

  // ---------- token and session ----------

  function decodeClaims(token) {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    try {
      const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
      const json = decodeURIComponent(Array.from(atob(b64), (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join(''));
      return JSON.parse(json);
    } catch (e) {
      return null;
    }
  }

  function scopesOf(claims) {
    const out = { admin: false, rooms: [], machines: [] };
    for (const s of String((claims && claims.scope) || '').split(/\s+/)) {
      if (s === 'admin') out.admin = true;
      else if (s.startsWith('room:')) out.rooms.push(s.slice(5));
      else if (s.startsWith('machine:')) out.machines.push(s.slice(8));
    }
    return out;
  }

  // takeFragment moves a #token=... (and optional &room=...) from the URL into
  // sessionStorage and removes it from the address bar and history; it
  // returns the token, or null when the fragment held none.
  function takeFragment() {
    const h = location.hash.replace(/^#/, '');
    if (!/(^|&)token=/.test(h)) return null;
    const p = new URLSearchParams(h);
    const tok = (p.get('token') || '').trim();
    const room = p.get('room');
    if (tok) sessionStorage.setItem(TOKEN_KEY, tok);
    const next = room && ID_RE.test(room) ? `#/rooms/${room}` : '#/rooms';
    history.replaceState(null, '', location.pathname + location.search + next);
    return tok || null;
  }

  function setToken(tok) {
    state.token = tok;
    state.claims = decodeClaims(tok);
    sessionStorage.setItem(TOKEN_KEY, tok);
    renderWho();
  }

  function signOut(reason) {
    state.token = null;
    state.claims = null;
    sessionStorage.removeItem(TOKEN_KEY);
    stopPolling();
    renderWho();
    location.hash = '#/login';
    if (reason) showAlert($('login-error'), { code: 'unauthorized', message: reason });
  }

  function renderWho() {
    const who = $('who');
    if (!state.token) {
      who.hidden = true;
      $('tab-moderation').hidden = true;
      return;
    }
    const s = scopesOf(state.claims);
    let label = 'token';
    if (s.admin) label = 'admin';
    else if (s.rooms.length) label = s.rooms.map((r) => `room ${r}`).join(', ');
    else if (s.machines.length) label = s.machines.map((m) => `machine ${m}`).join(', ');
    $('who-scopes').textContent = label;
    // Moderation is for admins: the server refuses everyone else anyway.
    $('tab-moderation').hidden = !s.admin;
    const sub = state.claims && state.claims.sub ? `subject ${state.claims.sub}` : '';
    const exp = state.claims && state.claims.exp ? `expires ${new Date(state.claims.exp * 1000).toLocaleString()}` : '';
    $('who-scopes').title = [sub, exp].filter(Boolean).join(' · ');
    who.hidden = false;
  }

  async function login(tok) {
    tok = tok.trim().replace(/^Bearer\s+/i, '');
    const claims = decodeClaims(tok);
    if (!claims) throw new ApiError(0, 'invalid_request', 'That is not a pumasi token (expected three dot-separated parts).');
    if (claims.exp && claims.exp * 1000 < Date.now()) throw new ApiError(0, 'unauthorized', 'This token has expired; mint a new one with pumasi token.');
    const s = scopesOf(claims);
    if (!s.admin && !s.rooms.length) {
      throw new ApiError(0, 'forbidden', 'This token grants no room (a machine token is for daemons). Use an admin or room token.');
    }
    // One real request proves the server accepts the signature.
    const saved = state.token;
    state.token = tok;
    try {
      const r = await api('GET', '/rooms', { auth: true });
      state.rooms = (r.body && r.body.rooms) || [];
    } catch (e) {
      state.token = saved;
      throw e;
    }
    setToken(tok);
    return s;
  }

  // ---------- routing ----------

  function route() {
    const h = location.hash.replace(/^#\/?/, '');
    const [view, arg] = h.split('/');
    if (view === 'knowledge') return show('knowledge');
    if (!state.token) return show('login');
    if (view === 'moderation') return show(scopesOf(state.claims).admin ? 'moderation' : 'knowledge');
    if (view === 'rooms' && arg) {
      const room = decodeURIComponent(arg);
      return show('rooms', room);
    }
    const s = scopesOf(state.claims);
    const listed = (state.rooms || []).length === 1 ? state.rooms[0].room_id : null;
    const first = state.room || recentRooms()[0] || (s.rooms.length === 1 ? s.rooms[0] : listed);
    if (first) {
      history.replaceState(null, '', `#/rooms/${first}`);
      return show('rooms', first);
    }
    return show('rooms');
  }

  function show(view, room) {
    state.view = view;
    for (const v of ['login', 'rooms', 'knowledge', 'moderation']) $(`${v}-view`).hidden = v !== view;
    for (const a of document.querySelectorAll('#tabs a')) {
      const on = a.dataset.view === view;
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    $('tabs').hidden = !state.token && view !== 'knowledge';
    if (view === 'login') {
      stopPolling();
      setTimeout(() => $('token-input').focus(), 0);
      return;
    }
    if (view === 'rooms') {
      renderRoomList();
      if (room && room !== state.room) openRoom(room);
      else if (room) startPolling();
      else {
        $('room-body').hidden = true;
        stopPolling();
        $('room-input').focus();
      }
      return;
    }
    stopPolling();
    if (view === 'moderation' && hooks.moderation) hooks.moderation();
    if (view === 'knowledge') {
      const saved = localStorage.getItem(HANDLE_KEY);
      if (saved && !$('c-handle').value) $('c-handle').value = saved;
    }
  }

  // ---------- rooms ----------

  function recentRooms() {
    try {
      const v = JSON.parse(localStorage.getItem(ROOMS_KEY) || '[]');
      return Array.isArray(v) ? v.filter((r) => ID_RE.test(r)) : [];
    } catch (e) {
      return [];
    }
  }

  function rememberRoom(room) {
    const list = [room, ...recentRooms().filter((r) => r !== room)].slice(0, 12);
    localStorage.setItem(ROOMS_KEY, JSON.stringify(list));
  }

  function renderRoomList() {
    const s = scopesOf(state.claims);
    const known = (state.rooms || []).map((r) => r.room_id);
    const all = [...new Set([...known, ...s.rooms, ...recentRooms()])];
    $('room-list').replaceChildren(...all.map((r) => el('option', { value: r })));
    renderRoomsNav();
    fetchRooms();
  }

  // fetchRooms reads GET /rooms (the rooms this token reaches) and lists
  // them as links; one click opens a room.
  async function fetchRooms() {
    try {
      const r = await api('GET', '/rooms');
      state.rooms = (r.body && r.body.rooms) || [];
      renderRoomsNav();
    } catch (e) {
      // The room bar still opens rooms by id; the error shows on open.
    }
  }

  function renderRoomsNav() {
    const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
    $('rooms-nav').replaceChildren(...(state.rooms || []).map((r) => el('li', {},
      el('a', {
        href: `#/rooms/${r.room_id}`,
        class: r.room_id === state.room ? 'roomlink active' : 'roomlink',
        'aria-current': r.room_id === state.room ? 'page' : null,
        dataset: { room: r.room_id },
      }, el('strong', { text: r.room_id }),
      el('span', { class: 'muted small', text: `${plural(r.files, 'file')} · ${plural(r.agents.length, 'agent')} · rev ${r.rev}` })))));
  }

  function openRoom(room) {
    showAlert($('room-error'), null);
    if (!ID_RE.test(room)) {
      showAlert($('room-error'), { code: 'invalid_request', message: `"${room}" is not a room id: lowercase letters, digits, . _ - (start with a letter or digit, at most 63).` });
      $('room-body').hidden = true;
      return;
    }
    state.room = room;
    state.filesEtag = null;
    state.files = [];
    state.agentsKey = '';
    $('room-input').value = room;
    $('uploads').replaceChildren();
    $('files-body').replaceChildren();
    $('agents').replaceChildren();
    $('room-body').hidden = false;
    $('files-title').firstChild.textContent = 'Files ';
    document.title = `${room} · pumasi`;
    renderRoomsNav();
    startPolling(true);
  }

  async function refreshFiles() {
    const room = state.room;
    const headers = state.filesEtag ? { 'If-None-Match': state.filesEtag } : {};
    const r = await api('GET', `/rooms/${encPath(room)}/files`, { headers });
    if (room !== state.room) return;
    if (r.status === 304) return;
    state.filesEtag = r.headers.get('ETag');
    state.files = (r.body && r.body.files) || [];
    rememberRoom(room);
    renderFiles(r.body ? r.body.rev : 0);
  }

  function renderFiles(rev) {
    const files = state.files;
    const total = files.reduce((n, f) => n + f.size, 0);
    $('file-count').textContent = String(files.length);
    $('room-meta').textContent = `${state.room} · rev ${rev} · ${formatSize(total)}`;
    $('files-empty').hidden = files.length > 0;
    $('files-table').hidden = files.length === 0;
    const rows = files.map((f) => el('tr', { dataset: { name: f.name, sha256: f.sha256 } },
      el('td', { class: 'name', 'data-label': 'Name' },
        el('button', { type: 'button', class: 'linkish filename', title: `Preview ${f.name}`, onclick: () => previewFile(f) }, f.name),
        el('span', { class: 'muted small ctype', text: (f.content_type || '').split(';')[0] })),
      el('td', { class: 'num', 'data-label': 'Size', text: formatSize(f.size), title: `${f.size} bytes` }),
      el('td', { class: 'mono', 'data-label': 'sha256' },
        el('button', { type: 'button', class: 'sha', title: `${f.sha256}\nclick to copy`, onclick: () => copySha(f.sha256) }, f.sha256.slice(0, 12))),
      el('td', { class: 'num', 'data-label': 'Version', text: `v${f.version}` }),
      el('td', { 'data-label': 'Updated', class: 'updated' },
        el('time', { datetime: f.updated_at, title: `${absTime(f.updated_at)}${f.uploaded_by ? ' by ' + f.uploaded_by : ''}`, text: relTime(f.updated_at) })),
      el('td', { class: 'actions' },
        el('button', { type: 'button', class: 'btn ghost small history-btn', 'aria-label': `History of ${f.name}`, onclick: () => hooks.history && hooks.history(f.name) }, 'History'),
        el('button', { type: 'button', class: 'btn ghost small danger-text', 'aria-label': `Delete ${f.name}`, onclick: () => confirmDelete(f) }, 'Delete'))));
    $('files-body').replaceChildren(...rows);
    state.rev = rev;
    if (hooks.roomChanged) hooks.roomChanged(state.room, rev);
  }

  async function copySha(sha) {
    try {
      await navigator.clipboard.writeText(sha);
      toast('sha256 copied');
    } catch (e) {
      toast(sha);
    }
  }

  function tickTimes() {
    for (const t of document.querySelectorAll('time[datetime]')) t.textContent = relTime(t.getAttribute('datetime'));
  }

  async function refreshAgents() {
    const room = state.room;
    const started = Date.now();
    const r = await api('GET', `/rooms/${encPath(room)}/agents`);
    if (room !== state.room) return;
    // data-fetched is when the request behind the shown list was sent, so a
    // reader (or a test) can tell a fresh "synced" from one shown before an
    // upload.
    $('agents').dataset.fetched = String(started);
    const agents = (r.body && r.body.agents) || [];
    const key = JSON.stringify(agents);
    if (key === state.agentsKey) return;
    state.agentsKey = key;
    renderAgents(agents);
  }

  function renderAgents(agents) {
    $('agent-count').textContent = String(agents.length);
    $('agents-empty').hidden = agents.length > 0;
    if (agents.length === 0) $('place').open = true;
    const items = agents.map((a) => {
      const missing = a.missing || [];
      const extra = a.extra || [];
      let badge;
      if (a.state === 'offline') badge = el('span', { class: 'badge bad', text: 'offline', title: `The machine daemon has not reported since ${absTime(a.offline_since || a.last_seen)}: what it held then says nothing about now.` });
      else if (a.synced) badge = el('span', { class: 'badge ok', text: 'synced' });
      else if (!a.last_seen) badge = el('span', { class: 'badge warn', text: 'no report yet', title: 'The machine daemon has not reported for this agent.' });
      else badge = el('span', { class: 'badge warn', text: missing.length ? `${missing.length} missing` : 'syncing' });
      return el('li', { class: 'agent', dataset: { agent: a.agent_id, synced: String(!!a.synced), state: a.state || '' } },
        el('div', { class: 'agent-head' },
          el('span', { class: 'agent-id', text: a.agent_id }),
          badge,
          el('button', { type: 'button', class: 'btn ghost small', title: `Remove ${a.agent_id} from this room`, 'aria-label': `Remove ${a.agent_id}`, onclick: () => unplace(a) }, '×')),
        el('div', { class: 'agent-meta muted small' },
          'on ', el('strong', { class: 'machine', text: a.machine_id }), a.state === 'offline' ? ' · offline since ' : ' · seen ',
          a.last_seen ? el('time', { datetime: a.last_seen, title: absTime(a.last_seen), text: relTime(a.last_seen) }) : 'never'),
        missing.length ? el('div', { class: 'missing small' }, el('span', { class: 'label', text: 'Missing ' }), missing.map((n) => el('code', { text: n }))) : null,
        extra.length ? el('div', { class: 'missing small' }, el('span', { class: 'label', text: 'Stale ' }), extra.map((n) => el('code', { text: n }))) : null);
    });
    $('agents').replaceChildren(...items);
  }

  async function poll(first) {
    if (state.polling || !state.room || state.view !== 'rooms') return;
    state.polling = true;
    const live = $('live');
    try {
      await Promise.all([refreshFiles(), refreshAgents()]);
      live.classList.remove('stale');
      live.lastChild.textContent = 'page live';
      if (first) showAlert($('room-error'), null);
    } catch (e) {
      live.classList.add('stale');
      live.lastChild.textContent = e.code === 'network' ? 'page offline' : 'page error';
      if (e.code !== 'network' || first) showAlert($('room-error'), e);
      if (e.code === 'forbidden') $('room-body').hidden = true;
    } finally {
      state.polling = false;
      tickTimes();
    }
  }

  function startPolling(now) {
    stopPolling();
    if (now) poll(true);
    state.pollTimer = setInterval(() => {
      if (document.visibilityState === 'visible') poll(false);
    }, POLL_MS);
  }

  function stopPolling() {
    if (state.pollTimer) clearInterval(state.pollTimer);
    state.pollTimer = null;
  }

  // ---------- uploads ----------

  function uploadItem(file) {
    const bar = el('progress', { max: '100', value: '0', 'aria-label': `Uploading ${file.name}` });
    const status = el('span', { class: 'status small', text: 'waiting…' });
    const li = el('li', { class: 'upload', dataset: { name: file.name } },
      el('div', { class: 'upload-head' }, el('span', { class: 'upload-name', text: file.name }), el('span', { class: 'muted small', text: formatSize(file.size) })),
      bar, status);
    $('uploads').prepend(li);
    const settle = (kind) => {
      li.classList.add(kind);
      li.dataset.state = kind;
      bar.remove();
      const close = el('button', { type: 'button', class: 'btn ghost small dismiss', 'aria-label': 'Dismiss', onclick: () => li.remove() }, '×');
      li.querySelector('.upload-head').append(close);
      if (kind === 'done') setTimeout(() => li.remove(), 6000);
    };
    return {
      progress(frac) {
        bar.value = Math.round(frac * 100);
        status.textContent = `${Math.round(frac * 100)}%`;
      },
      done(text) {
        status.textContent = text;
        settle('done');
      },
      fail(err) {
        const t = errorText(err);
        status.replaceChildren(el('strong', { text: t.title }), ' ', t.message, ' ', el('code', { class: 'code', text: t.code }));
        li.dataset.code = t.code;
        settle('failed');
      },
    };
  }

  function uploadFile(file) {
    const room = state.room;
    const item = uploadItem(file);
    if (file.size > MAX_FILE) {
      item.fail({ code: 'too_large', message: `${file.name} is ${file.size.toLocaleString('en')} bytes; a room file may be at most ${MAX_FILE.toLocaleString('en')} bytes (256 KiB).` });
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      // ?name= carries the exact name; multipart filenames get mangled by
      // some browsers for quotes and newlines.
      xhr.open('POST', `/rooms/${encPath(room)}/files?name=${encodeURIComponent(file.name)}`);
      xhr.setRequestHeader('Authorization', `Bearer ${state.token}`);
      xhr.responseType = 'json';
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) item.progress(e.loaded / e.total); };
      xhr.onload = () => {
        const body = xhr.response;
        if (xhr.status === 200 || xhr.status === 201) {
          item.progress(1);
          item.done(body && body.changed === false ? 'unchanged: identical content is already there' : `uploaded · v${body ? body.version : '?'}`);
        } else {
          const e = (body && body.error) || {};
          item.fail({ code: e.code || 'internal', message: e.message || `HTTP ${xhr.status}` });
          if (e.code === 'unauthorized') signOut('Your token was refused: ' + (e.message || ''));
        }
        if (room === state.room) poll(false);
        resolve();
      };
      xhr.onerror = () => {
        item.fail({ code: 'network', message: 'The upload did not reach the server.' });
        resolve();
      };
      const fd = new FormData();
      fd.append('file', file, file.name);
      item.progress(0);
      xhr.send(fd);
    });
  }

  async function uploadAll(files) {
    for (const f of files) await uploadFile(f);
  }

  // ---------- delete and preview ----------

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

  async function confirmDelete(f) {
    const yes = await ask('Delete file?', ['Delete ', el('strong', { text: f.name }), ` from room ${state.room}? Every agent placed here loses its copy.`], 'Delete');
    if (yes) deleteFile(f);
  }

  async function deleteFile(f) {
    try {
      await api('DELETE', `/rooms/${encPath(state.room)}/files/${encPath(f.name)}`, { headers: { 'If-Match': `"${f.sha256}"` } });
      toast(`Deleted ${f.name}`, 'ok');
    } catch (e) {
      const t = errorText(e);
      toast(`${t.title}: ${t.message}`, 'bad');
    }
    poll(false);
  }

  let previewURL = null;
  async function previewFile(f) {
    const dlg = $('preview');
    $('preview-title').textContent = f.name;
    $('preview-meta').textContent = `${formatSize(f.size)} · v${f.version} · sha256 ${f.sha256}`;
    $('preview-body').textContent = 'Loading…';
    dlg.showModal();
    try {
      const resp = await fetch(`/rooms/${encPath(state.room)}/files/${encPath(f.name)}`, { headers: { Authorization: `Bearer ${state.token}` }, cache: 'no-store' });
      if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
      const blob = await resp.blob();
      $('preview-body').textContent = await blob.text();
      if (previewURL) URL.revokeObjectURL(previewURL);
      previewURL = URL.createObjectURL(blob);
      $('preview-download').href = previewURL;
      $('preview-download').download = f.name;
    } catch (e) {
      $('preview-body').textContent = `Could not load the file: ${e.message}`;
    }
  }

  // ---------- placements ----------

  async function place(agent, machine) {
    await api('PUT', `/rooms/${encPath(state.room)}/agents/${encPath(agent)}`, { body: { machine_id: machine } });
    state.agentsKey = '';
    await poll(false);
  }

  async function unplace(a) {
    const yes = await ask('Remove agent?', ['Remove ', el('strong', { text: a.agent_id }), ` from room ${state.room}? Its machine empties the agent's shared copy.`], 'Remove');
    if (!yes) return;
    try {
      await api('DELETE', `/rooms/${encPath(state.room)}/agents/${encPath(a.agent_id)}`);
      toast(`Removed ${a.agent_id}`, 'ok');
    } catch (e) {
      const t = errorText(e);
      toast(`${t.title}: ${t.message}`, 'bad');
    }
    poll(false);
  }

  // ---------- knowledge ----------

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

  // ---------- wiring ----------

  function wire() {
    $('login-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      showAlert($('login-error'), null);
      $('login-submit').disabled = true;
      try {
        await login($('token-input').value);
        $('token-input').value = '';
        location.hash = '#/rooms';
        route();
      } catch (e) {
        showAlert($('login-error'), e);
      } finally {
        $('login-submit').disabled = false;
      }
    });
    $('logout').addEventListener('click', () => signOut());
    $('room-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const room = $('room-input').value.trim();
      if (!ID_RE.test(room)) {
        openRoom(room);
        return;
      }
      if (location.hash === `#/rooms/${room}`) openRoom(room);
      else location.hash = `#/rooms/${room}`;
    });

    const dz = $('dropzone');
    const input = $('file-input');
    dz.addEventListener('click', (ev) => { if (ev.target !== input) input.click(); });
    dz.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); input.click(); }
    });
    input.addEventListener('change', () => {
      const files = Array.from(input.files || []);
      input.value = '';
      uploadAll(files);
    });
    for (const t of ['dragenter', 'dragover']) {
      dz.addEventListener(t, (ev) => { ev.preventDefault(); dz.classList.add('over'); });
    }
    for (const t of ['dragleave', 'dragend']) dz.addEventListener(t, () => dz.classList.remove('over'));
    dz.addEventListener('drop', (ev) => {
      ev.preventDefault();
      dz.classList.remove('over');
      const files = Array.from((ev.dataTransfer && ev.dataTransfer.files) || []);
      if (files.length) uploadAll(files);
    });
    // A file dropped beside the zone must not navigate away from the page.
    window.addEventListener('dragover', (ev) => ev.preventDefault());
    window.addEventListener('drop', (ev) => ev.preventDefault());

    $('place-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const agent = $('place-agent').value.trim();
      const machine = $('place-machine').value.trim();
      showAlert($('place-error'), null);
      try {
        await place(agent, machine);
        $('place-agent').value = '';
        $('place').open = false;
        toast(`Placed ${agent} on ${machine}`, 'ok');
      } catch (e) {
        showAlert($('place-error'), e);
      }
    });

    $('search-form').addEventListener('submit', (ev) => { ev.preventDefault(); search(); });
    $('contribute-form').addEventListener('submit', (ev) => { ev.preventDefault(); contribute(); });
    $('preview-close').addEventListener('click', () => $('preview').close());
    for (const d of [$('confirm'), $('preview')]) {
      d.addEventListener('click', (ev) => { if (ev.target === d) d.close(); });
    }
    // A one-click link opened in a tab already on this page only changes
    // the fragment: sign in with it there and then, without a reload.
    window.addEventListener('hashchange', () => {
      const tok = takeFragment();
      if (tok) {
        state.room = null;
        state.rooms = null;
        setToken(tok);
      }
      route();
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && state.view === 'rooms' && state.room) poll(false);
    });
  }

  // hooks are set by history.js (file history, diff, restore, room log),
  // which reaches the helpers below through window.pumasi.
  const hooks = {};
  window.pumasi = { api, el, encPath, state, relTime, absTime, formatSize, toast, showAlert, errorText, ask, poll: () => poll(false), hooks };

  // touchOnly is a screen without a pointer that hovers (a phone, a
  // tablet): nothing can be dragged onto the page there.
  function touchOnly() {
    const mm = (q) => window.matchMedia && window.matchMedia(q).matches;
    return mm('(any-hover: none)') || (navigator.maxTouchPoints > 0 && !mm('(any-pointer: fine)'));
  }

  function boot() {
    document.documentElement.classList.toggle('touch', touchOnly());
    takeFragment();
    const tok = sessionStorage.getItem(TOKEN_KEY);
    if (tok) setToken(tok);
    wire();
    route();
  }

  boot();
})();
