// rebinding.cjs plays a DNS rebinding page and a cross-site form against
// localdev in Debian's headless chromium (playwright-core): chromium resolves
// evil.example to 127.0.0.1 (--host-resolver-rules), as a rebinding page's
// DNS would, so the page is same-origin with localdev to the browser.
// rebinding_test.go runs it and checks what it reports.
//
// Input (env): PUMASI_BASE (http://127.0.0.1:PORT), PUMASI_CHROMIUM.
// Output: one JSON object per line on stdout ({"step": ..., ...}).
'use strict';

const { chromium } = require('playwright-core');

const BASE = process.env.PUMASI_BASE;
const CHROMIUM = process.env.PUMASI_CHROMIUM || '/usr/bin/chromium';
if (!BASE) {
  console.error('PUMASI_BASE is required');
  process.exit(2);
}
const port = new URL(BASE).port;
const EVIL = `http://evil.example:${port}`;

function report(step, extra) {
  process.stdout.write(JSON.stringify({ step, ...extra }) + '\n');
}

// contribute POSTs a keyless finding from the page's own origin and says
// what the page could read of the answer.
async function contribute(page, marker) {
  return page.evaluate(async (marker) => {
    const body = JSON.stringify({
      title: `${marker} pgx v5 pool_max_conns default is too small`,
      content: `${marker}: pgx v5 pgxpool defaults pool_max_conns to max(4, GOMAXPROCS); under 200 concurrent requests set pool_max_conns=32 in the DSN or requests queue on Acquire.`,
    });
    try {
      const r = await fetch('/knowledge/contribute', {
        method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hive-Agent': 'browser-page' }, body,
      });
      const text = await r.text();
      let code = '';
      try { code = (JSON.parse(text).error || {}).code || ''; } catch (e) { /* not JSON */ }
      return { status: r.status, code };
    } catch (e) {
      return { status: 0, error: String(e) };
    }
  }, marker);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true, timeout: 30000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP evil.example 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    // The rebinding page: the dashboard under the attacker's name.
    let res = await page.goto(EVIL + '/', { waitUntil: 'load' });
    report('rebinding-dashboard', { status: res.status(), body: (await res.text()).slice(0, 300) });
    report('rebinding-contribute', await contribute(page, 'rebound'));

    // The real dashboard: its keyless write is same-origin and passes.
    res = await page.goto(BASE + '/', { waitUntil: 'load' });
    report('own-dashboard', { status: res.status() });
    report('own-contribute', await contribute(page, 'sameorigin'));

    // A cross-site form (origin "null" here, as from a sandboxed frame or
    // a file): a simple request that needs no preflight.
    await page.goto('about:blank');
    await page.setContent(`<form method="post" enctype="text/plain" action="${BASE}/knowledge/contribute">` +
      '<input name="x" value="y"><button>go</button></form>');
    const [nav] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button')]);
    report('cross-site-form', { status: nav ? nav.status() : 0, body: nav ? (await nav.text()).slice(0, 300) : '' });
    report('done', {});
  } finally {
    await browser.close();
  }
})().catch((e) => {
  report('error', { message: String(e && e.stack || e) });
  process.exit(1);
});
