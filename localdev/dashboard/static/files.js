// pumasi dashboard: a room's files — uploads (drop zone, picker, progress,
// the 256 KiB limit checked before sending), delete with a confirm step, and
// preview with a download link.
'use strict';

(() => {
  const p = window.pumasi;
  if (!p) return;
  const { $, el, encPath, state, hooks, formatSize, toast, errorText, ask, api } = p;
  const MAX_FILE = 262144; // DESIGN.md §3: 256 KiB
  const poll = () => p.poll();
  const signOut = (reason) => hooks.signOut && hooks.signOut(reason);

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
        if (room === state.room) poll();
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
    poll();
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

  function wire() {
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
    $('preview-close').addEventListener('click', () => $('preview').close());
  }

  hooks.preview = previewFile;
  hooks.remove = confirmDelete;
  wire();
})();
