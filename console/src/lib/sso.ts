/** Why a single sign-on came back to the sign-in page (`?sso_error=`), in words for the person signing in. */
export function ssoErrorMessage(reason: string, provider: string): string {
  switch (reason) {
    case 'denied':
      return `Sign-in was cancelled at ${provider}.`;
    case 'expired':
      return 'The sign-in took too long or was started in another tab or browser. Try again.';
    case 'unavailable':
      return `${provider} cannot be reached right now; try again in a minute.`;
    case 'email_unverified':
      return `${provider} has not confirmed your email address. Confirm it there, then try again.`;
    case 'domain_not_allowed':
      return 'Accounts with this email domain may not sign in to this console. Ask the operator for access.';
    case 'linked_elsewhere':
      return `This email's account is already linked to another ${provider} identity. Ask the operator.`;
    default:
      return `The sign-in with ${provider} could not be completed. Try again.`;
  }
}
