// Generated from the server's OpenAPI document (docs/openapi.json) by `npm run sdk:types`. Do not edit by
// hand: `npm test` regenerates it and fails when this file differs (a route changed without regenerating).

export interface paths {
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth 2.0 authorization server metadata (RFC 8414) */
        get: operations["getOAuthServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in account: email, role, plan, limits, permissions */
        get: operations["getAccount"];
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
        /** The account's API tokens, newest first, in pages (never their secrets) */
        get: operations["listTokens"];
        put?: never;
        /** Create an API token; the secret is in this response only */
        post: operations["createToken"];
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
        delete: operations["revokeToken"];
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
        post: operations["rotateToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/two-factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether two-factor sign-in is on for this account, and recovery codes left */
        get: operations["getTwoFactor"];
        put?: never;
        /** Start enrolment: a new TOTP secret, shown once; confirm it with a first code */
        post: operations["beginTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/two-factor/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Finish enrolment with a first code; answers the recovery codes, shown once */
        post: operations["confirmTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/two-factor/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor sign-in off, proven by a current code or a recovery code */
        post: operations["disableTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Quota now (used, remaining, reset) and requests and 429s by endpoint and by client: current window, 24 h, 30 days */
        get: operations["getAccountUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's alert channels (never their credentials) */
        get: operations["listAlertChannels"];
        put?: never;
        /** Add an alert channel; an email address is sent a code to confirm (status unverified until then) */
        post: operations["createAlertChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert channel */
        get: operations["getAlertChannel"];
        put?: never;
        post?: never;
        /** Delete an alert channel; its pending deliveries are dropped */
        delete: operations["deleteAlertChannel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An alert channel's deliveries (its rules' messages and its test messages), newest first, each with every attempt */
        get: operations["listAlertChannelDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the channel one test message through the delivery outbox (202 with its delivery, pending; 10 per channel per hour) */
        post: operations["testAlertChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm an email channel with the code it received (5 tries, 24 h) */
        post: operations["verifyAlertChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Render a message template for every channel as the rule being edited would send it (nothing is sent) */
        post: operations["previewAlertTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's alert rules, newest first */
        get: operations["listAlertRules"];
        put?: never;
        /** Create an alert rule (price, volume, address_flow, funding, open_interest or liquidations) */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert rule */
        get: operations["getAlertRule"];
        put?: never;
        post?: never;
        /** Delete a rule (its past events stay in the event log) */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        /** Edit a rule; state active/paused resumes or pauses it (a condition edit resets its crossing side) */
        patch: operations["updateAlertRule"];
        trace?: never;
    };
    "/api/alerts/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An alert rule's webhook deliveries, newest first, each with every attempt */
        get: operations["listAlertDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append a test event (test: true) for the rule, delivered like a real one */
        post: operations["testAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/backtest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Every time a rule (not saved) would have fired over a past window, replayed from stored candles or flows */
        post: operations["backtestAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Security-relevant actions, newest first (admins); filters, cursor pages, a JSON-lines export */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Portfolio value and P&L, alerts, API usage (24 h) and the forecast track record */
        get: operations["getDashboardAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/derivatives": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Perpetual futures per symbol: funding now and predicted, open interest with its 24 h change, basis, liquidations over 1 h and 24 h, per venue */
        get: operations["getDerivatives"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/derivatives/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A derivatives series (funding, open interest, basis or liquidations) per interval, oldest first, with a cursor */
        get: operations["getDerivativesHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join an organization with an invitation's secret (once, before it expires) */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's private labels, newest first */
        get: operations["listLabels"];
        put?: never;
        /** Label an address for this account only (201 new; 200 replaced its label on that chain) */
        post: operations["saveLabel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a private label (alert rules made on it keep watching its address) */
        delete: operations["deleteLabel"];
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
        /** Merged market view per symbol: price, 24 h statistics, depth, slippage and venues; a page of symbols at a time */
        get: operations["getMarketData"];
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
        get: operations["getMarketHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check an authorization request for the consent page: the client and the scopes asked */
        get: operations["checkOAuthAuthorization"];
        put?: never;
        /** Allow (issues a code) or deny an authorization request; answers where to redirect */
        post: operations["decideOAuthAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OAuth clients this account registered (never their secrets) */
        get: operations["listOAuthClients"];
        put?: never;
        /** Register an OAuth client; a confidential client’s secret is in this response only */
        post: operations["createOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a client this account registered; every token issued to it is revoked */
        delete: operations["deleteOAuthClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The apps this account authorized, with the scopes each holds */
        get: operations["listOAuthGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an app’s access: its access and refresh tokens are revoked at once */
        delete: operations["revokeOAuthGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/onchain/exchanges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Exchanges and chains the address book covers, with address counts and label sources */
        get: operations["listOnchainExchanges"];
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
        get: operations["listOnchainFlows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/onchain/netflow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Exchange inflow, outflow and netflow per hour or day, from the stored flows
         * @description At most 2400 buckets per answer. Buckets the indexer has not covered are marked `gap`.
         */
        get: operations["getOnchainNetflow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organizations you belong to, your personal one first */
        get: operations["listOrganizations"];
        put?: never;
        /** Create an organization; you are its owner */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One organization you belong to (another answers 404) */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename an organization or require two-factor sign-in of its members (owner or admin) */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations not yet accepted (owner or admin; never their secrets) */
        get: operations["listInvitations"];
        put?: never;
        /** Invite someone by link (and by email when given); the secret is in this response only */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an invitation: its link stops working */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The members of an organization and their roles */
        get: operations["listOrganizationMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (owner or admin), or leave (your own id); their tokens there are revoked */
        delete: operations["removeOrganizationMember"];
        options?: never;
        head?: never;
        /** Change a member's role; their tokens act with it from the next request */
        patch: operations["changeOrganizationMemberRole"];
        trace?: never;
    };
    "/api/organizations/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hand ownership to another member (owner only); you stay as an admin */
        post: operations["transferOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portfolio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Holdings per asset at the merged market price: value, cost, unrealized P&L, allocation, 24 h change */
        get: operations["getPortfolio"];
        put?: never;
        post?: never;
        /** Reset: delete every row of the account (the import history is kept) */
        delete: operations["deletePortfolio"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portfolio/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import up to 200 portfolio rows (JSON or CSV), all or nothing */
        post: operations["importPortfolio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portfolio/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Import history, newest first */
        get: operations["listPortfolioImports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portfolio/rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every stored row, exactly as imported (decimals as strings): an export */
        get: operations["listPortfolioRows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portfolio/rows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one row */
        delete: operations["deletePortfolioRow"];
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
        get: operations["listPredictions"];
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
        /** Aggregated outlook: bias, score, confidence, per-horizon view and drivers — market-wide, of one symbol, or of up to 25 symbols at once (symbols=…) */
        get: operations["getAiOutlook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/predictions/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The forecast ledger: every published datapoint as a SHA-256 hash-chained entry, oldest first, with a cursor to the next page */
        get: operations["listPredictionLedger"];
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
        get: operations["getPredictionPerformance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/predictions/probability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Probability that the price ends above each level at the horizon, and that it touches it before, from the newest forecast */
        get: operations["getLevelProbabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook endpoints (never their secrets) */
        get: operations["listWebhooks"];
        put?: never;
        /** Register a webhook endpoint; the answer holds its signing secret, shown once */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint; its pending deliveries are dropped */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's deliveries, newest first, each with every attempt */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New signing secret (shown once); the previous one keeps signing for 24 h */
        post: operations["rotateWebhookSecret"];
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
        /** Sign in to the console: the session cookie, or the two-factor step it needs first */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login/code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Second sign-in step: a TOTP code or a recovery code (sets the session cookie) */
        post: operations["loginCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login/enrol": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Required enrolment at sign-in: a new TOTP secret for the account (shown once) */
        post: operations["loginEnrol"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login/enrol/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Required enrolment at sign-in: the first code turns two-factor on and signs in */
        post: operations["loginEnrolConfirm"];
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
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How to sign in to the console: password, single sign-on, or both */
        get: operations["getSignInMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a token and its whole grant (RFC 7009); an unknown token is answered alike */
        post: operations["oauthRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange an authorization code (PKCE) or a refresh token for tokens (RFC 6749 §3.2) */
        post: operations["oauthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "alert.capped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** alert.capped — signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) */
        post: operations["alertCappedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.triggered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** alert.triggered — signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) */
        post: operations["alertTriggeredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "onchain.flow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** onchain.flow — signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) */
        post: operations["onchainFlowWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AcceptInvitationRequest: {
            token: string;
        };
        Account: {
            authenticatedWith: "token" | "session";
            /** Format: date-time */
            createdAt: string;
            email: string;
            id: string;
            limits: {
                requestsPerMinute: number;
                wsConnections: number;
            };
            /** @description The organization these credentials act in, and the role there */
            organization: {
                id: string;
                role: "owner" | "admin" | "member" | "viewer";
            };
            permissions: ("market:read" | "onchain:read" | "onchain:write" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[];
            plan: "standard" | "pro";
            /** @description The account's server-wide role: it caps what the account may do in any organization */
            role: "viewer" | "member" | "admin";
        };
        AccountUsage: {
            /** @description Requests and 429s in the rate limit's current 60-second window, counted per second over every API replica: this process's own requests at once, other replicas' within flushIntervalMs */
            currentWindow: {
                byClient: {
                    /** @description console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client's access tokens, added up; other: counted before clients were recorded */
                    client: "console" | "token" | "oauth" | "other";
                    /** @description For oauth: the OAuth client (application) the account authorized */
                    oauthClient: {
                        id: string;
                        name: string;
                    } | null;
                    rateLimited: number;
                    requests: number;
                    tokenId: string | null;
                    /** @description The token's name (null once deleted) */
                    tokenName: string | null;
                }[];
                byEndpoint: {
                    endpoint: string;
                    rateLimited: number;
                    requests: number;
                }[];
                /**
                 * Format: date-time
                 * @description Start of the oldest second counted: the seconds overlapping the sliding window (at most one second more than it)
                 */
                from: string;
                /** @description Requests answered 429 */
                rateLimited: number;
                requests: number;
                /** Format: date-time */
                to: string;
            };
            /** @description Other replicas' requests appear within this long */
            flushIntervalMs: number;
            /** Format: date-time */
            generatedAt: string;
            /** @description The last 24 hours */
            last24h: {
                byClient: {
                    /** @description console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client's access tokens, added up; other: counted before clients were recorded */
                    client: "console" | "token" | "oauth" | "other";
                    /** @description For oauth: the OAuth client (application) the account authorized */
                    oauthClient: {
                        id: string;
                        name: string;
                    } | null;
                    rateLimited: number;
                    requests: number;
                    tokenId: string | null;
                    /** @description The token's name (null once deleted) */
                    tokenName: string | null;
                }[];
                byEndpoint: {
                    endpoint: string;
                    rateLimited: number;
                    requests: number;
                }[];
                /**
                 * Format: date-time
                 * @description Start of the oldest 10-minute bucket counted
                 */
                from: string;
                /** @description Requests answered 429 */
                rateLimited: number;
                requests: number;
                /** Format: date-time */
                to: string;
            };
            /** @description The last 30 UTC days, today included */
            last30d: {
                byClient: {
                    /** @description console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client's access tokens, added up; other: counted before clients were recorded */
                    client: "console" | "token" | "oauth" | "other";
                    /** @description For oauth: the OAuth client (application) the account authorized */
                    oauthClient: {
                        id: string;
                        name: string;
                    } | null;
                    rateLimited: number;
                    requests: number;
                    tokenId: string | null;
                    /** @description The token's name (null once deleted) */
                    tokenName: string | null;
                }[];
                byEndpoint: {
                    endpoint: string;
                    rateLimited: number;
                    requests: number;
                }[];
                /**
                 * Format: date-time
                 * @description Start of the oldest UTC day counted
                 */
                from: string;
                /** @description Requests answered 429 */
                rateLimited: number;
                requests: number;
                /** Format: date-time */
                to: string;
            };
            plan: string;
            /** @description The account's rate limit now (a sliding 60-second window shared by its tokens and sessions) */
            quota: {
                /** @description Requests per window (the plan or a per-account override) */
                limit: number;
                remaining: number;
                /**
                 * Format: date-time
                 * @description When the oldest request in the window leaves it (one more becomes available); now when none is counted
                 */
                resetAt: string;
                used: number;
                windowSeconds: number;
            };
        };
        AddressFlowAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /** @description A 0x address (either party of a flow) */
                address?: string;
                /** @description ETH, USDT, … (absent: any) */
                asset?: string;
                /**
                 * @description in: into the exchange or address; out: out of it; any: either
                 * @enum {string}
                 */
                direction: "in" | "out" | "any";
                /** @description binance, okx, … (aliases) */
                exchange?: string;
                /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                label?: string;
                /** @description USD: a single transfer, or the windowed sum, of at least this */
                minUsd: number;
                /**
                 * @description Absent: each single transfer; present: the sum over the window
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "address_flow";
        };
        AlertBacktest: {
            /** @description What was replayed: say what the firings rest on */
            data: {
                /**
                 * Format: date-time
                 * @description Where stored history of the symbol starts
                 */
                availableFrom?: string;
                /** @description Storage is still being filled: the window may gain candles */
                backfilling?: boolean;
                /** @description Price and volume rules: stored 1m candles replayed */
                candles?: number;
                /** @description Flow rules: false when the read stopped before the window start */
                complete?: boolean;
                /** @description Flow rules: stored flows read */
                flows?: number;
                /** @description Minutes of the window without a candle */
                missingMinutes?: number;
                /** @description true when the data replayed was made up by a simulator */
                simulated: boolean;
                /** @description simulated, replay or ccxt:<venues> (flows: the chain source) */
                source: string;
            };
            /** @description Oldest first; the first 1000 (totals count all) */
            firings: {
                /**
                 * Format: date-time
                 * @description When it would have fired
                 */
                at: string;
                /** @description Flow rules: the flow behind the firing */
                flowId?: string;
                /** @description The value its condition compared (price, %, USD) */
                value: number;
            }[];
            firingsListed: number;
            normalized: {
                field: string;
                requested: string;
                used: string;
            }[];
            /** @description The rule as evaluated (normalized), not saved */
            rule: {
                condition: {
                    /** @enum {string} */
                    op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                    /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                    value: number;
                    /**
                     * @description change_pct only: the window the change is measured over
                     * @enum {string}
                     */
                    window?: "5m" | "15m" | "1h" | "24h";
                } | {
                    /** @enum {string} */
                    op: "above";
                    /** @description Quote volume (USD) over the window */
                    value: number;
                    /** @enum {string} */
                    window: "5m" | "15m" | "1h" | "24h";
                } | {
                    /** @description A 0x address (either party of a flow) */
                    address?: string;
                    /** @description ETH, USDT, … (absent: any) */
                    asset?: string;
                    /**
                     * @description in: into the exchange or address; out: out of it; any: either
                     * @enum {string}
                     */
                    direction: "in" | "out" | "any";
                    /** @description binance, okx, … (aliases) */
                    exchange?: string;
                    /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                    label?: string;
                    /** @description USD: a single transfer, or the windowed sum, of at least this */
                    minUsd: number;
                    /**
                     * @description Absent: each single transfer; present: the sum over the window
                     * @enum {string}
                     */
                    window?: "5m" | "15m" | "1h" | "24h";
                };
                symbol?: string;
                trigger: {
                    cooldownSec: number;
                    /** @enum {string} */
                    mode: "once" | "every";
                };
                /** @enum {string} */
                type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
            };
            totals: {
                firings: number;
                first: string | null;
                last: string | null;
                /** @description Per UTC day of the window, days without a firing included */
                perDay: {
                    /** Format: date */
                    day: string;
                    firings: number;
                }[];
            };
            window: {
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
        };
        /** @description A rule reached its hourly message cap: one event per episode (event type alert.capped) */
        AlertCappedEvent: {
            data: {
                /**
                 * Format: date-time
                 * @description Until when its messages are recorded as capped (listed in its deliveries), not sent
                 */
                cappedUntil: string;
                note: string;
                rule: {
                    channels: {
                        channelIds?: string[];
                        events: boolean;
                        webhookIds: string[];
                    };
                    condition: {
                        /**
                         * @description The forecast horizon whose datapoints are read
                         * @enum {string}
                         */
                        horizon: "15m" | "1h" | "6h";
                        /**
                         * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                         * @enum {string}
                         */
                        kind: "end_above" | "touch";
                        /** @description The price level (quote currency) */
                        level: number;
                        /**
                         * @description above: the probability is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                        value: number;
                    } | {
                        /** @enum {string} */
                        op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                        /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                        value: number;
                        /**
                         * @description change_pct only: the window the change is measured over
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /** @description Quote volume (USD) over the window */
                        value: number;
                        /** @enum {string} */
                        window: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @description A 0x address (either party of a flow) */
                        address?: string;
                        /** @description ETH, USDT, … (absent: any) */
                        asset?: string;
                        /**
                         * @description in: into the exchange or address; out: out of it; any: either
                         * @enum {string}
                         */
                        direction: "in" | "out" | "any";
                        /** @description binance, okx, … (aliases) */
                        exchange?: string;
                        /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                        label?: string;
                        /** @description USD: a single transfer, or the windowed sum, of at least this */
                        minUsd: number;
                        /**
                         * @description Absent: each single transfer; present: the sum over the window
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /**
                         * @description above: the rate is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                        value: number;
                    } | {
                        /**
                         * @description above: the change is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Percent change of open interest (USD) over the window; negative = a fall */
                        value: number;
                        /**
                         * @description The change is measured against the value this long ago
                         * @enum {string}
                         */
                        window: "1h" | "4h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /**
                         * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                         * @enum {string}
                         */
                        side: "long" | "short" | "any";
                        /** @description USD liquidated over the window */
                        value: number;
                        /** @enum {string} */
                        window: "1h" | "4h" | "24h";
                    };
                    id: string;
                    name: string;
                    symbol?: string;
                    template?: string | null;
                    trigger: {
                        cooldownSec: number;
                        /** @enum {string} */
                        mode: "once" | "every";
                    };
                    /** @enum {string} */
                    type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
                };
            };
            /** @description evt_… — also the webhook-id header */
            id: string;
            /** @description true for POST /api/alerts/:id/test */
            test: boolean;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "alert.capped";
            /** @enum {number} */
            version: 1;
        };
        AlertChannel: {
            /** Format: date-time */
            createdAt: string;
            disabledReason: string | null;
            /** @description ch_… */
            id: string;
            name: string | null;
            /** @description unverified: an email address that has not confirmed its code; nothing is sent to it */
            status: "enabled" | "disabled" | "unverified";
            /** @description Where it sends (the address, the chat, the webhook without its token) */
            target: string;
            type: "email" | "telegram" | "discord" | "slack";
            /** Format: date-time */
            updatedAt: string;
        };
        AlertRule: {
            /** @description State capped: its hourly message cap holds until then (messages recorded as capped) */
            cappedUntil: string | null;
            channels: {
                channelIds: string[];
                events: boolean;
                webhookIds: string[];
            };
            condition: {
                /**
                 * @description The forecast horizon whose datapoints are read
                 * @enum {string}
                 */
                horizon: "15m" | "1h" | "6h";
                /**
                 * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                 * @enum {string}
                 */
                kind: "end_above" | "touch";
                /** @description The price level (quote currency) */
                level: number;
                /**
                 * @description above: the probability is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                value: number;
            } | {
                /** @enum {string} */
                op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                value: number;
                /**
                 * @description change_pct only: the window the change is measured over
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            } | {
                /** @enum {string} */
                op: "above";
                /** @description Quote volume (USD) over the window */
                value: number;
                /** @enum {string} */
                window: "5m" | "15m" | "1h" | "24h";
            } | {
                /** @description A 0x address (either party of a flow) */
                address?: string;
                /** @description ETH, USDT, … (absent: any) */
                asset?: string;
                /**
                 * @description in: into the exchange or address; out: out of it; any: either
                 * @enum {string}
                 */
                direction: "in" | "out" | "any";
                /** @description binance, okx, … (aliases) */
                exchange?: string;
                /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                label?: string;
                /** @description USD: a single transfer, or the windowed sum, of at least this */
                minUsd: number;
                /**
                 * @description Absent: each single transfer; present: the sum over the window
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            } | {
                /**
                 * @description above: the rate is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                value: number;
            } | {
                /**
                 * @description above: the change is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Percent change of open interest (USD) over the window; negative = a fall */
                value: number;
                /**
                 * @description The change is measured against the value this long ago
                 * @enum {string}
                 */
                window: "1h" | "4h" | "24h";
            } | {
                /** @enum {string} */
                op: "above";
                /**
                 * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                 * @enum {string}
                 */
                side: "long" | "short" | "any";
                /** @description USD liquidated over the window */
                value: number;
                /** @enum {string} */
                window: "1h" | "4h" | "24h";
            };
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            /** @description alr_… */
            id: string;
            lastTriggeredAt: string | null;
            name: string;
            /** @description Fields the server changed on the way in, e.g. symbol btc → BTCUSDT */
            normalized: {
                field: string;
                requested: string;
                used: string;
            }[];
            /** @enum {string} */
            state: "active" | "paused" | "triggered" | "expired" | "failing" | "capped";
            /** @description Every rule type but address_flow: the canonical symbol used */
            symbol?: string;
            /** @description Null: the default of its type */
            template: string | null;
            trigger: {
                cooldownSec: number;
                /** @enum {string} */
                mode: "once" | "every";
            };
            triggerCount: number;
            /** @enum {string} */
            type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
            /** Format: date-time */
            updatedAt: string;
        };
        AlertTemplatePreview: {
            /** @description The Discord webhook `content` (markdown escaped) */
            discord: string;
            email: {
                html: string;
                subject: string;
                text: string;
            };
            /** @description The Slack incoming-webhook `text` (mrkdwn escaped) */
            slack: string;
            /** @description The `text` of the Telegram sendMessage call (MarkdownV2, escaped) */
            telegram: string;
            /** @description The template rendered (the default when none was given) */
            template: string;
            /** @description The message as plain text */
            text: string;
            /** @description Placeholders that name no variable: saving a rule with them is refused (400) */
            unknownVariables: string[];
            /** @description The values filled in: made up from the rule (it fires at its own level, now) */
            values: {
                amount_usd: string;
                asset: string;
                condition: string;
                console_url: string;
                exchange: string;
                horizon: string;
                level: string;
                price: string;
                probability: string;
                rule_name: string;
                symbol: string;
                time: string;
                value: string;
            };
        };
        /** @description A price, volume, funding, open_interest, liquidations or probability rule fired (event type alert.triggered) */
        AlertTriggeredEvent: {
            data: {
                derivatives?: {
                    /**
                     * Format: date-time
                     * @description The derivatives refresh that fired it
                     */
                    at: string;
                    /** @description open_interest: change over the window */
                    changePct?: number;
                    /** @description funding: percent a year */
                    fundingAnnualizedPct?: number;
                    /** @description funding: the rate per funding period */
                    fundingRate?: number;
                    /** @description liquidations: USD over the window */
                    liquidatedUsd?: number;
                    /** @enum {string} */
                    metric: "funding" | "open_interest" | "liquidations";
                    openInterestUsd?: number;
                    /** @enum {string} */
                    side?: "long" | "short" | "any";
                    /** @description true: made-up data (the simulated market) */
                    simulated: boolean;
                    /** @description The derivatives source (simulated, replay:…, ccxt:…) */
                    source: string;
                    symbol: string;
                    /** @enum {string} */
                    window?: "1h" | "4h" | "24h";
                };
                market?: {
                    /** Format: date-time */
                    at: string;
                    changePct?: number;
                    /** @description Merged mid */
                    price: number;
                    quoteVolume?: number;
                    symbol: string;
                    /** @enum {string} */
                    window?: "5m" | "15m" | "1h" | "24h";
                };
                note?: string;
                prediction?: {
                    /** @description The datapoint's baseline price */
                    baseline: number;
                    /**
                     * Format: date-time
                     * @description The published forecast datapoint that fired it
                     */
                    generatedAt: string;
                    /** @enum {string} */
                    horizon: "15m" | "1h" | "6h";
                    /** @enum {string} */
                    kind: "end_above" | "touch";
                    /** @description The price level */
                    level: number;
                    /** @description The datapoint's predicted price */
                    prediction: number;
                    /** @description The probability the rule compared (0–1) */
                    probability: number;
                    symbol: string;
                };
                rule: {
                    channels: {
                        channelIds?: string[];
                        events: boolean;
                        webhookIds: string[];
                    };
                    condition: {
                        /**
                         * @description The forecast horizon whose datapoints are read
                         * @enum {string}
                         */
                        horizon: "15m" | "1h" | "6h";
                        /**
                         * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                         * @enum {string}
                         */
                        kind: "end_above" | "touch";
                        /** @description The price level (quote currency) */
                        level: number;
                        /**
                         * @description above: the probability is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                        value: number;
                    } | {
                        /** @enum {string} */
                        op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                        /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                        value: number;
                        /**
                         * @description change_pct only: the window the change is measured over
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /** @description Quote volume (USD) over the window */
                        value: number;
                        /** @enum {string} */
                        window: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @description A 0x address (either party of a flow) */
                        address?: string;
                        /** @description ETH, USDT, … (absent: any) */
                        asset?: string;
                        /**
                         * @description in: into the exchange or address; out: out of it; any: either
                         * @enum {string}
                         */
                        direction: "in" | "out" | "any";
                        /** @description binance, okx, … (aliases) */
                        exchange?: string;
                        /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                        label?: string;
                        /** @description USD: a single transfer, or the windowed sum, of at least this */
                        minUsd: number;
                        /**
                         * @description Absent: each single transfer; present: the sum over the window
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /**
                         * @description above: the rate is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                        value: number;
                    } | {
                        /**
                         * @description above: the change is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Percent change of open interest (USD) over the window; negative = a fall */
                        value: number;
                        /**
                         * @description The change is measured against the value this long ago
                         * @enum {string}
                         */
                        window: "1h" | "4h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /**
                         * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                         * @enum {string}
                         */
                        side: "long" | "short" | "any";
                        /** @description USD liquidated over the window */
                        value: number;
                        /** @enum {string} */
                        window: "1h" | "4h" | "24h";
                    };
                    id: string;
                    name: string;
                    symbol?: string;
                    template?: string | null;
                    trigger: {
                        cooldownSec: number;
                        /** @enum {string} */
                        mode: "once" | "every";
                    };
                    /** @enum {string} */
                    type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
                };
                trigger: {
                    /**
                     * Format: date-time
                     * @description Time of the market or chain event
                     */
                    eventAt?: string;
                    /**
                     * Format: date-time
                     * @description When the evaluator fired
                     */
                    firedAt: string;
                    /** @description trg_… */
                    id: string;
                    /** @description The event key: unique per rule (exactly once) */
                    key?: string;
                    replacesTrigger?: string;
                    test?: boolean;
                    /** @description The observed value: price, change %, quote volume, USD, probability */
                    value?: number;
                };
            };
            /** @description evt_… — also the webhook-id header */
            id: string;
            /** @description true for POST /api/alerts/:id/test */
            test: boolean;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "alert.triggered";
            /** @enum {number} */
            version: 1;
        };
        /** @description An alert rule; the shape of `condition` depends on `type` */
        BacktestAlertRuleRequest: components["schemas"]["PriceAlertRuleInput"] | components["schemas"]["VolumeAlertRuleInput"] | components["schemas"]["AddressFlowAlertRuleInput"] | components["schemas"]["FundingAlertRuleInput"] | components["schemas"]["OpenInterestAlertRuleInput"] | components["schemas"]["LiquidationsAlertRuleInput"] | components["schemas"]["ProbabilityAlertRuleInput"];
        Candle: {
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
        ChangeOrganizationMemberRoleRequest: {
            role: "owner" | "admin" | "member" | "viewer";
        };
        ChangeOrganizationMemberRoleResponse: {
            role: "owner" | "admin" | "member" | "viewer";
            userId: string;
        };
        CheckOAuthAuthorizationResponse: {
            client: {
                id: string;
                name: string;
            };
            /** @enum {string} */
            outcome: "consent";
            redirectUri: string;
            scopes: string[];
        } | {
            /** @enum {string} */
            outcome: "redirect";
            /** @description An error the client must hear, on its redirect URI */
            redirectTo: string;
        };
        ConfirmTwoFactorRequest: {
            /** @description A TOTP code (or, to turn off, a recovery code) */
            code: string;
        };
        ConfirmTwoFactorResponse: {
            /** @description Ten recovery codes, each usable once instead of a TOTP code. Shown once, never again. */
            recoveryCodes: string[];
        };
        CreateAlertChannelRequest: {
            /** Format: email */
            address: string;
            name?: string;
            /** @enum {string} */
            type: "email";
        } | {
            /** @description The bot token from @BotFather (never shown again) */
            botToken: string;
            chatId: string;
            name?: string;
            /** @enum {string} */
            type: "telegram";
        } | {
            name?: string;
            /** @enum {string} */
            type: "discord";
            /** @description https://discord.com/api/webhooks/<id>/<token> */
            url: string;
        } | {
            name?: string;
            /** @enum {string} */
            type: "slack";
            /** @description https://hooks.slack.com/services/… */
            url: string;
        };
        /** @description An alert rule; the shape of `condition` depends on `type` */
        CreateAlertRuleRequest: components["schemas"]["PriceAlertRuleInput"] | components["schemas"]["VolumeAlertRuleInput"] | components["schemas"]["AddressFlowAlertRuleInput"] | components["schemas"]["FundingAlertRuleInput"] | components["schemas"]["OpenInterestAlertRuleInput"] | components["schemas"]["LiquidationsAlertRuleInput"] | components["schemas"]["ProbabilityAlertRuleInput"];
        CreateInvitationRequest: {
            /** @description Only this address may accept; the link is emailed to it */
            email?: string;
            /** @description Lifetime such as 7d (default) or 48h; at most 30d */
            expiresIn?: string;
            role: "admin" | "member" | "viewer";
        };
        CreateInvitationResponse201: {
            details: components["schemas"]["Invitation"];
            /** @description The link was handed to the SMTP server (MERIDIAN_SMTP_URL) */
            emailed: boolean;
            /** @description The console link carrying the secret (null: MERIDIAN_CONSOLE_URL is not set) */
            link: string | null;
            /** @description The invitation secret. Shown once, never again. */
            token: string;
        };
        CreateOAuthClientRequest: {
            /** @description true: the client gets a secret (a server-side app); default false (public) */
            confidential?: boolean;
            name: string;
            redirectUris: string[];
        };
        CreateOAuthClientResponse201: {
            client: components["schemas"]["OAuthClient"];
            /** @description The client secret of a confidential client. Shown once, never again: store it now. */
            secret: string | null;
        };
        CreateOrganizationRequest: {
            name: string;
        };
        CreateTokenRequest: {
            /** Format: date-time */
            expiresAt?: string;
            /** @description Lifetime such as 30d, 12h, 2w */
            expiresIn?: string;
            name: string;
            permissions?: ("market:read" | "onchain:read" | "onchain:write" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[];
        };
        CreateTokenResponse201: {
            details: components["schemas"]["Token"];
            /** @description The secret. Shown once, never again: store it now. */
            token: string;
        };
        CreateWebhookRequest: {
            description?: string;
            events: ("alert.triggered" | "onchain.flow" | "alert.capped")[];
            /** @description https:// URL of the receiver; it must resolve to public addresses (see docs/webhooks.md) */
            url: string;
        };
        CreateWebhookResponse201: {
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            disabledReason: string | null;
            events: ("alert.triggered" | "onchain.flow" | "alert.capped")[];
            /** @description wh_… */
            id: string;
            /** @description After a rotation: until when the previous secret still signs (a second signature) */
            previousSecretExpiresAt: string | null;
            /** @description The signing secret (whsec_…). Shown in this answer only, never again: store it now. */
            secret: string;
            /** @description disabled: the receiver answered 410 Gone; nothing more is sent to it */
            status: "enabled" | "disabled";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        DashboardAnalytics: {
            alerts: {
                byState: {
                    active: number;
                    /** @description Active rules whose hourly message cap holds now */
                    capped: number;
                    expired: number;
                    failing: number;
                    paused: number;
                    triggered: number;
                };
                recentTriggers: {
                    eventId: string;
                    /** Format: date-time */
                    firedAt: string;
                    ruleId: string;
                    ruleName: string | null;
                    test: boolean;
                    triggerId: string;
                    type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
                }[];
            };
            forecasts: {
                /** Format: date-time */
                asOf: string;
                horizons: {
                    brier: number;
                    /** @description Expected calibration error of the confidence */
                    calibrationError: number;
                    /** @description CRPS skill versus a random walk (> 0 is better) */
                    crpsSkill: number;
                    hitRate: number;
                    horizon: string;
                    scored: number;
                    symbols: number;
                }[];
                modelVersion: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds: when this answer was computed
             */
            generatedAt: string;
            portfolio: {
                allocation: {
                    allocationPct: number | null;
                    asset: string;
                    valueUsd: string | null;
                }[];
                assetsWithoutCost: string[];
                change24hPct: number | null;
                change24hUsd: string;
                /** @description Over holdings with a price and a full cost basis */
                costBasisUsd: string;
                /** @description Held but not valued (never counted as 0) */
                unpricedAssets: string[];
                unrealizedPnlPct: number | null;
                unrealizedPnlUsd: string;
                /** @description Sum over priced holdings */
                valueUsd: string;
            };
            usage: {
                byEndpoint: {
                    endpoint: string;
                    rateLimited: number;
                    requests: number;
                }[];
                /** @description Other replicas' requests appear within this long */
                flushIntervalMs: number;
                limit: {
                    requests: number;
                    windowSeconds: number;
                };
                plan: string;
                /** @description Requests answered 429 */
                rateLimited: number;
                /** @description Requests left in the current rate-limit window */
                remaining: number;
                requests: number;
                tokens: {
                    active: number;
                    items: {
                        expiresAt: string | null;
                        id: string;
                        lastUsedAt: string | null;
                        name: string;
                        start: string;
                    }[];
                };
                window: {
                    /** Format: date-time */
                    from: string;
                    /** Format: date-time */
                    to: string;
                };
            };
        };
        DecideOAuthAuthorizationRequest: {
            /** @description The registered client id (`oac_…`) */
            client_id?: string;
            /** @description PKCE: BASE64URL(SHA-256(code_verifier)) */
            code_challenge?: string;
            /** @description Must be `S256` (`plain` is refused) */
            code_challenge_method?: string;
            decision: "allow" | "deny";
            /** @description One of the client’s registered redirect URIs, exactly */
            redirect_uri?: string;
            /** @description Must be `code` */
            response_type?: string;
            /** @description Permissions, space-separated, e.g. `market:read predictions:read` */
            scope?: string;
            /** @description Opaque value passed back on the redirect */
            state?: string;
        };
        DecideOAuthAuthorizationResponse: {
            /** @description Where the browser goes next */
            redirectTo: string;
        };
        DeletePortfolioResponse: {
            deleted: number;
        };
        Derivatives: {
            /** @description null when no included venue publishes both mark and index prices */
            basis: {
                /** @description The premium as if paid every funding period for a year: bps / 10000 × periods per year × 100 */
                annualizedPct: number;
                /** @description Perpetual mark over index price, bps (positive: perp above spot) */
                bps: number;
                /** @description Weighted index (spot) price of the same venues */
                indexPrice: number;
                /** @description Weighted mark price of the venues reporting mark and index */
                markPrice: number;
            } | null;
            /** @description null when no included venue publishes funding for the symbol */
            funding: {
                /** @description rate × periods per year × 100 (simple, not compounded) */
                annualizedPct: number;
                /** @description Hours between settlements */
                intervalHours: number;
                /** @description The next settlement (earliest over included venues) */
                nextFundingTime: string | null;
                /** @description The venues’ predicted rate for the period after next (weighted over the venues that publish one); null when none does */
                predictedRate: number | null;
                /** @description Funding rate accruing now, settled at nextFundingTime: a fraction per funding period (0.0001 = 0.01 %), weighted over included venues */
                rate: number;
            } | null;
            /** @description null when no venue of the source streams liquidations */
            liquidations: {
                /** @description Liquidations over the last hour, from the venues that stream them */
                h1: {
                    /** @description USD of long positions liquidated in the last hour */
                    longUsd: number;
                    /** @description USD of short positions liquidated in the last hour */
                    shortUsd: number;
                };
                /** @description Liquidations over the last 24 hours, from the venues that stream them */
                h24: {
                    /** @description USD of long positions liquidated in the last 24 hours */
                    longUsd: number;
                    /** @description USD of short positions liquidated in the last 24 hours */
                    shortUsd: number;
                };
            } | null;
            /** @description null when no included venue publishes open interest */
            openInterest: {
                /** @description Percent change of the USD figure against 24 h ago; null without that history */
                change24hPct: number | null;
                /** @description Open contracts summed over included venues; null when no venue reports them */
                contracts: number | null;
                /** @description Open interest in USD summed over included venues; null when no venue reports it */
                usd: number | null;
            } | null;
            /** @description true when no venue is fresh: the figures are the last known */
            stale: boolean;
            /** @description Canonical symbol (BASEQUOTE) */
            symbol: string;
            /** @description Newest reading merged (venue time) */
            updatedAt: string | null;
            /** @description Per-venue breakdown, in configured order */
            venues: {
                /** @description This venue’s mark over index, bps; null without both */
                basisBps: number | null;
                /** @description This venue’s current funding rate; null when it publishes none */
                fundingRate: number | null;
                /** @description This venue’s index price */
                indexPrice: number | null;
                /** @description Whether this venue’s liquidations are counted */
                liquidations: boolean;
                /** @description This venue’s mark price */
                markPrice: number | null;
                /** @description This venue’s next settlement */
                nextFundingTime: string | null;
                /** @description This venue’s open contracts */
                openInterestContracts: number | null;
                /** @description This venue’s open interest, USD */
                openInterestUsd: number | null;
                /** @description Mark price further than MERIDIAN_MARKET_OUTLIER_BPS from the median of 3+ fresh venues: excluded */
                outlier: boolean;
                /** @description This venue’s predicted next rate; null when it publishes none */
                predictedFundingRate: number | null;
                /** @description No reading for MERIDIAN_DERIVATIVES_STALE_MS: excluded */
                stale: boolean;
                /**
                 * Format: date-time
                 * @description Time of this venue’s reading (venue time)
                 */
                updatedAt: string;
                /** @description ccxt id of the venue */
                venue: string;
                /** @description Share in the merged figures (by open interest in USD, else equal); 0 when excluded */
                weight: number;
            }[];
        };
        DisableTwoFactorRequest: {
            /** @description A TOTP code (or, to turn off, a recovery code) */
            code: string;
        };
        FundingAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /**
                 * @description above: the rate is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                value: number;
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "funding";
        };
        GetAiOutlookResponse: {
            /** @enum {string} */
            bias: "bullish" | "bearish" | "neutral";
            confidence: number;
            drivers: {
                /** @enum {string} */
                direction: "bullish" | "bearish" | "neutral";
                factor: string;
                /** @description What the factor's inputs read now, with units (funding % per 8 h, realized volatility against its median, …), and whether the model has earned a direction from it */
                reason: string;
                weight: number;
            }[];
            /** @description Outages of the model refresh in the last 30 days (as in the performance report) */
            gaps: {
                /**
                 * Format: date-time
                 * @description The last refresh before the outage.
                 */
                from: string;
                /** @description Refresh points with no datapoint in between. */
                missedPoints: number;
                /**
                 * Format: date-time
                 * @description The first refresh after it.
                 */
                to: string;
            }[];
            /** Format: date-time */
            generatedAt: string;
            horizons: {
                [key: string]: {
                    /**
                     * @description bullish or bearish only where the direction passed its evidence test (directionEarned)
                     * @enum {string}
                     */
                    bias: "bullish" | "bearish" | "neutral";
                    confidence: number;
                    /** @description The forecast's direction passed its evidence test: its mean is non-zero only because a member's walk-forward record earned it, and the published side agrees (market-wide: for some symbol) */
                    directionEarned: boolean;
                    expectedMovePct: number;
                    /** @description The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols) */
                    interval80Pct: {
                        high: number;
                        low: number;
                    };
                    /** @description What this horizon says, in one sentence */
                    message: string;
                    score: number;
                };
            };
            /** @description One sentence: the bias where the record earns a direction, else neutral with the 1h 80 % interval */
            message: string;
            modelVersion: string;
            score: number;
            symbol: string | null;
        } | components["schemas"]["OutlookBatch"];
        GetDerivativesHistoryResponse: {
            /** @description Newest reading of any symbol (also Meridian-As-Of) */
            asOf: string | null;
            /** @description Intervals holding data, oldest first; an interval without data is left out */
            data: {
                /** @description funding: the settled rate × 3 periods a day × 365 × 100 */
                annualizedPct?: number;
                /** @description Time of the point shown (the newest in the interval), ms since the epoch; for funding the settlement time as the venue published it */
                at: number;
                /** @description basis: mark over index, bps */
                bps?: number;
                /** @description liquidations: USD of long positions liquidated in the interval */
                longUsd?: number;
                /** @description open_interest: contracts (absent when unknown) */
                openInterestContracts?: number;
                /** @description open_interest: USD, summed over venues (absent when unknown) */
                openInterestUsd?: number;
                /** @description funding: the settled rate, fraction per period */
                rate?: number;
                /** @description liquidations: USD of short positions liquidated in the interval */
                shortUsd?: number;
                /** @description Start of the interval, ms since the epoch */
                time: number;
                /**
                 * Format: date-time
                 * @description Start of the interval (UTC)
                 */
                timestamp: string;
            }[];
            /** @description How complete the history behind this page is */
            history: {
                /**
                 * Format: date-time
                 * @description Where backfilled history starts (MERIDIAN_DERIVATIVES_HISTORY_DAYS back, 00:00 UTC)
                 */
                availableFrom: string;
                /** @description true while history is still being backfilled after a start (also `Meridian-Backfilling: true`) */
                backfilling: boolean;
            };
            interval: string;
            metric: string;
            /** @description Pass as `cursor` for the next page; null at the end */
            nextCursor: string | null;
            /** @description true when the figures are made up by the simulated market, not read from a venue */
            simulated: boolean;
            /** @description What the data comes from: simulated, replay or ccxt:<venues> (also Meridian-Source) */
            source: string;
            /** @description true when that is older than MERIDIAN_DERIVATIVES_STALE_MS (also Meridian-Stale) */
            stale: boolean;
            symbol: string;
        };
        GetDerivativesResponse: {
            /** @description Newest reading of any symbol (also Meridian-As-Of) */
            asOf: string | null;
            /** @description One item per selected symbol that has perpetual data yet (others are left out) */
            data: components["schemas"]["Derivatives"][];
            /** @description true when the figures are made up by the simulated market, not read from a venue */
            simulated: boolean;
            /** @description What the data comes from: simulated, replay or ccxt:<venues> (also Meridian-Source) */
            source: string;
            /** @description true when that is older than MERIDIAN_DERIVATIVES_STALE_MS (also Meridian-Stale) */
            stale: boolean;
        };
        GetMarketDataResponse: {
            data: components["schemas"]["MarketData"][];
            /** @description Pass as `cursor` (with the same symbols, quote and notional) for the next page; null on the last */
            nextCursor: string | null;
        };
        GetMarketHistoryResponse: {
            data: components["schemas"]["Candle"][];
            /** @description How complete the history behind this page is */
            history: {
                /**
                 * Format: date-time
                 * @description Where offered history starts (MERIDIAN_MARKET_HISTORY_DAYS back, at 00:00 UTC)
                 */
                availableFrom: string;
                /** @description true while this symbol's history is still being filled after a start: bars may be missing from the page (also the `Meridian-Backfilling: true` header) */
                backfilling: boolean;
            };
            interval: string;
            /** @description Pass as `cursor` for the next page; null at the end */
            nextCursor: string | null;
            symbol: string;
        };
        GetOAuthServerMetadataResponse: {
            authorization_endpoint: string;
            authorization_response_iss_parameter_supported: boolean;
            code_challenge_methods_supported: string[];
            grant_types_supported: string[];
            issuer: string;
            response_types_supported: string[];
            revocation_endpoint: string;
            revocation_endpoint_auth_methods_supported: string[];
            scopes_supported: string[];
            service_documentation: string;
            token_endpoint: string;
            token_endpoint_auth_methods_supported: string[];
        };
        GetOnchainNetflowResponse: {
            asset: string | null;
            chain: string | null;
            coverage: {
                chain: string;
                from: string | null;
                through: string | null;
            }[];
            data: {
                /** @description Deposits and withdrawals in the bucket */
                flows: number;
                /** @description True when the stored flows do not cover the whole bucket (before the first indexed block, or past the checkpoint: the indexer behind); its sums are partial */
                gap: boolean;
                /** @description Deposits in asset units (exact decimal); null without an asset filter */
                inflow: string | null;
                inflowUsd: number;
                /** @description inflow − outflow in asset units */
                netflow: string | null;
                netflowUsd: number;
                /** @description Withdrawals in asset units */
                outflow: string | null;
                outflowUsd: number;
                /**
                 * Format: date-time
                 * @description Bucket start
                 */
                time: string;
                /** @description Bucket start in epoch milliseconds */
                timestamp: number;
                /** @description Flows without a USD value (left out of the USD sums) */
                unpriced: number;
            }[];
            exchange: string | null;
            /** Format: date-time */
            from: string;
            interval: "1h" | "1d";
            labels: {
                version: string;
            };
            /**
             * Format: date-time
             * @description End of the last bucket (exclusive)
             */
            to: string;
        };
        GetPredictionPerformanceResponse: {
            data: {
                brier?: number;
                /** @description Murphy decomposition on the equal-mass bins: Brier ≈ reliability − resolution + uncertainty */
                brierDecomposition?: {
                    reliability: number;
                    resolution: number;
                    uncertainty: number;
                };
                calibration?: {
                    count: number;
                    hitRate: number | null;
                    lower: number | null;
                    meanConfidence: number | null;
                    upper: number | null;
                }[];
                calibrationEqualMass?: {
                    count: number;
                    hitRate: number | null;
                    lower: number | null;
                    meanConfidence: number | null;
                    upper: number | null;
                }[];
                /** @description Spread of confidence (sharpness) */
                confidence?: {
                    max: number | null;
                    min: number | null;
                    sd: number | null;
                };
                /** @description Scored live datapoints in the record (backfilled ones are not counted) */
                count: number;
                coverage80?: number;
                /** @description 80 % coverage in the low, middle and high tercile of the predictive σ */
                coverage80BySigmaTercile?: (number | null)[];
                coverage90?: number;
                crpsSkillVsRandomWalk?: number;
                /** @description 1 − CRPS / CRPS of the calibrated zero-mean reference (19 published quantiles) */
                crpsSkillVsReference?: number;
                dieboldMarianoVsReference?: {
                    pValue: number | null;
                    statistic: number | null;
                };
                /** @description Expected calibration error, ten equal-width bins of confidence */
                ece?: number;
                /** @description Expected calibration error, ten equal-mass bins (deciles) */
                eceEqualMass?: number;
                /** Format: date-time */
                from: string;
                hitRate?: number;
                /** @description HAC (Newey–West) standard error of the hit rate; overlapping horizons correlate outcomes */
                hitRateSE?: number | null;
                horizon: string;
                /** @description Datapoints needed before figures are shown: 30 independent outcomes, i.e. 30 × the horizon ÷ the refresh period (outcomes of overlapping horizons are correlated) */
                minSample: number;
                /** @description The fitted volatility references, scored on the same outcomes; shown per reference once enough datapoints carry it */
                references: {
                    /** @description The forecasts against GARCH(1,1), fitted live on the same bars */
                    garch: {
                        /** @description The figures are shown: at least minSample scored datapoints carry this reference’s CRPS */
                        available: boolean;
                        /** @description Scored live datapoints that carry a GARCH(1,1) forecast (made after its first fit): the pairs compared */
                        count: number;
                        /** @description 1 − CRPS / CRPS of GARCH(1,1) over those datapoints, both on the 19 published quantiles */
                        crpsSkill?: number;
                        /** @description Diebold–Mariano on CRPS − CRPS of GARCH(1,1) (negative: the forecast's is smaller), HAC variance with lag ≥ the horizon's overlap − 1 */
                        dieboldMariano?: {
                            pValue: number | null;
                            statistic: number | null;
                        };
                        /** @description Why the figures are absent (no fit yet, or too few scored datapoints) */
                        reason?: string;
                    };
                    /** @description The forecasts against HAR-RV, fitted live on the same bars */
                    har_rv: {
                        /** @description The figures are shown: at least minSample scored datapoints carry this reference’s CRPS */
                        available: boolean;
                        /** @description Scored live datapoints that carry a HAR-RV forecast (made after its first fit): the pairs compared */
                        count: number;
                        /** @description 1 − CRPS / CRPS of HAR-RV over those datapoints, both on the 19 published quantiles */
                        crpsSkill?: number;
                        /** @description Diebold–Mariano on CRPS − CRPS of HAR-RV (negative: the forecast's is smaller), HAC variance with lag ≥ the horizon's overlap − 1 */
                        dieboldMariano?: {
                            pValue: number | null;
                            statistic: number | null;
                        };
                        /** @description Why the figures are absent (no fit yet, or too few scored datapoints) */
                        reason?: string;
                    };
                };
                /** @description insufficient: count < minSample, and the figures below are left out rather than shown */
                sample: "sufficient" | "insufficient";
                /** @description Share of datapoints with prediction = baseline */
                shareFlat?: number;
                symbol: string;
                /** Format: date-time */
                to: string;
            }[];
            /** @description Outages of the model refresh in the last 30 days: the record has no datapoints there. */
            gaps: {
                /**
                 * Format: date-time
                 * @description The last refresh before the outage.
                 */
                from: string;
                /** @description Refresh points with no datapoint in between. */
                missedPoints: number;
                /**
                 * Format: date-time
                 * @description The first refresh after it.
                 */
                to: string;
            }[];
            /** Format: date-time */
            generatedAt: string;
            modelVersion: string;
            randomWalk: string;
            reference: string;
            /** @description How each fitted reference is made */
            references: {
                garch: string;
                har_rv: string;
            };
        };
        GetSignInMethodsResponse: {
            /** @description Whether POST /auth/login accepts an email and password. */
            password: boolean;
            /** @description Single sign-on with an OpenID Connect provider; null when not configured. */
            sso: {
                /** @description False while the provider's discovery document could not be read (see /readyz). */
                available: boolean;
                /** @description Why it is not available, for people. */
                message?: string;
                /** @description The provider, for the "Sign in with …" button. */
                name: string;
                /** @description Where the browser goes to sign in (GET, a redirect). */
                startUrl: string;
            } | null;
        };
        ImportPortfolioRequest: {
            /** @description At most 200 rows */
            rows: {
                /** @description ISO 8601 (UTC unless an offset is given) or epoch seconds / milliseconds */
                acquiredAt?: (string | number) | null;
                /** @description Ticker or name: BTC, XBT, bitcoin, ETH, … */
                asset: string;
                /** @description Total cost of the row (not per unit), in costCurrency */
                costBasis?: (string | number) | null;
                /** @description USD (default); USDT, USDC, … count as USD */
                costCurrency?: string | null;
                /** @description Your id for the row: importing it again updates the row instead of adding one */
                externalId?: string | null;
                note?: string | null;
                /**
                 * @description Exact decimal: a JSON number or a decimal string; stored exactly (no float rounding)
                 * @example 0.000000012345678901
                 * @example 8125.5
                 */
                quantity: string | number;
                venue?: string | null;
            }[];
        };
        Invitation: {
            /** Format: date-time */
            createdAt: string;
            createdBy: string;
            /** @description null: anyone with the link may accept */
            email: string | null;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            organizationId: string;
            role: "owner" | "admin" | "member" | "viewer";
        };
        LedgerEntry: {
            /** @description Made after the fact by the walk-forward backfill, not live (also in the payload) */
            backfilled: boolean;
            /** Format: date-time */
            generatedAt: string;
            /** @description SHA-256 (lower-case hex) of the UTF-8 text `<prevHash>\n<sequence>\n<recordedAtMs>\n<payload>` */
            hash: string;
            /** @enum {string} */
            horizon: "15m" | "1h" | "6h";
            /** @description The scored outcome, once the horizon has passed (not hashed: it comes after the entry); null until then or once the datapoint is no longer stored */
            outcome: null | {
                covered80: boolean;
                covered90: boolean;
                hit: boolean;
                realized: number;
                /** Format: date-time */
                scoredAt: string;
            };
            /** @description The datapoint as published, in canonical JSON (RFC 8785: sorted keys, no whitespace): the exact bytes hashed */
            payload: string;
            /** @description The previous entry’s hash; 64 zeros for entry 1 */
            prevHash: string;
            /** @description When the entry was appended, ms since the epoch (hashed) */
            recordedAtMs: number;
            /** @description Position in the chain, from 1, without gaps */
            sequence: number;
            symbol: string;
            /**
             * Format: date-time
             * @description When the entry was appended (recordedAtMs)
             */
            time: string;
        };
        LevelProbabilities: {
            /** @description The newest datapoint of this symbol and horizon, which the probabilities come from */
            datapoint: {
                /** @description The datapoint was made after the fact over stored candles (warm-up), not live */
                backfilled: boolean;
                /** @description Merged mid price at generatedAt */
                baseline: number;
                /**
                 * Format: date-time
                 * @description When the forecast was made
                 */
                generatedAt: string;
                /** @enum {string} */
                horizon: "15m" | "1h" | "6h";
                modelVersion: string;
                /** @description Median forecast price at generatedAt + horizon */
                prediction: number;
                /** @description p05…p95 of the forecast price: the distribution the probabilities are read from */
                quantiles: {
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
                /** @description What the forecasts are made from: simulated, replay or ccxt:<venues> */
                source: string;
                /** @description generatedAt is older than 2.5 refresh periods now */
                stale: boolean;
            };
            /** @enum {string} */
            horizon: "15m" | "1h" | "6h";
            levels: {
                /** @description Calibrated probability that the price at generatedAt + horizon is above the level */
                endAbove: number;
                /** @description The price asked about */
                level: number;
                /** @description Probability that the price reaches the level before generatedAt + horizon (1 at the baseline); see touchMethod */
                touch: number;
                /** @description empirical: learned walk-forward from how far past paths went; reflection: the reflection principle on the same distribution, a lower bound, until enough outcomes are held */
                touchMethod: "empirical" | "reflection";
            }[];
            symbol: string;
        };
        LiquidationsAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /** @enum {string} */
                op: "above";
                /**
                 * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                 * @enum {string}
                 */
                side: "long" | "short" | "any";
                /** @description USD liquidated over the window */
                value: number;
                /** @enum {string} */
                window: "1h" | "4h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "liquidations";
        };
        ListAlertChannelDeliveriesResponse: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as cursor for older deliveries */
            nextCursor: string | null;
        };
        ListAlertChannelsResponse: {
            data: components["schemas"]["AlertChannel"][];
        };
        ListAlertDeliveriesResponse: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as cursor for older deliveries */
            nextCursor: string | null;
        };
        ListAlertRulesResponse: {
            applied: {
                limit: number;
            };
            data: components["schemas"]["AlertRule"][];
            /** @description Pass as cursor for the next page */
            nextCursor: string | null;
        };
        ListAuditLogResponse: {
            applied: {
                limit: number;
            };
            data: {
                /** @enum {string} */
                action: "auth.sign_in" | "auth.sign_out" | "auth.two_factor" | "token.create" | "token.rotate" | "token.revoke" | "user.create" | "user.role_change" | "user.plan_change" | "two_factor.enrol" | "two_factor.disable" | "two_factor.recovery_code_use" | "webhook.create" | "webhook.rotate" | "webhook.delete" | "channel.create" | "channel.verify" | "channel.test" | "channel.delete" | "alert_rule.delete" | "label.delete" | "portfolio.import" | "portfolio.row_delete" | "portfolio.delete" | "oauth.client_create" | "oauth.client_delete" | "oauth.grant" | "oauth.grant_revoke" | "organization.create" | "organization.update" | "organization.plan_change" | "organization.invite" | "organization.invitation_revoke" | "organization.join" | "organization.member_role_change" | "organization.member_remove" | "organization.leave" | "organization.transfer";
                /** @description The user who acted; null when unknown */
                actorId: string | null;
                /** @description The client address (null: not over HTTP) */
                address: string | null;
                /** Format: date-time */
                at: string;
                /**
                 * @description How the actor authenticated: session, token, password (sign-in), sso (single sign-on), operator (CLI), none
                 * @enum {string}
                 */
                credential: "session" | "token" | "password" | "sso" | "operator" | "none";
                detail: {
                    [key: string]: string | number | boolean | null;
                } | null;
                id: string;
                outcome: "success" | "failure";
                /** @description What the action concerned, as kind:id */
                target: string | null;
            }[];
            /** @description Pass as cursor for the next (older) page */
            nextCursor: string | null;
        };
        ListInvitationsResponse: {
            data: components["schemas"]["Invitation"][];
        };
        ListLabelsResponse: {
            data: {
                /** @description Lower case */
                address: string;
                chain: string;
                /** Format: date-time */
                createdAt: string;
                id: string;
                /**
                 * @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
                 * @enum {string}
                 */
                kind: "exchange" | "fund" | "wallet";
                name: string;
                /** Format: date-time */
                updatedAt: string;
            }[];
            /** @description Pass as cursor for older labels */
            nextCursor: string | null;
        };
        ListOAuthClientsResponse: {
            data: components["schemas"]["OAuthClient"][];
        };
        ListOAuthGrantsResponse: {
            data: components["schemas"]["OAuthGrant"][];
        };
        ListOnchainExchangesResponse: {
            chains: {
                addresses: number;
                chain: string;
                exchanges: number;
            }[];
            data: {
                addresses: number;
                chains: {
                    addresses: number;
                    chain: string;
                }[];
                /** @description Canonical name (okex → okx, huobi → htx) */
                exchange: string;
                /** @description One of the exchanges the service knows by name (also a market venue) */
                known: boolean;
            }[];
            labels: {
                addresses: number;
                sources: {
                    /** @description File name, in the order applied (later files override) */
                    file: string;
                    /** @description Entries that are not exchange wallets (explorer exports) */
                    ignored: number;
                    labels: number;
                    /** @description Rows not used (logged at start with file and line) */
                    problems: number;
                    /** @description Declared version, <commit>@<date> of its SOURCE file, or a hash */
                    version: string;
                }[];
                /** @description Content hash of the merged labels (flows carry it) */
                version: string;
            };
        };
        ListOnchainFlowsResponse: {
            applied: {
                asset: string | null;
                chain: string | null;
                direction: string | null;
                exchange: string | null;
                limit: number;
            };
            data: components["schemas"]["OnchainFlow"][];
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
                chain: string | null;
                exchange: string | null;
            };
        };
        ListOrganizationMembersResponse: {
            data: components["schemas"]["OrganizationMember"][];
        };
        ListOrganizationsResponse: {
            data: components["schemas"]["Organization"][];
        };
        ListPortfolioImportsResponse: {
            data: {
                /** Format: date-time */
                createdAt: string;
                format: string;
                id: string;
                idempotencyKey: string | null;
                inserted: number;
                rows: number;
                unchanged: number;
                updated: number;
            }[];
        };
        ListPortfolioRowsResponse: {
            data: {
                acquiredAt: string | null;
                asset: string;
                costBasis: string | null;
                costCurrency: string | null;
                /** Format: date-time */
                createdAt: string;
                externalId: string | null;
                id: string;
                importId: string;
                note: string | null;
                quantity: string;
                /** Format: date-time */
                updatedAt: string;
                venue: string | null;
            }[];
        };
        ListPredictionLedgerResponse: {
            data: components["schemas"]["LedgerEntry"][];
            /** @description The ledger’s newest entry now (also the `Meridian-Ledger-Head` header) */
            head: {
                /** @description The newest entry’s hash (64 zeros while empty) */
                hash: string;
                sequence: number;
            };
            /** @description Pass as `cursor` for the next page; null at the end */
            nextCursor: string | null;
        };
        ListPredictionsResponse: {
            data: components["schemas"]["PredictionDatapoint"][];
        };
        ListTokensResponse: {
            applied: {
                limit: number;
            };
            data: components["schemas"]["Token"][];
            /** @description Pass as cursor for the next page */
            nextCursor: string | null;
        };
        ListWebhookDeliveriesResponse: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as cursor for older deliveries */
            nextCursor: string | null;
        };
        ListWebhooksResponse: {
            data: components["schemas"]["Webhook"][];
        };
        LoginCodeRequest: {
            challenge: string;
            /** @description The 6-digit TOTP code, or a recovery code */
            code: string;
        };
        LoginCodeResponse: {
            email: string;
            role: string;
            /** @enum {string} */
            step: "done";
        };
        LoginEnrolConfirmRequest: {
            challenge: string;
            /** @description The 6-digit TOTP code, or a recovery code */
            code: string;
        };
        LoginEnrolConfirmResponse: {
            email: string;
            /** @description Ten recovery codes, each usable once instead of a TOTP code. Shown once, never again. */
            recoveryCodes: string[];
            role: string;
            /** @enum {string} */
            step: "done";
        };
        LoginEnrolRequest: {
            challenge: string;
        };
        LoginRequest: {
            email: string;
            password: string;
        };
        LoginResponse: {
            email: string;
            role: string;
            /** @enum {string} */
            step: "done";
        } | {
            /** @description Identifies this sign-in in the next step; valid 5 minutes */
            challenge: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description code: send a TOTP or recovery code to /auth/login/code; enrol: the server requires two-factor sign-in and this account has none yet (/auth/login/enrol, then /auth/login/enrol/confirm) */
            step: "code" | "enrol";
        };
        MarketData: {
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
        OAuthClient: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            redirectUris: string[];
            registeredBy: "operator" | "account";
            type: "public" | "confidential";
        };
        OAuthErrorResponse: {
            /** @description RFC 6749 §5.2 error code */
            error: string;
            error_description: string;
        };
        OAuthGrant: {
            client: {
                id: string;
                name: string;
            };
            /** Format: date-time */
            createdAt: string;
            id: string;
            scopes: string[];
        };
        OauthTokenResponse: {
            /** @description An API token (`mrd_…`) limited to the granted scopes */
            access_token: string;
            /** @description Seconds the access token is valid */
            expires_in: number;
            /** @description Single use: each refresh answers a new one (`mrr_…`) */
            refresh_token: string;
            /** @description The granted permissions, space-separated */
            scope: string;
            /** @enum {string} */
            token_type: "Bearer";
        };
        OnchainFlow: {
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
                /** @description The caller's own label for this address (POST /api/labels); no one else sees it */
                privateLabel?: {
                    id: string;
                    /**
                     * @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
                     * @enum {string}
                     */
                    kind: "exchange" | "fund" | "wallet";
                    name: string;
                } | null;
            };
            /** @description chain:txHash:logIndex:exchange — the idempotency key */
            id: string;
            kind: "native" | "token";
            /** @description Version hash of the label set that classified the flow (null for flows stored before versions were kept) */
            labelVersion: string | null;
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
                /** @description The caller's own label for this address (POST /api/labels); no one else sees it */
                privateLabel?: {
                    id: string;
                    /**
                     * @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
                     * @enum {string}
                     */
                    kind: "exchange" | "fund" | "wallet";
                    name: string;
                } | null;
            };
            tokenAddress: string | null;
            txHash: string;
            /** @description USD at the block time, rounded to cents */
            usdValue: number | null;
        };
        /** @description An address_flow rule fired (event type onchain.flow), or its follow-up after a reorg */
        OnchainFlowEvent: {
            data: {
                /** @description The flow as GET /api/onchain/flows shows it */
                flow?: {
                    [key: string]: unknown;
                };
                note?: string;
                reason?: string;
                removedFlowId?: string;
                /** @description removed only: the evt_… id of the retracted event */
                replaces?: string;
                rule: {
                    channels: {
                        channelIds?: string[];
                        events: boolean;
                        webhookIds: string[];
                    };
                    condition: {
                        /**
                         * @description The forecast horizon whose datapoints are read
                         * @enum {string}
                         */
                        horizon: "15m" | "1h" | "6h";
                        /**
                         * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                         * @enum {string}
                         */
                        kind: "end_above" | "touch";
                        /** @description The price level (quote currency) */
                        level: number;
                        /**
                         * @description above: the probability is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                        value: number;
                    } | {
                        /** @enum {string} */
                        op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                        /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                        value: number;
                        /**
                         * @description change_pct only: the window the change is measured over
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /** @description Quote volume (USD) over the window */
                        value: number;
                        /** @enum {string} */
                        window: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /** @description A 0x address (either party of a flow) */
                        address?: string;
                        /** @description ETH, USDT, … (absent: any) */
                        asset?: string;
                        /**
                         * @description in: into the exchange or address; out: out of it; any: either
                         * @enum {string}
                         */
                        direction: "in" | "out" | "any";
                        /** @description binance, okx, … (aliases) */
                        exchange?: string;
                        /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                        label?: string;
                        /** @description USD: a single transfer, or the windowed sum, of at least this */
                        minUsd: number;
                        /**
                         * @description Absent: each single transfer; present: the sum over the window
                         * @enum {string}
                         */
                        window?: "5m" | "15m" | "1h" | "24h";
                    } | {
                        /**
                         * @description above: the rate is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                        value: number;
                    } | {
                        /**
                         * @description above: the change is above value; below: under it
                         * @enum {string}
                         */
                        op: "above" | "below";
                        /** @description Percent change of open interest (USD) over the window; negative = a fall */
                        value: number;
                        /**
                         * @description The change is measured against the value this long ago
                         * @enum {string}
                         */
                        window: "1h" | "4h" | "24h";
                    } | {
                        /** @enum {string} */
                        op: "above";
                        /**
                         * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                         * @enum {string}
                         */
                        side: "long" | "short" | "any";
                        /** @description USD liquidated over the window */
                        value: number;
                        /** @enum {string} */
                        window: "1h" | "4h" | "24h";
                    };
                    id: string;
                    name: string;
                    symbol?: string;
                    template?: string | null;
                    trigger: {
                        cooldownSec: number;
                        /** @enum {string} */
                        mode: "once" | "every";
                    };
                    /** @enum {string} */
                    type: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
                };
                /**
                 * @description removed: a reorg took away the flow of an earlier event
                 * @enum {string}
                 */
                status: "confirmed" | "removed";
                trigger: {
                    /**
                     * Format: date-time
                     * @description Time of the market or chain event
                     */
                    eventAt?: string;
                    /**
                     * Format: date-time
                     * @description When the evaluator fired
                     */
                    firedAt: string;
                    /** @description trg_… */
                    id: string;
                    /** @description The event key: unique per rule (exactly once) */
                    key?: string;
                    replacesTrigger?: string;
                    test?: boolean;
                    /** @description The observed value: price, change %, quote volume, USD, probability */
                    value?: number;
                };
                window?: {
                    flows: number;
                    sumUsd: number;
                    /** @enum {string} */
                    window: "5m" | "15m" | "1h" | "24h";
                };
            };
            /** @description evt_… — also the webhook-id header */
            id: string;
            /** @description true for POST /api/alerts/:id/test */
            test: boolean;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "onchain.flow";
            /** @enum {number} */
            version: 1;
        };
        OpenInterestAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /**
                 * @description above: the change is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Percent change of open interest (USD) over the window; negative = a fall */
                value: number;
                /**
                 * @description The change is measured against the value this long ago
                 * @enum {string}
                 */
                window: "1h" | "4h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "open_interest";
        };
        Organization: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            /** @description The user's own organization: one member, no invitations */
            personal: boolean;
            plan: "standard" | "pro";
            /** @description Members must have two-factor sign-in on to act in it */
            requireTwoFactor: boolean;
            role: "owner" | "admin" | "member" | "viewer";
        };
        OrganizationMember: {
            email: string;
            /** Format: date-time */
            joinedAt: string;
            role: "owner" | "admin" | "member" | "viewer";
            userId: string;
        };
        /** @description symbols=…: one entry per distinct symbol, in the order given */
        OutlookBatch: {
            data: (components["schemas"]["OutlookEntry"] | components["schemas"]["OutlookEntryError"])[];
        };
        OutlookEntry: {
            /** @description The newest datapoint this outlook summarizes (the data's own clock); null before the first */
            asOf: string | null;
            /** @description The symbol's model is still warming up */
            backfilling: boolean;
            outlook: {
                /** @enum {string} */
                bias: "bullish" | "bearish" | "neutral";
                confidence: number;
                drivers: {
                    /** @enum {string} */
                    direction: "bullish" | "bearish" | "neutral";
                    factor: string;
                    /** @description What the factor's inputs read now, with units (funding % per 8 h, realized volatility against its median, …), and whether the model has earned a direction from it */
                    reason: string;
                    weight: number;
                }[];
                /** @description Outages of the model refresh in the last 30 days (as in the performance report) */
                gaps: {
                    /**
                     * Format: date-time
                     * @description The last refresh before the outage.
                     */
                    from: string;
                    /** @description Refresh points with no datapoint in between. */
                    missedPoints: number;
                    /**
                     * Format: date-time
                     * @description The first refresh after it.
                     */
                    to: string;
                }[];
                /** Format: date-time */
                generatedAt: string;
                horizons: {
                    [key: string]: {
                        /**
                         * @description bullish or bearish only where the direction passed its evidence test (directionEarned)
                         * @enum {string}
                         */
                        bias: "bullish" | "bearish" | "neutral";
                        confidence: number;
                        /** @description The forecast's direction passed its evidence test: its mean is non-zero only because a member's walk-forward record earned it, and the published side agrees (market-wide: for some symbol) */
                        directionEarned: boolean;
                        expectedMovePct: number;
                        /** @description The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols) */
                        interval80Pct: {
                            high: number;
                            low: number;
                        };
                        /** @description What this horizon says, in one sentence */
                        message: string;
                        score: number;
                    };
                };
                /** @description One sentence: the bias where the record earns a direction, else neutral with the 1h 80 % interval */
                message: string;
                modelVersion: string;
                score: number;
                symbol: string | null;
            };
            /** @description The entry as sent */
            requested: string;
            /** @description What the forecasts are made from: simulated, replay or ccxt:<venues> */
            source: string;
            /** @description asOf is older than 2.5 refresh periods now (or absent) */
            stale: boolean;
            /** @description The supported symbol it was normalized to */
            symbol: string;
        };
        OutlookEntryError: {
            /** @description Why this entry has no outlook (the problem it would get on its own, with strict) */
            error: {
                code: string;
                detail: string;
                status: number;
                title: string;
            };
            /** @description The entry as sent */
            requested: string;
            symbol: null;
        };
        Portfolio: {
            /** Format: date-time */
            asOf: string;
            holdings: {
                allocationPct: number | null;
                asset: string;
                change24hPct: number | null;
                /** @description USD, decimal string rounded to the cent */
                change24hUsd: string | null;
                /** @description null when a row has no cost basis */
                costBasisUsd: string | null;
                /** @description Merged market mid in USD; null when unpriced */
                price: number | null;
                priceAsOf: string | null;
                /** @description Exact sum of the rows */
                quantity: string;
                rows: number;
                unrealizedPnlPct: number | null;
                /** @description USD, decimal string rounded to the cent */
                unrealizedPnlUsd: string | null;
                /** @description USD, decimal string rounded to the cent */
                valueUsd: string | null;
            }[];
            /** @description The market source prices come from: simulated, replay or ccxt */
            priceSource: string;
            totals: {
                assetsWithoutCost: string[];
                change24hPct: number | null;
                change24hUsd: string;
                /** @description Over holdings with a price and a full cost basis */
                costBasisUsd: string;
                /** @description Held but not valued (never counted as 0) */
                unpricedAssets: string[];
                unrealizedPnlPct: number | null;
                unrealizedPnlUsd: string;
                /** @description Sum over priced holdings */
                valueUsd: string;
            };
        };
        PortfolioImportResult: {
            dryRun: boolean;
            format: "json" | "csv";
            /** @description CSV columns that map to no field */
            ignoredColumns?: string[];
            /** @description null for a dry run */
            importId: string | null;
            inserted: number;
            rows: number;
            unchanged: number;
            updated: number;
        };
        PredictionDatapoint: {
            /** @description include=backfilled: true when the datapoint was made after the fact (walk-forward over stored candles, on a fresh install or after an outage), not live; such datapoints are left out of the track record */
            backfilled?: boolean;
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
        PreviewAlertTemplateRequest: {
            rule?: {
                /** @description The rule's condition as it would be saved */
                condition?: {
                    [key: string]: unknown;
                };
                name?: string;
                symbol?: string;
            };
            /** @description price (default), volume, address_flow, … */
            ruleType?: string;
            /** @description The template being edited; absent: the rule type's default */
            template?: string;
        };
        PriceAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /** @enum {string} */
                op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                value: number;
                /**
                 * @description change_pct only: the window the change is measured over
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "price";
        };
        PrivateLabel: {
            /** @description Lower case */
            address: string;
            chain: string;
            /** Format: date-time */
            createdAt: string;
            id: string;
            /**
             * @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
             * @enum {string}
             */
            kind: "exchange" | "fund" | "wallet";
            name: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ProbabilityAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /**
                 * @description The forecast horizon whose datapoints are read
                 * @enum {string}
                 */
                horizon: "15m" | "1h" | "6h";
                /**
                 * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                 * @enum {string}
                 */
                kind: "end_above" | "touch";
                /** @description The price level (quote currency) */
                level: number;
                /**
                 * @description above: the probability is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                value: number;
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "probability";
        };
        /** @description RFC 9457 problem document */
        Problem: {
            code: components["schemas"]["ProblemCode"];
            detail: string;
            errors?: {
                message: string;
                pointer: string;
            }[];
            instance: string;
            requestId: string;
            status: number;
            /** @description unsupported_symbol: the symbols this server supports */
            supported?: string[];
            title: string;
            type: string;
        };
        /**
         * @description The stable error code; `type` is `/problems/{code}`. `validation_failed` (400): The request is not valid; `unsupported_symbol` (400): The symbol is not supported; `unknown_exchange` (400): The exchange is not known; `bad_request` (400): The request cannot be processed; `url_not_allowed` (400): The webhook URL is not allowed; `unauthenticated` (401): Authentication is required; `invalid_token` (401): The access token is not valid; `invalid_credentials` (401): The email or password is wrong; `invalid_code` (400): The two-factor code is wrong or was already used; `session_required` (401): A signed-in console session is required; `forbidden` (403): The credentials lack a required permission; `csrf_rejected` (403): The request did not come from the console; `password_sign_in_disabled` (403): Password sign-in is turned off on this server; `not_found` (404): The resource does not exist; `route_not_found` (404): No such route; `method_not_allowed` (405): The method is not allowed on this route; `request_timeout` (408): The request did not arrive in time; `conflict` (409): The request conflicts with the current state; `alert_limit_reached` (409): The plan's limit of active alert rules is reached; `token_expired` (409): The token has expired; `token_limit_reached` (409): The plan's limit of active API tokens is reached; `label_limit_reached` (409): The limit of private labels per account is reached; `channel_test_limit_reached` (409): The alert channel's hourly limit of test messages is reached; `idempotency_conflict` (409): The idempotency key was used with another request; `idempotency_key_in_use` (409): A request with this idempotency key is still being processed; `payload_too_large` (413): The request body is too large; `unsupported_media_type` (415): The request body has an unsupported media type; `misdirected_request` (421): This server does not answer to the requested host; `unprocessable` (422): The request is well-formed but cannot be applied; `idempotency_key_reused` (422): The idempotency key was used with a different request; `upgrade_required` (426): This endpoint needs a WebSocket upgrade; `headers_too_large` (431): The request headers are too large; `rate_limited` (429): Too many requests; `auth_rate_limited` (429): Too many failed authentication attempts; `too_many_connections` (429): The account has too many open push connections; `internal` (500): Internal error; `unavailable` (503): The service is temporarily unavailable; `not_configured` (503): The server is not configured for this feature; `storage_unavailable` (503): The database is temporarily unavailable.
         * @enum {string}
         */
        ProblemCode: "validation_failed" | "unsupported_symbol" | "unknown_exchange" | "bad_request" | "url_not_allowed" | "unauthenticated" | "invalid_token" | "invalid_credentials" | "invalid_code" | "session_required" | "forbidden" | "csrf_rejected" | "password_sign_in_disabled" | "not_found" | "route_not_found" | "method_not_allowed" | "request_timeout" | "conflict" | "alert_limit_reached" | "token_expired" | "token_limit_reached" | "label_limit_reached" | "channel_test_limit_reached" | "idempotency_conflict" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "misdirected_request" | "unprocessable" | "idempotency_key_reused" | "upgrade_required" | "headers_too_large" | "rate_limited" | "auth_rate_limited" | "too_many_connections" | "internal" | "unavailable" | "not_configured" | "storage_unavailable";
        RotateTokenResponse201: {
            details: components["schemas"]["Token"];
            /** @description The secret. Shown once, never again: store it now. */
            token: string;
        };
        RotateWebhookSecretResponse: {
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            disabledReason: string | null;
            events: ("alert.triggered" | "onchain.flow" | "alert.capped")[];
            /** @description wh_… */
            id: string;
            /** @description After a rotation: until when the previous secret still signs (a second signature) */
            previousSecretExpiresAt: string | null;
            /** @description The signing secret (whsec_…). Shown in this answer only, never again: store it now. */
            secret: string;
            /** @description disabled: the receiver answered 410 Gone; nothing more is sent to it */
            status: "enabled" | "disabled";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        SaveLabelRequest: {
            /** @description A 0x address (any case) */
            address: string;
            /** @description Chain name as the flows show it: ethereum, bsc, polygon, arbitrum, … */
            chain: string;
            /**
             * @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
             * @enum {string}
             */
            kind: "exchange" | "fund" | "wallet";
            /** @description Shown in the account’s views */
            name: string;
        };
        TestAlertRuleResponse202: {
            /** @description evt_… — the event appended to the account event log */
            eventId: string;
            /** @description trg_… */
            triggerId: string;
        };
        Token: {
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            id: string;
            /** @description Updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description null: all of the owner's permissions */
            permissions: ("market:read" | "onchain:read" | "onchain:write" | "predictions:read" | "alerts:read" | "alerts:write" | "portfolio:read" | "portfolio:write" | "account:read" | "users:manage")[] | null;
            revokedAt: string | null;
            /** @description The first characters of the secret, to tell tokens apart */
            start: string;
            status: "active" | "expired" | "revoked";
        };
        TransferOrganizationRequest: {
            /** @description The member who becomes the owner */
            userId: string;
        };
        TwoFactorSecret: {
            /** @description The TOTP secret (base32). Shown once, never again. */
            secret: string;
            /** @description The same secret as an otpauth:// URI, for an authenticator app */
            uri: string;
        };
        TwoFactorStatus: {
            enabled: boolean;
            /** @description Unused recovery codes (0 when two-factor is off) */
            recoveryCodesLeft: number;
            /** @description The server requires two-factor sign-in for every password account */
            required: boolean;
        };
        UpdateAlertRuleRequest: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition?: {
                /**
                 * @description The forecast horizon whose datapoints are read
                 * @enum {string}
                 */
                horizon: "15m" | "1h" | "6h";
                /**
                 * @description end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
                 * @enum {string}
                 */
                kind: "end_above" | "touch";
                /** @description The price level (quote currency) */
                level: number;
                /**
                 * @description above: the probability is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it) */
                value: number;
            } | {
                /** @enum {string} */
                op: "crosses_above" | "crosses_below" | "above" | "below" | "change_pct";
                /** @description A price in quote currency; for change_pct a percent (negative = a fall of more than it) */
                value: number;
                /**
                 * @description change_pct only: the window the change is measured over
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            } | {
                /** @enum {string} */
                op: "above";
                /** @description Quote volume (USD) over the window */
                value: number;
                /** @enum {string} */
                window: "5m" | "15m" | "1h" | "24h";
            } | {
                /** @description A 0x address (either party of a flow) */
                address?: string;
                /** @description ETH, USDT, … (absent: any) */
                asset?: string;
                /**
                 * @description in: into the exchange or address; out: out of it; any: either
                 * @enum {string}
                 */
                direction: "in" | "out" | "any";
                /** @description binance, okx, … (aliases) */
                exchange?: string;
                /** @description Id of one of the account's private labels (POST /api/labels): the rule watches its address */
                label?: string;
                /** @description USD: a single transfer, or the windowed sum, of at least this */
                minUsd: number;
                /**
                 * @description Absent: each single transfer; present: the sum over the window
                 * @enum {string}
                 */
                window?: "5m" | "15m" | "1h" | "24h";
            } | {
                /**
                 * @description above: the rate is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs */
                value: number;
            } | {
                /**
                 * @description above: the change is above value; below: under it
                 * @enum {string}
                 */
                op: "above" | "below";
                /** @description Percent change of open interest (USD) over the window; negative = a fall */
                value: number;
                /**
                 * @description The change is measured against the value this long ago
                 * @enum {string}
                 */
                window: "1h" | "4h" | "24h";
            } | {
                /** @enum {string} */
                op: "above";
                /**
                 * @description long: longs closed (a fall); short: shorts closed (a rise); any: both
                 * @enum {string}
                 */
                side: "long" | "short" | "any";
                /** @description USD liquidated over the window */
                value: number;
                /** @enum {string} */
                window: "1h" | "4h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            /**
             * @description paused: not evaluated; active: resume
             * @enum {string}
             */
            state?: "active" | "paused";
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol?: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
        };
        UpdateOrganizationRequest: {
            name?: string;
            requireTwoFactor?: boolean;
        };
        VerifyAlertChannelRequest: {
            /** @description The 6-digit code emailed */
            code: string;
        };
        VolumeAlertRuleInput: {
            channels?: {
                /** @description Alert channels (email, Telegram, Discord, Slack) that receive its messages */
                channelIds?: string[];
                /** @description Carry the events on the /events stream (default true) */
                events?: boolean;
                /** @description Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type */
                webhookIds?: string[];
            };
            condition: {
                /** @enum {string} */
                op: "above";
                /** @description Quote volume (USD) over the window */
                value: number;
                /** @enum {string} */
                window: "5m" | "15m" | "1h" | "24h";
            };
            expiresAt?: string | null;
            name?: string;
            /** @description Any accepted spelling: btc, BTC/USDT, … */
            symbol: string;
            template?: string | null;
            trigger?: {
                /** @description every: quiet time after a firing (default 300) */
                cooldownSec?: number;
                /**
                 * @description once (default): fire once, then triggered; every: each time
                 * @enum {string}
                 */
                mode?: "once" | "every";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "volume";
        };
        Webhook: {
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            disabledReason: string | null;
            events: ("alert.triggered" | "onchain.flow" | "alert.capped")[];
            /** @description wh_… */
            id: string;
            /** @description After a rotation: until when the previous secret still signs (a second signature) */
            previousSecretExpiresAt: string | null;
            /** @description disabled: the receiver answered 410 Gone; nothing more is sent to it */
            status: "enabled" | "disabled";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookDelivery: {
            attemptLog: {
                /** Format: date-time */
                at: string;
                attempt: number;
                error: string | null;
                latencyMs: number;
                /** @enum {string} */
                outcome: "delivered" | "http_error" | "gone" | "redirect" | "timeout" | "refused" | "network_error" | "rate_limited";
                statusCode: number | null;
            }[];
            attempts: number;
            /**
             * @description What the endpoint is: webhook, email, telegram, discord or slack
             * @enum {string}
             */
            channel: "webhook" | "email" | "telegram" | "discord" | "slack";
            /** Format: date-time */
            createdAt: string;
            eventId: string;
            /** @enum {string} */
            eventType: "alert.triggered" | "onchain.flow" | "alert.capped";
            finishedAt: string | null;
            /** @description msg_… — the webhook-id header of every attempt (stable across retries) */
            id: string;
            lastError: string | null;
            nextAttemptAt: string | null;
            ruleId: string | null;
            /** @description capped: not sent, because the rule or the account reached its hourly message cap */
            status: "pending" | "delivered" | "failed" | "capped";
            test: boolean;
            /** @description The endpoint: a webhook (wh_…) or an alert channel (ch_…) */
            webhookId: string;
        };
    };
    responses: {
        /** @description Problem document; `code` is one of `validation_failed`, `unsupported_symbol`, `unknown_exchange`, `bad_request`, `url_not_allowed`, `invalid_code` */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `conflict`, `alert_limit_reached`, `token_expired`, `token_limit_reached`, `label_limit_reached`, `channel_test_limit_reached`, `idempotency_conflict`, `idempotency_key_in_use` */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `forbidden`, `csrf_rejected`, `password_sign_in_disabled` */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `not_found`, `route_not_found` */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `payload_too_large` */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `unavailable`, `not_configured`, `storage_unavailable` */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `misdirected_request` */
        Status421: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `rate_limited`, `auth_rate_limited`, `too_many_connections` */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `unauthenticated`, `invalid_token`, `invalid_credentials`, `session_required` */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `unprocessable`, `idempotency_key_reused` */
        UnprocessableContent: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Problem document; `code` is one of `unsupported_media_type` */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Quota left in the current window: `"account";r=<remaining>;t=<seconds until one more request>` */
        RateLimit: string;
        /** @description The quota: `"account";q=<requests>;w=<window seconds>` */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before the next request is admitted */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOAuthServerMetadata: {
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
                    "application/json": components["schemas"]["GetOAuthServerMetadataResponse"];
                };
            };
            421: components["responses"]["Status421"];
        };
    };
    getAccount: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listTokens: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50; above 100 is clamped */
                limit?: number;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListTokensResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTokenRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateTokenResponse201"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeToken: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    rotateToken: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotateTokenResponse201"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTwoFactor: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorStatus"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    beginTwoFactor: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSecret"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    confirmTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmTwoFactorRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfirmTwoFactorResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    disableTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisableTwoFactorRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAccountUsage: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountUsage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAlertChannels: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAlertChannelsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertChannelRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertChannel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAlertChannel: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertChannel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteAlertChannel: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAlertChannelDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50 */
                limit?: number;
            };
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAlertChannelDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    testAlertChannel: {
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
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    verifyAlertChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyAlertChannelRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertChannel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    previewAlertTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreviewAlertTemplateRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertTemplatePreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAlertRules: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50; above 200 is clamped */
                limit?: number;
                state?: "active" | "paused" | "triggered" | "expired" | "failing" | "capped";
                type?: "price" | "volume" | "address_flow" | "funding" | "open_interest" | "liquidations" | "probability";
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAlertRulesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description An alert rule; the shape of `condition` depends on `type` */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAlertRule: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteAlertRule: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAlertDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50 */
                limit?: number;
            };
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAlertDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    testAlertRule: {
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
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestAlertRuleResponse202"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    backtestAlertRule: {
        parameters: {
            query?: {
                /** @description Days back from `to` (default 7); not with `from` */
                days?: number;
                /** @description Start of the window */
                from?: string;
                /** @description End of the window (default now) */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description An alert rule; the shape of `condition` depends on `type` */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BacktestAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertBacktest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                action?: "auth.sign_in" | "auth.sign_out" | "auth.two_factor" | "token.create" | "token.rotate" | "token.revoke" | "user.create" | "user.role_change" | "user.plan_change" | "two_factor.enrol" | "two_factor.disable" | "two_factor.recovery_code_use" | "webhook.create" | "webhook.rotate" | "webhook.delete" | "channel.create" | "channel.verify" | "channel.test" | "channel.delete" | "alert_rule.delete" | "label.delete" | "portfolio.import" | "portfolio.row_delete" | "portfolio.delete" | "oauth.client_create" | "oauth.client_delete" | "oauth.grant" | "oauth.grant_revoke" | "organization.create" | "organization.update" | "organization.plan_change" | "organization.invite" | "organization.invitation_revoke" | "organization.join" | "organization.member_role_change" | "organization.member_remove" | "organization.leave" | "organization.transfer";
                /** @description Only entries by this user id */
                actor?: string;
                cursor?: string;
                /** @description jsonl: every matching entry as JSON lines (same as Accept: application/x-ndjson) */
                format?: "json" | "jsonl";
                /** @description Entries at or after this time */
                from?: string;
                /** @description Default 50; above 200 is clamped */
                limit?: number;
                /** @description Entries before this time */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAuditLogResponse"];
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getDashboardAnalytics: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardAnalytics"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getDerivatives: {
        parameters: {
            query?: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetDerivativesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getDerivativesHistory: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /** @description ISO 8601 or ms since the epoch; inclusive */
                from?: string;
                /** @description 1m, 5m, 15m, 1h, 4h, 1d (other durations map to the nearest); default 1h */
                interval?: string;
                /** @description Points per page, up to 1000 (larger → 1000); default 500 */
                limit?: number;
                /** @description Which series; required unless `cursor` is given */
                metric?: "funding" | "open_interest" | "basis" | "liquidations";
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetDerivativesHistoryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInvitationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listLabels: {
        parameters: {
            query?: {
                chain?: string;
                cursor?: string;
                /** @description exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches */
                kind?: "exchange" | "fund" | "wallet";
                /** @description Default 50; above 200 is clamped */
                limit?: number;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListLabelsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    saveLabel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SaveLabelRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivateLabel"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivateLabel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteLabel: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMarketData: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page; send the same symbols, quote and notional with it */
                cursor?: string;
                /** @description Symbols per page; default 100, above 500 → 500 (reported in Meridian-Normalized) */
                limit?: number;
                /** @description USD notional of the slippage figures; default 100000 */
                notional?: number;
                /** @description Only symbols quoted in this currency: USDT (USD, USDC, BUSD, FDUSD, TUSD mean USDT), BTC, ETH, EUR or BNB, any case; anything else → 400 */
                quote?: string;
                /** @description Answer 400 for an unsupported symbol instead of normalizing it */
                strict?: boolean;
                /** @description Comma-separated symbols in any accepted spelling, answered in the order given; default: every supported symbol, in configured order */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetMarketDataResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMarketHistory: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetMarketHistoryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    checkOAuthAuthorization: {
        parameters: {
            query?: {
                /** @description The registered client id (`oac_…`) */
                client_id?: string;
                /** @description PKCE: BASE64URL(SHA-256(code_verifier)) */
                code_challenge?: string;
                /** @description Must be `S256` (`plain` is refused) */
                code_challenge_method?: string;
                /** @description One of the client’s registered redirect URIs, exactly */
                redirect_uri?: string;
                /** @description Must be `code` */
                response_type?: string;
                /** @description Permissions, space-separated, e.g. `market:read predictions:read` */
                scope?: string;
                /** @description Opaque value passed back on the redirect */
                state?: string;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckOAuthAuthorizationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    decideOAuthAuthorization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecideOAuthAuthorizationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecideOAuthAuthorizationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOAuthClients: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOAuthClientsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateOAuthClientResponse201"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteOAuthClient: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOAuthGrants: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOAuthGrantsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeOAuthGrant: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOnchainExchanges: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOnchainExchangesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOnchainFlows: {
        parameters: {
            query?: {
                /** @description ETH, USDT, USDC, WETH, … */
                asset?: string;
                /** @description An indexed chain: ethereum, arbitrum, bsc, … */
                chain?: string;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOnchainFlowsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getOnchainNetflow: {
        parameters: {
            query?: {
                /** @description Default: every asset (then only USD sums are given) */
                asset?: string;
                /** @description Default: every indexed chain */
                chain?: string;
                /** @description Default: every exchange */
                exchange?: string;
                /** @description ISO 8601 or epoch ms; default: 7 days (1h) or 90 days (1d) before to */
                from?: string;
                interval?: "1h" | "1d";
                /** @description ISO 8601 or epoch ms; default: now */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetOnchainNetflowResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOrganizations: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOrganizationsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrganizationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getOrganization: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listInvitations: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListInvitationsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateInvitationResponse201"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOrganizationMembers: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOrganizationMembersResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    removeOrganizationMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    changeOrganizationMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeOrganizationMemberRoleRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeOrganizationMemberRoleResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    transferOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferOrganizationRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPortfolio: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Portfolio"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deletePortfolio: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletePortfolioResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    importPortfolio: {
        parameters: {
            query?: {
                /** @description Validate and count only; store nothing */
                dryRun?: boolean;
            };
            header?: {
                /** @description Makes retries safe: the same key and body replay the first answer; another body with the key → 422; while the first runs → 409. Kept 24 h per account. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportPortfolioRequest"];
                "text/csv": string;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortfolioImportResult"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortfolioImportResult"];
                };
            };
            /** @description RFC 9457 problem; for invalid rows, `errors` lists every problem by row and field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        code: string;
                        detail: string;
                        errors?: {
                            /** @description CSV: the header of the column */
                            column?: string;
                            field?: string;
                            /** @description CSV: the line of the file the row starts on */
                            line?: number;
                            message: string;
                            /** @description e.g. /rows/146/quantity */
                            pointer: string;
                            /** @description 1-based: the first data row is 1 */
                            row: number;
                        }[];
                        instance: string;
                        requestId: string;
                        status: number;
                        /** @description unsupported_symbol: the symbols this server supports */
                        supported?: string[];
                        title: string;
                        type: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listPortfolioImports: {
        parameters: {
            query?: {
                limit?: number;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPortfolioImportsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listPortfolioRows: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPortfolioRowsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deletePortfolioRow: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listPredictions: {
        parameters: {
            query: {
                /** @description Start of a span of the stored record (ISO 8601 or epoch ms, inclusive); with from/to the page is the newest `limit` buckets of that span, from storage, beyond the 96 most recent */
                from?: string;
                /** @description Spacing 1m, 5m, 15m, 1h; normalized; default 15m */
                granularity?: string;
                /** @description 15m, 1h, 6h; normalized; default 1h */
                horizon?: string;
                /** @description Comma list of quantiles, outcome, modelVersion, backfilled */
                include?: string;
                /** @description Default 96; above 96 returns 96 */
                limit?: number;
                /** @description Answer 400 for an unsupported symbol (or a horizon or granularity that is no duration) instead of normalizing it */
                strict?: boolean;
                /** @description Trading pair; normalized to the supported set */
                symbol: string;
                /** @description End of the span (inclusive; default: the newest). To page back, ask again with `to` just before the first datapoint of the page */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPredictionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAiOutlook: {
        parameters: {
            query?: {
                /** @description Answer 400 for an unsupported symbol instead of normalizing it */
                strict?: boolean;
                /** @description One symbol (normalized to the supported set). Absent, and no `symbols`: market-wide */
                symbol?: string;
                /** @description Batch: comma-separated symbols (at most 25, any accepted spelling), answered as `{ data: [...] }` in the order given, duplicates once; an unsupported one gets its own `error` entry (with `strict`: the whole request is a 400). Not with `symbol` */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetAiOutlookResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listPredictionLedger: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /** @description Entries recorded at or after this time (ISO 8601 or ms since the epoch; inclusive) */
                from?: string;
                /** @description Entries per page, up to 1000 (larger → 1000); default 500 */
                limit?: number;
                /** @description Answer 400 for an unsupported symbol instead of normalizing it */
                strict?: boolean;
                /** @description Only this symbol’s entries (normalized). A filtered page cannot be verified as a chain: each entry’s hash can, its link to the previous entry cannot */
                symbol?: string;
                /** @description Entries recorded before this time (exclusive); default: up to the head */
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPredictionLedgerResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPredictionPerformance: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetPredictionPerformanceResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getLevelProbabilities: {
        parameters: {
            query: {
                /** @description 15m, 1h, 6h; normalized; default 1h */
                horizon?: string;
                /** @description Comma list of prices (quote currency, each > 0), at most 20; answered in the order given */
                levels: string;
                /** @description Answer 400 for an unsupported symbol (or a horizon that is no duration) instead of normalizing it */
                strict?: boolean;
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LevelProbabilities"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhooks: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhooksResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateWebhookResponse201"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhook: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteWebhook: {
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
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50 */
                limit?: number;
            };
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhookDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    rotateWebhookSecret: {
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
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotateWebhookSecretResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    loginCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginCodeRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginCodeResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    loginEnrol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginEnrolRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    loginEnrolConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginEnrolConfirmRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginEnrolConfirmResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logout: {
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
            403: components["responses"]["Forbidden"];
        };
    };
    getSignInMethods: {
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
                    "application/json": components["schemas"]["GetSignInMethodsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    oauthRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The client id (public clients) */
                    client_id?: string;
                    /** @description Confidential clients not using HTTP Basic */
                    client_secret?: string;
                    /** @description An access or refresh token */
                    token: string;
                    /** @description `access_token` or `refresh_token` (optional; the token’s prefix tells) */
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description Revoked, or not a live token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An RFC 6749 §5.2 error: `{ error, error_description }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
            /** @description An RFC 6749 §5.2 error: `{ error, error_description }` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
            /** @description Too many token or revocation requests for the client, or from the address, in the last minute: an RFC 6749 §5.2 error `temporarily_unavailable`; Retry-After says when to try again */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
        };
    };
    oauthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The client id (public clients; confidential ones may use HTTP Basic) */
                    client_id?: string;
                    /** @description Confidential clients not using HTTP Basic */
                    client_secret?: string;
                    /** @description authorization_code: the code from the redirect */
                    code?: string;
                    /** @description authorization_code: the PKCE verifier (43 to 128 characters) */
                    code_verifier?: string;
                    /** @description `authorization_code` or `refresh_token` */
                    grant_type: string;
                    /** @description authorization_code: the redirect URI of the authorization request */
                    redirect_uri?: string;
                    /** @description refresh_token: the latest refresh token */
                    refresh_token?: string;
                    /** @description refresh_token: narrower scopes than granted (optional) */
                    scope?: string;
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
                    "application/json": components["schemas"]["OauthTokenResponse"];
                };
            };
            /** @description An RFC 6749 §5.2 error: `{ error, error_description }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
            /** @description An RFC 6749 §5.2 error: `{ error, error_description }` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
            /** @description Too many token or revocation requests for the client, or from the address, in the last minute: an RFC 6749 §5.2 error `temporarily_unavailable`; Retry-After says when to try again */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorResponse"];
                };
            };
        };
    };
    alertCappedWebhook: {
        parameters: {
            query?: never;
            header: {
                "webhook-id": string;
                "webhook-signature": string;
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertCappedEvent"];
            };
        };
        responses: {
            /** @description Delivered (any other answer is retried; 410 disables the endpoint) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    alertTriggeredWebhook: {
        parameters: {
            query?: never;
            header: {
                "webhook-id": string;
                "webhook-signature": string;
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertTriggeredEvent"];
            };
        };
        responses: {
            /** @description Delivered (any other answer is retried; 410 disables the endpoint) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onchainFlowWebhook: {
        parameters: {
            query?: never;
            header: {
                "webhook-id": string;
                "webhook-signature": string;
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OnchainFlowEvent"];
            };
        };
        responses: {
            /** @description Delivered (any other answer is retried; 410 disables the endpoint) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
