// cors.cjs is a page on another origin calling pumasi, as a keyed Hive
// client in a browser would: a knowledge query with `Authorization: Bearer
// <key>` and X-Hive-Agent (a preflighted request), the same with
// credentials (cookies), a write the default CORS policy keeps closed, and
// a machine WebSocket opened with ?token= (browsers cannot set headers on
// one). cors_test.go runs it and checks the results step.
//
// Args: base (the API), page (a page on another origin), machine,
// machine_token.
'use strict';

const h = require('./harness.cjs');

const A = h.args('page', 'machine', 'machine_token');

h.run(async (browser) => {
  const { page } = await h.open(browser, 1280, { allow: [/Failed to load resource/, /CORS policy/, /WebSocket connection/] });
  const requests = [];
  page.on('request', (r) => requests.push(r.method() + ' ' + r.url()));
  await page.goto(A.page);
  const origin = await page.evaluate(() => location.origin);
  const results = await page.evaluate(async ({ base, machine, machineToken }) => {
    const out = {};
    const attempt = async (name, f) => {
      try {
        out[name] = await f();
      } catch (e) {
        out[name] = { blocked: String(e) };
      }
    };
    const key = { Authorization: 'Bearer hive_sk_browser_test_key', 'X-Hive-Agent': 'browser-agent' };
    await attempt('query with key', async () => {
      const r = await fetch(base + '/knowledge/query?q=pgx+pool_max_conns&limit=3', { headers: key });
      const body = await r.json();
      return { status: r.status, success: body.success, hits: body.data.length, title: body.data[0] && body.data[0].title };
    });
    await attempt('query with key and credentials', async () => {
      const r = await fetch(base + '/knowledge/query?q=pgx', { headers: key, credentials: 'include' });
      return { status: r.status };
    });
    await attempt('contribute with key', async () => {
      const r = await fetch(base + '/knowledge/contribute', {
        method: 'POST',
        headers: { ...key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'x', content: 'y' }),
      });
      return { status: r.status };
    });
    await attempt('websocket with ?token=', () => new Promise((resolve) => {
      const ws = new WebSocket(base.replace(/^http/, 'ws') + '/machines/' + machine + '/ws?token=' + encodeURIComponent(machineToken));
      const timer = setTimeout(() => resolve({ open: false, why: 'timeout' }), 10000);
      ws.onopen = () => { clearTimeout(timer); ws.close(); resolve({ open: true }); };
      ws.onerror = () => { clearTimeout(timer); resolve({ open: false, why: 'error' }); };
    }));
    await attempt('websocket with a bad ?token=', () => new Promise((resolve) => {
      const ws = new WebSocket(base.replace(/^http/, 'ws') + '/machines/' + machine + '/ws?token=forged');
      const timer = setTimeout(() => resolve({ open: false, why: 'timeout' }), 10000);
      ws.onopen = () => { clearTimeout(timer); ws.close(); resolve({ open: true }); };
      ws.onerror = () => { clearTimeout(timer); resolve({ open: false, why: 'error' }); };
    }));
    return out;
  }, { base: A.base, machine: A.machine, machineToken: A.machine_token });
  h.report('results', { origin, results, requests });
  await h.close(page);
});
