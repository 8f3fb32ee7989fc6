import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type SeriesMarker,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { Candle } from '../api/types.ts';
import { chartColors, chartOptions } from '../lib/chart-theme.ts';

/**
 * Hourly candles of a backtest's window with a mark above the candle of each time the rule would have fired
 * (several firings in one hour share one mark, its text the count).
 */
export function BacktestChart({ candles, firings }: { candles: Candle[]; firings: string[] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const c = chartColors();
    const api = createChart(container.current!, chartOptions());
    const series = api.addSeries(CandlestickSeries, {
      upColor: c.up,
      downColor: c.down,
      wickUpColor: c.up,
      wickDownColor: c.down,
      borderVisible: false,
    });
    series.setData(
      candles.map((k) => ({
        time: (k.openTime / 1000) as UTCTimestamp,
        open: k.open,
        high: k.high,
        low: k.low,
        close: k.close,
      })),
    );
    const perHour = new Map<number, number>();
    for (const at of firings) {
      const hour = Math.floor(Date.parse(at) / 3_600_000) * 3600;
      perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
    }
    const markers: SeriesMarker<UTCTimestamp>[] = [...perHour].map(([time, n]) => ({
      time: time as UTCTimestamp,
      position: 'aboveBar',
      shape: 'arrowDown',
      color: c.accent,
      text: n > 1 ? String(n) : '',
    }));
    createSeriesMarkers(series, markers);
    api.timeScale().fitContent();
    return () => api.remove();
  }, [candles, firings]);
  return <div className="chart" ref={container} />;
}
