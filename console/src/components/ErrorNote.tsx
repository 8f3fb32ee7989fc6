import { isRateLimited, MeridianProblemError } from '../api/client.ts';
import { quotaExceeded, quotaMessage } from '../lib/quota.ts';

/** An error in words: the problem document's `detail`, plus each invalid field it names. */
export function ErrorNote({
  error,
  onRetry,
  errors,
}: {
  error: unknown;
  onRetry?: () => void;
  /** The invalid fields to list, when the page shows some of them elsewhere (next to a field or a row). */
  errors?: { pointer: string; message: string }[];
}) {
  if (!error) return null;
  const problem = error instanceof MeridianProblemError ? error : undefined;
  const listed = errors ?? problem?.errors ?? [];
  const message = isRateLimited(error)
    ? quotaMessage(quotaExceeded(error))
    : error instanceof Error
      ? error.message === 'Failed to fetch'
        ? 'The server could not be reached. Check that Meridian is running.'
        : error.message
      : String(error);
  return (
    <div className="error-note" role="alert">
      <strong>{message}</strong>
      {listed.length ? (
        <ul>
          {listed.map((e) => (
            <li key={e.pointer + e.message}>
              <code>{e.pointer}</code> {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {problem?.requestId ? <small>Request id {problem.requestId}</small> : null}
      {onRetry ? (
        <button type="button" className="button small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
