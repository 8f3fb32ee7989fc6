// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Alerts from './Alerts.tsx';

const rule = (id: string, name: string, state: string) => ({
  id,
  name,
  type: 'price',
  symbol: 'BTCUSDT',
  condition: { op: 'above', value: 100_000 },
  trigger: { mode: 'once' },
  channels: { events: true, webhookIds: [] },
  state,
  triggerCount: state === 'triggered' ? 1 : 0,
  lastTriggeredAt: state === 'triggered' ? '2026-01-01T00:00:00.000Z' : null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  normalized: [],
});
const rules = [
  rule('r1', 'Fired once', 'triggered'),
  rule('r2', 'Ran out', 'expired'),
  rule('r3', 'On hold', 'paused'),
  rule('r4', 'Watching', 'active'),
];
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('the alerts table', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        const path = new URL(input.url).pathname;
        if (path === '/api/alerts') return json({ data: rules, nextCursor: null, applied: { limit: 20 } });
        return json({ data: [], nextCursor: null });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers Resume only on a paused rule: triggered and expired are final', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <Alerts />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText('Fired once', {}, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'Resume Fired once' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pause Fired once' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resume Ran out' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Resume On hold' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pause Watching' })).toBeTruthy();
    // A final rule can still be tested, inspected and deleted.
    expect(screen.getByRole('button', { name: 'Delete Fired once' })).toBeTruthy();
  });
});
