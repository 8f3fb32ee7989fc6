import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eachLine } from './file-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'meridian-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(text: string, stopAfter = Number.POSITIVE_INFINITY) {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(path, text);
  const lines: string[] = [];
  const complete = await eachLine(path, (line) => {
    lines.push(line);
    return lines.length < stopAfter;
  });
  return { lines, complete };
}

describe('eachLine', () => {
  it('gives the lines of a file, across 1 MB reads and multi-byte characters (a final newline ends the last line)', async () => {
    // Lines of varied length, UTF-8 characters of 2, 3 and 4 bytes at every offset, one line longer than a read,
    // an empty line and a last line without a newline: some line and some character straddle each read.
    const lines: string[] = [];
    for (let k = 0; k < 6_000; k++) lines.push(`${k} ${'é€😀x'.repeat(k % 97)} ${'a'.repeat(k % 13)}`);
    lines.splice(3_000, 0, 'b'.repeat(2_500_000), '');
    const text = lines.join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    expect(await linesOf(text)).toEqual({ lines, complete: true });
    expect(await linesOf(`${text}\n`)).toEqual({ lines, complete: true });
  });

  it('stops at the line the callback refuses and says it did not read everything', async () => {
    expect(await linesOf('a\nb\nc\n', 2)).toEqual({ lines: ['a', 'b'], complete: false });
    expect(await linesOf('')).toEqual({ lines: [], complete: true });
  });

  it('rejects when the file cannot be read', async () => {
    await expect(eachLine(join(dir, 'missing.jsonl'), () => true)).rejects.toThrow(/ENOENT/);
  });
});
