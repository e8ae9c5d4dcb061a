// cors.cjs is a page on another origin calling pumasi from Debian's
// headless chromium (playwright-core), as a keyed Hive client in a browser
// would: a knowledge query with `Authorization: Bearer <key>` and
// X-Hive-Agent (a preflighted request), the same with credentials
// (cookies), a write the default CORS policy keeps closed, and a machine
// WebSocket opened with ?token= (browsers cannot set headers on one).
// cors_test.go runs it; each result is one JSON line on stdout.
//
// Input (env): PUMASI_BASE (the API), PUMASI_PAGE (a page on another
// origin), PUMASI_MACHINE, PUMASI_MACHINE_TOKEN, PUMASI_CHROMIUM.
'use strict';

const { chromium } = require('playwright-core');

const BASE = process.env.PUMASI_BASE;
const PAGE = process.env.PUMASI_PAGE;
const MACHINE = process.env.PUMASI_MACHINE;
const MACHINE_TOKEN = process.env.PUMASI_MACHINE_TOKEN;

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.PUMASI_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.method() + ' ' + r.url()));
  await page.goto(PAGE);
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
  }, { base: BASE, machine: MACHINE, machineToken: MACHINE_TOKEN });
  const version = browser.version();
  await browser.close();
  process.stdout.write(JSON.stringify({ origin, version, results, requests }) + '\n');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
