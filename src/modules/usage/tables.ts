/** Requests per account, client, endpoint and 10-minute bucket, summed over every API replica's flushes. */
export interface ApiUsageBucketsTable {
  account_id: string;
  /** Start of the bucket (ms). */
  bucket: number;
  /** `METHOD /route/pattern`. */
  endpoint: string;
  /** `console` (a console session) or the API token's id. */
  client: string;
  requests: number;
  rate_limited: number;
}

/** The same counts per UTC day (kept 35 days, for the 30-day view). */
export interface ApiUsageDaysTable {
  account_id: string;
  /** 00:00 UTC of the day (ms). */
  day: number;
  endpoint: string;
  client: string;
  requests: number;
  rate_limited: number;
}

/** The same counts per second (kept 2 minutes, for the current rate-limit window). */
export interface ApiUsageSecondsTable {
  account_id: string;
  /** Start of the second (ms). */
  second: number;
  endpoint: string;
  client: string;
  requests: number;
  rate_limited: number;
}

export interface UsageTables {
  api_usage_buckets: ApiUsageBucketsTable;
  api_usage_days: ApiUsageDaysTable;
  api_usage_seconds: ApiUsageSecondsTable;
}
