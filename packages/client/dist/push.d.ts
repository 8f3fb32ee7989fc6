import type { components } from './schema.gen.ts';
export type PredictionDatapoint = components['schemas']['PredictionDatapoint'];
export type AccountEvent = components['schemas']['AccountEvent'];
/** The part of the WebSocket API used here: the browser's global and Node's `ws` both provide it. */
interface Socket {
    readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    onopen: ((event: unknown) => void) | null;
    onmessage: ((event: {
        data: unknown;
    }) => void) | null;
    onclose: ((event: {
        code: number;
        reason: string;
    }) => void) | null;
    onerror: ((event: unknown) => void) | null;
}
type SocketFactory = (url: string, token: string | undefined) => Promise<Socket>;
export interface PushOptions {
    baseUrl: string;
    token?: string;
    /** First reconnect delay ceiling; doubled per failed attempt (full jitter), up to `maxDelayMs`. */
    initialDelayMs?: number;
    maxDelayMs?: number;
    /** An application ping every this often; no message at all for `heartbeatTimeoutMs` → reconnect. */
    heartbeatIntervalMs?: number;
    heartbeatTimeoutMs?: number;
    /** Called on every (re)connection state change, e.g. for logging. */
    onStatus?: (status: PushStatus) => void;
    socketFactory?: SocketFactory;
}
export type PushStatus = {
    state: 'open';
    reconnects: number;
} | {
    state: 'reconnecting';
    attempt: number;
    delayMs: number;
    reason: string;
};
export declare class PushClosedError extends Error {
    readonly code: number;
    constructor(code: number, reason: string);
}
export interface PredictionsSubscription {
    /** Symbols (any accepted spelling); default every supported symbol. */
    symbol?: string | string[];
    /** Horizons (1h, 4h, 24h …); default every horizon. */
    horizon?: string | string[];
}
/** `/predictions`: yields each `{ data: [datapoints] }` refresh within the subscription. */
export declare function subscribePredictions(subscription: PredictionsSubscription, options: PushOptions): AsyncIterableIterator<{
    data: PredictionDatapoint[];
}>;
/** `/events`: yields each account event; a reconnect resumes after the last event received (`after`). */
export declare function subscribeEvents(start: {
    after?: string;
}, options: PushOptions): AsyncIterableIterator<{
    data: {
        rule: {
            id: string;
            name: string;
            type: string;
        } & {
            [key: string]: unknown;
        };
        trigger: {
            firedAt: string;
            id: string;
        } & {
            [key: string]: unknown;
        };
    } & {
        [key: string]: unknown;
    };
    id: string;
    test: boolean;
    timestamp: string;
    type: "alert.triggered" | "onchain.flow";
    version: 1;
}>;
export {};
