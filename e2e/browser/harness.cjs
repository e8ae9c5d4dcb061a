// harness.cjs is what every browser driver here shares: its arguments, the
// step protocol harness_test.go reads, Debian's headless chromium (one
// shared browser when harness_test.go started one, else a launch of its
// own), pages at the two widths the dashboard is tested at, screenshots and
// the page's console errors. A driver holds only its scenario:
//
//   const h = require('./harness.cjs');
//   h.run(async (browser, args) => {
//     const { page } = await h.open(browser, 1280);
//     ...
//     await h.close(page);
//   });
//
// Input (env): PUMASI_ARGS (a JSON object: the driver's arguments, with
// base and artifacts), PUMASI_BROWSER_WS (a shared browser's endpoint),
// PUMASI_CHROMIUM (executable). Output: one JSON object per line on stdout
// ({"step": ..., ...}); every check throws, so a failure exits non-zero.
//
// `node harness.cjs serve` launches the shared browser instead, prints
// {"ws": endpoint} and keeps it until its standard input closes.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.PUMASI_CHROMIUM || '/usr/bin/chromium';
// STEP_MS bounds one step of a scenario (a click's answer, a list's refresh).
const STEP_MS = 10000;

// LAUNCH_ARGS suit every driver; evil.example resolves to loopback as a
// DNS rebinding page's name would (rebinding.cjs), and nothing else uses it.
const LAUNCH_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', '--host-resolver-rules=MAP evil.example 127.0.0.1',
];
const LAUNCH = { executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, timeout: 30000 };

// WIDTHS are the dashboard's two tested widths: a desktop and a phone.
const WIDTHS = [1280, 375];

function report(step, extra) {
  process.stdout.write(JSON.stringify({ step, ...extra }) + '\n');
}

function check(cond, msg) {
  if (!cond) throw new Error(`check failed: ${msg}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// args reads the driver's arguments and checks the required ones are set.
function args(...required) {
  let a;
  try {
    a = JSON.parse(process.env.PUMASI_ARGS || '{}');
  } catch (e) {
    throw new Error(`PUMASI_ARGS is not JSON: ${e}`);
  }
  const missing = ['base', ...required].filter((k) => a[k] === undefined || a[k] === '');
  if (missing.length) throw new Error(`PUMASI_ARGS lacks ${missing.join(', ')}`);
  return a;
}

// contextOptions are a browser context's at width: 1280 is a desktop with
// a mouse, 375 a phone (touch, twice the pixels).
function contextOptions(width, extra) {
  const phone = width < 600;
  return {
    viewport: { width, height: phone ? 812 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    colorScheme: 'light',
    ...extra,
  };
}

// open makes a context and page at width. The page's console errors and
// uncaught exceptions are kept in errors; close checks there were none
// (but those that match allow: a 4xx the scenario asked for is logged as
// "Failed to load resource").
async function open(browser, width, { allow = [], context = {} } = {}) {
  const ctx = await browser.newContext(contextOptions(width, context));
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_MS);
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()} (${(m.location() || {}).url || 'no url'})`); });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e}`));
  page.__pumasi = { ctx, errors, allow };
  return { ctx, page, errors };
}

// consoleErrors are the page's errors so far that allow does not excuse.
function consoleErrors(page) {
  const { errors, allow } = page.__pumasi;
  return errors.filter((e) => !allow.some((re) => re.test(e)));
}

// close checks the page logged no error and closes its context.
async function close(page) {
  const errs = consoleErrors(page);
  check(errs.length === 0, `console errors at ${page.viewportSize().width} px: ${errs.join(' | ')}`);
  await page.__pumasi.ctx.close();
}

// shot saves a full-page screenshot from the top (a sticky header would
// otherwise be drawn mid-page) into the artifacts folder and reports it.
async function shot(page, name) {
  const file = path.join(args().artifacts, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
  report('screenshot', { file, width: page.viewportSize().width });
}

// noOverflow checks that nothing makes the page scroll sideways.
async function noOverflow(page, where) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  check(w.scroll <= w.client, `${where}: page is ${w.scroll}px wide in a ${w.client}px viewport`);
}

// browser connects to the shared browser, or launches one of its own.
async function browser() {
  const ws = process.env.PUMASI_BROWSER_WS;
  if (ws) return chromium.connect(ws, { timeout: 30000 });
  return chromium.launch(LAUNCH);
}

// run runs a scenario: main(browser, args) between the browser step and
// the done step; an exception becomes the error step and exit status 1.
function run(main) {
  (async () => {
    const a = args();
    if (a.artifacts) fs.mkdirSync(a.artifacts, { recursive: true });
    const b = await browser();
    report('browser', { version: b.version(), shared: !!process.env.PUMASI_BROWSER_WS });
    try {
      const extra = await main(b, a);
      report('done', extra || {});
    } finally {
      await b.close();
    }
  })().catch((e) => {
    report('error', { message: String((e && e.stack) || e) });
    process.exit(1);
  });
}

// serve keeps one browser for every driver of a test run.
async function serve() {
  const server = await chromium.launchServer(LAUNCH);
  process.stdout.write(JSON.stringify({ ws: server.wsEndpoint() }) + '\n');
  process.stdin.resume();
  await new Promise((r) => process.stdin.on('end', r).on('close', r));
  await server.close();
}

module.exports = { STEP_MS, WIDTHS, args, report, check, sleep, open, close, consoleErrors, shot, noOverflow, run };

if (require.main === module && process.argv[2] === 'serve') {
  serve().then(() => process.exit(0), (e) => {
    console.error(String((e && e.stack) || e));
    process.exit(1);
  });
}
