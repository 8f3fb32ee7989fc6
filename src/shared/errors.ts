/**
 * The error catalogue: every error the API can answer with has a stable `code`, an HTTP status and a
 * title. Domain code throws `AppError`; the HTTP layer turns it into an RFC 9457 problem document.
 * The status is chosen here, by code — never by matching error text.
 */
export const errorCatalogue = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  unsupported_symbol: { status: 400, title: 'The symbol is not supported' },
  unknown_exchange: { status: 400, title: 'The exchange is not known' },
  bad_request: { status: 400, title: 'The request cannot be processed' },
  url_not_allowed: { status: 400, title: 'The webhook URL is not allowed' },
  unauthenticated: { status: 401, title: 'Authentication is required' },
  invalid_token: { status: 401, title: 'The access token is not valid' },
  invalid_credentials: { status: 401, title: 'The email or password is wrong' },
  invalid_code: { status: 400, title: 'The two-factor code is wrong or was already used' },
  session_required: { status: 401, title: 'A signed-in console session is required' },
  forbidden: { status: 403, title: 'The credentials lack a required permission' },
  csrf_rejected: { status: 403, title: 'The request did not come from the console' },
  password_sign_in_disabled: { status: 403, title: 'Password sign-in is turned off on this server' },
  not_found: { status: 404, title: 'The resource does not exist' },
  route_not_found: { status: 404, title: 'No such route' },
  method_not_allowed: { status: 405, title: 'The method is not allowed on this route' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  alert_limit_reached: { status: 409, title: "The plan's limit of active alert rules is reached" },
  token_expired: { status: 409, title: 'The token has expired' },
  token_limit_reached: { status: 409, title: "The plan's limit of active API tokens is reached" },
  label_limit_reached: { status: 409, title: 'The limit of private labels per account is reached' },
  channel_test_limit_reached: {
    status: 409,
    title: "The alert channel's hourly limit of test messages is reached",
  },
  idempotency_conflict: { status: 409, title: 'The idempotency key was used with another request' },
  idempotency_key_in_use: {
    status: 409,
    title: 'A request with this idempotency key is still being processed',
  },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body has an unsupported media type' },
  misdirected_request: { status: 421, title: 'This server does not answer to the requested host' },
  unprocessable: { status: 422, title: 'The request is well-formed but cannot be applied' },
  idempotency_key_reused: { status: 422, title: 'The idempotency key was used with a different request' },
  upgrade_required: { status: 426, title: 'This endpoint needs a WebSocket upgrade' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  rate_limited: { status: 429, title: 'Too many requests' },
  auth_rate_limited: { status: 429, title: 'Too many failed authentication attempts' },
  too_many_connections: { status: 429, title: 'The account has too many open push connections' },
  internal: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'The service is temporarily unavailable' },
  not_configured: { status: 503, title: 'The server is not configured for this feature' },
  storage_unavailable: { status: 503, title: 'The database is temporarily unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** One problem inside a validation error: where (a JSON pointer) and what. */
export interface ProblemDetail {
  pointer: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: ProblemDetail[];
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    detail?: string,
    options: {
      errors?: ProblemDetail[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(detail ?? errorCatalogue[code].title);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

/** A validation error naming one or more problems by JSON pointer. */
export function validationError(errors: ProblemDetail[], detail?: string): AppError {
  return new AppError(
    'validation_failed',
    detail ?? errors.map((e) => `${e.pointer}: ${e.message}`).join('; '),
    {
      errors,
    },
  );
}
