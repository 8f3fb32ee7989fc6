import { describe, expect, it } from 'vitest';
import { ssoErrorMessage } from './sso.ts';

describe('ssoErrorMessage', () => {
  it('names the provider and what to do for each refusal the server sends back', () => {
    expect(ssoErrorMessage('denied', 'Example ID')).toBe('Sign-in was cancelled at Example ID.');
    expect(ssoErrorMessage('domain_not_allowed', 'Example ID')).toMatch(/email domain .* Ask the operator/);
    expect(ssoErrorMessage('email_unverified', 'Example ID')).toMatch(
      /Example ID has not confirmed your email/,
    );
    expect(ssoErrorMessage('unavailable', 'Example ID')).toMatch(/^Example ID cannot be reached/);
  });

  it('answers an unknown or altered reason with the general sentence, never the raw text', () => {
    expect(ssoErrorMessage('<script>', 'Example ID')).toBe(
      'The sign-in with Example ID could not be completed. Try again.',
    );
  });
});
