import {
  CandlestickSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  LineStyle,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { Candle } from '../api/types.ts';
import { chartColors, chartOptions, onThemeChange } from '../lib/chart-theme.ts';
import { type ForecastPoint, fanOf, snap, trackOnGrid } from '../lib/forecast.ts';

type Line = ISeriesApi<'Line'>;
interface Series {
  candles: ISeriesApi<'Candlestick'>;
  track: Line;
  fan: { median: Line; p05: Line; p10: Line; p90: Line; p95: Line };
}

type Point = { time: number; value: number };
const toLine = (points: Point[]) => points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));

/**
 * Candles, the past forecasts' medians at the times they forecast (against the realized candles), and the
 * newest forecast as a fan ahead of the last candle: median, 80 % band (p10–p90, dashed) and 90 % band
 * (p05–p95, dotted). Forecast times are snapped to the candle grid so spacing stays even. A refresh that
 * adds one forecast at the end is drawn with `update` and timed (`meridian:chart-update`, `…-paint`).
 */
export function PriceChart({
  candles,
  forecast,
  intervalSeconds,
  label,
}: {
  candles: Candle[];
  forecast: ForecastPoint[];
  intervalSeconds: number;
  label: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const series = useRef<Series>(null);
  const chart = useRef<IChartApi>(null);
  const drawn = useRef<{ forecast: ForecastPoint[]; interval: number; lastCandle?: number }>({
    forecast: [],
    interval: 0,
  });

  useEffect(() => {
    const c = chartColors();
    const api = createChart(container.current!, {
      ...chartOptions(),
      timeScale: { ...chartOptions().timeScale, rightOffset: 6 },
    });
    const line = (color: string, style: LineStyle, width: 1 | 2 = 1, title = '') =>
      api.addSeries(LineSeries, {
        color,
        lineStyle: style,
        lineWidth: width,
        title,
        priceLineVisible: false,
        lastValueVisible: title !== '',
        crosshairMarkerVisible: false,
      });
    series.current = {
      candles: api.addSeries(CandlestickSeries, {
        upColor: c.up,
        downColor: c.down,
        wickUpColor: c.up,
        wickDownColor: c.down,
        borderVisible: false,
      }),
      track: api.addSeries(LineSeries, {
        color: c.accent,
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        pointMarkersVisible: true,
        pointMarkersRadius: 2,
      }),
      fan: {
        p05: line(c.band90, LineStyle.Dotted, 1, 'p05'),
        p95: line(c.band90, LineStyle.Dotted, 1, 'p95'),
        p10: line(c.band80, LineStyle.Dashed, 1, 'p10'),
        p90: line(c.band80, LineStyle.Dashed, 1, 'p90'),
        median: line(c.accent, LineStyle.Solid, 2, 'median'),
      },
    };
    chart.current = api;
    const stopTheme = onThemeChange(() => {
      const next = chartColors();
      api.applyOptions(chartOptions());
      const s = series.current!;
      s.candles.applyOptions({
        upColor: next.up,
        downColor: next.down,
        wickUpColor: next.up,
        wickDownColor: next.down,
      });
      s.track.applyOptions({ color: next.accent });
      s.fan.median.applyOptions({ color: next.accent });
      for (const key of ['p05', 'p95'] as const) s.fan[key].applyOptions({ color: next.band90 });
      for (const key of ['p10', 'p90'] as const) s.fan[key].applyOptions({ color: next.band80 });
    });
    return () => {
      stopTheme();
      api.remove();
      series.current = null;
      chart.current = null;
    };
  }, []);

  const framedInterval = useRef(0);
  useEffect(() => {
    series.current?.candles.setData(
      candles.map((k) => ({
        time: (k.openTime / 1000) as UTCTimestamp,
        open: k.open,
        high: k.high,
        low: k.low,
        close: k.close,
      })),
    );
    // On the first data of an interval, show the last ~120 candles and the room the forecast fan needs.
    if (candles.length && framedInterval.current !== intervalSeconds) {
      framedInterval.current = intervalSeconds;
      chart.current
        ?.timeScale()
        .setVisibleLogicalRange({ from: candles.length - 120, to: candles.length + 8 });
    }
  }, [candles, intervalSeconds]);

  const lastCandle = candles.length ? candles.at(-1)!.openTime / 1000 : undefined;
  useEffect(() => {
    const s = series.current;
    if (!s) return;
    const previous = drawn.current;
    const appended =
      previous.interval === intervalSeconds &&
      previous.lastCandle === lastCandle &&
      previous.forecast.length > 0 &&
      forecast.length === previous.forecast.length + 1 &&
      previous.forecast.every(
        (p, i) => forecast[i]?.generatedAt === p.generatedAt && forecast[i]?.time === p.time,
      );

    const drawFan = () => {
      const fan = fanOf(forecast.at(-1), intervalSeconds, lastCandle);
      for (const key of ['median', 'p05', 'p10', 'p90', 'p95'] as const)
        s.fan[key].setData(toLine(fan?.[key] ?? []));
    };

    if (appended) {
      // A live refresh: one new forecast. Time the model update and the paint it causes.
      const point = forecast.at(-1)!;
      requestAnimationFrame(() => performance.mark('meridian:redraw-frame-start'));
      performance.mark('meridian:redraw-start');
      s.track.update({ time: snap(point.time, intervalSeconds) as UTCTimestamp, value: point.median });
      drawFan();
      performance.mark('meridian:redraw-updated');
      requestAnimationFrame(() => {
        performance.measure('meridian:chart-update', 'meridian:redraw-start', 'meridian:redraw-updated');
        performance.measure('meridian:chart-paint', 'meridian:redraw-frame-start');
      });
    } else {
      s.track.setData(toLine(trackOnGrid(forecast, intervalSeconds)));
      drawFan();
    }
    drawn.current = { forecast, interval: intervalSeconds, lastCandle };
  }, [forecast, intervalSeconds, lastCandle]);

  return (
    <div
      className="chart"
      ref={container}
      role="img"
      aria-label={label}
      data-forecast-points={forecast.length}
      data-last-forecast={forecast.at(-1)?.generatedAt ?? ''}
    />
  );
}
