import { AccessTokenClaimsSchema, type AccessTokenClaims } from '@portal/contracts';

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the claims of an access token. The signature is the server's business: the browser only needs the claims
 * to decide what to show, and the server checks the token on every request.
 */
export function decodeAccessToken(token: string): AccessTokenClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const parsed = AccessTokenClaimsSchema.safeParse(JSON.parse(decodeBase64Url(payload)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
