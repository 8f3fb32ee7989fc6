import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import type { AlertBacktest, NewAlert } from '../../api/types.ts';
import { BacktestChart } from '../../components/BacktestChart.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';

const DAYS = 7;
const DAY = 86_400_000;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** "in the last 7 days", or the days stored history allowed ("in the last 2.5 days"). */
function spanOf(result: AlertBacktest): string {
  const days = (Date.parse(result.window.to) - Date.parse(result.window.from)) / DAY;
  const shown = Math.round(days * 10) / 10;
  return `in the last ${shown} ${shown === 1 ? 'day' : 'days'}${days < DAYS - 0.01 ? ' (all the stored history)' : ''}`;
}

/** Hourly candles of the backtest's window, for the marks. */
function useWindowCandles(result: AlertBacktest | undefined) {
  const symbol = result?.rule.symbol;
  return useQuery({
    queryKey: ['backtest-candles', symbol, result?.window.from, result?.window.to],
    enabled: Boolean(symbol),
    queryFn: () =>
      unwrap(
        api.GET('/api/market-history', {
          params: {
            query: {
              symbol: symbol!,
              interval: '1h',
              from: result!.window.from,
              to: result!.window.to,
              limit: 24 * DAYS + 1,
            },
          },
        }),
      ).then((page) => page.data),
  });
}

/**
 * "Preview": how often the rule in the form would have fired over the last 7 days (a backtest, nothing is
 * saved), with a mark on the price chart at each firing. `body` reads the form at the time of the click.
 */
export function BacktestPreview({ body }: { body: () => NewAlert }) {
  const backtest = useMutation({
    mutationFn: async (rule: NewAlert) => {
      // The window starts 7 days back, or where the symbol's stored history starts if that is later.
      let from = Date.now() - DAYS * DAY;
      if ('symbol' in rule && rule.symbol) {
        const meta = await unwrap(
          api.GET('/api/market-history', {
            params: { query: { symbol: rule.symbol, interval: '1h', limit: 1 } },
          }),
        ).catch(() => undefined);
        const available = meta?.history ? Date.parse(meta.history.availableFrom) : Number.NaN;
        if (available > from) from = Math.ceil(available / 60_000) * 60_000;
      }
      return unwrap(
        api.POST('/api/alerts/backtest', {
          params: { query: { from: new Date(from).toISOString() } },
          body: rule,
        }),
      );
    },
  });
  const result = backtest.data;
  const candles = useWindowCandles(backtest.error ? undefined : result);
  return (
    <section className="backtest" aria-labelledby="backtest-title">
      <div className="backtest-head">
        <h3 id="backtest-title">Backtest</h3>
        <button
          type="button"
          className="button"
          disabled={backtest.isPending}
          onClick={() => backtest.mutate(body())}
        >
          {backtest.isPending ? 'Replaying…' : `Preview last ${DAYS} days`}
        </button>
      </div>
      <ErrorNote error={backtest.error} />
      <div role="status">
        {result && !backtest.error ? (
          <p className="notice" data-testid="backtest-count">
            Would have fired <strong>{result.totals.firings}</strong>{' '}
            {result.totals.firings === 1 ? 'time' : 'times'} {spanOf(result)}
            {result.totals.firings
              ? ` (first ${when(result.totals.first)}, last ${when(result.totals.last)})`
              : ''}
            .{result.data.simulated ? ' Replayed on simulated market data.' : ''}
            {result.data.missingMinutes ? ` ${result.data.missingMinutes} minutes had no stored candle.` : ''}
          </p>
        ) : null}
      </div>
      {result && candles.data?.length ? (
        <div className="chart-frame short">
          <BacktestChart candles={candles.data} firings={result.firings.map((f) => f.at)} />
        </div>
      ) : null}
    </section>
  );
}
