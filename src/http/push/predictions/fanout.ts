import type { ConnectionRegistry, Connection } from './connections.ts';
import type { PushDatapoint } from './datapoints.ts';
import { type SharedFrame, sharedTextFrame, writeSharedFrame } from './frame.ts';
import type { HubOptions, HubStats } from './options.ts';
import { closeCodes } from './protocol.ts';

/** A refresh being handed out: each target socket with the shared frame of its group. */
interface FanoutJob {
  conns: Connection[];
  frames: SharedFrame[];
  next: number;
  startedAt: number;
}

export interface FanoutDeps {
  registry: ConnectionRegistry;
  stats: HubStats;
  /** Read at every slice and send, so `tuneFanout` applies from the next one. */
  options: () => HubOptions;
  stopped: () => boolean;
  log?: { info(obj: object, msg: string): void };
}

/**
 * The fan-out of refreshes: one serialization (and one complete WebSocket frame) per distinct subscription,
 * the same bytes to each socket of the group. All buffers are bounded: a socket whose queued bytes would
 * pass `maxBufferedBytes` is closed with 4408 instead of growing (the others never wait on it: sends only
 * queue).
 */
export function createFanout(deps: FanoutDeps) {
  const { registry, stats } = deps;
  const jobs: FanoutJob[] = [];
  let draining = false;
  let rotation = 0;
  let fanoutObserver: ((ms: number, sockets: number) => void) | undefined;

  /**
   * Fans one refresh out. Sockets are written in slices of `fanoutSliceSize` per event-loop turn, in an
   * order rotated on every refresh so no socket is always served last. Refreshes are handed out in order
   * (a refresh published while the previous one is still going waits behind it).
   */
  function publish(datapoints: readonly PushDatapoint[]) {
    if (deps.stopped() || !datapoints.length) return;
    const startedAt = performance.now();
    const conns: Connection[] = [];
    const frames: SharedFrame[] = [];
    for (const group of registry.groups.values()) {
      let payload: Buffer;
      if (group.sub.all) {
        payload = Buffer.from(JSON.stringify({ data: datapoints }));
      } else {
        const matches = group.sub.matcher();
        const picked = datapoints.filter((d) => matches(d.symbol, d.horizon));
        // Nothing of this refresh is in the subscription: no message (the client asked for other markets).
        if (!picked.length) continue;
        payload = Buffer.from(JSON.stringify({ data: picked }));
      }
      stats.frames++;
      const shared = sharedTextFrame(payload);
      for (const conn of group.sockets) {
        conns.push(conn);
        frames.push(shared);
      }
    }
    if (!conns.length) return;
    // Rotate the starting point so the sockets served last (waiting longest) differ from refresh to refresh.
    const start = rotation++ % conns.length;
    const job: FanoutJob = { conns, frames, next: 0, startedAt };
    if (start) {
      job.conns = conns.slice(start).concat(conns.slice(0, start));
      job.frames = frames.slice(start).concat(frames.slice(0, start));
    }
    jobs.push(job);
    if (!draining) drain();
  }

  function drain() {
    draining = true;
    const sliceSize = deps.options().fanoutSliceSize;
    const slice = sliceSize > 0 ? sliceSize : Number.POSITIVE_INFINITY;
    let budget = slice;
    while (jobs.length && budget > 0) {
      const job = jobs[0]!;
      const end = Math.min(job.conns.length, job.next + budget);
      for (let i = job.next; i < end; i++) send(job.conns[i]!, job.frames[i]!);
      budget -= end - job.next;
      job.next = end;
      if (job.next === job.conns.length) {
        jobs.shift();
        fanoutObserver?.(performance.now() - job.startedAt, job.conns.length);
      }
    }
    const stopped = deps.stopped();
    if (jobs.length && !stopped) setImmediate(drain);
    else {
      draining = false;
      if (stopped) jobs.length = 0;
    }
  }

  function send(conn: Connection, shared: SharedFrame) {
    const ws = conn.ws;
    if (conn.closing || ws.readyState !== ws.OPEN) return;
    const options = deps.options();
    // A frame always fits an empty queue (so one frame larger than the limit is still delivered); otherwise
    // the queue may never pass the limit. Bound per socket: max(limit, one frame).
    const queued = ws.bufferedAmount;
    if (queued > 0 && queued + shared.payload.length > options.maxBufferedBytes) {
      stats.slowConsumers++;
      deps.log?.info(
        { connection: conn.id, buffered: ws.bufferedAmount },
        'push: slow consumer disconnected',
      );
      registry.shut(conn, closeCodes.slowConsumer, 'slow consumer: send buffer full');
      return;
    }
    if (!options.preFramed) ws.send(shared.payload, { binary: false });
    else if (writeSharedFrame(ws, shared)) stats.preFramed++;
    stats.sent++;
  }

  return {
    publish,
    /** Called when a refresh has been handed to every socket: wall ms since publish, sockets (benchmark). */
    observeFanout(fn: ((ms: number, sockets: number) => void) | undefined) {
      fanoutObserver = fn;
    },
  };
}
