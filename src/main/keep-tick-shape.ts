import { executionAsyncResource } from 'node:async_hooks';
import { variables } from '../config/env.ts';

/**
 * Keeps node's `process.nextTick` fast in a long-running process. Imported first by the CLI, so it runs
 * before anything else has queued many ticks or the collector has run.
 *
 * Every `process.nextTick` builds a small queue entry with an object literal whose first keys are computed
 * (node's async-id symbols). No entry outlives its tick, so at a full garbage collection none is alive and
 * V8 frees the object shapes (maps) the literal went through. The next entries get new shapes, and after a
 * few collections the literal's inline caches are megamorphic for good: every nextTick then defines its
 * properties through V8's runtime, ≈ 3 × its cost, and node's HTTP and stream code calls it several times per
 * request. A server that collects often (a large heap, background jobs) pays that on every request, which
 * made a bare node:http handler inside Meridian's process ≈ 0.8 as fast as the same handler alone
 * (docs/adr/0017-tick-shape.md). One entry kept alive keeps the whole chain of shapes alive, so the caches stay
 * monomorphic. Hand-written because it is a property of node's internals no library addresses; inside a
 * nextTick callback `executionAsyncResource()` is that callback's queue entry.
 */
let kept: object | undefined;

/** The queue entry held, once the first tick ran (`undefined` when switched off). */
export function keptTickEntry(): object | undefined {
  return kept;
}

/** An invalid value keeps the default here: the configuration, loaded next, reports it and stops. */
function switchedOn(): boolean {
  try {
    return variables.keepTickShape.parse(process.env[variables.keepTickShape.name]);
  } catch {
    return true;
  }
}

if (switchedOn()) {
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}
