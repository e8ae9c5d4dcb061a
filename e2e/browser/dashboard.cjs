// dashboard.cjs drives localdev's dashboard as a person would: sign in, open
// a room, place an agent, upload through the file picker and by drag and
// drop, see the agent's badge turn synced once the machine daemon wrote the
// file, meet the error cases, delete with confirmation, search and
// contribute knowledge, and take screenshots at 1280 and 375 px.
// dashboard_test.go runs it and checks what it reports.
//
// Args: base, artifacts, token, room, agent, machine, agent_home (the
// daemon's home; empty: no daemon), knowledge (true when the server has
// the knowledge endpoints), offline_agent (default b2).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const h = require('./harness.cjs');

const { check, report, shot, noOverflow, STEP_MS } = h;
const A = h.args('token');
const BASE = A.base;
const TOKEN = A.token;
const ROOM = A.room || 'r1';
const AGENT = A.agent || 'a1';
const OFFLINE_AGENT = A.offline_agent || 'b2';
const MACHINE = A.machine || 'm1';
const AGENT_HOME = A.agent_home || '';
const KNOWLEDGE = A.knowledge === true;
// SYNC_MS bounds how long the daemon may take to write a file and report.
const SYNC_MS = 30000;
// ALLOW are the console errors the scenario causes on purpose: every
// refused upload and sign-in is a 4xx the browser logs.
const ALLOW = [/Failed to load resource: the server responded with a status of 4\d\d/];

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

function sharedPath(name) {
  return path.join(AGENT_HOME, 'agents', AGENT, 'memory', 'shared', name);
}

// waitDisk polls the daemon's folder until pred(bytes or null) holds.
async function waitDisk(name, pred, what) {
  const deadline = Date.now() + SYNC_MS;
  for (;;) {
    let b = null;
    try { b = fs.readFileSync(sharedPath(name)); } catch (e) { b = null; }
    if (pred(b)) return;
    if (Date.now() > deadline) throw new Error(`daemon folder: ${what} not seen within ${SYNC_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// dropFile drops a file on the zone through a real DataTransfer, the way a
// file dragged from the desktop arrives.
async function dropFile(page, name, text, type) {
  await clearUploads(page);
  const dt = await page.evaluateHandle(({ name, text, type }) => {
    const d = new DataTransfer();
    d.items.add(new File([text], name, { type }));
    return d;
  }, { name, text, type });
  await page.dispatchEvent('#dropzone', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('#dropzone', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('#dropzone', 'drop', { dataTransfer: dt });
}

// clearUploads empties the upload list, so the next entry is the only one.
async function clearUploads(page) {
  await page.evaluate(() => document.getElementById('uploads').replaceChildren());
}

async function pick(page, name, buffer, mimeType) {
  await clearUploads(page);
  await page.setInputFiles('#file-input', { name, mimeType: mimeType || 'text/plain', buffer });
}

// uploadResult waits for the upload entry of name to settle and returns its
// state ("done" or "failed") and error code.
async function uploadResult(page, name) {
  const li = page.locator(`#uploads li[data-state]`);
  await li.waitFor({ timeout: STEP_MS });
  check((await li.locator('.upload-name').innerText()) === name, `upload entry is for ${name}`);
  return { state: await li.getAttribute('data-state'), code: await li.getAttribute('data-code'), text: (await li.innerText()).replace(/\s+/g, ' ') };
}

async function agentState(page) {
  const li = page.locator(`#agents li[data-agent="${AGENT}"]`);
  if (await li.count() === 0) return null;
  return { synced: await li.getAttribute('data-synced'), text: (await li.innerText()).replace(/\s+/g, ' ') };
}

// waitSynced waits until the page shows the agent synced in an agents list
// fetched after this call began, so a badge left over from before the last
// change does not count.
async function waitSynced(page, what) {
  const t0 = Date.now();
  const since = await page.evaluate(() => Date.now());
  try {
    await page.waitForFunction(({ agent, since }) => {
      const list = document.getElementById('agents');
      const li = list.querySelector(`li[data-agent="${agent}"]`);
      return Number(list.dataset.fetched || 0) > since && li && li.dataset.synced === 'true';
    }, { agent: AGENT, since }, { timeout: SYNC_MS, polling: 50 });
  } catch (e) {
    throw new Error(`agent ${AGENT} not shown synced (${what}) within ${SYNC_MS} ms: ${JSON.stringify(await agentState(page))}`);
  }
  return Date.now() - t0;
}

// watchBadges records every badge state the page shows, to report whether
// the amber "missing" state was seen on the way to green.
async function watchBadges(page) {
  await page.evaluate((agent) => {
    window.__badges = [];
    const list = document.getElementById('agents');
    new MutationObserver(() => {
      const li = list.querySelector(`li[data-agent="${agent}"]`);
      const b = li && li.querySelector('.badge');
      const v = b ? b.textContent : null;
      if (v && window.__badges[window.__badges.length - 1] !== v) window.__badges.push(v);
    }).observe(list, { childList: true, subtree: true });
  }, AGENT);
}

async function desktop(browser) {
  const { page } = await h.open(browser, 1280, { allow: ALLOW });

  // Sign in: a wrong token is refused with a message, the real one admitted.
  await page.goto(BASE + '/');
  await page.waitForSelector('#login-view:not([hidden])');
  await shot(page, 'login-1280.png');
  await page.fill('#token-input', 'not-a-token');
  await page.click('#login-submit');
  await page.waitForSelector('#login-error:not([hidden])');
  report('login-refused', { message: await page.innerText('#login-error') });
  const forged = TOKEN.slice(0, -4) + (TOKEN.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  await page.fill('#token-input', forged);
  await page.click('#login-submit');
  await page.waitForFunction(() => document.querySelector('#login-error').dataset.code === 'unauthorized');
  report('login-forged-refused', { message: await page.innerText('#login-error') });
  await page.fill('#token-input', TOKEN);
  await page.click('#login-submit');
  await page.waitForSelector('#rooms-view:not([hidden])');
  check(await page.evaluate(() => sessionStorage.getItem('pumasi.token')) === TOKEN, 'token kept in sessionStorage');
  check(await page.evaluate(() => localStorage.getItem('pumasi.token')) === null, 'token not in localStorage');
  report('login', { who: await page.innerText('#who-scopes') });

  // A bad room id is explained, a good one opens.
  await page.fill('#room-input', 'Bad Room');
  await page.click('#room-form button[type=submit]');
  await page.waitForSelector('#room-error:not([hidden])');
  await page.fill('#room-input', ROOM);
  await page.click('#room-form button[type=submit]');
  await page.waitForSelector('#room-body:not([hidden])');
  await page.waitForSelector('#files-empty:not([hidden])');
  check(new URL(page.url()).hash === `#/rooms/${ROOM}`, `room in the address: ${page.url()}`);
  report('room-open', { room: ROOM });

  // Place the agent on the daemon's machine through the form.
  if (AGENT_HOME) {
    if (!(await page.locator('#place').evaluate((d) => d.open))) await page.click('#place summary');
    await page.fill('#place-agent', AGENT);
    await page.fill('#place-machine', MACHINE);
    await page.click('#place-form button[type=submit]');
    await page.waitForSelector(`#agents li[data-agent="${AGENT}"]`);
    const ms = await waitSynced(page, 'empty room');
    report('agent-placed', { agent: AGENT, machine: MACHINE, synced_after_ms: ms, badge: await agentState(page) });
    // A second agent on a machine whose daemon never runs stays amber and
    // lists what it is missing.
    await page.click('#place summary');
    await page.fill('#place-agent', OFFLINE_AGENT);
    await page.fill('#place-machine', 'laptop');
    await page.click('#place-form button[type=submit]');
    await page.waitForSelector(`#agents li[data-agent="${OFFLINE_AGENT}"][data-synced="false"]`);
    report('agent-placed-offline', { agent: OFFLINE_AGENT, machine: 'laptop' });
  }

  // Upload through the file picker, with a progress bar, and see it listed.
  const spec = Buffer.from('# Spec\n\nThe daemon mirrors room files into memory/shared/.\n' + 'line of the spec\n'.repeat(4000));
  check(spec.length < 262144, 'spec fits the limit');
  const specSum = sha256(spec);
  if (AGENT_HOME) await watchBadges(page);
  const tUpload = Date.now();
  await pick(page, 'spec.md', spec, 'text/markdown');
  const up = await uploadResult(page, 'spec.md');
  check(up.state === 'done', `spec.md upload: ${JSON.stringify(up)}`);
  const row = page.locator('#files-body tr[data-name="spec.md"]');
  await row.waitFor();
  const shaShown = (await row.locator('.sha').innerText()).trim();
  check(specSum.startsWith(shaShown) && shaShown.length >= 8, `short sha ${shaShown} vs ${specSum}`);
  check((await row.getAttribute('data-sha256')) === specSum, 'row sha256 is the content sha256');
  const rowText = (await row.innerText()).replace(/\s+/g, ' ');
  check(/v1\b/.test(rowText), `version 1 shown: ${rowText}`);
  check(/KiB/.test(rowText), `size shown: ${rowText}`);
  report('uploaded-picker', { name: 'spec.md', size: spec.length, sha256: specSum, row: rowText, status: up.text });

  let syncMs = null;
  if (AGENT_HOME) {
    // The badge turns amber while the daemon catches up, then green; the
    // bytes on the daemon's disk are the uploaded ones.
    await waitSynced(page, 'spec.md delivered');
    syncMs = Date.now() - tUpload;
    // Green means the daemon reported the new sha256: the bytes are on disk.
    const onDisk = fs.readFileSync(sharedPath('spec.md'));
    check(sha256(onDisk) === specSum, 'daemon wrote the uploaded bytes before the badge turned green');
    const st = await agentState(page);
    check(/synced/.test(st.text) && !/missing/i.test(st.text), `badge: ${st.text}`);
    const badges = await page.evaluate(() => window.__badges);
    report('agent-synced', { file: 'spec.md', upload_to_green_ms: syncMs, badge: st, badges_seen: badges });
  }

  // Drag and drop, with a Korean name.
  const note = '회의록: 배포는 금요일에 하지 않는다.\nversion 2 of the rule\n';
  await dropFile(page, '노트.md', note, 'text/markdown');
  const dropped = await uploadResult(page, '노트.md');
  check(dropped.state === 'done', `노트.md upload: ${JSON.stringify(dropped)}`);
  await page.locator('#files-body tr[data-name="노트.md"]').waitFor();
  report('uploaded-drop', { name: '노트.md', status: dropped.text });

  // Re-upload with new content: same row, version 2.
  await pick(page, 'spec.md', Buffer.concat([spec, Buffer.from('one more line\n')]), 'text/markdown');
  await page.waitForFunction(() => {
    const r = document.querySelector('#files-body tr[data-name="spec.md"]');
    return r && /\bv2\b/.test(r.innerText);
  });
  const spec2 = Buffer.concat([spec, Buffer.from('one more line\n')]);
  report('reuploaded', { name: 'spec.md', version: 2 });

  // The error cases of §4, each with its code and a readable headline.
  const cases = [
    { name: 'big.txt', buf: Buffer.alloc(262145, 'a'), code: 'too_large', title: 'Too large' },
    { name: 'photo.png', buf: Buffer.from('not really a png\n'), code: 'unsupported_type', title: 'Not a text file' },
    { name: 'nul.txt', buf: Buffer.from('a\u0000b\n'), code: 'unsupported_type', title: 'Not a text file' },
    { name: 'latin1.txt', buf: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), code: 'unsupported_type', title: 'Not a text file' },
    { name: '.hidden.md', buf: Buffer.from('hidden\n'), code: 'invalid_name', title: 'Bad file name' },
    { name: 'SPEC.md', buf: Buffer.from('case clash\n'), code: 'name_conflict', title: 'Name conflict' },
  ];
  const seen = [];
  for (const c of cases) {
    await pick(page, c.name, c.buf);
    const r = await uploadResult(page, c.name);
    check(r.state === 'failed', `${c.name} should fail: ${JSON.stringify(r)}`);
    check(r.code === c.code, `${c.name}: code ${r.code}, want ${c.code}`);
    check(r.text.includes(c.title), `${c.name}: headline "${c.title}" in "${r.text}"`);
    seen.push({ name: c.name, code: r.code, text: r.text });
  }
  report('upload-errors', { cases: seen });
  const listed = await page.locator('#files-body tr').evaluateAll((rows) => rows.map((r) => r.dataset.name));
  check(JSON.stringify(listed) === JSON.stringify(['spec.md', '노트.md']), `listed after errors: ${listed}`);

  if (AGENT_HOME) {
    await waitSynced(page, 'spec v2 and 노트.md');
    await waitDisk('노트.md', (b) => b && b.toString('utf8') === note, '노트.md');
    await waitDisk('spec.md', (b) => b && sha256(b) === sha256(spec2), 'spec.md v2');
    const off = page.locator(`#agents li[data-agent="${OFFLINE_AGENT}"]`);
    await page.waitForFunction((a) => {
      const codes = Array.from(document.querySelectorAll(`#agents li[data-agent="${a}"] .missing code`)).map((c) => c.textContent);
      return codes.join('|') === 'spec.md|노트.md';
    }, OFFLINE_AGENT);
    const offText = (await off.innerText()).replace(/\s+/g, ' ');
    check(/no report yet/.test(offText) && /laptop/.test(offText), `offline agent: ${offText}`);
    check((await off.locator('.badge.warn').count()) === 1, 'offline agent badge is amber');
    check((await page.locator(`#agents li[data-agent="${AGENT}"] .badge.ok`).count()) === 1, 'synced agent badge is green');
    report('agent-synced-2', { files: ['spec.md', '노트.md'], offline: offText });
  }
  await shot(page, 'rooms-1280.png');
  await noOverflow(page, 'rooms at 1280');

  // The rooms this token reaches are listed (GET /rooms); one click opens one.
  await page.fill('#room-input', 'empty-room');
  await page.click('#room-form button[type=submit]');
  await page.waitForFunction(() => location.hash === '#/rooms/empty-room');
  const link = page.locator(`#rooms-nav a[data-room="${ROOM}"]`);
  await link.waitFor();
  const linkText = (await link.innerText()).replace(/\s+/g, ' ');
  check(/2 files · \d+ agents? · rev \d+/.test(linkText), `room link: ${linkText}`);
  await link.click();
  await page.waitForFunction((r) => location.hash === `#/rooms/${r}` && document.querySelectorAll('#files-body tr').length === 2, ROOM);
  report('rooms-listed', { link: linkText });

  // Delete with confirmation: Cancel keeps the file, Delete removes it.
  await row.locator('button', { hasText: 'Delete' }).click();
  await page.waitForSelector('#confirm[open]');
  check((await page.innerText('#confirm-text')).includes('spec.md'), 'dialog names the file');
  await shot(page, 'confirm-1280.png');
  await page.click('#confirm-cancel');
  await page.waitForSelector('#confirm', { state: 'hidden' });
  check(await row.count() === 1, 'cancel keeps the file');
  await row.locator('button', { hasText: 'Delete' }).click();
  await page.click('#confirm-ok');
  await row.waitFor({ state: 'detached' });
  report('deleted', { name: 'spec.md' });
  if (AGENT_HOME) {
    await waitSynced(page, 'spec.md deleted');
    await waitDisk('spec.md', (b) => b === null, 'spec.md removed');
    report('agent-synced-3', { removed: 'spec.md' });
  }

  // Preview shows the bytes.
  await page.locator('#files-body tr[data-name="노트.md"] .filename').click();
  await page.waitForFunction((t) => document.querySelector('#preview-body').textContent === t, note);
  await page.click('#preview-close');

  // Knowledge: contribute a specific finding (accepted), a duplicate (merged),
  // one with PII (rejected, with the gate's reason), then search.
  await page.click('#tabs a[data-view=knowledge]');
  await page.waitForSelector('#knowledge-view:not([hidden])');
  if (KNOWLEDGE) {
    const title = 'modernc sqlite: set busy_timeout in the DSN';
    const content = 'With modernc.org/sqlite v1.62.0, pass _pragma=busy_timeout(5000) and _txlock=immediate in the DSN so every pooled connection gets them; otherwise concurrent writers fail with SQLITE_BUSY (database is locked).';
    await page.fill('#c-handle', 'e2e-browser');
    await page.fill('#c-hive', 'e2e');
    await page.fill('#c-title', title);
    await page.fill('#c-content', content);
    await page.fill('#c-tags', 'go, sqlite');
    await page.click('#c-submit');
    await page.waitForSelector('#verdict:not([hidden])');
    const v1 = await page.getAttribute('#verdict', 'data-verdict');
    check(v1 === 'accepted', `first contribution verdict ${v1}: ${await page.innerText('#verdict')}`);
    report('contribute-accepted', { text: await page.innerText('#verdict') });

    await page.fill('#c-handle', 'e2e-browser-2');
    await page.click('#c-submit');
    await page.waitForFunction(() => document.querySelector('#verdict').dataset.verdict === 'merged');
    report('contribute-merged', { text: await page.innerText('#verdict') });

    await page.fill('#c-title', 'contact for the sqlite fix');
    await page.fill('#c-content', 'Mail jane.doe@gmail.com about modernc.org/sqlite v1.62.0 busy_timeout(5000) in the DSN.');
    await page.click('#c-submit');
    await page.waitForFunction(() => document.querySelector('#verdict').dataset.verdict === 'rejected');
    const rej = await page.innerText('#verdict');
    check(/reason/i.test(rej) && /e-?mail/i.test(rej), `rejection names the reason: ${rej}`);
    check(!rej.includes('jane.doe'), 'rejection does not echo the address');
    report('contribute-rejected', { text: rej });

    await page.fill('#q', 'sqlite busy_timeout DSN');
    await page.fill('#q-hive', 'e2e');
    await page.click('#search-form button[type=submit]');
    await page.waitForSelector('#results li.result');
    const first = page.locator('#results li.result').first();
    check((await first.locator('h3').innerText()).trim() === title, 'the accepted entry is found first');
    const contributions = await first.locator('[data-kind=contributions] b').innerText();
    check(contributions === '2', `contribution count after a merge: ${contributions}`);
    report('search', { summary: await page.innerText('#search-summary'), first: (await first.innerText()).replace(/\s+/g, ' ') });
  } else {
    // Without the endpoints the page says so instead of failing silently.
    await page.fill('#q', 'sqlite');
    await page.click('#search-form button[type=submit]');
    await page.waitForSelector('#search-error:not([hidden])');
    report('search-unavailable', { text: await page.innerText('#search-error') });
  }
  await shot(page, 'knowledge-1280.png');
  await noOverflow(page, 'knowledge at 1280');

  await h.close(page);
  return { syncMs };
}

async function mobile(browser) {
  const { page } = await h.open(browser, 375, { allow: ALLOW });
  // The one-click link localdev prints: the token moves out of the address.
  await page.goto(`${BASE}/#token=${TOKEN}`);
  await page.waitForSelector('#rooms-view:not([hidden])');
  const hash = await page.evaluate(() => location.hash);
  check(!hash.includes('token'), `fragment cleared: ${hash}`);
  check(await page.evaluate(() => sessionStorage.getItem('pumasi.token')) === TOKEN, 'fragment token in sessionStorage');
  report('one-click', { hash });
  await page.goto(`${BASE}/#/rooms/${ROOM}`);
  await page.waitForSelector('#files-body tr[data-name="노트.md"]');
  await pick(page, 'mobile-notes.md', Buffer.from('- added from a phone\n'), 'text/markdown');
  check((await uploadResult(page, 'mobile-notes.md')).state === 'done', 'mobile upload');
  await pick(page, 'archive.zip', Buffer.from('zip?\n'));
  check((await uploadResult(page, 'archive.zip')).code === 'unsupported_type', 'mobile error shown');
  if (AGENT_HOME) await waitSynced(page, 'mobile-notes.md');
  await page.waitForSelector('#files-body tr[data-name="mobile-notes.md"]');
  await shot(page, 'rooms-375.png');
  await noOverflow(page, 'rooms at 375');
  if (AGENT_HOME) {
    // Unplace the offline agent through its × and the confirmation dialog.
    await page.click(`#agents li[data-agent="${OFFLINE_AGENT}"] button[aria-label="Remove ${OFFLINE_AGENT}"]`);
    await page.waitForSelector('#confirm[open]');
    check((await page.innerText('#confirm-title')) === 'Remove agent?', 'remove dialog');
    await page.click('#confirm-ok');
    await page.locator(`#agents li[data-agent="${OFFLINE_AGENT}"]`).waitFor({ state: 'detached' });
    report('unplaced', { agent: OFFLINE_AGENT });
  }
  await page.click('#tabs a[data-view=knowledge]');
  await page.waitForSelector('#knowledge-view:not([hidden])');
  if (KNOWLEDGE) {
    await page.fill('#q', 'sqlite busy_timeout');
    await page.click('#search-form button[type=submit]');
    await page.waitForSelector('#results li.result');
  }
  await shot(page, 'knowledge-375.png');
  await noOverflow(page, 'knowledge at 375');
  await page.click('#logout');
  await page.waitForSelector('#login-view:not([hidden])');
  check(await page.evaluate(() => sessionStorage.getItem('pumasi.token')) === null, 'sign out forgets the token');
  await shot(page, 'login-375.png');
  await h.close(page);
}

h.run(async (browser) => {
  const d = await desktop(browser);
  await mobile(browser);
  return { upload_to_green_ms: d.syncMs };
});
