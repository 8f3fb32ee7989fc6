import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keptTickEntry } from './keep-tick-shape.ts';

const script = fileURLToPath(new URL('./testdata/tick-feedback.mjs', import.meta.url));

/** The states V8 reports for the property definitions of nextTick's queue-entry literal. */
function literalCacheStates(keep: boolean): string[] {
  // V8 prints through C stdio, which loses output on the non-blocking pipe node gives a child: the child's
  // stdout goes to a file instead (it prints nothing else).
  const dir = mkdtempSync(join(tmpdir(), 'tick-feedback-'));
  const file = join(dir, 'stdout.txt');
  const fd = openSync(file, 'w');
  try {
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', script],
      {
        env: { ...process.env, MERIDIAN_KEEP_TICK_SHAPE: String(keep) },
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const printed = readFileSync(file, 'utf8');
    return [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] as string);
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('keeping the shape of a nextTick queue entry', () => {
  it("holds node's own queue entry: the object with the async-id symbols and the callback", async () => {
    await new Promise((resolve) => process.nextTick(resolve));
    const entry = keptTickEntry() as Record<PropertyKey, unknown> | undefined;
    expect(entry).toBeDefined();
    const symbols = Object.getOwnPropertySymbols(entry).map((s) => s.description);
    expect(symbols).toEqual(expect.arrayContaining(['async_id_symbol', 'trigger_async_id_symbol']));
    expect(typeof entry!.callback).toBe('function');
  });

  it('keeps the caches of the entry literal monomorphic across full collections; without it they go megamorphic', () => {
    const kept = literalCacheStates(true);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.every((state) => state === 'MONOMORPHIC')).toBe(true);

    const dropped = literalCacheStates(false);
    expect(dropped).toContain('MEGAMORPHIC');
  });
});
