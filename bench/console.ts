import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { median } from './stats.ts';
import {
  chromiumPath,
  ensureConsoleBuilt,
  haveChromium,
  launchChromium,
  startConsoleServer,
} from '../test/console/harness.ts';

const dist = join(process.cwd(), 'console/dist');
const email = 'bench@example.com';
const password = 'bench-password-long-enough';
const loads = Number(process.env.BENCH_CONSOLE_LOADS ?? 7);
const redraws = Number(process.env.BENCH_CONSOLE_REDRAWS ?? 15);

const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? Number.NaN;

/** The JavaScript index.html loads before anything else: the entry script and what it preloads. */
export function initialJs() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return files.map((file) => {
    const body = readFileSync(join(dist, file));
    return { file, bytes: statSync(join(dist, file)).size, gzip: gzipSync(body, { level: 9 }).length };
  });
}

/**
 * `npm run bench -- console`: the web console's budget on this machine, against the real server (PGlite).
 * - initial JS (gzip) of the dashboard, budget ≤ 250 KB;
 * - first meaningful paint of the dashboard (the market table has data; the app marks it
 *   `meridian:dashboard-data`), cold cache, signed in, median of several loads; budget ≤ 1.5 s. The first
 *   contentful paint of the same loads is the baseline it is compared with;
 * - the symbol chart's redraw of a model refresh (`meridian:chart-update` = the series update,
 *   `meridian:chart-paint` = the animation frame that paints it), budget ≤ 16 ms.
 */
export async function run() {
  if (!haveChromium) throw new Error(`the console benchmark needs chromium at ${chromiumPath}`);
  ensureConsoleBuilt();
  const js = initialJs();
  const totalGzip = js.reduce((sum, f) => sum + f.gzip, 0);

  const server = await startConsoleServer({ MERIDIAN_MODEL_REFRESH_MS: '1000' });
  const browser = await launchChromium();
  try {
    await server.createUser(email, password, { plan: 'pro' });
    const signInContext = await browser.newContext({ baseURL: server.address });
    const login = await signInContext.request.post('/auth/login', { data: { email, password } });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
    const storageState = await signInContext.storageState();
    await signInContext.close();

    const fcp: number[] = [];
    const fmp: number[] = [];
    for (let i = 0; i <= loads; i++) {
      const context = await browser.newContext({
        baseURL: server.address,
        storageState,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      await page.goto('/');
      await page.waitForFunction(
        () => performance.getEntriesByName('meridian:dashboard-data').length > 0,
        null,
        {
          timeout: 30_000,
        },
      );
      const timing = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        fmp: performance.getEntriesByName('meridian:dashboard-data')[0]!.startTime,
      }));
      if (i > 0) {
        // The first load warms the server's caches and the browser process; it is not counted.
        // Chromium occasionally reports no paint entry for a load; such a load has no baseline figure.
        if (Number.isFinite(timing.fcp)) fcp.push(timing.fcp);
        fmp.push(timing.fmp);
      }
      await context.close();
    }

    const context = await browser.newContext({
      baseURL: server.address,
      storageState,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/symbols/BTCUSDT?interval=1m&horizon=15m');
    await page.waitForFunction(
      (n) => performance.getEntriesByName('meridian:chart-paint').length >= n,
      redraws,
      { timeout: 120_000, polling: 500 },
    );
    const chart = await page.evaluate(() => ({
      update: performance.getEntriesByName('meridian:chart-update').map((e) => e.duration),
      paint: performance.getEntriesByName('meridian:chart-paint').map((e) => e.duration),
    }));
    await context.close();

    const redraw = chart.update.map((u, i) => u + (chart.paint[i] ?? 0));
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log('\nInitial JS (gzip -9 of what index.html loads):');
    for (const f of js) console.log(`  ${f.file}: ${kb(f.bytes)} raw, ${kb(f.gzip)} gzip`);
    console.log(
      `  total ${kb(totalGzip)} gzip — budget 250 KB: ${totalGzip <= 250 * 1024 ? 'within' : 'OVER'}`,
    );
    console.log(`\nDashboard, cold cache, signed in, ${loads} loads (median / max):`);
    console.log(
      `  first contentful paint (baseline): ${median(fcp).toFixed(0)} / ${Math.max(...fcp).toFixed(0)} ms`,
    );
    console.log(
      `  first meaningful paint (market data shown): ${median(fmp).toFixed(0)} / ${Math.max(...fmp).toFixed(0)} ms` +
        ` — ${(median(fmp) / median(fcp)).toFixed(2)}× the first paint; budget 1500 ms: ${median(fmp) <= 1500 ? 'within' : 'OVER'}`,
    );
    console.log(`\nSymbol chart redraw of a refresh, ${redraw.length} refreshes (median / p95 / max):`);
    console.log(
      `  series update: ${median(chart.update).toFixed(2)} / ${p95(chart.update).toFixed(2)} / ${Math.max(...chart.update).toFixed(2)} ms`,
    );
    console.log(
      `  paint frame:   ${median(chart.paint).toFixed(2)} / ${p95(chart.paint).toFixed(2)} / ${Math.max(...chart.paint).toFixed(2)} ms`,
    );
    console.log(
      `  update + paint: ${median(redraw).toFixed(2)} / ${p95(redraw).toFixed(2)} / ${Math.max(...redraw).toFixed(2)} ms — budget 16 ms: ${p95(redraw) <= 16 ? 'within' : 'OVER'}`,
    );
    return { initialJsGzip: totalGzip, fmpMs: median(fmp), redrawP95Ms: p95(redraw) };
  } finally {
    await browser.close();
    await server.stop();
  }
}
