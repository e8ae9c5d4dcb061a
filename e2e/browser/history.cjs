// history.cjs drives the dashboard's file history as a person would: open
// a room through the one-click link, read the room log, open a file's
// history, compare two versions line by line, restore an old version, and
// bring back a deleted file; then the same history and log on a phone.
// history_test.go seeds the room, runs it and
// checks the server's state afterwards.
//
// Args: base, artifacts, token (a room token with a subject), room.
'use strict';

const h = require('./harness.cjs');

const { check, report, shot } = h;
const A = h.args('token');
const ROOM = A.room || 'r1';

const rows = (page) => page.$$eval('#versions-body tr', (trs) => trs.map((tr) => ({
  version: Number(tr.dataset.version),
  by: tr.querySelector('.by').textContent,
  note: (tr.querySelector('.note') || {}).textContent || '',
  restorable: !!tr.querySelector('.restore-btn'),
})));

const diffLines = (page) => page.$$eval('#diff span', (ss) => ss.map((s) => `${s.className}:${s.textContent}`));

h.run(async (browser) => {
  const { page } = await h.open(browser, 1280);

  await page.goto(`${A.base}/#token=${A.token}&room=${ROOM}`);
  await page.waitForSelector('#files-body tr[data-name="plan.md"]');

  // The room log, newest first, names who did what.
  await page.waitForSelector('#room-log li');
  const log = await page.$$eval('#room-log li', (lis) => lis.map((li) => `${li.dataset.kind}:${li.querySelector('.by').textContent}`));
  check(log[0] === 'delete:bob', `newest log entry is bob's delete, got ${log[0]}`);
  check(log.includes('upload:alice') && log.includes('upload:bob'), `log names both uploaders: ${log}`);
  await page.waitForSelector('#deleted:not([hidden]) li[data-name="notes.md"]', { state: 'attached' });
  report('log', { entries: log });

  // A file's history: three versions, the newest current; the default
  // diff compares the last two.
  await page.click('#files-body tr[data-name="plan.md"] .history-btn');
  await page.waitForSelector('#history[open] #versions-body tr');
  let vs = await rows(page);
  check(vs.length === 3 && vs[0].version === 3 && vs[0].note.includes('current') && !vs[0].restorable, `versions ${JSON.stringify(vs)}`);
  check(vs.map((v) => v.by).join(',') === 'alice,bob,alice', `uploaders ${vs.map((v) => v.by)}`);
  await page.waitForFunction(() => document.querySelector('#diff').children.length > 0);
  let diff = await diffLines(page);
  check(diff.includes('del:-- step two by bob') && diff.includes('add:+- step two, done'), `default diff v2→v3: ${diff}`);
  report('diff-default', { lines: diff, meta: await page.innerText('#diff-meta') });

  // Any two versions: pick A = v1.
  await page.check('#versions-body tr[data-version="1"] input[name="diff-a"]');
  await page.waitForFunction(() => document.querySelector('#diff-meta').textContent.startsWith('v1 → v3'));
  diff = await diffLines(page);
  check(diff.includes('add:+- step two, done') && diff.includes('add:+- step three') && !diff.some((l) => l.startsWith('del:')), `diff v1→v3: ${diff}`);
  report('diff-v1-v3', { lines: diff });
  await shot(page, 'history-1280.png');

  // Restore v1: confirmed, it becomes v4 and the diff resets to v3→v4.
  await page.click('#versions-body tr[data-version="1"] .restore-btn');
  await page.waitForSelector('#confirm[open]');
  await page.click('#confirm-ok');
  await page.waitForFunction(() => document.querySelectorAll('#versions-body tr').length === 4);
  vs = await rows(page);
  check(vs[0].version === 4 && vs[0].by === 'alice' && vs[0].note.includes('restored v1') && vs[0].note.includes('current'), `after restore ${JSON.stringify(vs[0])}`);
  await page.waitForFunction(() => document.querySelector('#diff-meta').textContent.startsWith('v3 → v4'));
  report('restored', { versions: vs });
  await page.click('#history-close');
  await page.waitForSelector('#files-body tr[data-name="plan.md"] td:nth-child(4):text("v4")');

  // Bring back the deleted file from the deleted list.
  await page.click('#deleted summary');
  await page.click('#deleted-list li[data-name="notes.md"] .undelete-btn');
  await page.waitForSelector('#confirm[open]');
  await page.click('#confirm-ok');
  await page.click('#history-close');
  await page.waitForSelector('#files-body tr[data-name="notes.md"]');
  await page.waitForSelector('#room-log li[data-kind="restore"]');
  report('undeleted', { name: 'notes.md' });
  await shot(page, 'room-log-1280.png');
  await h.close(page);

  // On a phone: the history of plan.md, its diff and the room log fit.
  const { page: phone } = await h.open(browser, 375);
  await phone.goto(`${A.base}/#token=${A.token}&room=${ROOM}`);
  await phone.waitForSelector('#room-log li[data-kind="restore"]');
  await h.noOverflow(phone, 'room with its log at 375');
  await phone.click('#files-body tr[data-name="plan.md"] .history-btn');
  await phone.waitForSelector('#history[open] #versions-body tr');
  check((await rows(phone)).length === 4, 'four versions at 375 px');
  await phone.waitForFunction(() => document.querySelector('#diff-meta').textContent.startsWith('v3 → v4'));
  const box = await phone.locator('#history').boundingBox();
  check(box && box.x >= 0 && box.x + box.width <= 375, `history dialog inside 375 px: ${JSON.stringify(box)}`);
  const restore = await phone.locator('#versions-body tr[data-version="1"] .restore-btn').boundingBox();
  check(restore && restore.x >= 0 && restore.x + restore.width <= 375, `restore button inside 375 px: ${JSON.stringify(restore)}`);
  await h.noOverflow(phone, 'history at 375');
  await shot(phone, 'history-375.png');
  report('phone', {});
  await h.close(phone);
});
