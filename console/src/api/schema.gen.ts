// Generated from the server's OpenAPI document by `npm run console:api`. Do not edit by hand:
// `npm test` regenerates it and fails when this file differs (a route changed without regenerating).

export interface paths {
    "/api/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in account: email, role, plan, limits, permissions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authenticatedWith: "token" | "session";
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            id: string;
                            limits: {
                                requestsPerMinute: number;
                                wsConnections: number;
                            };
                            permissions: ("market:read" | "onchain:read" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[];
                            plan: "standard" | "pro";
                            role: "viewer" | "member" | "admin";
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's API tokens (never their secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-0"][];
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API token; the secret is in this response only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expiresAt?: string;
                        /** @description Lifetime such as 30d, 12h, 2w */
                        expiresIn?: string;
                        name: string;
                        permissions?: ("market:read" | "onchain:read" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            details: components["schemas"]["def-0"];
                            /** @description The secret. Shown once, never again: store it now. */
                            token: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token; its open push connections close within seconds */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            expiresAt: string | null;
                            id: string;
                            /** @description Updated at most once a minute */
                            lastUsedAt: string | null;
                            name: string;
                            /** @description null: all of the owner's permissions */
                            permissions: ("market:read" | "onchain:read" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[] | null;
                            revokedAt: string | null;
                            /** @description The first characters of the secret, to tell tokens apart */
                            start: string;
                            status: "active" | "expired" | "revoked";
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a token with a new secret (same name, permissions, expiry); the old one is revoked */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            details: components["schemas"]["def-0"];
                            /** @description The secret. Shown once, never again: store it now. */
                            token: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Merged market view per symbol: price, 24 h statistics, depth, slippage and venues */
        get: {
            parameters: {
                query?: {
                    /** @description USD notional of the slippage figures; default 100000 */
                    notional?: number;
                    /** @description Answer 400 for an unsupported symbol instead of normalizing it */
                    strict?: boolean;
                    /** @description Comma-separated symbols in any accepted spelling; default: every supported symbol */
                    symbols?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-1"][];
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OHLCV candles, oldest first, with a cursor to the next page */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page */
                    cursor?: string;
                    /** @description ISO 8601 or ms since the epoch; inclusive */
                    from?: string;
                    /** @description 1m, 5m, 15m, 1h, 4h, 1d (other durations map to the nearest); default 1h */
                    interval?: string;
                    /** @description Bars per page, up to 1000 (larger → 1000); default 500 */
                    limit?: number;
                    strict?: boolean;
                    /** @description Required unless `cursor` is given */
                    symbol?: string;
                    /** @description ISO 8601 or ms since the epoch; exclusive */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-2"][];
                            interval: string;
                            /** @description Pass as `cursor` for the next page; null at the end */
                            nextCursor: string | null;
                            symbol: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/onchain/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent exchange deposits and withdrawals with 1 h / 24 h USD totals */
        get: {
            parameters: {
                query?: {
                    /** @description ETH, USDT, USDC, WETH, … */
                    asset?: string;
                    cursor?: string;
                    direction?: "deposit" | "withdrawal" | "internal";
                    /** @description binance, coinbase, kraken, okx, … (aliases accepted) */
                    exchange?: string;
                    /** @description Default 50; above 500 is clamped to 500 */
                    limit?: number;
                    /** @description Only flows worth at least this many USD */
                    minUsd?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            applied: {
                                asset: string | null;
                                direction: string | null;
                                exchange: string | null;
                                limit: number;
                            };
                            data: components["schemas"]["def-3"][];
                            labels: {
                                addresses: number;
                                version: string;
                            };
                            /** @description Pass as cursor for older flows */
                            nextCursor: string | null;
                            summary: {
                                "1h": {
                                    inflowUsd: number;
                                    netflowUsd: number;
                                    outflowUsd: number;
                                };
                                "24h": {
                                    inflowUsd: number;
                                    netflowUsd: number;
                                    outflowUsd: number;
                                };
                                /** Format: date-time */
                                asOf: string;
                                asset: string | null;
                                exchange: string | null;
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/predictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Forecast datapoints for one symbol and horizon, oldest first */
        get: {
            parameters: {
                query: {
                    /** @description Spacing 1m, 5m, 15m, 1h; normalized; default 15m */
                    granularity?: string;
                    /** @description 15m, 1h, 6h; normalized; default 1h */
                    horizon?: string;
                    /** @description Comma list of quantiles, outcome, modelVersion */
                    include?: string;
                    /** @description Default 96; above 96 returns 96 */
                    limit?: number;
                    /** @description Trading pair; normalized to the supported set */
                    symbol: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-4"][];
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/predictions/ai-outlook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Aggregated outlook: bias, score, confidence, per-horizon view and drivers */
        get: {
            parameters: {
                query?: {
                    /** @description Absent: market-wide */
                    symbol?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            bias: "bullish" | "bearish" | "neutral";
                            confidence: number;
                            drivers: {
                                /** @enum {string} */
                                direction: "bullish" | "bearish" | "neutral";
                                factor: string;
                                reason: string;
                                weight: number;
                            }[];
                            /** Format: date-time */
                            generatedAt: string;
                            horizons: {
                                [key: string]: {
                                    /** @enum {string} */
                                    bias: "bullish" | "bearish" | "neutral";
                                    confidence: number;
                                    expectedMovePct: number;
                                    score: number;
                                };
                            };
                            modelVersion: string;
                            score: number;
                            symbol: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/predictions/performance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Scored track record per symbol and horizon */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                brier: number;
                                calibration: {
                                    count: number;
                                    hitRate: number | null;
                                    lower: number;
                                    meanConfidence: number | null;
                                    upper: number;
                                }[];
                                count: number;
                                coverage80: number;
                                coverage90: number;
                                crpsSkillVsRandomWalk: number;
                                ece: number;
                                /** Format: date-time */
                                from: string;
                                hitRate: number;
                                horizon: string;
                                symbol: string;
                                /** Format: date-time */
                                to: string;
                            }[];
                            /** Format: date-time */
                            generatedAt: string;
                            modelVersion: string;
                            randomWalk: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the console (sets the session cookie) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            role: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
                /** @description RFC 9457 problem document */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            detail: string;
                            errors?: {
                                message: string;
                                pointer: string;
                            }[];
                            instance: string;
                            requestId: string;
                            status: number;
                            title: string;
                            type: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out of the console */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Token */
        "def-0": {
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            id: string;
            /** @description Updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description null: all of the owner's permissions */
            permissions: ("market:read" | "onchain:read" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[] | null;
            revokedAt: string | null;
            /** @description The first characters of the secret, to tell tokens apart */
            start: string;
            status: "active" | "expired" | "revoked";
        };
        /** MarketData */
        "def-1": {
            /** @description Perpetual mark vs merged mid, bps */
            basisBps: number | null;
            bestAsk: number | null;
            bestBid: number | null;
            change24hPct: number | null;
            /** @description Perpetual funding rate per 8 h, fraction */
            fundingRate: number | null;
            high24h: number | null;
            liquidity: {
                /** @description (bid − ask depth) / (bid + ask depth) within ±1 %, in [-1, 1] */
                bookImbalance: number | null;
                depth: {
                    askUsd: number;
                    /** @description 0.5, 1 or 2: within ± this percent of the merged mid */
                    bandPct: number;
                    bidUsd: number;
                }[];
                slippage: {
                    /** @description null when the book is too thin */
                    buyBps: number | null;
                    /** @description USD notional of the market order walked through the consolidated book */
                    notional: number;
                    sellBps: number | null;
                };
            };
            low24h: number | null;
            /** @description Merged mid across included venues */
            price: number | null;
            /** @description Quote (USD) volume, all venues, 24 h */
            quoteVolume24h: number;
            spreadBps: number | null;
            /** @description Canonical symbol used (BASEQUOTE) */
            symbol: string;
            /** @description (buy − sell aggressor volume) / total, last 5 minutes */
            tradeImbalance5m: number | null;
            /** Format: date-time */
            updatedAt: string;
            venues: {
                outlier: boolean;
                price: number | null;
                quoteVolume24h: number;
                spreadBps: number | null;
                stale: boolean;
                updatedAt: string | null;
                venue: string;
                volume24h: number;
                /** @description Share of the merged price; 0 when excluded */
                weight: number;
            }[];
            /** @description Base volume, all venues, 24 h */
            volume24h: number;
            vwap24h: number | null;
        };
        /** Candle */
        "def-2": {
            close: number;
            /** @description false only for the bar still in progress */
            closed: boolean;
            high: number;
            low: number;
            open: number;
            /** @description Interval open time, ms since the epoch */
            openTime: number;
            /** @description Quote (USD) volume */
            quoteVolume: number;
            /**
             * Format: date-time
             * @description Interval open time (UTC)
             */
            timestamp: string;
            /** @description Base volume */
            volume: number;
        };
        /** OnchainFlow */
        "def-3": {
            /** @description Exact decimal amount, never a float */
            amount: string;
            asset: string;
            blockHash: string;
            blockNumber: number;
            chain: string;
            direction: "deposit" | "withdrawal" | "internal";
            exchange: string;
            from: {
                address: string;
                exchange: string | null;
                label: string | null;
            };
            /** @description chain:txHash:logIndex:exchange — the idempotency key */
            id: string;
            kind: "native" | "token";
            /** @description null for a native transfer */
            logIndex: number | null;
            /** Format: date-time */
            time: string;
            /** @description Block time in epoch milliseconds */
            timestamp: number;
            to: {
                address: string;
                exchange: string | null;
                label: string | null;
            };
            tokenAddress: string | null;
            txHash: string;
            /** @description USD at the block time, rounded to cents */
            usdValue: number | null;
        };
        /** PredictionDatapoint */
        "def-4": {
            /** @description Merged mid price at generatedAt */
            baseline: number;
            /** @description Calibrated probability that the price at generatedAt + horizon is on the predicted side */
            confidence: number;
            /** @description 100 × (prediction − baseline) / baseline */
            expectedMovePct: number;
            /** @description Signed share of the forecast return per factor; Σ|f| = 1, all 0 for a flat forecast */
            factors: {
                ai_residual: number;
                funding: number;
                macro: number;
                orderflow: number;
            };
            /** Format: date-time */
            generatedAt: string;
            /** @enum {string} */
            horizon: "15m" | "1h" | "6h";
            modelVersion?: string;
            outcome?: null | {
                hit: boolean;
                realized: number;
                /** Format: date-time */
                scoredAt: string;
            };
            /** @description Median forecast price at generatedAt + horizon, quote currency */
            prediction: number;
            /** @description include=quantiles: p05…p95 of the forecast price (adaptive conformal) */
            quantiles?: {
                p05: number;
                p10: number;
                p15: number;
                p20: number;
                p25: number;
                p30: number;
                p35: number;
                p40: number;
                p45: number;
                p50: number;
                p55: number;
                p60: number;
                p65: number;
                p70: number;
                p75: number;
                p80: number;
                p85: number;
                p90: number;
                p95: number;
            };
            symbol: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
