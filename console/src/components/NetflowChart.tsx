import {
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartColors, chartOptions, onThemeChange } from '../lib/chart-theme.ts';
import type { NetflowView } from '../lib/netflow.ts';

/** Hourly net (bars, right scale; partial hours greyed) and its running sum (line, left scale), in USD. */
export function NetflowChart({ view, label }: { view: NetflowView; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const series = useRef<{ bars: ISeriesApi<'Histogram'>; line: ISeriesApi<'Line'>; chart: IChartApi }>(null);
  useEffect(() => {
    const chart = createChart(container.current!, {
      ...chartOptions(),
      leftPriceScale: { visible: true, borderVisible: false },
    });
    const bars = chart.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceLineVisible: false,
    });
    const line = chart.addSeries(LineSeries, {
      priceScaleId: 'left',
      color: chartColors().accent,
      lineWidth: 2,
      priceLineVisible: false,
      priceFormat: { type: 'volume' },
    });
    series.current = { bars, line, chart };
    const stop = onThemeChange(() => chart.applyOptions(chartOptions()));
    return () => {
      stop();
      chart.remove();
      series.current = null;
    };
  }, []);
  useEffect(() => {
    const drawn = series.current;
    if (!drawn) return;
    const c = chartColors();
    drawn.bars.setData(
      view.bars.map((b) => ({
        time: b.time as UTCTimestamp,
        value: b.value,
        color: b.partial ? c.text : b.value >= 0 ? c.up : c.down,
      })),
    );
    drawn.line.setData(view.cumulative.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    drawn.chart.timeScale().fitContent();
  }, [view]);
  return (
    <div
      className="chart short"
      ref={container}
      role="img"
      aria-label={`Hourly netflow in USD for ${label}`}
    />
  );
}
