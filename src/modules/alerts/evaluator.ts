import { topics } from '../../shared/bus.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { MinHeap } from '../../shared/min-heap.ts';
import type { Evaluator, EvaluatorOptions, FlowEvent, PublishedDatapoint, SnapshotEvent } from './ports.ts';
import { type PeriodicJob, periodicJob } from '../../shared/periodic-job.ts';
import type { FlowGroup } from './flow-windows.ts';
import { PendingWrites } from './pending-writes.ts';
import type { TriggerRecord } from './repository.ts';
import { type AlertRule, LIVE_STATES } from './rule.ts';
import type { Live } from './rule-index.ts';
import { createRuleEngine } from './rule-engine.ts';
import { retractionRecord } from './trigger-writer.ts';
import { WriteQueue } from './write-queue.ts';

/**
 * The alert evaluator (a leader-elected job in the worker role): the rule engine (rule-engine.ts: threshold
 * indexes, series values, condition, crossing and cooldown logic) fed the bus's events, with expiry, rule
 * sync and storage around it. Firings are written exactly
 * once by the repository (unique trigger key, same transaction as the account events) and announced after
 * commit (PendingWrites, WriteQueue, trigger-writer.ts).
 */
export function createEvaluator(options: EvaluatorOptions): Evaluator {
  const { repo, bus, clock, log } = options;
  const syncMs = options.syncMs ?? 5_000;
  const sweepMs = options.sweepMs ?? 1_000;
  const expiries = new MinHeap<Live>();
  let running = false;
  let term: LeaderTerm | undefined;
  const queue = new WriteQueue(log, () => running);
  const writes = new PendingWrites({ repo, bus, clock, log, queue, term: () => term });
  const engine = createRuleEngine({
    clock,
    log,
    history: options.history,
    derivativesHistory: options.derivativesHistory,
    sink: {
      fire: (live, occasion) =>
        writes.fire({ rule: live.rule, crossing: live.crossing, occasion, firedAt: clock.now() }),
      side: (live) => writes.side(live),
      dropSide: (ruleId) => writes.dropSide(ruleId),
    },
  });
  const { index } = engine;
  const unsubscribers: Array<() => Promise<void>> = [];
  let jobs: PeriodicJob[] = [];

  // ── rules ──

  function add(rule: AlertRule) {
    if (rule.expiresAt !== null && rule.expiresAt <= clock.now()) {
      writes.expire(rule);
      writes.flush();
      return;
    }
    const { live, newWindow } = engine.place(rule);
    if (rule.expiresAt !== null) expiries.push(rule.expiresAt, live);
    if (newWindow) backfill(newWindow);
  }

  const remove = (live: Live) => engine.remove(live);

  function apply(rule: AlertRule, deleted: boolean) {
    const existing = index.lives.get(rule.id);
    if (deleted || !LIVE_STATES.includes(rule.state)) {
      if (existing) remove(existing);
      return;
    }
    if (existing && existing.rule.version === rule.version) {
      existing.rule = { ...existing.rule, state: rule.state };
      return;
    }
    if (existing) remove(existing);
    add(rule);
  }

  // ── events ──

  function onSnapshot(p: SnapshotEvent) {
    engine.onSnapshot(p);
    sweep();
  }

  /**
   * Loads the stored flows of a new group's window (after a start or failover the sum is then complete), and
   * merges them with the flows that arrived meanwhile.
   */
  function backfill(group: FlowGroup) {
    if (!options.flowHistory) return;
    options.flowHistory
      .flowsSince(clock.now() - group.windowMs)
      .then((list) => {
        if (engine.mergeStoredFlows(group, list, clock.now())) writes.flush();
      })
      .catch((error: unknown) => {
        log.warn(
          { series: group.series.key, err: String(error) },
          'alerts: loading stored flows failed; the window fills from new flows',
        );
      });
  }

  function onFlow(flow: FlowEvent) {
    engine.onFlow(flow, clock.now());
    writes.flush();
  }

  function onFlowsRemoved({ ids }: { ids: string[] }) {
    if (ids.length === 0) return;
    engine.removeFlows(ids, clock.now());
    queue.enqueue(async () => {
      const fires = await repo.firesForFlows(ids);
      if (fires.length === 0) return;
      const at = clock.now();
      const retractions: TriggerRecord[] = [];
      for (const t of fires) {
        const stored = await repo.byId(t.ruleId);
        if (stored) retractions.push(retractionRecord(t, stored.rule, at));
      }
      await writes.commit(retractions);
    });
  }

  /** Forecasts are evaluated one datapoint after another, in publication order (their reads are async). */
  let predictions: Promise<void> = Promise.resolve();
  let noLevelsLogged = false;

  function onPredictions(datapoints: PublishedDatapoint[]): Promise<void> {
    const wanted = datapoints.flatMap((d) => {
      const levels = engine.probabilityLevels(d.symbol, d.horizon);
      const at = Date.parse(d.generatedAt);
      return levels.length && Number.isFinite(at) ? [{ ...d, at, levels }] : [];
    });
    if (!wanted.length) return predictions;
    const source = options.predictionLevels;
    if (!source) {
      if (!noLevelsLogged) log.warn({}, 'alerts: no forecast reader; probability rules are not evaluated');
      noLevelsLogged = true;
      return predictions;
    }
    predictions = predictions.then(async () => {
      for (const d of wanted) {
        try {
          const read = await source.at(d.symbol, d.horizon, d.at, d.levels);
          if (!read) {
            log.warn(
              { symbol: d.symbol, horizon: d.horizon, generatedAt: d.generatedAt },
              'alerts: a published forecast is not stored; its probability rules skip it',
            );
            continue;
          }
          engine.onProbabilities({ symbol: d.symbol, horizon: d.horizon, at: d.at, ...read });
          writes.flush();
        } catch (error) {
          log.error(
            { symbol: d.symbol, horizon: d.horizon, err: String(error) },
            'alerts: evaluating a forecast failed',
          );
        }
      }
    });
    return predictions;
  }

  function sweep() {
    const now = clock.now();
    expiries.popDue(now, (live) => {
      if (live.gone || live.rule.expiresAt === null || live.rule.expiresAt > now) return;
      remove(live);
      writes.expire(live.rule);
    });
    engine.advance(now);
    writes.flush();
  }

  // ── loading and sync ──

  async function loadAll() {
    const rules = await repo.loadLive();
    for (const rule of rules) apply(rule, false);
    writes.flush();
  }

  // Backs up the change notices; a failed run is logged and counted by the periodic job, retried next period.
  async function sync() {
    // A margin covers clock differences between the API processes that stamp updated_at and this one.
    const changed = await repo.changedSince(clock.now() - syncMs - 60_000);
    for (const { rule, deleted } of changed) apply(rule, deleted);
    writes.flush();
  }

  function reload(id: string) {
    repo
      .byId(id)
      .then((found) => {
        if (found) apply(found.rule, found.deleted);
        writes.flush();
      })
      .catch((error: unknown) => {
        log.warn({ rule: id, err: String(error) }, 'alerts: reloading a changed rule failed; the sync will');
      });
  }

  const guarded =
    <P>(name: string, handler: (payload: P) => void) =>
    (payload: P): void => {
      try {
        handler(payload);
        writes.flush();
      } catch (error) {
        log.error({ topic: name, err: String(error) }, 'alerts: evaluating an event failed');
      }
    };

  return {
    async start(leaderTerm) {
      term = leaderTerm;
      running = true;
      unsubscribers.push(
        await bus.subscribe(topics.alertRuleChanged, ({ id }) => reload(id)),
        await bus.subscribe(topics.marketSnapshot, guarded('snapshot', onSnapshot)),
        await bus.subscribe(topics.marketCandle, guarded('candle', engine.onCandle)),
        await bus.subscribe(topics.onchainFlow, guarded('flow', onFlow)),
        await bus.subscribe(topics.onchainFlowsRemoved, guarded('flows-removed', onFlowsRemoved)),
        await bus.subscribe(topics.derivativesUpdate, guarded('derivatives', engine.onDerivatives)),
        await bus.subscribe(
          topics.predictionsRefreshed,
          guarded('predictions', (p: PublishedDatapoint[]) => void onPredictions(p)),
        ),
      );
      await loadAll();
      // The sweep expires rules and decays flow windows between events.
      jobs = [
        periodicJob({ name: 'alerts-rule-sync', everyMs: syncMs, run: sync, log }),
        periodicJob({ name: 'alerts-sweep', everyMs: sweepMs, run: guarded<void>('sweep', sweep), log }),
      ];
      for (const job of jobs) job.start();
      log.info({ rules: index.lives.size }, 'alerts: evaluator started');
    },
    async stop() {
      running = false;
      await Promise.all(jobs.splice(0).map((job) => job.stop()));
      for (const unsubscribe of unsubscribers.splice(0)) await unsubscribe();
      await predictions;
      writes.flush();
      await queue.settled();
    },
    onSnapshot: (p) => {
      onSnapshot(p);
      writes.flush();
    },
    onCandle: (p) => engine.onCandle(p),
    onFlow,
    onFlowsRemoved: (p) => {
      onFlowsRemoved(p);
      writes.flush();
    },
    onDerivatives: (p) => {
      engine.onDerivatives(p);
      writes.flush();
    },
    onPredictions,
    apply: (rule, deleted) => {
      apply(rule, deleted);
      writes.flush();
    },
    loadAll,
    sweep,
    async idle() {
      await predictions;
      writes.flush();
      await queue.drained();
    },
    isWatching: (id) => index.lives.has(id),
    stats: () => ({
      rules: index.lives.size,
      series: index.series.size,
      ...engine.counts(),
      recorded: writes.recorded,
      pendingWrites: queue.pending,
    }),
  };
}
