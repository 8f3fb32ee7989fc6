// Names for the response shapes the console uses, taken from the generated OpenAPI types.
import type { paths } from './schema.gen.ts';

type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Account = Ok<'/api/account', 'get'>;
export type Permission = Account['permissions'][number];
export type Token = Ok<'/api/account/tokens', 'get'>['data'][number];
export type MarketItem = Ok<'/api/market-data', 'get'>['data'][number];
export type Candle = Ok<'/api/market-history', 'get'>['data'][number];
export type Flow = Ok<'/api/onchain/flows', 'get'>['data'][number];
export type FlowsPage = Ok<'/api/onchain/flows', 'get'>;
export type Datapoint = Ok<'/api/predictions', 'get'>['data'][number];
export type Outlook = Ok<'/api/predictions/ai-outlook', 'get'>;
export type Performance = Ok<'/api/predictions/performance', 'get'>['data'][number];
export type Horizon = Datapoint['horizon'];
