// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignIn } from './SignIn.tsx';

const fetchMock = vi.fn<typeof fetch>();
const methods = (body: unknown) => async () =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/sign-in" element={<SignIn />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const sso = { name: 'Example ID', available: true, startUrl: '/auth/oidc/start' };

describe('the sign-in page follows GET /auth/methods', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers the provider’s button, carrying where the person was going, beside the password form', async () => {
    fetchMock.mockImplementation(methods({ password: true, sso }));
    renderAt('/sign-in?next=%2Fflows');
    const button = await screen.findByRole('link', { name: 'Sign in with Example ID' });
    expect(button.getAttribute('href')).toBe('/auth/oidc/start?next=%2Fflows');
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('hides the password form when password sign-in is off', async () => {
    fetchMock.mockImplementation(methods({ password: false, sso }));
    renderAt('/sign-in');
    await screen.findByRole('link', { name: 'Sign in with Example ID' });
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('hides the button and says why while the provider cannot be reached', async () => {
    fetchMock.mockImplementation(
      methods({
        password: false,
        sso: { ...sso, available: false, message: 'Example ID cannot be reached right now.' },
      }),
    );
    renderAt('/sign-in');
    expect((await screen.findByRole('status')).textContent).toMatch(
      /not available: Example ID cannot be reached/,
    );
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows why a single sign-on came back, in words', async () => {
    fetchMock.mockImplementation(methods({ password: false, sso }));
    renderAt('/sign-in?sso_error=domain_not_allowed');
    expect((await screen.findByRole('alert')).textContent).toMatch(/email domain may not sign in/);
  });
});
