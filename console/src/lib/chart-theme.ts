import type { DeepPartial, ChartOptions } from 'lightweight-charts';

/** Chart colours from the page's CSS variables, so charts follow the light/dark theme of the system. */
export function chartColors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--muted', '#64748b'),
    grid: read('--grid', '#e2e8f0'),
    up: read('--up', '#059669'),
    down: read('--down', '#dc2626'),
    accent: read('--accent', '#4f46e5'),
    band80: read('--band-80', '#f59e0b'),
    band90: read('--band-90', '#fbbf24'),
  };
}

export function chartOptions(): DeepPartial<ChartOptions> {
  const c = chartColors();
  return {
    autoSize: true,
    layout: {
      background: { color: 'transparent' },
      textColor: c.text,
      attributionLogo: false,
      fontFamily: 'inherit',
    },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false },
    crosshair: { mode: 0 },
  };
}

/** Re-applies the theme when the system switches between light and dark. */
export function onThemeChange(apply: () => void): () => void {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  query.addEventListener('change', apply);
  return () => query.removeEventListener('change', apply);
}
