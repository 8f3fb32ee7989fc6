import { Type } from 'typebox';

/** The OAuth routes' schemas: the RFC endpoints' forms and answers, and the console's consent and client bodies. */

const param = (description: string, maxLength = 2048) =>
  Type.Optional(Type.String({ maxLength, description }));

const authorizationFields = {
  response_type: param('Must be `code`', 20),
  client_id: param('The registered client id (`oac_…`)', 64),
  redirect_uri: param('One of the client’s registered redirect URIs, exactly'),
  scope: param('Permissions, space-separated, e.g. `market:read predictions:read`', 500),
  state: param('Opaque value passed back on the redirect', 500),
  code_challenge: param('PKCE: BASE64URL(SHA-256(code_verifier))', 128),
  code_challenge_method: param('Must be `S256` (`plain` is refused)', 10),
};

export const AuthorizationQuery = Type.Object(authorizationFields);

export const OAuthClientSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.Union([Type.Literal('public'), Type.Literal('confidential')]),
    redirectUris: Type.Array(Type.String()),
    registeredBy: Type.Union([Type.Literal('operator'), Type.Literal('account')]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OAuthClient' },
);

export const CreateOAuthClient = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    redirectUris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 10 }),
    confidential: Type.Optional(
      Type.Boolean({
        description: 'true: the client gets a secret (a server-side app); default false (public)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedOAuthClient = Type.Object({
  client: OAuthClientSchema,
  secret: Type.Union([Type.String(), Type.Null()], {
    description: 'The client secret of a confidential client. Shown once, never again: store it now.',
  }),
});

export const OAuthGrantSchema = Type.Object(
  {
    id: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OAuthGrant' },
);

export const AuthorizationCheck = Type.Union([
  Type.Object({
    outcome: Type.Literal('consent'),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    redirectUri: Type.String(),
  }),
  Type.Object({
    outcome: Type.Literal('redirect'),
    redirectTo: Type.String({ description: 'An error the client must hear, on its redirect URI' }),
  }),
]);

export const AuthorizationDecision = Type.Object(
  {
    ...authorizationFields,
    decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  },
  { additionalProperties: false },
);

export const Redirect = Type.Object({
  redirectTo: Type.String({ description: 'Where the browser goes next' }),
});

export const TokenRequest = Type.Object({
  grant_type: Type.String({ description: '`authorization_code` or `refresh_token`', maxLength: 50 }),
  code: param('authorization_code: the code from the redirect', 200),
  redirect_uri: param('authorization_code: the redirect URI of the authorization request'),
  code_verifier: param('authorization_code: the PKCE verifier (43 to 128 characters)', 128),
  refresh_token: param('refresh_token: the latest refresh token', 200),
  scope: param('refresh_token: narrower scopes than granted (optional)', 500),
  client_id: param('The client id (public clients; confidential ones may use HTTP Basic)', 64),
  client_secret: param('Confidential clients not using HTTP Basic', 200),
});

export const RevokeRequest = Type.Object({
  token: Type.String({ maxLength: 200, description: 'An access or refresh token' }),
  token_type_hint: param('`access_token` or `refresh_token` (optional; the token’s prefix tells)', 20),
  client_id: param('The client id (public clients)', 64),
  client_secret: param('Confidential clients not using HTTP Basic', 200),
});

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'An API token (`mrd_…`) limited to the granted scopes' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds the access token is valid' }),
  refresh_token: Type.String({ description: 'Single use: each refresh answers a new one (`mrr_…`)' }),
  scope: Type.String({ description: 'The granted permissions, space-separated' }),
});

export const OAuthErrorBody = Type.Object(
  {
    error: Type.String({ description: 'RFC 6749 §5.2 error code' }),
    error_description: Type.String(),
  },
  { $id: 'OAuthErrorResponse' },
);

export const ServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  response_types_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  authorization_response_iss_parameter_supported: Type.Boolean(),
  service_documentation: Type.String(),
});
