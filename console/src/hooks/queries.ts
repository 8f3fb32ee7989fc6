import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, MeridianProblemError, unwrap } from '../api/client.ts';
import type { Horizon } from '../api/types.ts';

/** The signed-in account; a 401 means "not signed in" (null), not an error. */
export function useAccount() {
  return useQuery({
    queryKey: ['account'],
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/account'));
      } catch (error) {
        if (error instanceof MeridianProblemError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * Market aggregates for every symbol. With `live` the market push channel keeps the cache current (no
 * polling); otherwise they are fetched again every `refreshMs`.
 */
export function useMarketData({
  live = false,
  refreshMs = 5000,
}: {
  live?: boolean;
  refreshMs?: number;
} = {}) {
  return useQuery({
    queryKey: marketDataKey,
    queryFn: () => unwrap(api.GET('/api/market-data')).then((body) => body.data),
    refetchInterval: live ? false : refreshMs,
    staleTime: live ? Number.POSITIVE_INFINITY : 0,
  });
}

export const marketDataKey = ['market-data'] as const;

export function useOutlook(symbol: string | undefined) {
  return useQuery({
    queryKey: ['outlook', symbol ?? 'all'],
    queryFn: () => unwrap(api.predictions.outlook(symbol)),
    staleTime: 30_000,
  });
}

/** The outlook of each symbol in one request (`symbols=`; at most `MAX_OUTLOOK_SYMBOLS`); off while empty. */
export function useOutlooks(symbols: readonly string[]) {
  return useQuery({
    queryKey: ['outlook', 'batch', symbols.join(',')],
    queryFn: () => unwrap(api.predictions.outlooks(symbols)).then((batch) => batch.data),
    enabled: symbols.length > 0,
    staleTime: 30_000,
  });
}

export function useCandles(symbol: string, interval: string) {
  return useQuery({
    queryKey: ['candles', symbol, interval],
    queryFn: () =>
      unwrap(api.GET('/api/market-history', { params: { query: { symbol, interval, limit: 300 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function useForecasts(symbol: string, horizon: Horizon) {
  return useQuery({
    queryKey: ['forecasts', symbol, horizon],
    queryFn: () =>
      unwrap(
        api.GET('/api/predictions', {
          params: { query: { symbol, horizon, include: 'quantiles,outcome,backfilled', limit: 96 } },
        }),
      ).then((body) => body.data),
    placeholderData: keepPreviousData,
  });
}

export function usePerformance() {
  return useQuery({
    queryKey: ['performance'],
    queryFn: () => unwrap(api.GET('/api/predictions/performance')),
    staleTime: 60_000,
  });
}

export interface FlowFilters {
  exchange?: string;
  asset?: string;
  direction?: 'deposit' | 'withdrawal' | 'internal';
  minUsd?: number;
}

export function useFlows(filters: FlowFilters) {
  return useQuery({
    queryKey: ['flows', filters],
    queryFn: () => unwrap(api.GET('/api/onchain/flows', { params: { query: { ...filters, limit: 500 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** GET /api/onchain/netflow: hourly buckets over the last 7 days for the page's exchange and asset filters. */
export function useNetflow(filters: Pick<FlowFilters, 'exchange' | 'asset'>) {
  return useQuery({
    queryKey: ['netflow', filters.exchange, filters.asset],
    queryFn: () =>
      unwrap(
        api.GET('/api/onchain/netflow', {
          params: { query: { exchange: filters.exchange, asset: filters.asset, interval: '1h' } },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useTokens() {
  return useQuery({
    queryKey: ['tokens'],
    queryFn: () => unwrap(api.GET('/api/account/tokens')).then((body) => body.data),
  });
}

/** GET /api/account/usage: the quota now, and requests by endpoint and by client over 24 h and 30 days. */
export function useAccountUsage() {
  return useQuery({
    queryKey: ['account-usage'],
    queryFn: () => unwrap(api.GET('/api/account/usage')),
    refetchInterval: 60_000,
  });
}
