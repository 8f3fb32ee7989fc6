import { ApiError } from '../api/client.ts';

/** An error in words: the problem document's `detail`, plus each invalid field it names. */
export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const problem = error instanceof ApiError ? error.problem : undefined;
  const message =
    error instanceof Error
      ? error.message === 'Failed to fetch'
        ? 'The server could not be reached. Check that Meridian is running.'
        : error.message
      : String(error);
  return (
    <div className="error-note" role="alert">
      <strong>{message}</strong>
      {problem?.errors?.length ? (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.pointer}>
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
