// A bot that prints live forecasts: `MERIDIAN_URL=http://localhost:8080 MERIDIAN_TOKEN=mrd_… npx tsx
// examples/forecast-bot.ts BTCUSDT 1h [count]`. Reconnects by itself; stops after `count` refreshes if given.
import { createMeridianClient } from '@meridian/client';

const [symbol = 'BTCUSDT', horizon = '1h', count] = process.argv.slice(2);
const client = createMeridianClient({
  baseUrl: process.env.MERIDIAN_URL ?? 'http://localhost:8080',
  token: process.env.MERIDIAN_TOKEN,
  push: { onStatus: (s) => console.error(`[push] ${JSON.stringify(s)}`) },
});

// The latest forecast over REST first (the push channel is live only), then every refresh as it comes.
const { data: latest, rateLimit } = await client.GET('/api/predictions', {
  params: { query: { symbol, horizon, limit: 1 } },
});
for (const p of latest.data) print(p);
console.error(`[rest] ${rateLimit?.remaining}/${rateLimit?.limit} requests left`);

let seen = 0;
for await (const { data } of client.predictions.subscribe({ symbol, horizon })) {
  for (const p of data) print(p);
  if (count && ++seen >= Number(count)) break;
}

function print(p: {
  symbol: string;
  horizon: string;
  baseline: number;
  prediction: number;
  confidence: number;
  generatedAt: string;
}) {
  const move = ((p.prediction - p.baseline) / p.baseline) * 100;
  console.log(
    `${p.generatedAt} ${p.symbol} ${p.horizon}: ${p.baseline.toFixed(2)} → ${p.prediction.toFixed(2)} (${move >= 0 ? '+' : ''}${move.toFixed(3)} %, confidence ${(p.confidence * 100).toFixed(0)} %)`,
  );
}
