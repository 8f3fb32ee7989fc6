// Generated from the server's OpenAPI document by `npm run sdk:types`. Do not edit by hand:
// `npm test` regenerates it and fails when this file differs (a route changed without regenerating).
export {};
