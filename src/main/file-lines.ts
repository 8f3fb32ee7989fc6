import { createReadStream } from 'node:fs';

const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each line of a file (without its `\n`), in order, until it returns false; resolves to
 * whether every line was read. The lines are split on the bytes and each is decoded on its own: no decoder
 * state and no string joined from chunks. A `\n` byte never occurs inside a multi-byte UTF-8 character, so a
 * split there is always between characters.
 */
export async function eachLine(path: string, onLine: (line: string) => boolean): Promise<boolean> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  /** The start of a line the previous chunk ended in (a copy: the chunk it came from is not kept). */
  let rest: Buffer | undefined;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let start = 0;
      let end = chunk.indexOf(NEWLINE);
      if (rest) {
        if (end < 0) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        const joined = Buffer.concat([rest, chunk.subarray(0, end)]);
        rest = undefined;
        if (!onLine(joined.toString('utf8'))) return false;
        start = end + 1;
        end = chunk.indexOf(NEWLINE, start);
      }
      for (; end >= 0; end = chunk.indexOf(NEWLINE, start)) {
        if (!onLine(chunk.toString('utf8', start, end))) return false;
        start = end + 1;
      }
      if (start < chunk.length) rest = Buffer.from(chunk.subarray(start));
    }
    return rest === undefined || onLine(rest.toString('utf8'));
  } finally {
    input.destroy();
  }
}
