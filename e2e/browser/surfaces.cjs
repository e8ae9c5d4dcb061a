// surfaces.cjs checks what the dashboard says about where things stand:
// sign-in on a one-click link opened in a tab already on the page, an agent
// whose daemon was killed shown offline, labelled similarity and score on
// hits, the admin badge and "Choose files" at 375 px on a touch screen, and
// the page's own live dot named as the page's. surfaces_test.go runs it.
//
// Args: base, artifacts, token, room, agent, daemon_pid (the daemon to kill).
'use strict';

const h = require('./harness.cjs');

const { check, report, shot, noOverflow, STEP_MS } = h;
const A = h.args('token', 'daemon_pid');
const BASE = A.base;
const TOKEN = A.token;
const ROOM = A.room || 'r1';
const AGENT = A.agent || 'a1';
const DAEMON_PID = Number(A.daemon_pid);
// OFFLINE_MS bounds how long the page may take to show the killed daemon's
// agent offline (the server's interval is 2 s, the page polls every 2 s).
const OFFLINE_MS = 30000;

// visibleText is the text of selector when it is rendered (not hidden by
// CSS), else null.
async function visibleText(page, selector) {
  const loc = page.locator(selector);
  if (await loc.count() === 0 || !(await loc.first().isVisible())) return null;
  return (await loc.first().innerText()).replace(/\s+/g, ' ').trim();
}

async function agentItem(page) {
  const li = page.locator(`#agents li[data-agent="${AGENT}"]`);
  if (await li.count() === 0) return null;
  return { state: await li.getAttribute('data-state'), synced: await li.getAttribute('data-synced'), text: (await li.innerText()).replace(/\s+/g, ' ') };
}

async function waitAgentState(page, want, ms) {
  try {
    await page.waitForFunction(({ agent, want }) => {
      const li = document.querySelector(`#agents li[data-agent="${agent}"]`);
      return li && li.dataset.state === want;
    }, { agent: AGENT, want }, { timeout: ms, polling: 50 });
  } catch (e) {
    throw new Error(`agent ${AGENT} not shown ${want} within ${ms} ms: ${JSON.stringify(await agentItem(page))}`);
  }
  return agentItem(page);
}

async function desktop(browser) {
  const { page } = await h.open(browser, 1280);

  // A tab already on the page, signed out; the one-click link then only
  // changes its fragment. The marker proves there was no reload.
  await page.goto(BASE + '/');
  await page.waitForSelector('#login-view:not([hidden])');
  await page.evaluate(() => { window.__sameDocument = true; });
  await page.evaluate((tok) => { location.hash = `#token=${tok}`; }, TOKEN);
  await page.waitForSelector('#rooms-view:not([hidden])');
  check(await page.evaluate(() => window.__sameDocument === true), 'signed in without a reload');
  check(!(await page.evaluate(() => location.hash)).includes('token'), 'token left the address bar');
  check((await visibleText(page, '#who-scopes')) === 'admin', 'admin badge after the hash change');
  report('hash-sign-in', { hash: await page.evaluate(() => location.hash) });

  await page.evaluate((r) => { location.hash = `#/rooms/${r}`; }, ROOM);
  await page.waitForSelector('#room-body:not([hidden])');
  const synced = await waitAgentState(page, 'synced', OFFLINE_MS);
  check(/synced/.test(synced.text) && synced.synced === 'true', `synced agent: ${JSON.stringify(synced)}`);
  check(await page.locator(`#agents li[data-agent="${AGENT}"] .badge.ok`).count() === 1, 'synced badge is green');
  const live = await visibleText(page, '#live');
  check(live === 'page live', `live dot label: ${live}`);
  check(/page/i.test(await page.getAttribute('#live', 'title')), 'live dot title says it is the page');
  check((await visibleText(page, '#dropzone .drop-pointer')) !== null && (await visibleText(page, '#dropzone .drop-touch')) === null,
    'a mouse screen is offered drag and drop');
  report('synced', { agent: synced, live });

  // SIGKILL: the daemon says no goodbye, it just stops reporting.
  process.kill(DAEMON_PID, 'SIGKILL');
  const t0 = Date.now();
  const off = await waitAgentState(page, 'offline', OFFLINE_MS);
  check(off.synced === 'false', `offline agent is not synced: ${JSON.stringify(off)}`);
  check(/offline/.test(off.text) && /offline since/.test(off.text) && !/\bsynced\b/.test(off.text), `offline agent text: ${off.text}`);
  check(await page.locator(`#agents li[data-agent="${AGENT}"] .badge.bad`).count() === 1, 'offline badge is red, not green or amber');
  check((await visibleText(page, '#live')) === 'page live', 'the page itself is still live');
  report('offline', { agent: off, after_kill_ms: Date.now() - t0 });
  await shot(page, 'offline-1280.png');

  // A hit names its similarity and its score.
  await page.click('#tabs a[data-view=knowledge]');
  await page.fill('#q', 'sqlite busy_timeout DSN');
  await page.fill('#q-hive', 'e2e');
  await page.click('#search-form button[type=submit]');
  await page.waitForSelector('#results li.result');
  const sim = page.locator('#results li.result').first().locator('.sim');
  const simText = (await sim.innerText()).replace(/\s+/g, ' ').trim();
  check(/^similarity 0\.\d\d · score 0\.\d\d$/.test(simText), `hit figures: "${simText}"`);
  check(!/%/.test(simText), `no unlabelled percentage: "${simText}"`);
  const ds = await sim.evaluate((e) => ({ similarity: e.dataset.similarity, score: e.dataset.score }));
  check(simText === `similarity ${ds.similarity} · score ${ds.score}`, `shown figures are the hit's: ${simText} vs ${JSON.stringify(ds)}`);
  report('hit-labels', { text: simText });
  await shot(page, 'hits-1280.png');
  await noOverflow(page, 'knowledge at 1280');
  await h.close(page);
}

async function mobile(browser) {
  const { page } = await h.open(browser, 375);
  await page.goto(`${BASE}/#token=${TOKEN}&room=${ROOM}`);
  await page.waitForSelector('#room-body:not([hidden])');
  const badge = await visibleText(page, '#who-scopes');
  check(badge === 'admin', `admin badge at 375 px: ${badge}`);
  const box = await page.locator('#who-scopes').boundingBox();
  check(box && box.width > 10 && box.x + box.width <= 375, `admin badge inside the viewport: ${JSON.stringify(box)}`);
  const touch = await visibleText(page, '#dropzone .drop-touch');
  check(touch === 'Choose files', `touch screen offered: ${touch}`);
  check((await visibleText(page, '#dropzone .drop-pointer')) === null, 'no "Drop text files here" on a touch screen');
  check(!(await page.locator('#dropzone').innerText()).includes('Drop text files here'), 'drop text not rendered');
  check((await visibleText(page, '#live')) === 'page live', 'live dot labelled at 375 px');
  const off = await waitAgentState(page, 'offline', STEP_MS);
  report('mobile', { badge, touch, agent: off });
  await noOverflow(page, 'rooms at 375');
  await shot(page, 'rooms-375.png');
  await h.close(page);
}

h.run(async (browser) => {
  await desktop(browser);
  await mobile(browser);
});
