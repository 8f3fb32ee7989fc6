import { Type } from 'typebox';

// The shape of a time parameter, so schema validation reports a malformed `from`/`to` together with every other
// problem of the request; parseTime then rejects shapes that are right but dates that are not (2021-02-30).
export const timePattern =
  '^(\\d{1,16}|\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?)$';

/** The query fields of a paged time series (interval, range, page size, cursor, strict), `unit` per page. */
export const timeSeriesPageFields = (unit: 'Bars' | 'Points') => ({
  interval: Type.Optional(
    Type.String({
      maxLength: 20,
      description: '1m, 5m, 15m, 1h, 4h, 1d (other durations map to the nearest); default 1h',
    }),
  ),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      pattern: timePattern,
      description: 'ISO 8601 or ms since the epoch; inclusive',
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      pattern: timePattern,
      description: 'ISO 8601 or ms since the epoch; exclusive',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `${unit} per page, up to 1000 (larger → 1000); default 500` }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 300, description: 'nextCursor of the previous page' })),
  strict: Type.Optional(Type.Boolean()),
});
