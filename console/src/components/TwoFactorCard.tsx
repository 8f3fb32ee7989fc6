import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from './ErrorNote.tsx';

/** The six-digit code field every two-factor form uses (a recovery code fits too where one is accepted). */
export function CodeField({ id, label, recovery }: { id: string; label: string; recovery?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="code"
        required
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        maxLength={recovery ? 40 : 6}
        pattern={recovery ? undefined : '[0-9]{6}'}
      />
    </div>
  );
}

/** Recovery codes, shown once after enrolment. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <section className="card secret-panel" aria-labelledby="recovery-title">
      <h2 id="recovery-title">Your recovery codes</h2>
      <p className="warning">
        Store these now: they are shown only once. Each one signs you in once instead of a code from your app.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button primary" onClick={onDone}>
        I have stored them
      </button>
    </section>
  );
}

/** Two-factor sign-in on the account page: its state, enrolment (the secret and its otpauth:// URI), turning it off. */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: ['two-factor'],
    queryFn: () => unwrap(api.GET('/api/account/two-factor')),
  });
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string }>();
  const [codes, setCodes] = useState<string[]>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['two-factor'] });
  const begin = useMutation({
    mutationFn: () => unwrap(api.POST('/api/account/two-factor')),
    onSuccess: setEnrolment,
  });
  const confirm = useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/api/account/two-factor/confirm', { body: { code } })),
    onSuccess: (done) => {
      setEnrolment(undefined);
      setCodes(done.recoveryCodes);
      refresh();
    },
  });
  const disable = useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/api/account/two-factor/disable', { body: { code } })),
    onSuccess: refresh,
  });
  const codeOf = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    return String(new FormData(event.currentTarget).get('code') ?? '').trim();
  };

  return (
    <section className="card two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <ErrorNote error={status.error} onRetry={() => status.refetch()} />
      {codes ? <RecoveryCodesPanel codes={codes} onDone={() => setCodes(undefined)} /> : null}
      {status.data?.enabled ? (
        <>
          <p>
            <span className="badge ok">on</span> Signing in asks for a code from your authenticator app.{' '}
            {status.data.recoveryCodesLeft} recovery codes left.
          </p>
          {status.data.required ? (
            <p className="muted small">This server requires two-factor sign-in for every account.</p>
          ) : (
            <form onSubmit={(e) => disable.mutate(codeOf(e))} className="form-row">
              <CodeField id="disable-code" label="Code (or a recovery code) to turn it off" recovery />
              <button type="submit" className="button danger" disabled={disable.isPending}>
                Turn off
              </button>
            </form>
          )}
          <ErrorNote error={disable.error} />
        </>
      ) : status.data ? (
        enrolment ? (
          <form onSubmit={(e) => confirm.mutate(codeOf(e))}>
            <p>
              Add this account to your authenticator app, then enter the code it shows. The secret is shown
              only now.
            </p>
            <p className="small">
              Secret: <code data-testid="totp-secret">{enrolment.secret}</code>
            </p>
            <p className="small break">
              URI: <code>{enrolment.uri}</code>
            </p>
            <div className="form-row">
              <CodeField id="confirm-code" label="Code from the app" />
              <button type="submit" className="button primary" disabled={confirm.isPending}>
                Turn on
              </button>
            </div>
            <ErrorNote error={confirm.error} />
          </form>
        ) : (
          <>
            <p className="muted">Off: signing in needs only your password.</p>
            <button
              type="button"
              className="button"
              onClick={() => begin.mutate()}
              disabled={begin.isPending}
            >
              Set up two-factor sign-in
            </button>
            <ErrorNote error={begin.error} />
          </>
        )
      ) : null}
    </section>
  );
}
