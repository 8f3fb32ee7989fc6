// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DerivativesPanel } from './DerivativesPanel.tsx';

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
  });
const provenance = { source: 'simulated', simulated: true, asOf: '2026-01-01T00:00:00.000Z', stale: false };

/** BTCUSDT as a simulated server answers it, with no venue streaming liquidations; ETHUSDT has no perpetual. */
function answer(url: URL): Response {
  if (url.pathname === '/api/derivatives') {
    const data =
      url.searchParams.get('symbols') === 'BTCUSDT'
        ? [
            {
              symbol: 'BTCUSDT',
              funding: {
                rate: 0.0001,
                annualizedPct: 10.95,
                predictedRate: null,
                nextFundingTime: null,
                intervalHours: 8,
              },
              openInterest: { contracts: 100, usd: 5.2e9, change24hPct: 1.8 },
              basis: null,
              liquidations: null,
              venues: [],
              stale: false,
              updatedAt: '2026-01-01T00:00:00.000Z',
            },
          ]
        : [];
    return json({ data, ...provenance }, { 'meridian-source': 'simulated', 'meridian-simulated': 'true' });
  }
  if (url.pathname === '/api/derivatives/history') {
    const metric = url.searchParams.get('metric');
    const data = [0, 1, 2].map((i) => ({
      timestamp: new Date(i * 3_600_000).toISOString(),
      time: i * 3_600_000,
      at: i * 3_600_000,
      ...(metric === 'funding' ? { rate: 0.0001, annualizedPct: 10 + i } : {}),
      ...(metric === 'open_interest' ? { openInterestUsd: 5e9 + i * 1e8 } : {}),
    }));
    return json({ symbol: 'BTCUSDT', metric, interval: '1h', data, nextCursor: null, ...provenance });
  }
  return new Response(JSON.stringify({ code: 'not_found' }), { status: 404 });
}

describe('the derivatives panel', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => answer(new URL(input.url))),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const renderPanel = (symbol: string) =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <DerivativesPanel symbol={symbol} />
      </QueryClientProvider>,
    );

  it('shows funding and open interest with sparklines, labels simulated data, and liquidations as absent (not $0)', async () => {
    renderPanel('BTCUSDT');
    const funding = await screen.findByTestId('derivatives-funding', {}, { timeout: 10_000 });
    expect(funding.textContent).toContain('+10.95');
    expect(screen.getByText('Simulated')).toBeTruthy();
    const oi = screen.getByTestId('derivatives-open-interest');
    expect(oi.textContent).toContain('$5.20B');
    await vi.waitFor(() => expect(oi.querySelector('svg.sparkline polyline')).not.toBeNull(), {
      timeout: 10_000,
    });
    expect(funding.querySelector('svg.sparkline polyline')).not.toBeNull();
    const liquidations = screen.getByTestId('derivatives-liquidations');
    expect(within(liquidations).getByText('Not published by this source')).toBeTruthy();
    expect(liquidations.textContent).not.toContain('$0');
    expect(liquidations.querySelector('svg')).toBeNull();
  });

  it('says so when the symbol has no perpetual data', async () => {
    renderPanel('ETHUSDT');
    const absent = await screen.findByTestId('derivatives-absent', {}, { timeout: 10_000 });
    expect(absent.textContent).toContain('No perpetual-futures data for this symbol from simulated');
  });
});
