/** Every benchmark, by name. Each module exports `run()`. */
export const benches = {
  account: () => import('./account.ts'),
  console: () => import('./console.ts'),
  market: () => import('./market.ts'),
  onchain: () => import('./onchain.ts'),
  labels: () => import('./labels.ts'),
  push: () => import('./push.ts'),
  predictions: () => import('./predictions.ts'),
  portfolio: () => import('./portfolio.ts'),
  alerts: () => import('./alerts.ts'),
  'alerts-delivery': () => import('./alerts-delivery.ts'),
  served: () => import('./served.ts'),
  pipeline: () => import('./pipeline.ts'),
  scale: () => import('./scale.ts'),
  'storage-layout': () => import('./storage-layout.ts'),
  derivatives: () => import('./derivatives.ts'),
  'ledger-verify': () => import('./ledger-verify.ts'),
};
