// moderation.cjs drives the dashboard's Moderation view: an admin sees the
// flagged and quarantined entries and the sweep's merges, restores one
// entry, redacts another after confirming, quarantines a flagged one and
// undoes a merge after confirming, at 1280 px; at 375 px the actions fit
// and undo works too; a room token sees no Moderation tab. With pages of
// one, "Show more" reads each list to its end, each entry once. An entry
// redacted behind the page's back cannot be restored: the page says why.
// Each entry's history opens under it with who flagged it and why.
// moderation_test.go seeds the entries, runs it and checks the server.
//
// Args: base, artifacts, token (admin), room_token, flagged, restored,
// redacted, quarantine, stale (entry ids), flag_note (the agent's note on
// flagged), merges ([{id, into}, …]: the first
// undone at 1280 px, the second at 375 px).
'use strict';

const h = require('./harness.cjs');

const { check, report } = h;
const A = h.args('token', 'room_token', 'flagged', 'restored', 'redacted', 'quarantine', 'stale', 'flag_note', 'merges');
const [M1, M2] = A.merges;

async function listed(page) {
  return page.evaluate(() => {
    const ids = (list) => Array.from(document.querySelectorAll(`#${list}-list li[data-id]`)).map((li) => li.dataset.id);
    return { flagged: ids('flagged'), quarantined: ids('quarantined'), merges: ids('merges') };
  });
}

// waitLists waits until the lists hold what pred accepts.
async function waitLists(page, pred, what) {
  const deadline = Date.now() + h.STEP_MS;
  for (;;) {
    const l = await listed(page);
    if (pred(l)) return l;
    if (Date.now() > deadline) throw new Error(`moderation lists never showed ${what}: ${JSON.stringify(l)}`);
    await page.waitForTimeout(50);
  }
}

async function noError(page) {
  check(await page.locator('#moderation-error').isHidden(), `no error: ${await page.innerText('#moderation-error')}`);
}

// historyOf opens the history under an item and returns its lines.
async function historyOf(page, list, id) {
  const d = `#${list}-list li[data-id="${id}"] details.modhist`;
  await page.click(`${d} summary`);
  await page.waitForSelector(`${d}[data-loaded] li`);
  return page.$$eval(`${d} li`, (lis) => lis.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
}

async function admin(browser, width) {
  // The stale restore's 410 is logged by the browser; nothing else may be.
  const { page } = await h.open(browser, width, { allow: [/status of 410 .*\/knowledge\/[^/]+\/restore\)$/] });
  await page.goto(`${A.base}/#token=${A.token}`);
  await page.waitForSelector('#rooms-view:not([hidden])');
  check(await page.locator('#tab-moderation').isVisible(), 'admin sees the Moderation tab');
  await page.click('#tab-moderation');
  await page.waitForSelector('#moderation-view:not([hidden])');
  return page;
}

// confirmAction clicks a button that asks first: Cancel keeps things as
// they are (keep checks it), then the same button and OK go ahead.
async function confirmAction(page, button, title, keep) {
  await page.click(button);
  await page.waitForSelector('#confirm[open]');
  const got = await page.innerText('#confirm-title');
  check(got === title, `${button} asks "${title}" first, got "${got}"`);
  const text = (await page.innerText('#confirm-text')).replace(/\s+/g, ' ');
  await page.click('#confirm-cancel');
  await page.waitForSelector('#confirm', { state: 'hidden' });
  check(await keep(await listed(page)), `cancel on "${title}" keeps the lists`);
  await page.click(button);
  await page.waitForSelector('#confirm[open]');
  return text;
}

// undo undoes merge m through its button and the confirmation, and checks
// the page says what happened.
async function undo(page, m) {
  const item = page.locator(`#merges-list li[data-id="${m.id}"]`);
  const text = (await item.innerText()).replace(/\s+/g, ' ');
  check(text.includes(m.into) && /by sweep/.test(text) && /similarity 0\.\d\d/.test(text), `merge item names survivor, sweep and similarity: ${text}`);
  check((await item.getAttribute('data-into')) === m.into, 'merge item carries its survivor');
  const said = await confirmAction(page, `#merges-list li[data-id="${m.id}"] button[aria-label="Undo merge of ${m.id}"]`, 'Undo merge?',
    (l) => l.merges.includes(m.id));
  check(said.includes(m.id) && said.includes(m.into), `the dialog names both entries: ${said}`);
  await page.click('#confirm-ok');
  const after = await waitLists(page, (l) => !l.merges.includes(m.id), `the merge of ${m.id} gone`);
  await page.waitForFunction((id) => {
    const t = document.getElementById('toast');
    return !t.hidden && t.textContent.includes(id);
  }, m.id);
  await noError(page);
  return { undone: m.id, toast: await page.innerText('#toast'), lists: after };
}

async function desktop(browser) {
  const page = await admin(browser, 1280);
  const l = await waitLists(page, (l) => l.flagged.includes(A.flagged) && l.flagged.includes(A.quarantine) &&
    l.quarantined.includes(A.restored) && l.quarantined.includes(A.redacted) && l.quarantined.includes(A.stale) && l.merges.includes(M1.id) && l.merges.includes(M2.id), 'the seeded entries');
  check(!l.flagged.includes(A.restored) && !l.quarantined.includes(A.flagged), `each entry in one list: ${JSON.stringify(l)}`);
  const item = (await page.locator(`#flagged-list li[data-id="${A.flagged}"]`).innerText()).replace(/\s+/g, ' ');
  check(/1 flagger\b/.test(item) && /flagged/.test(item), `flagged item says how many flagged it: ${item}`);
  const counts = await page.evaluate(() => ['flagged', 'quarantined', 'merges'].map((n) => document.getElementById(`${n}-count`).textContent));
  check(counts.join(',') === `${l.flagged.length},${l.quarantined.length},${l.merges.length}`, `counts ${counts} match the lists ${JSON.stringify(l)}`);
  // A flagged entry is still served: restoring it would change nothing,
  // so it is offered quarantine, not restore.
  check(await page.locator(`#flagged-list li[data-id="${A.flagged}"] button[aria-label="Restore ${A.flagged}"]`).count() === 0,
    'a flagged entry offers no restore, which would change nothing');
  report('listed', l);

  // A page at a time: with pages of one, "Show more" reads each list on by
  // its cursor until the server has no more, each entry once, in order.
  const first = await page.evaluate(() => {
    const v = document.getElementById('moderation-view');
    v.dataset.page = '1';
    return v.dataset.loaded;
  });
  await page.click('#moderation-refresh');
  await page.waitForFunction((was) => document.getElementById('moderation-view').dataset.loaded !== was, first);
  await waitLists(page, (x) => x.quarantined.length === 1 && x.flagged.length === 1 && x.merges.length === 1, 'one of each list a page');
  check((await page.innerText('#quarantined-count')) === '1+' && await page.locator('#quarantined-more').isVisible(), 'a list with more says so and offers more');
  const paged = {};
  for (const name of ['flagged', 'quarantined', 'merges']) {
    for (let clicks = 0; await page.locator(`#${name}-more`).isVisible(); clicks++) {
      check(clicks < 10, `${name}: more than 10 pages`);
      const before = (await listed(page))[name].length;
      await page.click(`#${name}-more`);
      await waitLists(page, (x) => x[name].length > before, `${name} grown past ${before}`);
    }
    paged[name] = (await listed(page))[name];
    check(JSON.stringify(paged[name]) === JSON.stringify(l[name]), `${name} page by page ${JSON.stringify(paged[name])} = all at once ${JSON.stringify(l[name])}`);
    check((await page.innerText(`#${name}-count`)) === String(l[name].length), `${name} count once every page is read`);
  }
  await noError(page);
  report('paged', paged);
  const loaded = await page.evaluate(() => {
    const v = document.getElementById('moderation-view');
    delete v.dataset.page;
    return v.dataset.loaded;
  });
  await page.click('#moderation-refresh');
  await page.waitForFunction((was) => document.getElementById('moderation-view').dataset.loaded !== was, loaded);
  await waitLists(page, (x) => x.quarantined.length === l.quarantined.length && x.merges.length === l.merges.length, 'every entry on one page again');
  check(await page.locator('#quarantined-more').isHidden(), 'no more to show on one page');

  // Why an entry is listed: its history, opened under it.
  const fh = await historyOf(page, 'flagged', A.flagged);
  check(fh.some((t) => t.startsWith(`flagged by agent-flagger: outdated — ${A.flag_note}`)), `flag with reason and note in the history: ${JSON.stringify(fh)}`);
  const qh = await historyOf(page, 'quarantined', A.restored);
  check(qh.some((t) => /^flagged by \S+: harmful/.test(t)) && qh.some((t) => /^quarantined/.test(t)), `admin flag and quarantine in the history: ${JSON.stringify(qh)}`);
  const mh = await historyOf(page, 'merges', M1.id);
  check(mh.some((t) => t.startsWith(`merged into ${M1.into}`)), `merge in the absorbed entry's history: ${JSON.stringify(mh)}`);
  report('histories', { flagged: fh, quarantined: qh, merged: mh });
  await h.shot(page, 'moderation-1280.png');
  await h.noOverflow(page, 'moderation at 1280');

  // Restore: out of quarantine.
  await page.click(`#quarantined-list li[data-id="${A.restored}"] button[aria-label="Restore ${A.restored}"]`);
  await waitLists(page, (l) => !l.quarantined.includes(A.restored), 'the restored entry gone from quarantine');
  await noError(page);
  report('restored', { id: A.restored });

  // Restore an entry someone redacted meanwhile: the page says it is gone
  // and drops it from the list.
  const del = await fetch(`${A.base}/knowledge/${A.stale}`, { method: 'DELETE', headers: { Authorization: `Bearer ${A.token}` } });
  check(del.status === 200 || del.status === 204, `redact behind the page's back: ${del.status}`);
  await page.click(`#quarantined-list li[data-id="${A.stale}"] button[aria-label="Restore ${A.stale}"]`);
  await page.waitForSelector('#moderation-error:not([hidden])');
  const code = await page.getAttribute('#moderation-error', 'data-code');
  const said = (await page.innerText('#moderation-error')).replace(/\s+/g, ' ');
  check(code === 'gone' && said.startsWith('Gone for good') && said.includes('redacted'), `stale restore error ${code}: ${said}`);
  await waitLists(page, (l) => !l.quarantined.includes(A.stale) && !l.flagged.includes(A.stale), 'the stale entry dropped');
  report('stale-restore', { code, text: said });

  // Redact: Cancel keeps it, Redact removes it for good.
  await confirmAction(page, `#quarantined-list li[data-id="${A.redacted}"] button[aria-label="Redact ${A.redacted}"]`, 'Redact entry?',
    (l) => l.quarantined.includes(A.redacted));
  await page.click('#confirm-ok');
  const after = await waitLists(page, (l) => !l.quarantined.includes(A.redacted) && !l.flagged.includes(A.redacted), 'the redacted entry gone');
  check(after.flagged.includes(A.flagged), 'the agent-flagged entry stays listed');
  await noError(page);
  report('redacted', after);

  // Quarantine a flagged entry, with a reason: Cancel keeps it flagged.
  await confirmAction(page, `#flagged-list li[data-id="${A.quarantine}"] button[aria-label="Quarantine ${A.quarantine}"]`, 'Quarantine entry?',
    (l) => l.flagged.includes(A.quarantine) && !l.quarantined.includes(A.quarantine));
  await page.selectOption('#confirm-text select[name="reason"]', 'wrong');
  await page.click('#confirm-ok');
  const q = await waitLists(page, (l) => l.quarantined.includes(A.quarantine) && !l.flagged.includes(A.quarantine), 'the quarantined entry moved');
  await noError(page);
  report('quarantined', q);

  // Undo a merge: Cancel keeps it, Undo merge restores the absorbed entry.
  const u = await undo(page, M1);
  check(u.lists.merges.includes(M2.id), 'the other merge stays listed');
  report('unmerged-1280', u);
  await h.close(page);
}

async function mobile(browser) {
  const page = await admin(browser, 375);
  await waitLists(page, (l) => l.flagged.includes(A.flagged) && l.merges.includes(M2.id), 'the flagged entry and a merge at 375 px');
  for (const b of [`#flagged-list li[data-id="${A.flagged}"] button[aria-label="Redact ${A.flagged}"]`,
    `#flagged-list li[data-id="${A.flagged}"] button[aria-label="Quarantine ${A.flagged}"]`,
    `#merges-list li[data-id="${M2.id}"] button[aria-label="Undo merge of ${M2.id}"]`]) {
    const box = await page.locator(b).boundingBox();
    check(box && box.width > 20 && box.x >= 0 && box.x + box.width <= 375, `${b} visible inside 375 px: ${JSON.stringify(box)}`);
  }
  await h.noOverflow(page, 'moderation at 375');

  // Refresh shows a flag an agent sent since the page loaded.
  const f = await fetch(`${A.base}/knowledge/${M2.into}/flag`, {
    method: 'POST', headers: { 'X-Hive-Agent': 'late-flagger', 'Content-Type': 'application/json' }, body: JSON.stringify({ reason: 'duplicate' }),
  });
  check(f.status === 200, `flag behind the page's back: ${f.status}`);
  check(!(await listed(page)).flagged.includes(M2.into), 'the new flag is not shown before a refresh');
  await page.click('#moderation-refresh');
  await waitLists(page, (l) => l.flagged.includes(M2.into), 'the new flag after Refresh');
  report('refreshed', { flagged: M2.into });
  await h.shot(page, 'moderation-375.png');
  const u = await undo(page, M2);
  check(u.lists.merges.length === 0, `no merge left: ${JSON.stringify(u.lists)}`);
  check(await page.locator('#merges-empty').isVisible() && (await page.innerText('#merges-count')) === '0', 'an empty merge list says so');
  await h.noOverflow(page, 'moderation at 375 after the undo');
  report('unmerged-375', u);
  await h.close(page);

  // A room token: no Moderation tab, and #/moderation does not open it.
  const { page: rp } = await h.open(browser, 375);
  await rp.goto(`${A.base}/#token=${A.room_token}`);
  await rp.waitForSelector('#rooms-view:not([hidden])');
  check(!(await rp.locator('#tab-moderation').isVisible()), 'a room token sees no Moderation tab');
  await rp.evaluate(() => { location.hash = '#/moderation'; });
  await rp.waitForSelector('#knowledge-view:not([hidden])');
  check(await rp.locator('#moderation-view').isHidden(), 'the moderation view stays closed');
  report('room-token', {});
  await h.close(rp);
}

h.run(async (browser) => {
  await desktop(browser);
  await mobile(browser);
});
