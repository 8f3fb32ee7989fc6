import type { Config } from './env.ts';

/** What answers name as their source (`Meridian-Source`): simulated, replay, or ccxt:<venue+venue>. */
export function publicSourceLabel(spec: Config['marketSource']): string {
  if (spec.kind === 'ccxt') return `ccxt:${spec.venues.join('+')}`;
  return spec.kind;
}
