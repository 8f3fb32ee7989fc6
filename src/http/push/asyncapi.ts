import { MarketDataItem } from '../routes/market.schemas.ts';
import { AccountEventSchema } from '../routes/webhooks.ts';
import { DatapointSchema } from '../routes/predictions.schemas.ts';
import { HORIZONS } from '../../modules/identifiers/index.ts';
import { PROTOCOL, closeCodes, limits } from './predictions/protocol.ts';

/**
 * The AsyncAPI 3 document of the WebSocket channels (`/asyncapi.json`): what a client sends and receives on
 * `/predictions` and `/events`. Payload schemas are the same TypeBox schemas the REST routes and webhooks use,
 * so the REST datapoint and the pushed one cannot drift apart. docs/push-channel.md and docs/webhooks.md say
 * the same in prose.
 */

// biome-ignore lint/suspicious/noExplicitAny: plain JSON Schema objects
type Json = any;

/** A JSON Schema without its `$id` (the document names schemas by their key under components). */
const plain = (schema: Json): Json =>
  JSON.parse(JSON.stringify(schema, (k, v) => (k === '$id' ? undefined : v)));

const id = { type: ['string', 'integer'], description: 'Optional; echoed back in the reply' };
const list = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
const subscription = {
  type: 'object',
  required: ['all', 'pairs'],
  properties: {
    all: { type: 'boolean', description: 'true: every supported symbol and horizon' },
    pairs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['symbol', 'horizon'],
        properties: { symbol: { type: 'string' }, horizon: { type: 'string', enum: [...HORIZONS] } },
      },
    },
  },
};
const normalized = {
  type: 'array',
  description: 'Values the server changed (e.g. btc-usd → BTCUSDT)',
  items: {
    type: 'object',
    required: ['param', 'requested', 'used'],
    properties: { param: { type: 'string' }, requested: { type: 'string' }, used: { type: 'string' } },
  },
};

const closeCodeTable = Object.entries(closeCodes)
  .map(([name, code]) => `${code} (${name})`)
  .join(', ');

const messages: Record<string, Json> = {
  PredictionsData: {
    name: 'predictionsData',
    title: 'New forecast datapoints',
    summary: 'Sent on each model refresh: the datapoints within the subscription, in the REST shape.',
    payload: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/PredictionDatapoint' } } },
    },
  },
  Subscribe: {
    name: 'subscribe',
    title: 'Add (symbol, horizon) pairs',
    summary:
      'The first subscribe on a connection opened without URL filters replaces the default (everything); later ones add. No lists: every symbol / horizon.',
    payload: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { const: 'subscribe' },
        id,
        symbols: list('Symbols in any accepted spelling'),
        horizons: list(`Horizons: ${HORIZONS.join(', ')}`),
        strict: { type: 'boolean', description: 'Refuse an unsupported symbol instead of normalizing it' },
      },
    },
    examples: [{ payload: { type: 'subscribe', id: 1, symbols: ['BTCUSDT', 'eth-usd'], horizons: ['1h'] } }],
  },
  Unsubscribe: {
    name: 'unsubscribe',
    title: 'Remove (symbol, horizon) pairs',
    payload: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { const: 'unsubscribe' },
        id,
        symbols: list('Symbols'),
        horizons: list('Horizons'),
      },
    },
    examples: [{ payload: { type: 'unsubscribe', id: 2, symbols: ['BTCUSDT'] } }],
  },
  Ping: {
    name: 'ping',
    title: 'Application-level ping',
    summary: 'Answered with pong; for clients (browsers) that cannot see protocol pings.',
    payload: { type: 'object', required: ['type'], properties: { type: { const: 'ping' }, id } },
    examples: [{ payload: { type: 'ping', id: 3 } }],
  },
  SubscriptionAck: {
    name: 'subscriptionAck',
    title: 'Subscription changed',
    summary: 'Acknowledges subscribe or unsubscribe with the full subscription after it.',
    payload: {
      type: 'object',
      required: ['type', 'subscription'],
      properties: {
        type: { enum: ['subscribed', 'unsubscribed'] },
        id,
        subscription,
        normalized,
      },
    },
  },
  Pong: {
    name: 'pong',
    title: 'Reply to ping',
    payload: { type: 'object', required: ['type'], properties: { type: { const: 'pong' }, id } },
  },
  ControlError: {
    name: 'controlError',
    title: 'A control message could not be applied',
    summary: 'The socket stays open.',
    payload: {
      type: 'object',
      required: ['type', 'code', 'message'],
      properties: {
        type: { const: 'error' },
        code: {
          enum: [
            'malformed_message',
            'unknown_message_type',
            'binary_not_supported',
            'unsupported_symbol',
            'invalid_horizon',
            'rate_limited',
          ],
        },
        message: { type: 'string' },
        id,
      },
    },
  },
  MarketSnapshot: {
    name: 'marketSnapshot',
    title: 'The market snapshot',
    summary:
      'Every symbol (or the subset chosen on the URL: symbols, quote) at the default notional, the items of GET /api/market-data field for field; sent on connect and after each change of those symbols (at most once a second).',
    payload: {
      type: 'object',
      required: ['type', 'at', 'source', 'asOf', 'stale', 'data'],
      properties: {
        type: { const: 'snapshot' },
        at: {
          type: 'string',
          format: 'date-time',
          description: "When the snapshot was published, on the market's clock (a replay's recorded time)",
        },
        source: {
          type: 'string',
          description:
            'Where the data comes from: simulated, replay or ccxt:<venue+venue> (as Meridian-Source)',
        },
        asOf: {
          type: ['string', 'null'],
          format: 'date-time',
          description:
            'Newest update of the snapshot on the data clock (as Meridian-As-Of); null before the first',
        },
        stale: {
          type: 'boolean',
          description: 'True when asOf is older than the staleness window (as Meridian-Stale)',
        },
        data: { type: 'array', items: { $ref: '#/components/schemas/MarketDataItem' } },
      },
    },
  },
  AccountEvent: {
    name: 'accountEvent',
    title: 'An account event',
    summary:
      'One event, the body text exactly as webhooks receive it (alert.triggered, onchain.flow), in event order.',
    payload: { $ref: '#/components/schemas/AccountEvent' },
  },
};

const handshake =
  'Authenticate with `Authorization: Bearer <token>` (servers, bots) or, from a browser, offer the token as a ' +
  `\`Sec-WebSocket-Protocol\` value next to \`${PROTOCOL}\`. The handshake counts as one request against the ` +
  'rate limit (the 101 answer carries the RateLimit headers); refusals are problem documents before the ' +
  'upgrade (400, 401, 403, 426, 429 with `too_many_connections` when the plan’s connections are in use). ' +
  `Close codes: ${closeCodeTable}. The server sends a protocol ping every 30 s (MERIDIAN_WS_PING_INTERVAL_MS) ` +
  'and drops a client that does not answer.';

/** The AsyncAPI 3.0 document. */
export function asyncApiDocument(): Json {
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Meridian push channels',
      version: '1.0.0',
      description:
        'WebSocket channels on the API port. Delivery on /predictions is live only (at most once, no replay: ' +
        'read GET /api/predictions after a reconnect); /market sends the current snapshot on connect; /events resumes after a given event id. The REST API ' +
        'is described by /openapi.json.',
    },
    servers: {
      api: {
        host: '{host}',
        protocol: 'ws',
        description: 'The API server itself (wss behind TLS).',
        variables: { host: { default: 'localhost:8080', description: 'host:port of the API' } },
        security: [
          { $ref: '#/components/securitySchemes/bearer' },
          { $ref: '#/components/securitySchemes/tokenSubprotocol' },
        ],
      },
    },
    defaultContentType: 'application/json',
    channels: {
      predictions: {
        address: '/predictions',
        title: 'Forecast push',
        description: `${handshake} Needs \`predictions:read\`. Control messages: at most ${limits.maxInboundBytes} bytes, ${limits.controlMessagesPerWindow} per ${limits.controlWindowMs / 1000} s.`,
        messages: {
          predictionsData: { $ref: '#/components/messages/PredictionsData' },
          subscriptionAck: { $ref: '#/components/messages/SubscriptionAck' },
          pong: { $ref: '#/components/messages/Pong' },
          controlError: { $ref: '#/components/messages/ControlError' },
          subscribe: { $ref: '#/components/messages/Subscribe' },
          unsubscribe: { $ref: '#/components/messages/Unsubscribe' },
          ping: { $ref: '#/components/messages/Ping' },
        },
        bindings: {
          ws: {
            query: {
              type: 'object',
              properties: {
                symbol: { type: 'string', description: 'Comma-separated symbols (also `symbols`, repeated)' },
                horizon: { type: 'string', description: 'Comma-separated horizons (also `horizons`)' },
                strict: { type: 'boolean', description: 'Refuse unsupported symbols with 400' },
              },
            },
          },
        },
      },
      events: {
        address: '/events',
        title: 'Account event stream',
        description: `${handshake} Needs \`alerts:read\`. The server sends events only and reads nothing.`,
        messages: { accountEvent: { $ref: '#/components/messages/AccountEvent' } },
        bindings: {
          ws: {
            query: {
              type: 'object',
              properties: {
                after: {
                  type: 'string',
                  description:
                    'evt_… id: replay every later event (kept MERIDIAN_EVENT_RETENTION_HOURS), then live',
                },
              },
            },
          },
        },
      },
      market: {
        address: '/market',
        title: 'Market snapshots',
        description: `${handshake} Needs \`market:read\`. The server sends snapshots only and reads nothing; its own per-account connection cap. The subscription is chosen on the URL and normalized as GET /api/market-data does (changes in the 101 answer's Meridian-Normalized header).`,
        messages: { marketSnapshot: { $ref: '#/components/messages/MarketSnapshot' } },
        bindings: {
          ws: {
            query: {
              type: 'object',
              properties: {
                symbols: {
                  type: 'string',
                  description:
                    'Comma-separated symbols in any accepted spelling (also `symbol`, repeated; at most 500); default: every symbol. Items come in configured order',
                },
                quote: {
                  type: 'string',
                  description:
                    'Only symbols quoted in this currency: USDT (USD, USDC, BUSD, FDUSD, TUSD mean USDT), BTC, ETH, EUR or BNB; anything else → 400',
                },
                strict: { type: 'boolean', description: 'Refuse unsupported symbols with 400' },
              },
            },
          },
        },
      },
    },
    operations: {
      receivePredictions: {
        action: 'receive',
        title: 'Receive forecasts and replies',
        channel: { $ref: '#/channels/predictions' },
        messages: ['predictionsData', 'subscriptionAck', 'pong', 'controlError'].map((m) => ({
          $ref: `#/channels/predictions/messages/${m}`,
        })),
      },
      controlPredictions: {
        action: 'send',
        title: 'Change the subscription or ping',
        channel: { $ref: '#/channels/predictions' },
        messages: ['subscribe', 'unsubscribe', 'ping'].map((m) => ({
          $ref: `#/channels/predictions/messages/${m}`,
        })),
      },
      receiveMarket: {
        action: 'receive',
        title: 'Receive market snapshots',
        channel: { $ref: '#/channels/market' },
        messages: [{ $ref: '#/channels/market/messages/marketSnapshot' }],
      },
      receiveEvents: {
        action: 'receive',
        title: 'Receive account events',
        channel: { $ref: '#/channels/events' },
        messages: [{ $ref: '#/channels/events/messages/accountEvent' }],
      },
    },
    components: {
      schemas: {
        PredictionDatapoint: plain(DatapointSchema),
        AccountEvent: plain(AccountEventSchema),
        MarketDataItem: plain(MarketDataItem),
      },
      messages,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'API token (mrd_…) in the Authorization header',
        },
        tokenSubprotocol: {
          type: 'httpApiKey',
          name: 'Sec-WebSocket-Protocol',
          in: 'header',
          description: `Browsers: offer \`${PROTOCOL}, <token>\`; the server answers \`${PROTOCOL}\``,
        },
      },
    },
  };
}
