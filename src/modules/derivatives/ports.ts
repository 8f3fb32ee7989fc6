import type { Clock } from '../../shared/clock.ts';
import type { DerivativesMetric, Liquidation, SeriesPoint, VenueReading } from './types.ts';

/**
 * The source port the adapters (`src/adapters/derivatives/*`: simulated | replay | ccxt) fill. The service
 * polls it; a source that streams liquidations buffers them until the next `poll`.
 */
export interface DerivativesSource {
  /** `simulated`, `replay`, `ccxt`. */
  readonly kind: string;
  /** Whether the numbers are made up (the simulated market): answers say so. */
  readonly simulated: boolean;
  readonly venues: readonly string[];
  readonly symbols: readonly string[];
  /** The source's own clock when its time is not wall time (a replay). */
  readonly clock?: Clock;
  /**
   * The metrics the source can ever publish (a venue may still lack one); a rule on another could never fire.
   */
  readonly metrics: readonly DerivativesMetric[];
  /** Which venues stream liquidations (the others answer liquidations as absent). */
  readonly liquidationVenues: readonly string[];
  /**
   * The latest reading of every venue that lists the symbol (a venue without the perpetual is left out), and
   * the liquidations seen since the previous poll. A failing venue is left out of this poll's readings.
   */
  poll(symbol: string): Promise<{ readings: VenueReading[]; liquidations: Liquidation[] }>;
  /**
   * Stored history a venue offers for [fromMs, toMs), oldest first: settled funding (`value` = rate) or open
   * interest (`value` = USD, `value2` = contracts). Undefined when the venue has none for that metric.
   */
  history?(
    venue: string,
    symbol: string,
    metric: Extract<DerivativesMetric, 'funding' | 'open_interest'>,
    fromMs: number,
    toMs: number,
  ): Promise<SeriesPoint[] | undefined>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}
