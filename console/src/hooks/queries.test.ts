// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// The typed client captures fetch when its module loads, so the stub goes in first.
const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);
let queries: typeof import('./queries.ts');
let client: typeof import('../api/client.ts');
beforeAll(async () => {
  queries = await import('./queries.ts');
  client = await import('../api/client.ts');
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

function wrapper() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, children);
}

describe('data hooks', () => {
  beforeEach(() => fetchMock.mockReset());

  it('useAccount: a 401 means signed out (null), not an error', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { code: 'unauthenticated', detail: 'no credentials' }));
    const { result } = renderHook(() => queries.useAccount(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
  });

  it('useMarketData: the rows, and the quota the response reported', async () => {
    const seen = vi.fn();
    const stop = client.usage.subscribe(seen);
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        { data: [{ symbol: 'BTCUSDT', price: 100 }] },
        {
          ratelimit: '"account";r=100;t=1',
          'ratelimit-policy': '"account";q=120;w=60',
        },
      ),
    );
    const { result } = renderHook(() => queries.useMarketData({ refreshMs: 60_000 }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([{ symbol: 'BTCUSDT', price: 100 }]);
    expect(String((fetchMock.mock.calls[0]![0] as Request).url)).toMatch(/\/api\/market-data$/);
    expect(seen).toHaveBeenCalledWith(expect.objectContaining({ used: 20, limit: 120 }));
    expect(client.usage.current()?.remaining).toBe(100);
    stop();
  });

  it('an error carries the problem document detail, and a 401 on a data call reports the session ended', async () => {
    const ended = vi.fn();
    const stop = client.onSessionEnded(ended);
    fetchMock.mockResolvedValueOnce(
      json(400, { code: 'unknown_exchange', detail: 'unknown exchange "nope"; known: binance, kraken' }),
    );
    const { result } = renderHook(() => queries.useFlows({ exchange: 'nope' }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(client.MeridianProblemError);
    expect(result.current.error?.message).toBe('unknown exchange "nope"; known: binance, kraken');
    expect(String((fetchMock.mock.calls[0]![0] as Request).url)).toContain('exchange=nope');
    expect(ended).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(json(401, { code: 'session_required', detail: 'sign in' }));
    const tokens = renderHook(() => queries.useTokens(), { wrapper: wrapper() });
    await waitFor(() => expect(tokens.result.current.isError).toBe(true));
    expect(client.isSessionEnded(tokens.result.current.error)).toBe(true);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });
});
