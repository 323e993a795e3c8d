import { notifications } from '@mantine/notifications';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useSession, useSessionState } from './session-context.tsx';

/** The id of the 'You have logged in successfully' toast: a logout takes it away with the session it greeted. */
export const LOGIN_TOAST_ID = 'login-success';

const ACTIVITY_EVENTS = ['keydown', 'mousedown', 'mousemove', 'wheel', 'touchstart'] as const;
/** Activity checks are cheap, but mousemove fires constantly; once a second is plenty. */
const ACTIVITY_THROTTLE_MS = 1000;

/**
 * Keeps the session honest while the app is open (description, section 4): checks the login on every keyboard or
 * mouse interaction, ends a limited company's session on time, and leaves protected pages after any logout.
 */
export function SessionWatcher() {
  const session = useSession();
  const state = useSessionState();
  const router = useRouter();

  useEffect(() => {
    let last = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - last < ACTIVITY_THROTTLE_MS) return;
      last = now;
      session.checkValidity();
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { capture: true, passive: true });
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity, { capture: true });
    };
  }, [session]);

  const limitedUntil = state.status === 'authenticated' ? state.stored.limitedUntil : undefined;
  useEffect(() => {
    if (limitedUntil === undefined) return;
    const delay = Math.max(0, limitedUntil * 1000 - Date.now());
    const timer = setTimeout(() => session.logout('limited'), delay);
    return () => clearTimeout(timer);
  }, [limitedUntil, session]);

  useEffect(
    () =>
      session.onLogout((reason) => {
        notifications.hide(LOGIN_TOAST_ID);
        const location = router.state.location;
        if (reason === 'expired') {
          void router.navigate({
            to: '/login',
            search: { returnUrl: location.href, msgType: 'error', msgText: 'sessionExpired' },
          });
        } else {
          void router.navigate({ to: '/login' });
        }
      }),
    [router, session],
  );

  return null;
}
