/** Where two generated texts first differ, for a drift test's failure message. */
export function firstDifference(committed: string, expected: string): string {
  const a = committed.split('\n');
  const b = expected.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  return line < 0 ? `length ${a.length} vs ${b.length} lines` : `line ${line + 1}: "${b[line]?.trim()}"`;
}
