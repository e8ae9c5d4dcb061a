// rebinding.cjs plays a DNS rebinding page and a cross-site form against
// localdev: the shared chromium resolves evil.example to 127.0.0.1
// (harness.cjs's --host-resolver-rules), as a rebinding page's DNS would,
// so the page is same-origin with localdev to the browser.
// rebinding_test.go runs it and checks what it reports.
//
// Args: base (http://127.0.0.1:PORT).
'use strict';

const h = require('./harness.cjs');

const { report } = h;
const A = h.args();
const BASE = A.base;
const port = new URL(BASE).port;
const EVIL = `http://evil.example:${port}`;

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

h.run(async (browser) => {
  // Every refusal is a 403 the browser logs; the form's answer is JSON, not
  // the dashboard, so the browser asks for /favicon.ico, which is not served.
  const { page } = await h.open(browser, 1280, {
    allow: [/Failed to load resource: the server responded with a status of 403/, /status of 404 .*\/favicon\.ico\)$/],
  });
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
  await h.close(page);
});
