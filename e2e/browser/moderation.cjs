// moderation.cjs drives the dashboard's Moderation view in Debian's
// headless chromium with playwright-core: an admin sees the flagged and
// quarantined entries, restores one and redacts another after confirming,
// at 1280 and 375 px; a room token sees no Moderation tab.
// moderation_test.go runs it and checks the server afterwards.
//
// Input (env): PUMASI_BASE, PUMASI_TOKEN (admin), PUMASI_ROOM_TOKEN,
// PUMASI_FLAGGED, PUMASI_RESTORED, PUMASI_REDACTED (entry ids),
// PUMASI_ARTIFACTS, PUMASI_CHROMIUM. Output: one JSON object per line.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const env = (k, d) => process.env[k] || d;
const BASE = env('PUMASI_BASE');
const TOKEN = env('PUMASI_TOKEN');
const ROOM_TOKEN = env('PUMASI_ROOM_TOKEN');
const FLAGGED = env('PUMASI_FLAGGED');
const RESTORED = env('PUMASI_RESTORED');
const REDACTED = env('PUMASI_REDACTED');
const ARTIFACTS = env('PUMASI_ARTIFACTS');
const CHROMIUM = env('PUMASI_CHROMIUM', '/usr/bin/chromium');
const STEP_MS = 10000;

if (!BASE || !TOKEN || !ROOM_TOKEN || !FLAGGED || !RESTORED || !REDACTED || !ARTIFACTS) {
  console.error('PUMASI_BASE, PUMASI_TOKEN, PUMASI_ROOM_TOKEN, the three ids and PUMASI_ARTIFACTS are required');
  process.exit(2);
}

function report(step, extra) {
  process.stdout.write(JSON.stringify({ step, ...extra }) + '\n');
}

function check(cond, msg) {
  if (!cond) throw new Error(`check failed: ${msg}`);
}

const LAUNCH_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

async function noOverflow(page, where) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  check(w.scroll <= w.client, `${where}: page is ${w.scroll}px wide in a ${w.client}px viewport`);
}

async function listed(page) {
  return page.evaluate(() => {
    const ids = (list) => Array.from(document.querySelectorAll(`#${list}-list li[data-id]`)).map((li) => li.dataset.id);
    return { flagged: ids('flagged'), quarantined: ids('quarantined'), merges: ids('merges') };
  });
}

// waitLists waits until the lists hold what pred accepts.
async function waitLists(page, pred, what) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const l = await listed(page);
    if (pred(l)) return l;
    if (Date.now() > deadline) throw new Error(`moderation lists never showed ${what}: ${JSON.stringify(l)}`);
    await page.waitForTimeout(50);
  }
}

async function admin(browser, viewport, mobile) {
  const ctx = await browser.newContext({ viewport, deviceScaleFactor: mobile ? 2 : 1, isMobile: mobile, hasTouch: mobile, colorScheme: 'light' });
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_MS);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${BASE}/#token=${TOKEN}`);
  await page.waitForSelector('#rooms-view:not([hidden])');
  check(await page.locator('#tab-moderation').isVisible(), 'admin sees the Moderation tab');
  await page.click('#tab-moderation');
  await page.waitForSelector('#moderation-view:not([hidden])');
  return { ctx, page, errors };
}

async function desktop(browser) {
  const { ctx, page, errors } = await admin(browser, { width: 1280, height: 900 }, false);
  const l = await waitLists(page, (l) => l.flagged.includes(FLAGGED) && l.quarantined.includes(RESTORED) && l.quarantined.includes(REDACTED), 'the seeded entries');
  check(!l.flagged.includes(RESTORED) && !l.quarantined.includes(FLAGGED), `each entry in one list: ${JSON.stringify(l)}`);
  const item = (await page.locator(`#flagged-list li[data-id="${FLAGGED}"]`).innerText()).replace(/\s+/g, ' ');
  check(/1 flagger\b/.test(item) && /flagged/.test(item), `flagged item says how many flagged it: ${item}`);
  report('listed', l);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, 'moderation-1280.png'), fullPage: true });
  await noOverflow(page, 'moderation at 1280');

  // Restore: out of quarantine.
  await page.click(`#quarantined-list li[data-id="${RESTORED}"] button[aria-label="Restore ${RESTORED}"]`);
  await waitLists(page, (l) => !l.quarantined.includes(RESTORED), 'the restored entry gone from quarantine');
  report('restored', { id: RESTORED });

  // Redact: Cancel keeps it, Redact removes it for good.
  const redactBtn = `#quarantined-list li[data-id="${REDACTED}"] button[aria-label="Redact ${REDACTED}"]`;
  await page.click(redactBtn);
  await page.waitForSelector('#confirm[open]');
  check((await page.innerText('#confirm-title')) === 'Redact entry?', 'redact asks first');
  await page.click('#confirm-cancel');
  await page.waitForSelector('#confirm', { state: 'hidden' });
  check((await listed(page)).quarantined.includes(REDACTED), 'cancel keeps the entry');
  await page.click(redactBtn);
  await page.click('#confirm-ok');
  const after = await waitLists(page, (l) => !l.quarantined.includes(REDACTED) && !l.flagged.includes(REDACTED), 'the redacted entry gone');
  check(after.flagged.includes(FLAGGED), 'the agent-flagged entry stays listed');
  check(await page.locator('#moderation-error').isHidden(), `no error: ${await page.innerText('#moderation-error')}`);
  report('redacted', after);
  check(errors.length === 0, `page errors: ${errors.join(' | ')}`);
  await ctx.close();
}

async function mobile(browser) {
  const { ctx, page } = await admin(browser, { width: 375, height: 812 }, true);
  await waitLists(page, (l) => l.flagged.includes(FLAGGED), 'the flagged entry at 375 px');
  check(await page.locator(`#flagged-list li[data-id="${FLAGGED}"] button[aria-label="Redact ${FLAGGED}"]`).isVisible(), 'actions visible at 375 px');
  await noOverflow(page, 'moderation at 375');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, 'moderation-375.png'), fullPage: true });
  report('mobile', {});
  await ctx.close();

  // A room token: no Moderation tab, and #/moderation does not open it.
  const rctx = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const rp = await rctx.newPage();
  rp.setDefaultTimeout(STEP_MS);
  await rp.goto(`${BASE}/#token=${ROOM_TOKEN}`);
  await rp.waitForSelector('#rooms-view:not([hidden])');
  check(!(await rp.locator('#tab-moderation').isVisible()), 'a room token sees no Moderation tab');
  await rp.evaluate(() => { location.hash = '#/moderation'; });
  await rp.waitForSelector('#knowledge-view:not([hidden])');
  check(await rp.locator('#moderation-view').isHidden(), 'the moderation view stays closed');
  report('room-token', {});
  await rctx.close();
}

(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, timeout: 30000 });
  report('browser', { version: browser.version() });
  try {
    await desktop(browser);
    await mobile(browser);
    report('done', {});
  } finally {
    await browser.close();
  }
})().catch((e) => {
  report('error', { message: String(e && e.stack || e) });
  process.exit(1);
});
