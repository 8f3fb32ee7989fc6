/** Requests per account, endpoint and 10-minute bucket, summed over every API replica's flushes. */
export interface ApiUsageBucketsTable {
  account_id: string;
  /** Start of the bucket (ms). */
  bucket: number;
  /** `METHOD /route/pattern`. */
  endpoint: string;
  requests: number;
  rate_limited: number;
}

export interface UsageTables {
  api_usage_buckets: ApiUsageBucketsTable;
}
