// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Analytics } from '../api/types.ts';

// The typed client captures fetch when its module loads, so the stub goes in first.
const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);
let analytics: typeof import('./analytics.ts');
beforeAll(async () => {
  analytics = await import('./analytics.ts');
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
const wrapper = () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
};

describe('useAnalytics', () => {
  beforeEach(() => fetchMock.mockReset());

  it('returns the summary from GET /api/dashboard/analytics', async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, { generatedAt: '2026-11-23T20:00:00.000Z', usage: { requests: 3 } }),
    );
    const { result } = renderHook(() => analytics.useAnalytics(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.usage.requests).toBe(3);
    expect(String((fetchMock.mock.calls[0]![0] as Request).url)).toMatch(/\/api\/dashboard\/analytics$/);
  });

  it('a 404 (a server without the route) is "not available" (null); other failures carry the detail', async () => {
    fetchMock.mockResolvedValueOnce(json(404, { code: 'not_found', detail: 'no such route' }));
    const missing = renderHook(() => analytics.useAnalytics(), { wrapper: wrapper() });
    await waitFor(() => expect(missing.result.current.isSuccess).toBe(true));
    expect(missing.result.current.data).toBeNull();

    fetchMock.mockResolvedValueOnce(json(403, { code: 'forbidden', detail: 'needs account:read' }));
    const denied = renderHook(() => analytics.useAnalytics(), { wrapper: wrapper() });
    await waitFor(() => expect(denied.result.current.isError).toBe(true));
    expect(denied.result.current.error?.message).toBe('needs account:read');
  });
});

describe('topEndpoints', () => {
  it('sorts by requests (ties by name), keeps the top ones and gives each its share', () => {
    const usage = {
      byEndpoint: [
        { endpoint: 'GET /api/b', requests: 10, rateLimited: 0 },
        { endpoint: 'GET /api/a', requests: 10, rateLimited: 1 },
        { endpoint: 'GET /api/c', requests: 30, rateLimited: 0 },
      ],
    } as Analytics['usage'];
    expect(analytics.topEndpoints(usage, 2)).toEqual([
      { endpoint: 'GET /api/c', requests: 30, rateLimited: 0, share: 0.6 },
      { endpoint: 'GET /api/a', requests: 10, rateLimited: 1, share: 0.2 },
    ]);
    expect(analytics.topEndpoints({ byEndpoint: [] } as unknown as Analytics['usage'])).toEqual([]);
  });
});
