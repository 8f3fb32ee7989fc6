/**
 * For work retried on a timer (a heartbeat, a feed poll): one report when it starts failing and one when it
 * works again — never one per attempt. (The ccxt source keeps its own keyed variant, which also reminds.)
 */
export function failureStreak(report: { failed(error: unknown): void; recovered?(): void }) {
  let failing = false;
  return {
    failed(error: unknown): void {
      if (!failing) report.failed(error);
      failing = true;
    },
    succeeded(): void {
      if (failing) report.recovered?.();
      failing = false;
    },
  };
}
