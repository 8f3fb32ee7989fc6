import { useEffect, useState } from 'react';
import type { StreamState } from '../hooks/usePush.ts';
import { formatRelative } from '../lib/format.ts';

const words: Record<StreamState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  closed: 'Reconnecting…',
  ended: 'Disconnected',
};

/** The push channel's state, and when the model last refreshed. */
export function LiveBadge({ state, lastAt }: { state: StreamState; lastAt: number | undefined }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className={`live ${state}`} role="status" aria-live="polite">
      <span className="pulse" aria-hidden="true" />
      {words[state]}
      {lastAt ? <span className="muted"> · refresh {formatRelative(lastAt, now)}</span> : null}
    </span>
  );
}
