/**
 * Waiting on a condition, never for a guessed time: a test that needs something to have happened polls
 * for it (every `intervalMs`) and fails naming it after `timeoutMs`. A fixed sleep is left only where the
 * passing time is itself the subject (letting time pass to show that nothing happens), with a comment.
 */

/** Polls `check` until it returns a value (not undefined), or fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls `condition` until it holds, or fails naming `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<void> {
  await waitFor(async () => ((await condition()) ? true : undefined), what, timeoutMs, intervalMs);
}
