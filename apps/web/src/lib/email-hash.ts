/**
 * SHA-256 of the trimmed, lower-cased e-mail, in hex (description, section 9): the name under which the browser keeps
 * a user's own things (the payment reminder's cookie, the chat history), without writing the address itself.
 */
export async function emailHash(email: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
