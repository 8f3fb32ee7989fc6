// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useMarketData } from '../hooks/queries.ts';
import { Layout, RequireSession } from './Layout.tsx';

const fetchMock = vi.fn<typeof fetch>();
const quotaSpent = {
  'retry-after': '12',
  ratelimit: '"account";r=0;t=12',
  'ratelimit-policy': '"account";q=120;w=60',
};
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
const account = {
  id: 'a1',
  email: 'ada@example.com',
  plan: 'standard',
  role: 'owner',
  permissions: [],
  limits: { requestsPerMinute: 120, wsConnections: 5 },
};

function MarketPage() {
  const market = useMarketData({ refreshMs: 60_000 });
  return <p>market page {market.data ? 'loaded' : ''}</p>;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/sign-in" element={<p>sign-in page</p>} />
          <Route element={<RequireSession />}>
            <Route element={<Layout />}>
              <Route path="/markets" element={<MarketPage />} />
            </Route>
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('a 429 on the shared quota is not a sign-out', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a 429 on "am I signed in?" shows the limit and when it resets, and stays on the page', async () => {
    fetchMock.mockImplementation(async () =>
      answer(429, { code: 'rate_limited', detail: 'rate limit exceeded' }, quotaSpent),
    );
    renderAt('/markets');
    const note = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(note.textContent).toContain('120 requests per 60 s');
    expect(note.textContent).toMatch(/allowed again in 1[12] s/);
    expect(screen.queryByText('sign-in page')).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('a 429 on a data call while signed in shows the quota banner, and the person stays signed in', async () => {
    fetchMock.mockImplementation(async (input) => {
      const path = new URL((input as Request).url).pathname;
      if (path === '/api/account') return answer(200, account);
      return answer(429, { code: 'rate_limited', detail: 'rate limit exceeded' }, quotaSpent);
    });
    renderAt('/markets');
    await screen.findByText(/market page/, {}, { timeout: 10_000 });
    const banner = await screen.findByTestId('quota-banner', {}, { timeout: 10_000 });
    expect(banner.textContent).toContain('120 requests per 60 s');
    expect(banner.textContent).toMatch(/allowed again in 1[12] s/);
    await waitFor(() => expect(screen.queryByText('sign-in page')).toBeNull());
  });
});
