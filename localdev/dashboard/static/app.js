// pumasi dashboard: plain JavaScript over the HTTP API (DESIGN.md §4, §6):
// the session, routing between the views, and a room's page (its files'
// table, agents and placements, polled). common.js, files.js, knowledge.js,
// history.js and moderation.js load before it; it starts the page.
// The token lives in sessionStorage only; nothing is loaded from elsewhere.
'use strict';

(() => {
  const p = window.pumasi;
  const { $, api, ApiError, el, encPath, state, hooks, relTime, absTime, formatSize, toast, showAlert, errorText, ask } = p;
  const TOKEN_KEY = 'pumasi.token';
  const ROOMS_KEY = 'pumasi.rooms';
  const POLL_MS = 2000;
  const ID_RE = /^[a-z0-9][a-z0-9._-]{0,62}$/;

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
    if (view === 'knowledge' && hooks.knowledge) hooks.knowledge();
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
        el('button', { type: 'button', class: 'linkish filename', title: `Preview ${f.name}`, onclick: () => hooks.preview(f) }, f.name),
        el('span', { class: 'muted small ctype', text: (f.content_type || '').split(';')[0] })),
      el('td', { class: 'num', 'data-label': 'Size', text: formatSize(f.size), title: `${f.size} bytes` }),
      el('td', { class: 'mono', 'data-label': 'sha256' },
        el('button', { type: 'button', class: 'sha', title: `${f.sha256}\nclick to copy`, onclick: () => copySha(f.sha256) }, f.sha256.slice(0, 12))),
      el('td', { class: 'num', 'data-label': 'Version', text: `v${f.version}` }),
      el('td', { 'data-label': 'Updated', class: 'updated' },
        el('time', { datetime: f.updated_at, title: `${absTime(f.updated_at)}${f.uploaded_by ? ' by ' + f.uploaded_by : ''}`, text: relTime(f.updated_at) })),
      el('td', { class: 'actions' },
        el('button', { type: 'button', class: 'btn ghost small history-btn', 'aria-label': `History of ${f.name}`, onclick: () => hooks.history && hooks.history(f.name) }, 'History'),
        el('button', { type: 'button', class: 'btn ghost small danger-text', 'aria-label': `Delete ${f.name}`, onclick: () => hooks.remove(f) }, 'Delete'))));
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

  hooks.signOut = signOut;
  hooks.poll = poll;

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
