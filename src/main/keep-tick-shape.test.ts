import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./testdata/tick-feedback.mjs', import.meta.url));

/** The states V8 reports for the property definitions of nextTick's queue-entry literal. */
function literalCacheStates(keep: boolean): string[] {
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', script],
    { env: { ...process.env, MERIDIAN_KEEP_TICK_SHAPE: String(keep) }, encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  // V8 prints through C stdio, which is not ordered with node's own writes: the child prints nothing else.
  return [...run.stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] as string);
}

describe('keeping the shape of a nextTick queue entry', () => {
  it('keeps the caches of the entry literal monomorphic across full collections; without it they go megamorphic', () => {
    const kept = literalCacheStates(true);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.every((state) => state === 'MONOMORPHIC')).toBe(true);

    const dropped = literalCacheStates(false);
    expect(dropped).toContain('MEGAMORPHIC');
  });
});
