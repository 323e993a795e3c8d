import { LOGIN_MESSAGES, type LoginMessage } from '@portal/contracts';

/** Search params of /login. Unknown values are dropped: the page never shows text taken from the URL. */
export type LoginSearch = {
  returnUrl?: string | undefined;
  msgType?: 'error' | 'success' | undefined;
  msgText?: LoginMessage | undefined;
};

function isLoginMessage(value: unknown): value is LoginMessage {
  return typeof value === 'string' && (LOGIN_MESSAGES as readonly string[]).includes(value);
}

export function parseLoginSearch(search: Record<string, unknown>): LoginSearch {
  const { returnUrl, msgType, msgText } = search;
  // Every key is set, even to undefined: the router merges the raw search underneath, and an unknown value must not
  // shine through.
  return {
    returnUrl: typeof returnUrl === 'string' && returnUrl.startsWith('/') ? returnUrl : undefined,
    msgType: msgType === 'error' || msgType === 'success' ? msgType : undefined,
    msgText: isLoginMessage(msgText) ? msgText : undefined,
  };
}
