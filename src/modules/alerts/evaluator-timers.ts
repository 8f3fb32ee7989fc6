/**
 * The evaluator's two periodic jobs: the rule sync that backs up the change notices, and the sweep that
 * expires rules and decays flow windows between events. Returns what stops both.
 */
export function startEvaluatorTimers(jobs: {
  sync: () => void;
  syncMs: number;
  sweep: () => void;
  sweepMs: number;
}): () => void {
  const syncTimer = setInterval(jobs.sync, jobs.syncMs);
  const sweepTimer = setInterval(jobs.sweep, jobs.sweepMs);
  syncTimer.unref?.();
  sweepTimer.unref?.();
  return () => {
    clearInterval(syncTimer);
    clearInterval(sweepTimer);
  };
}
