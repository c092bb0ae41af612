// What an `?error=` on /sign-in means to the person reading it: better-auth sends the browser back
// there with a code when a sign-in through the OpenID provider fails. Only the code is read — the
// URL is anyone's to write, so its free-text error_description is never shown.

const EXPIRED = "That sign-in expired or was started in another tab: try again.";

/** `provider` is the button's name (auth.oidc.name). */
export function signInErrorMessage(code: string | string[] | undefined, provider: string): string | null {
  const value = Array.isArray(code) ? code[0] : code;
  if (!value) return null;
  switch (value) {
    case "signup_disabled":
      return "No Toolroom account for that email; ask an admin to add you.";
    // better-auth joins an existing account only when the provider has verified the email.
    case "email_not_verified":
    case "account_not_linked":
      return `${provider} has not verified that email address, so Toolroom cannot tell the account is yours. Verify it there, or ask an admin.`;
    case "access_denied":
      return `The sign-in was cancelled at ${provider}.`;
    case "invalid_code":
      return `${provider} refused Toolroom's sign-in (the code exchange failed): an admin should check auth.oidc.clientId and clientSecret.`;
    case "unable_to_get_user_info":
    case "email_not_found":
      return `Toolroom could not tell who you are from ${provider}'s answer (no verified ID token, or no email): an admin should check that the client may use the openid, email and profile scopes.`;
    case "issuer_mismatch":
      return `The answer did not come from ${provider}'s issuer: an admin should check auth.oidc.issuer.`;
    case "state_not_found":
    case "state_mismatch":
    case "please_restart_the_process":
    case "invalid_callback_request":
    case "no_code":
      return EXPIRED;
    default:
      return /^[A-Za-z0-9_.-]{1,60}$/.test(value) ? `Sign-in with ${provider} failed (${value}).` : `Sign-in with ${provider} failed.`;
  }
}
