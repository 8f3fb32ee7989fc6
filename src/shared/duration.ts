const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses `90s`, `15m`, `12h`, `30d`, `2w` into milliseconds; undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})\s*([smhdw])$/i.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * units[match[2]!.toLowerCase()]!;
}
