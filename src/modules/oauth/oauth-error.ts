/**
 * An error of the token and revocation endpoints, answered as RFC 6749 §5.2 requires there: JSON
 * `{ error, error_description }` with 400, or 401 for a client that failed to authenticate.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: 400 | 401;

  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = error === 'invalid_client' ? 401 : 400;
  }
}

export const isOAuthError = (value: unknown): value is OAuthError => value instanceof OAuthError;
