import { useEffect, useState, useSyncExternalStore } from 'react';
import { quota } from '../api/client.ts';
import { quotaMessage } from '../lib/quota.ts';

/**
 * After a 429 on the shared quota: its limit and when requests are allowed again, counting down. A 429 is a
 * pause, never a sign-out; the banner goes once the quota has room again.
 */
export function QuotaBanner() {
  const exceeded = useSyncExternalStore(quota.subscribe, quota.exceeded);
  const [now, setNow] = useState(Date.now());
  const waiting = exceeded !== undefined && exceeded.until > now;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  // A new 429 restarts the countdown from this moment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read the clock when a new 429 arrives
  useEffect(() => setNow(Date.now()), [exceeded]);
  if (!exceeded || !waiting) return null;
  return (
    <p className="notice quota-banner" role="status" data-testid="quota-banner">
      {quotaMessage(exceeded, now)}
    </p>
  );
}
