export interface HubOptions {
  /** Protocol ping period; a socket that has not answered the previous ping is terminated. */
  pingIntervalMs: number;
  /** Bytes a socket may have queued (ws + kernel hand-off) before it is closed as a slow consumer. */
  maxBufferedBytes: number;
  /** How often expiry deadlines are checked (in memory, no I/O). */
  expirySweepMs: number;
  /** How often each distinct credential is re-checked against the store (backstop for a lost bus event). */
  verifyEveryMs: number;
  /** At most this many credentials re-checked per sweep, oldest check first. */
  verifyBatch: number;
  /** After a close frame, how long a peer gets to answer before the socket is destroyed. */
  closeGraceMs: number;
  /**
   * Sockets written per event-loop turn during a fan-out; the rest continue on the next turn
   * (`setImmediate`), so a large refresh never holds the loop (handshakes, pings, control messages) for its
   * whole duration. 0 = the whole fan-out in one turn.
   */
  fanoutSliceSize: number;
  /**
   * Write each group's pre-built WebSocket frame straight to the sockets (see frame.ts) rather than calling
   * `ws.send` per socket. Same bytes on the wire either way.
   */
  preFramed: boolean;
}

export const defaultHubOptions: HubOptions = {
  pingIntervalMs: 30_000,
  maxBufferedBytes: 1_048_576,
  expirySweepMs: 1_000,
  // With the 1 s sweep: a revoked credential's sockets close ≤ 3 s + 1 s + one store round trip after the
  // revocation even when the bus lost the announcement (Redis down) — within the 5 s promise.
  verifyEveryMs: 3_000,
  verifyBatch: 500,
  closeGraceMs: 5_000,
  fanoutSliceSize: 2_000,
  preFramed: true,
};

/** The counters every part of the hub adds to (tests and the benchmark read them). */
export interface HubStats {
  /** Frames serialized: one per distinct subscription and refresh. */
  frames: number;
  sent: number;
  /** Sends written as one pre-built frame; `sent - preFramed` went through `ws.send`. */
  preFramed: number;
  slowConsumers: number;
  terminated: number;
  revoked: number;
}
