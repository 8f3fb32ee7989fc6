import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { AlertState, AlertType } from '../api/types.ts';

export interface AlertFilters {
  state?: AlertState;
  type?: AlertType;
}

/** One page of the account's alert rules, newest first; `cursor` is the previous page's `nextCursor`. */
export function useAlertRules(filters: AlertFilters, cursor: string | undefined, limit = 20) {
  return useQuery({
    queryKey: ['alerts', filters, cursor ?? null],
    queryFn: () => unwrap(api.GET('/api/alerts', { params: { query: { ...filters, cursor, limit } } })),
    placeholderData: keepPreviousData,
  });
}

/** A rule's webhook deliveries with every attempt, refreshed while some are still pending. */
export function useAlertDeliveries(id: string | undefined) {
  return useQuery({
    queryKey: ['alert-deliveries', id],
    enabled: Boolean(id),
    queryFn: () =>
      unwrap(api.GET('/api/alerts/{id}/deliveries', { params: { path: { id: id! }, query: { limit: 50 } } })),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 3000 : false,
  });
}

export function useAlertChannels() {
  return useQuery({
    queryKey: ['alert-channels'],
    queryFn: () => unwrap(api.GET('/api/alert-channels')).then((body) => body.data),
  });
}

export function useWebhooks() {
  return useQuery({
    queryKey: ['webhooks'],
    queryFn: () => unwrap(api.GET('/api/webhooks')).then((body) => body.data),
  });
}
