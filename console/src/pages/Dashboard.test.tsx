// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Layout, RequireSession } from '../components/Layout.tsx';
import { Dashboard } from './Dashboard.tsx';

const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
const item = (symbol: string) => ({
  symbol,
  price: 100,
  change24hPct: 1.5,
  liquidity: {
    depth: [{ bandPct: 1, bidUsd: 1e6, askUsd: 1e6 }],
    slippage: { notional: 10_000, buyBps: 1, sellBps: 1 },
  },
  venues: [{ venue: 'binance', weight: 1, stale: false, outlier: false }],
});
const outlookOf = (symbol: string) => ({
  symbol,
  bias: 'bullish',
  score: 0.2,
  confidence: 0.6,
  message: 'Bullish where the record earns it (bullish at 1h); 1h: 80 % within −0.50 % … +0.90 %.',
  horizons: {
    '1h': {
      bias: 'bullish',
      score: 0.2,
      expectedMovePct: 0.3,
      confidence: 0.6,
      directionEarned: true,
      interval80Pct: { low: -0.5, high: 0.9 },
      message: 'Up +0.30 % expected with confidence 60 %, a direction the model has earned.',
    },
  },
  drivers: [
    {
      factor: 'orderflow',
      direction: 'bullish',
      weight: 0.6,
      reason:
        "Order-book imbalance is +0.24 (bids heavier): the model's record earns a bullish lean from order flow.",
    },
  ],
  modelVersion: 'm1',
  generatedAt: '2026-01-01T00:00:00.000Z',
  gaps: [],
});
/** The batched outlook answer: each listed symbol's entry, an unknown one as an error entry. */
const outlooks = (list: string[]) => ({
  data: list.map((requested) =>
    symbols.includes(requested)
      ? {
          requested,
          symbol: requested,
          source: 'simulated',
          asOf: '2026-01-01T00:00:00.000Z',
          stale: requested === 'ETHUSDT',
          backfilling: false,
          outlook: outlookOf(requested),
        }
      : {
          requested,
          symbol: null,
          error: {
            status: 400,
            code: 'unsupported_symbol',
            title: 'x',
            detail: `"${requested}" is not supported`,
          },
        },
  ),
});
const account = {
  id: 'a1',
  email: 'ada@example.com',
  plan: 'standard',
  role: 'owner',
  permissions: [],
  limits: { requestsPerMinute: 120, wsConnections: 5 },
};
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const simulated = { 'meridian-source': 'simulated', 'meridian-stale': 'false' };

/** The API the dashboard talks to, answering as a server on the simulated market source does. */
function answer(url: URL): Response {
  const path = url.pathname;
  if (path === '/api/account') return json(account);
  if (path === '/api/market-data') return json({ data: symbols.map(item), nextCursor: null }, 200, simulated);
  if (path === '/api/predictions/ai-outlook' && url.searchParams.has('symbols'))
    return json(outlooks(url.searchParams.get('symbols')!.split(',')), 200, simulated);
  if (path === '/api/dashboard/analytics') return json({ code: 'not_found' }, 404);
  return json({ code: 'not_found', detail: `no stub for ${path}` }, 404);
}

/** A browser WebSocket that never connects: the dashboard's push channels stay "connecting". */
class SilentSocket {
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  send() {}
  close() {}
}

describe('the dashboard', () => {
  const requests: string[] = [];
  const queries: string[] = [];
  beforeEach(() => {
    requests.length = 0;
    queries.length = 0;
    vi.stubGlobal('WebSocket', SilentSocket);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        const url = new URL(input.url);
        requests.push(url.pathname);
        queries.push(url.search);
        return answer(url);
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderDashboard() {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route element={<RequireSession />}>
              <Route element={<Layout />}>
                <Route index element={<Dashboard />} />
              </Route>
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
  }

  it('spends few requests of the shared quota on one load: one outlook call for every symbol', async () => {
    const { container } = renderDashboard();
    await screen.findByText('DOGE / USDT', {}, { timeout: 10_000 }); // every market row rendered (no row asks for its own outlook)
    // One card per symbol, every one from a single batched request.
    await vi.waitFor(
      () => expect(container.querySelectorAll('article.outlook[data-symbol]')).toHaveLength(7),
      {
        timeout: 10_000,
      },
    );
    expect(requests.filter((path) => path === '/api/predictions/ai-outlook')).toHaveLength(1);
    expect(decodeURIComponent(queries[requests.indexOf('/api/predictions/ai-outlook')]!)).toBe(
      `?symbols=${symbols.join(',')}`,
    );
    const eth = container.querySelector('article.outlook[data-symbol="ETHUSDT"]')!;
    expect(eth.textContent).toContain('simulated data · stale');
    expect([...requests].sort()).toEqual(
      ['/api/account', '/api/dashboard/analytics', '/api/market-data', '/api/predictions/ai-outlook'].sort(),
    );
  });

  it('says visibly that the prices are simulated when the API marks them so', async () => {
    renderDashboard();
    const notice = await screen.findByTestId('source-notice', {}, { timeout: 10_000 });
    expect(notice.textContent).toMatch(/^Simulated data: .*not from an exchange/);
  });
});
