import { createChart, type IChartApi, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartOptions, onThemeChange } from '../lib/chart-theme.ts';
import type { NetflowSeries } from '../lib/netflow.ts';

export const exchangePalette = [
  '#6366f1',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#0ea5e9',
  '#a855f7',
  '#84cc16',
  '#ec4899',
];

/** Cumulative netflow per exchange, one line each. */
export function NetflowChart({ series }: { series: NetflowSeries[] }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi>(null);
  useEffect(() => {
    const api = createChart(container.current!, chartOptions());
    chart.current = api;
    const stop = onThemeChange(() => api.applyOptions(chartOptions()));
    return () => {
      stop();
      api.remove();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    const api = chart.current;
    if (!api) return;
    const added = series.slice(0, exchangePalette.length).map((s, i) => {
      const line = api.addSeries(LineSeries, {
        color: exchangePalette[i],
        lineWidth: 2,
        priceLineVisible: false,
        title: s.exchange,
        priceFormat: { type: 'volume' },
      });
      line.setData(s.points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      return line;
    });
    api.timeScale().fitContent();
    return () => {
      // On unmount the chart itself is removed first (its effect was declared first): nothing to detach then.
      if (chart.current !== api) return;
      for (const line of added) api.removeSeries(line);
    };
  }, [series]);
  return (
    <div
      className="chart short"
      ref={container}
      role="img"
      aria-label={`Cumulative netflow in USD for ${series.map((s) => s.exchange).join(', ') || 'no exchange'}`}
    />
  );
}
