import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { AlertsLogger } from './ports.ts';
import type { AlertsRepository, TriggerRecord } from './repository.ts';
import type { Live } from './rule-index.ts';
import { fireRecord, type PendingFire, type TriggerWriterDeps, writeTriggers } from './trigger-writer.ts';
import type { WriteQueue } from './write-queue.ts';

/**
 * What evaluation decided and storage has not heard yet — firings, crossing sides, expiries — gathered per
 * event and handed to the write queue by `flush`.
 */
export class PendingWrites {
  private fires: PendingFire[] = [];
  private readonly sides = new Map<string, Live>();
  private readonly expiries: Array<{ id: string; version: number }> = [];
  /** Triggers stored so far (a firing already stored by another leader is not counted). */
  recorded = 0;

  constructor(
    private readonly deps: TriggerWriterDeps & {
      repo: AlertsRepository;
      queue: WriteQueue;
      clock: Clock;
      log: AlertsLogger;
      term: () => LeaderTerm | undefined;
    },
  ) {}

  fire(fire: PendingFire): void {
    this.fires.push(fire);
  }

  /** A crossing rule's side to store. */
  side(live: Live): void {
    this.sides.set(live.rule.id, live);
  }

  dropSide(ruleId: string): void {
    this.sides.delete(ruleId);
  }

  expire(rule: { id: string; version: number }): void {
    this.expiries.push({ id: rule.id, version: rule.version });
  }

  /** Queues what was gathered: the firings, then the crossing sides and expiries. */
  flush(): void {
    const { queue, repo, clock, log, term } = this.deps;
    if (this.fires.length) {
      const batch = this.fires;
      this.fires = [];
      queue.enqueue(() => this.commit(batch.map(fireRecord)));
    }
    if (this.sides.size) {
      const sides = [...this.sides.values()].map((l) => ({
        id: l.rule.id,
        version: l.rule.version,
        satisfied: l.satisfied === true,
      }));
      this.sides.clear();
      queue.enqueue(() => repo.saveSides(sides, term()));
    }
    if (this.expiries.length) {
      const list = this.expiries.splice(0);
      queue.enqueue(async () => {
        const changed = await repo.expire(list, clock.now(), term());
        if (changed.length) log.info({ rules: changed.length }, 'alerts: rules expired');
      });
    }
  }

  /** Stores triggers and announces their events (run inside a queued write). */
  async commit(records: TriggerRecord[]): Promise<void> {
    const result = await writeTriggers(this.deps, records, this.deps.clock.now(), this.deps.term());
    this.recorded += result.recorded.length;
  }
}
