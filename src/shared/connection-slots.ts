/**
 * Counts open push connections per account so the plan's cap (5 standard, 50 pro) holds across every
 * API replica. Each connection holds a slot: a lease that its replica renews while the socket lives, so a
 * crashed replica's slots expire on their own instead of locking the account out.
 */
export interface ConnectionSlots {
  /** Takes a slot when fewer than `limit` are held; returns the number held before, or -1 when full. */
  acquire(accountId: string, connectionId: string, limit: number): Promise<{ ok: boolean; held: number }>;
  release(accountId: string, connectionId: string): Promise<void>;
  /** Renews the leases of live connections (called on the ping tick). */
  renew(entries: Iterable<{ accountId: string; connectionId: string }>): Promise<void>;
}

/** Which cap a slot counts against: each push route caps its own connections per account. */
export type SlotPool = 'predictions' | 'events' | 'market';

/** Builds the slots of one pool; `leaseMs` is how long a slot outlives its last renewal. */
export type ConnectionSlotsFactory = (pool: SlotPool, leaseMs: number) => ConnectionSlots;
