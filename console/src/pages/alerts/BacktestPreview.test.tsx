// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RuleForm } from './RuleForm.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the backtest preview of the rule form', () => {
  const calls: Array<{ url: URL; body: unknown }> = [];
  beforeEach(() => {
    calls.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        const url = new URL(input.url);
        calls.push({ url, body: input.method === 'POST' ? await input.json() : undefined });
        if (url.pathname === '/api/market-history')
          return json({
            data: [],
            nextCursor: null,
            history: { backfilling: false, availableFrom: '2020-01-01T00:00:00.000Z' },
          });
        if (url.pathname === '/api/alerts/backtest')
          return json({
            rule: { type: 'price', symbol: 'BTCUSDT', condition: { op: 'above', value: 100 } },
            window: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-08T00:00:00.000Z' },
            firings: [
              { at: '2026-01-02T10:00:59.999Z', value: 101 },
              { at: '2026-01-05T10:00:59.999Z', value: 102 },
            ],
            firingsListed: 2,
            totals: {
              firings: 2,
              first: '2026-01-02T10:00:59.999Z',
              last: '2026-01-05T10:00:59.999Z',
              perDay: [],
            },
            data: { source: 'simulated', simulated: true, candles: 10080, missingMinutes: 0 },
            normalized: [],
          });
        return json({ data: [], nextCursor: null });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('posts the form as it stands to the backtest (the last 7 days, nothing saved) and shows the count', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <RuleForm />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Symbol'), { target: { value: 'btc' } });
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview last 7 days' }));
    const count = await screen.findByTestId('backtest-count', {}, { timeout: 10_000 });
    expect(count.textContent).toContain('Would have fired 2 times in the last 7 days');
    expect(count.textContent).toContain('simulated');
    const posted = calls.find((c) => c.url.pathname === '/api/alerts/backtest')!;
    const from = Date.parse(posted.url.searchParams.get('from')!);
    expect(Math.abs(Date.now() - 7 * 86_400_000 - from)).toBeLessThan(60_000);
    expect(posted.body).toMatchObject({
      type: 'price',
      symbol: 'btc',
      condition: { op: 'crosses_above', value: 100 },
    });
    expect(calls.some((c) => c.url.pathname === '/api/alerts' && c.body !== undefined)).toBe(false);
  });
});
