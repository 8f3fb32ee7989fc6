/** Every benchmark, by name. Each module exports `run()`. */
export const benches = {
  account: () => import('./account.ts'),
  market: () => import('./market.ts'),
  onchain: () => import('./onchain.ts'),
  push: () => import('./push.ts'),
  predictions: () => import('./predictions.ts'),
  portfolio: () => import('./portfolio.ts'),
  alerts: () => import('./alerts.ts'),
  // Event → webhook received latency (bench/alerts-delivery.ts, from the webhooks work) registers here:
  // 'alerts-delivery': () => import('./alerts-delivery.ts'),
};
