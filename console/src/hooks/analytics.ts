import { useQuery } from '@tanstack/react-query';
import { api, MeridianProblemError, unwrap } from '../api/client.ts';
import type { Analytics } from '../api/types.ts';

/**
 * The account analytics summary (portfolio, alerts, API usage over 24 h, forecast track record). A server
 * older than the route answers 404: that means "not available here" (null), and the dashboard shows the plan
 * and usage it always has.
 */
export function useAnalytics() {
  return useQuery({
    queryKey: ['analytics'],
    queryFn: async (): Promise<Analytics | null> => {
      try {
        return await unwrap(api.GET('/api/dashboard/analytics'));
      } catch (error) {
        if (error instanceof MeridianProblemError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
}

/** The endpoints with the most requests first, at most `max`, with each one's share of the total. */
export function topEndpoints(usage: Analytics['usage'], max = 6) {
  const total = usage.byEndpoint.reduce((sum, e) => sum + e.requests, 0);
  return [...usage.byEndpoint]
    .sort((a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint))
    .slice(0, max)
    .map((e) => ({ ...e, share: total > 0 ? e.requests / total : 0 }));
}
