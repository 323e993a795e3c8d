import type { AccessTokenClaims, TokenSet } from '@portal/contracts';

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT: the web app only reads claims, the server checks signatures. */
export function makeAccessToken(claims: Partial<AccessTokenClaims> = {}): string {
  const payload: AccessTokenClaims = {
    sub: 'user-1',
    exp: Math.floor(Date.now() / 1000) + 300,
    email: 'user@demo.example.com',
    given_name: 'Uma',
    family_name: 'User',
    roles: [],
    groups: [],
    ...claims,
  };
  return `${base64Url(JSON.stringify({ alg: 'ES256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.signature`;
}

export function makeTokenSet(claims: Partial<AccessTokenClaims> = {}, refreshToken = 'refresh-1'): TokenSet {
  return {
    access_token: makeAccessToken(claims),
    refresh_token: refreshToken,
    expires_in: 300,
    refresh_expires_in: 1800,
    token_type: 'Bearer',
  };
}
