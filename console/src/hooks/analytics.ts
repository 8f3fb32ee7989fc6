import { useQuery } from '@tanstack/react-query';
import { ApiError, api, type Problem } from '../api/client.ts';
import type { paths } from '../api/schema.gen.ts';

const analyticsPath = '/api/dashboard/analytics';

/**
 * The account analytics summary. The route is newer than some servers: a 404 means "not available here",
 * and the dashboard shows the usage and plan it always has. Its type comes from the OpenAPI document once
 * the route is in it (`npm run console:api`); until then the widget shows whatever figures it returns.
 */
type PathItem<K> = K extends keyof paths ? paths[K] : never;
export type AnalyticsSummary =
  PathItem<typeof analyticsPath> extends {
    get: { responses: { 200: { content: { 'application/json': infer T } } } };
  }
    ? T
    : Record<string, unknown>;

export function useAnalytics() {
  return useQuery({
    queryKey: ['analytics'],
    queryFn: async (): Promise<AnalyticsSummary | null> => {
      // The path may be absent from the generated types (older server), hence the widened signature.
      const get = api.GET as unknown as (
        path: string,
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await get(analyticsPath);
      if (response.status === 404) return null;
      if (!response.ok) throw new ApiError(response.status, (error ?? {}) as Problem);
      return data as AnalyticsSummary;
    },
    staleTime: 60_000,
  });
}

export interface Figure {
  label: string;
  value: number | string;
}

/** The scalar figures of an analytics body, flattened one level ("requests.total" → "Requests total"). */
export function analyticsFigures(body: unknown, max = 8): Figure[] {
  const figures: Figure[] = [];
  const label = (key: string) =>
    key
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[._]/g, ' ')
      .replace(/^./, (c) => c.toUpperCase());
  const visit = (value: unknown, path: string[], depth: number) => {
    if (figures.length >= max) return;
    if (typeof value === 'number' && Number.isFinite(value))
      figures.push({ label: label(path.join(' ')), value });
    else if (typeof value === 'string' && path.length > 0 && value.length <= 40 && !/At$/.test(path.at(-1)!))
      figures.push({ label: label(path.join(' ')), value });
    else if (value && typeof value === 'object' && !Array.isArray(value) && depth < 2)
      for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key], depth + 1);
  };
  visit(body, [], 0);
  return figures;
}
