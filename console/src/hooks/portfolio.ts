import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';

/** Holdings valued at the merged market price; prices move, so it refreshes every half minute. */
export function usePortfolio() {
  return useQuery({
    queryKey: ['portfolio', 'holdings'],
    queryFn: () => unwrap(api.GET('/api/portfolio')),
    refetchInterval: 30_000,
  });
}

export function usePortfolioRows() {
  return useQuery({
    queryKey: ['portfolio', 'rows'],
    queryFn: () => unwrap(api.GET('/api/portfolio/rows')).then((body) => body.data),
  });
}

export function usePortfolioImports() {
  return useQuery({
    queryKey: ['portfolio', 'imports'],
    queryFn: () =>
      unwrap(api.GET('/api/portfolio/imports', { params: { query: { limit: 20 } } })).then((b) => b.data),
  });
}

/**
 * Sends a CSV file to the import route. `idempotencyKey` identifies one upload attempt: a retry of the same
 * attempt replays the first answer instead of importing twice. A dry run validates and stores nothing.
 */
export function importCsv(
  csv: string,
  { dryRun, idempotencyKey }: { dryRun: boolean; idempotencyKey: string },
) {
  return unwrap(api.portfolio.import(csv, { dryRun, idempotencyKey }));
}
