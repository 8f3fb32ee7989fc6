import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Logo } from '../components/Layout.tsx';
import { CodeField, RecoveryCodesPanel } from '../components/TwoFactorCard.tsx';

/** Only same-site paths are followed after sign-in (never an absolute URL someone put in the link). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

export function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  useEffect(() => email.current?.focus(), []);
  // After the password: the code step, or (when the server requires two-factor) enrolment first.
  const [second, setSecond] = useState<{ step: 'code' | 'enrol'; challenge: string }>();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string }>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  const enter = async () => {
    await queryClient.resetQueries({ queryKey: ['account'] });
    navigate(safeNext(params.get('next')), { replace: true });
  };
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(caught);
    }
    setBusy(false);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    return attempt(async () => {
      const answer = await unwrap(
        api.POST('/auth/login', {
          body: { email: String(form.get('email')), password: String(form.get('password')) },
        }),
      );
      if (answer.step === 'done') return enter();
      setSecond({ step: answer.step, challenge: answer.challenge });
      if (answer.step === 'enrol')
        setEnrolment(await unwrap(api.POST('/auth/login/enrol', { body: { challenge: answer.challenge } })));
    });
  };

  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    const challenge = second!.challenge;
    return attempt(async () => {
      if (second!.step === 'code') {
        await unwrap(api.POST('/auth/login/code', { body: { challenge, code } }));
        return enter();
      }
      const done = await unwrap(api.POST('/auth/login/enrol/confirm', { body: { challenge, code } }));
      setRecoveryCodes(done.recoveryCodes);
    });
  };

  if (recoveryCodes)
    return (
      <main className="sign-in" id="main">
        <RecoveryCodesPanel codes={recoveryCodes} onDone={enter} />
      </main>
    );

  if (second)
    return (
      <main className="sign-in" id="main">
        <form className="card sign-in-card" onSubmit={submitCode} aria-labelledby="code-title">
          <h1 id="code-title">{second.step === 'code' ? 'Enter your code' : 'Set up two-factor sign-in'}</h1>
          {second.step === 'enrol' ? (
            <>
              <p>This server requires two-factor sign-in. Add this account to your authenticator app:</p>
              <p className="small">
                Secret: <code>{enrolment?.secret ?? '…'}</code>
              </p>
              <p className="small break">
                URI: <code>{enrolment?.uri ?? '…'}</code>
              </p>
            </>
          ) : (
            <p className="muted">Open your authenticator app, or use one of your recovery codes.</p>
          )}
          <CodeField
            id="code"
            label={second.step === 'code' ? 'Code from your app, or a recovery code' : 'Code from your app'}
            recovery={second.step === 'code'}
          />
          <ErrorNote error={error} />
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Checking…' : 'Continue'}
          </button>
          <button type="button" className="button ghost" onClick={() => setSecond(undefined)}>
            Start over
          </button>
        </form>
      </main>
    );

  return (
    <main className="sign-in" id="main">
      <form className="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div className="brand">
          <Logo />
          <span>Meridian</span>
        </div>
        <h1 id="sign-in-title">Sign in to the console</h1>
        {params.get('expired') ? (
          <p className="notice" role="status">
            Your session ended. Sign in again to continue where you were.
          </p>
        ) : null}
        <label htmlFor="email">Email</label>
        <input ref={email} id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          Accounts are created by the operator: <code>npx meridian users create --email …</code>
        </p>
      </form>
    </main>
  );
}
