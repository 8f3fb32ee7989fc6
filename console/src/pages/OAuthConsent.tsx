import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Logo } from '../components/Layout.tsx';
import { PageSkeleton } from '../components/Skeleton.tsx';

/** The authorization request's parameters, as the third-party app put them in the link. */
const requestFields = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

const scopeNames: Record<string, string> = {
  'market:read': 'Read market data and price history',
  'onchain:read': 'Read on-chain exchange flows',
  'onchain:write': 'Change on-chain settings',
  'predictions:read': 'Read forecasts and the track record',
  'alerts:read': 'See your alert rules',
  'alerts:write': 'Create, change and delete your alert rules',
  'portfolio:read': 'See your portfolio',
  'portfolio:write': 'Import into and change your portfolio',
  'account:read': 'See your account (email, plan, limits)',
  'users:manage': 'Manage users',
};

/**
 * The OAuth consent page (`/oauth/authorize`, behind sign-in): names the app and the permissions it asks,
 * and sends the browser back to the app with a code (Allow) or `access_denied` (Deny).
 */
export default function OAuthConsent() {
  const [params] = useSearchParams();
  const request = Object.fromEntries(
    requestFields.flatMap((field) => {
      const value = params.get(field);
      return value === null ? [] : [[field, value]];
    }),
  ) as Partial<Record<(typeof requestFields)[number], string>>;
  const check = useQuery({
    queryKey: ['oauth-authorize', params.toString()],
    queryFn: () => unwrap(api.GET('/api/oauth/authorize', { params: { query: request } })),
    retry: false,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    setError(undefined);
    try {
      const { redirectTo } = await unwrap(
        api.POST('/api/oauth/authorize', { body: { ...request, decision } }),
      );
      window.location.assign(redirectTo);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const answer = check.data;
  // An error the app must hear (bad scope, no PKCE…) goes straight back to it, as the RFC says.
  useEffect(() => {
    if (answer?.outcome === 'redirect') window.location.assign(answer.redirectTo);
  }, [answer]);
  if (check.isPending || answer?.outcome === 'redirect') return <PageSkeleton />;
  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card consent" aria-labelledby="consent-title">
        <div className="brand">
          <Logo />
          <span>Meridian</span>
        </div>
        {answer ? (
          <>
            <h1 id="consent-title">
              Allow <strong data-testid="oauth-client-name">{answer.client.name}</strong> to use your account?
            </h1>
            <p className="muted small">It asks for these permissions:</p>
            <ul className="consent-scopes" aria-label="Requested permissions">
              {answer.scopes.map((scope) => (
                <li key={scope}>
                  <code>{scope}</code> — {scopeNames[scope] ?? scope}
                </li>
              ))}
            </ul>
            <p className="muted small">
              You will return to <code>{new URL(answer.redirectUri).origin}</code>. You can withdraw this
              access at any time on the console’s Apps page.
            </p>
            <ErrorNote error={error} />
            <div className="form-row">
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={() => decide('allow')}
              >
                Allow
              </button>
              <button type="button" className="button ghost" disabled={busy} onClick={() => decide('deny')}>
                Deny
              </button>
            </div>
          </>
        ) : (
          <>
            <h1 id="consent-title">This authorization request cannot be used</h1>
            <ErrorNote error={check.error} />
          </>
        )}
      </section>
    </main>
  );
}
