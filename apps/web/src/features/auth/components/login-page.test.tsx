import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getCookie } from '../../../lib/cookies.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeTokenSet } from '../../../test/tokens.ts';

const invalid = {
  status: 401,
  body: { success: false, error: { code: 'auth.invalid_credentials', message: 'Invalid' }, requestId: 'r' },
};

async function fillAndSubmit(app: Awaited<ReturnType<typeof renderApp>>, login: string, password: string) {
  await app.user.type(await app.screen.findByLabelText(/^E-mail/), login);
  await app.user.type(app.screen.getByLabelText(/^Password/), password);
  await app.user.click(app.screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('asks for both fields and marks them', async () => {
    const app = await renderApp({ path: '/login' });
    await app.user.click(await app.screen.findByRole('button', { name: 'Log in' }));
    expect((await app.screen.findByTestId('login-form-error')).textContent).toContain(
      'Please provide valid e-mail and password',
    );
    expect(app.screen.getAllByText('This field is required')).toHaveLength(2);
    expect(app.api.calls.filter((c) => c.path.startsWith('/api/users/login'))).toHaveLength(0);
  });

  it('tries the legacy login after wrong credentials and says "Invalid email or password" when both fail', async () => {
    const app = await renderApp({
      path: '/login',
      routes: { 'POST /api/users/login': invalid, 'POST /api/legacy/login': invalid },
    });
    await fillAndSubmit(app, 'someone@example.com', 'wrong');
    expect((await app.screen.findByTestId('login-error')).textContent).toContain('Invalid email or password');
    expect(app.api.calls.map((c) => c.path)).toEqual(['/api/users/login', '/api/legacy/login']);
    expect(app.api.calls[1]?.body).toEqual({ login: 'someone@example.com', password: 'wrong' });
    expect(app.onErrorToast).not.toHaveBeenCalled();
  });

  it('shows the registration prompt when the legacy login returns a registration token', async () => {
    const app = await renderApp({
      path: '/login',
      routes: {
        'POST /api/users/login': invalid,
        'POST /api/legacy/login': { body: { success: false, registrationToken: 'reg-token-1' } },
        'GET /api/public-config': { body: { legacyEdiUrl: 'https://old-edi.example.com/', version: '1.0.0' } },
      },
    });
    await fillAndSubmit(app, 'DEMO01', 'Legacy#2026');
    const dialog = await app.screen.findByRole('dialog', { name: 'Thank you for choosing new Web EDI app' });
    expect(getCookie('registrationToken')).toBe('reg-token-1');
    await waitFor(() =>
      expect(
        within(dialog)
          .getByRole('link', { name: /Go to old EDI version/ })
          .getAttribute('href'),
      ).toBe('https://old-edi.example.com/'),
    );
    await app.user.click(within(dialog).getByRole('link', { name: /Create new account/ }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/register'));
    expect(await app.screen.findByTestId('register-legacy-note')).toBeTruthy();
  });

  it('does not try the legacy login for a blocked account and opens the More dialog', async () => {
    const app = await renderApp({
      path: '/login',
      routes: {
        'POST /api/users/login': {
          status: 403,
          body: {
            success: false,
            error: { code: 'auth.account_blocked', message: 'Blocked' },
            vindicationInfoResponse: {
              hoursDelayLogout: 5400,
              vindicationInfo: {
                loginStatus: 'BLOCKED',
                restrictionWaitTime: 45,
                restrictionWorkingTime: 30,
                restrictionWorkingStart: '2026-01-15T08:30:00.000Z',
                restrictionMessage: 'Please settle invoice 42.',
              },
            },
          },
        },
      },
    });
    await fillAndSubmit(app, 'user@demo.example.com', 'User#Demo2026');
    const alert = await app.screen.findByTestId('login-blocked');
    expect(alert.textContent).toContain('Login failure. Account has been blocked.');
    await app.user.click(within(alert).getByRole('button', { name: 'More' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Account restrictions' });
    expect(within(dialog).getByTestId('vindication-wait-time').textContent).toBe('45 minutes');
    expect(within(dialog).getByTestId('vindication-delay').textContent).toBe('1h 30m');
    expect(within(dialog).getByTestId('vindication-message').textContent).toBe('Please settle invoice 42.');
    expect(within(dialog).getByTestId('vindication-working-start').textContent).not.toBe('—');
    expect(app.api.calls.map((c) => c.path)).toEqual(['/api/users/login']);
  });

  it('offers to resend the activation e-mail when the address is not verified', async () => {
    const app = await renderApp({
      path: '/login',
      routes: {
        'POST /api/users/login': {
          status: 403,
          body: { success: false, error: { code: 'auth.email_not_verified', message: 'x', data: { id: 'u-7' } } },
        },
        'POST /api/users/sendVerifyEmail': { body: { success: true } },
      },
    });
    await fillAndSubmit(app, 'new@example.com', 'Secret#2026');
    const alert = await app.screen.findByTestId('login-not-verified');
    await app.user.click(within(alert).getByRole('button', { name: 'Resend e-mail' }));
    expect(await app.screen.findByText('An email with activation link was just sent to your inbox.')).toBeTruthy();
    expect(app.api.calls.at(-1)).toMatchObject({ path: '/api/users/sendVerifyEmail', body: { id: 'u-7' } });
  });

  it('says how long to wait after too many attempts', async () => {
    const app = await renderApp({
      path: '/login',
      routes: {
        'POST /api/users/login': {
          status: 429,
          body: { success: false, error: { code: 'auth.too_many_attempts', message: 'x', data: { retryAfter: 600 } } },
        },
      },
    });
    await fillAndSubmit(app, 'user@demo.example.com', 'x');
    expect((await app.screen.findByTestId('login-error')).textContent).toContain('try again in 10 minutes');
  });

  it('says that a locked account unlocks with the e-mailed link or after the wait', async () => {
    const app = await renderApp({
      path: '/login',
      routes: {
        'POST /api/users/login': {
          status: 429,
          body: { success: false, error: { code: 'auth.account_locked', message: 'x', data: { retryAfter: 1800 } } },
        },
      },
    });
    await fillAndSubmit(app, 'user@demo.example.com', 'x');
    const text = (await app.screen.findByTestId('login-error')).textContent;
    expect(text).toContain('This account is locked');
    expect(text).toContain('link in the e-mail');
    expect(text).toContain('try again in 30 minutes');
    // A locked account is not worth a second try at the old system's login.
    expect(app.api.calls.some((c) => c.path === '/api/legacy/login')).toBe(false);
  });

  it('says the account is unlocked when the e-mailed link brings the owner back', async () => {
    const app = await renderApp({ path: '/login?msgType=success&msgText=accountUnlocked' });
    expect(await app.screen.findByText('Your account has been unlocked. You can log in now.')).toBeTruthy();
  });

  it('logs in, goes to returnUrl and sends the chosen language when it differs', async () => {
    const tokens = makeTokenSet({ email: 'user@demo.example.com', given_name: 'Demo', family_name: 'User' });
    const app = await renderApp({
      path: '/login?returnUrl=%2Fdocuments%2Fin%3Fpage%3D2',
      routes: {
        'POST /api/users/login': {
          body: {
            success: true,
            keycloakResponse: { token: tokens },
            vindicationInfoResponse: {
              hoursDelayLogout: 0,
              vindicationInfo: {
                loginStatus: 'OK',
                restrictionWaitTime: null,
                restrictionWorkingTime: null,
                restrictionWorkingStart: null,
                restrictionMessage: null,
              },
            },
          },
        },
        'GET /api/users/getUserData': {
          body: {
            id: 'u1',
            email: 'user@demo.example.com',
            firstName: 'Demo',
            lastName: 'User',
            language: 'pl',
            telephone: null,
            companyId: 'c1',
            companyName: 'Demo Supplier',
            roles: [],
          },
        },
        'POST /api/users/setLanguage': { body: { success: true } },
      },
    });
    await fillAndSubmit(app, 'user@demo.example.com', 'User#Demo2026');
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in?page=2'));
    expect((await app.screen.findByTestId('user-menu')).textContent).toContain('Demo User');
    const setLanguage = () => app.api.calls.find((c) => c.path === '/api/users/setLanguage');
    await waitFor(() => expect(setLanguage()).toMatchObject({ body: { language: 'en' } }));
    expect(setLanguage()?.headers['Authorization']).toBe(`Bearer ${tokens.access_token}`);

    expect(app.screen.getByText('You have logged in successfully.')).toBeTruthy();

    await app.user.click(app.screen.getByTestId('user-menu'));
    await app.user.click(await app.screen.findByTestId('nav-logout'));
    // Logout asks every time (description, section 2); Leave ends the session.
    const dialog = await app.screen.findByRole('dialog', { name: 'Unsaved changes' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('portal.session')).toBeNull();
    // Out again within seconds of logging in: the greeting left with the session.
    await waitFor(() => expect(app.screen.queryByText('You have logged in successfully.')).toBeNull());
  });

  it('never returns to the registration page after login', async () => {
    const app = await renderApp({
      path: '/login?returnUrl=%2Fregister',
      routes: {
        'POST /api/users/login': { body: { success: true, keycloakResponse: { token: makeTokenSet() } } },
        'GET /api/users/getUserData': {
          status: 500,
          body: { error: { code: 'server.internal', message: 'x' }, requestId: 'r' },
        },
      },
    });
    await fillAndSubmit(app, 'user@demo.example.com', 'User#Demo2026');
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('shows a known msgText on arrival and ignores anything else', async () => {
    const app = await renderApp({ path: '/login?msgType=success&msgText=emailVerified' });
    expect(await app.screen.findByText('Your e-mail address has been confirmed. You can log in now.')).toBeTruthy();
    await waitFor(() => expect(currentHref(app.router)).toBe('/login'));
    app.unmount();

    const other = await renderApp({ path: '/login?msgType=error&msgText=%3Cb%3EHacked%3C%2Fb%3E' });
    await other.screen.findByRole('button', { name: 'Log in' });
    expect(other.screen.queryByText(/Hacked/)).toBeNull();
  });

  it('toggles the password visibility from the keyboard', async () => {
    const app = await renderApp({ path: '/login' });
    const password = (await app.screen.findByLabelText(/^Password/)) as HTMLInputElement;
    expect(password.type).toBe('password');
    const toggle = app.screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    toggle.focus();
    await app.user.keyboard('{Enter}');
    expect(password.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });
});
