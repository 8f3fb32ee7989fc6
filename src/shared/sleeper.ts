/**
 * Sleeps a stopping loop can cut short: `wakeAll()` resolves every sleep under way at once, so `stop()` does
 * not wait out a long backoff.
 */
export function createSleeper() {
  const wakers = new Set<() => void>();
  return {
    sleep(ms: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        wakers.add(wake);
      });
    },
    wakeAll(): void {
      for (const wake of [...wakers]) wake();
    },
  };
}
