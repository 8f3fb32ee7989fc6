import { topics } from '../../shared/bus.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { MinHeap } from '../../shared/min-heap.ts';
import type { DerivativesEvent, Evaluator, EvaluatorOptions, FlowEvent, SnapshotEvent } from './ports.ts';
import { type PeriodicJob, periodicJob } from '../../shared/periodic-job.ts';
import { DerivativesFeed } from './derivatives-feed.ts';
import { sidesOf, transferOf } from './flow-sides.ts';
import { type FlowGroup, FlowWindows } from './flow-windows.ts';
import { MarketFeed } from './market-feed.ts';
import type { Occasion } from './occasion.ts';
import { PendingWrites } from './pending-writes.ts';
import type { TriggerRecord } from './repository.ts';
import { type AlertRule, isDerivativesRuleType, LIVE_STATES } from './rule.ts';
import { type Live, RuleIndex, type Series } from './rule-index.ts';
import { retractionRecord } from './trigger-writer.ts';
import { WriteQueue } from './write-queue.ts';

/**
 * The alert evaluator (a leader-elected job in the worker role). Rules live in per-series threshold indexes
 * (RuleIndex); each market snapshot, candle and flow updates a handful of series values (MarketFeed,
 * FlowWindows), and only the rules whose threshold the value passed are visited. Firings are written exactly
 * once by the repository (unique trigger key, same transaction as the account events) and announced after
 * commit (PendingWrites, WriteQueue, trigger-writer.ts).
 */
export function createEvaluator(options: EvaluatorOptions): Evaluator {
  const { repo, bus, clock, log } = options;
  const syncMs = options.syncMs ?? 5_000;
  const sweepMs = options.sweepMs ?? 1_000;
  const index = new RuleIndex();
  const flows = new FlowWindows(setValue);
  const market = new MarketFeed({ index, update: setValue, clock, log, history: options.history });
  const derivatives = new DerivativesFeed({
    index,
    update: setValue,
    clock,
    log,
    history: options.derivativesHistory,
  });
  const wakeMarket = new MinHeap<Live>();
  const wakeFlow = new MinHeap<Live>();
  const wakeDerivatives = new MinHeap<Live>();
  const expiries = new MinHeap<Live>();
  let running = false;
  let term: LeaderTerm | undefined;
  const queue = new WriteQueue(log, () => running);
  const writes = new PendingWrites({ repo, bus, clock, log, queue, term: () => term });
  let fired = 0;
  let visited = 0;
  const unsubscribers: Array<() => Promise<void>> = [];
  let jobs: PeriodicJob[] = [];

  // ── deciding to fire ──

  const cooldownMs = (live: Live) => live.rule.trigger.cooldownSec * 1000;
  const coolingUntil = (live: Live) =>
    live.rule.trigger.mode === 'every' && live.lastEventAt !== null ? live.lastEventAt + cooldownMs(live) : 0;
  const wakeOf = (live: Live) =>
    live.series?.domain === 'flow' || live.bucket
      ? wakeFlow
      : live.series?.domain === 'derivatives'
        ? wakeDerivatives
        : wakeMarket;

  /** The decision to fire: cheap, on the event's path; the trigger record is composed when written. */
  function fire(live: Live, occasion: Occasion) {
    const rule = live.rule;
    fired++;
    live.lastEventAt = occasion.at;
    writes.fire({ rule, crossing: live.crossing, occasion, firedAt: clock.now() });
    if (live.crossing) writes.dropSide(rule.id);
    if (rule.trigger.mode === 'once') remove(live);
    else if (!live.crossing) wakeOf(live).push(occasion.at + cooldownMs(live), live);
  }

  /** A level rule that holds: fire unless cooling down (then look again when the cooldown ends). */
  function fireIfCool(live: Live, occasion: Occasion) {
    const until = coolingUntil(live);
    if (occasion.at < until) {
      wakeOf(live).push(until, live);
      return;
    }
    fire(live, occasion);
  }

  /** The condition of `live` changed with its series' move. */
  function flipped(live: Live, holds: boolean, occasion: Occasion) {
    visited++;
    if (live.gone) return;
    live.satisfied = holds;
    if (live.crossing) {
      if (holds && occasion.at >= coolingUntil(live)) fire(live, occasion);
      else writes.side(live);
      return;
    }
    if (holds) fireIfCool(live, occasion);
  }

  /** Brings one rule in line with its series' current value (first value, or a rule added later). */
  function reconcile(live: Live, value: number, occasion: Occasion) {
    visited++;
    const holds = live.series!.index.holds(live.sense, live.threshold, value);
    if (live.crossing) {
      if (live.satisfied === undefined) {
        // Never evaluated: this value sets the side; a crossing needs a move across it from here.
        live.satisfied = holds;
        writes.side(live);
      } else if (live.satisfied !== holds) flipped(live, holds, occasion);
      return;
    }
    live.satisfied = holds;
    if (holds) fireIfCool(live, occasion);
  }

  function setValue(s: Series, value: number, occasion: Occasion) {
    const previous = s.value;
    s.value = value;
    s.occasion = occasion;
    if (previous === undefined)
      s.index.forEach((live) => {
        reconcile(live, value, occasion);
      });
    else s.index.moved(previous, value, (live, holds) => flipped(live, holds, occasion));
  }

  /** A level rule whose cooldown ended: fire if its condition still holds. */
  function recheck(live: Live, at: number) {
    if (live.gone || live.crossing) return;
    if (at < coolingUntil(live)) return; // a newer firing moved the cooldown on; its own wake-up is queued
    const s = live.series;
    if (!s || s.value === undefined || !s.occasion) return;
    if (!s.index.holds(live.sense, live.threshold, s.value)) return;
    const occasion = s.occasion.at >= at ? s.occasion : { ...s.occasion, key: `${s.key}@${at}`, at };
    fire(live, occasion);
  }

  // ── rules ──

  function add(rule: AlertRule) {
    if (rule.expiresAt !== null && rule.expiresAt <= clock.now()) {
      writes.expire(rule);
      writes.flush();
      return;
    }
    const live = index.add(rule);
    if (rule.expiresAt !== null) expiries.push(rule.expiresAt, live);
    const s = live.series;
    if (!s) return;
    if (rule.type === 'address_flow') {
      const window = rule.condition.window;
      const group = window ? flows.ensure(rule.condition, window, s) : undefined;
      if (group) backfill(group);
    } else if (isDerivativesRuleType(rule.type)) derivatives.warm(rule.symbol);
    else if (!s.key.startsWith('p:')) market.warm(rule.symbol);
    if (s.value !== undefined && s.occasion) reconcile(live, s.value, s.occasion);
  }

  function remove(live: Live) {
    if (live.gone) return;
    index.remove(live);
    writes.dropSide(live.rule.id);
  }

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
    market.onSnapshot(p);
    wakeMarket.popDue(p.at, (live) => recheck(live, p.at));
    sweep();
  }

  /** A derivatives refresh: its values are compared on this refresh, so a crossing fires on it. */
  function onDerivatives(p: DerivativesEvent) {
    derivatives.onUpdate(p);
    wakeDerivatives.popDue(p.at, (live) => recheck(live, p.at));
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
        if (flows.mergeStored(group, list, clock.now())) writes.flush();
      })
      .catch((error: unknown) => {
        log.warn(
          { series: group.series.key, err: String(error) },
          'alerts: loading stored flows failed; the window fills from new flows',
        );
      });
  }

  function onFlow(flow: FlowEvent) {
    const usd = flow.usdValue;
    if (typeof usd !== 'number' || !Number.isFinite(usd)) return; // no price known: cannot compare with minUsd
    const now = clock.now();
    const transfer = transferOf(flow);
    const asset = flow.asset.toUpperCase();
    for (const [target, direction] of sidesOf(flow)) {
      for (const live of index.bucketUpTo(target, usd)) {
        if (live.gone || live.rule.type !== 'address_flow') continue;
        const c = live.rule.condition;
        if (c.direction !== 'any' && c.direction !== direction) continue;
        if ((c.asset && c.asset !== asset) || flow.timestamp < live.rule.createdAt) continue;
        if (flow.timestamp < coolingUntil(live)) continue;
        fire(live, {
          key: `flow:${transfer}`,
          at: flow.timestamp,
          value: usd,
          flowId: flow.id,
          detail: () => ({ flow }),
        });
      }
      flows.add(flow, target, direction, usd, now);
    }
    wakeFlow.popDue(flow.timestamp, (live) => recheck(live, flow.timestamp));
    writes.flush();
  }

  function onFlowsRemoved({ ids }: { ids: string[] }) {
    if (ids.length === 0) return;
    flows.remove(ids, clock.now());
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

  function sweep() {
    const now = clock.now();
    expiries.popDue(now, (live) => {
      if (live.gone || live.rule.expiresAt === null || live.rule.expiresAt > now) return;
      remove(live);
      writes.expire(live.rule);
    });
    flows.decayAll(now);
    wakeFlow.popDue(now, (live) => recheck(live, now));
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
        await bus.subscribe(topics.marketCandle, guarded('candle', market.onCandle.bind(market))),
        await bus.subscribe(topics.onchainFlow, guarded('flow', onFlow)),
        await bus.subscribe(topics.onchainFlowsRemoved, guarded('flows-removed', onFlowsRemoved)),
        await bus.subscribe(topics.derivativesUpdate, guarded('derivatives', onDerivatives)),
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
      writes.flush();
      await queue.settled();
    },
    onSnapshot: (p) => {
      onSnapshot(p);
      writes.flush();
    },
    onCandle: (p) => market.onCandle(p),
    onFlow,
    onFlowsRemoved: (p) => {
      onFlowsRemoved(p);
      writes.flush();
    },
    onDerivatives: (p) => {
      onDerivatives(p);
      writes.flush();
    },
    apply: (rule, deleted) => {
      apply(rule, deleted);
      writes.flush();
    },
    loadAll,
    sweep,
    async idle() {
      writes.flush();
      await queue.drained();
    },
    isWatching: (id) => index.lives.has(id),
    stats: () => ({
      rules: index.lives.size,
      series: index.series.size,
      visited,
      fired,
      recorded: writes.recorded,
      pendingWrites: queue.pending,
    }),
  };
}
