/** One request's fate during a fault. */
export interface Outcome {
  at: number;
  ms: number;
  /** HTTP status, or 0 when the request hung past the client deadline or the connection failed. */
  status: number;
  hung: boolean;
  retryAfter: string | null;
  contentType: string | null;
}

/** Sends a GET and records what happened; a request still unanswered after `deadlineMs` counts as hung. */
export async function probe(
  url: string,
  headers: Record<string, string>,
  deadlineMs: number,
): Promise<Outcome> {
  const at = Date.now();
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(deadlineMs) });
    await res.arrayBuffer();
    return {
      at,
      ms: Date.now() - at,
      status: res.status,
      hung: false,
      retryAfter: res.headers.get('retry-after'),
      contentType: res.headers.get('content-type'),
    };
  } catch (error) {
    const hung = (error as Error).name === 'TimeoutError';
    return { at, ms: Date.now() - at, status: 0, hung, retryAfter: null, contentType: null };
  }
}

/** Keeps `concurrency` request loops running over `urls` until stopped; every outcome is kept. */
export function startLoad(
  urls: string[],
  headers: Record<string, string>,
  options: { concurrency: number; deadlineMs: number },
) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = Array.from({ length: options.concurrency }, async (_, i) => {
    let k = i;
    while (running) {
      outcomes.push(await probe(urls[k++ % urls.length]!, headers, options.deadlineMs));
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** Counts per fault: answered OK, failed fast (a 503 problem), failed otherwise, hung. */
export function tally(outcomes: Outcome[]) {
  return {
    total: outcomes.length,
    ok: outcomes.filter((o) => o.status >= 200 && o.status < 300).length,
    unavailable503: outcomes.filter((o) => o.status === 503).length,
    otherFailures: outcomes.filter(
      (o) => !o.hung && (o.status === 0 || (o.status >= 300 && o.status !== 503)),
    ).length,
    hung: outcomes.filter((o) => o.hung).length,
    slowestMs: outcomes.reduce((m, o) => Math.max(m, o.ms), 0),
    byStatus: outcomes.reduce<Record<string, number>>((m, o) => {
      m[o.status] = (m[o.status] ?? 0) + 1;
      return m;
    }, {}),
  };
}
