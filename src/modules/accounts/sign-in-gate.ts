/**
 * At most `perKey` sign-ins in flight per key (a client address) in this process. One address cannot queue
 * more password checks than that, so a flood from a few addresses cannot fill the shared argon2 queue ahead
 * of everybody else's sign-in (the failure counter bounds how many it gets per minute; this bounds how many at
 * once).
 */
export function createSignInGate(perKey: number) {
  const inFlight = new Map<string, number>();
  return {
    /** A function that frees the place, or undefined when `key` already has `perKey` sign-ins in flight. */
    enter(key: string): (() => void) | undefined {
      const current = inFlight.get(key) ?? 0;
      if (current >= perKey) return undefined;
      inFlight.set(key, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
      };
    },
    /** Keys with a sign-in in flight (bounded by the concurrent requests, never by history). */
    size: () => inFlight.size,
  };
}

export type SignInGate = ReturnType<typeof createSignInGate>;
