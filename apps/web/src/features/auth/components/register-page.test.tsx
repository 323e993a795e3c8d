import { notifications } from '@mantine/notifications';
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getCookie } from '../../../lib/cookies.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';

async function fill(app: Awaited<ReturnType<typeof renderApp>>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await app.user.type(await app.screen.findByLabelText(new RegExp(`^${label}\\s*\\*?$`)), value);
  }
}

describe('register page', () => {
  it('says "All fields are required" for an empty form and marks every field', async () => {
    const app = await renderApp({ path: '/register' });
    await app.user.click(await app.screen.findByRole('button', { name: 'Create account' }));
    expect((await app.screen.findByTestId('register-form-error')).textContent).toContain('All fields are required');
    expect(app.screen.getAllByText('This field is required')).toHaveLength(4);
    expect(app.api.calls).toHaveLength(0);
  });

  it('says the e-mail is incorrect and asks for valid data', async () => {
    const app = await renderApp({ path: '/register' });
    await fill(app, { 'First name': 'Ada', 'Last name': 'Lovelace', 'E-mail': 'ada@example', Password: 'Strong#2026' });
    await app.user.click(app.screen.getByRole('button', { name: 'Create account' }));
    expect((await app.screen.findByTestId('register-form-error')).textContent).toContain(
      'Please fill form with valid data',
    );
    expect(app.screen.getByText('This e-mail is incorrect')).toBeTruthy();
  });

  it('sends locale and registration token, deletes the cookie, and shows the confirmation with resend', async () => {
    document.cookie = 'registrationToken=reg-1; Path=/';
    document.cookie = 'lang=de; Path=/';
    const app = await renderApp({
      path: '/register',
      routes: {
        'POST /api/users/register': { body: { success: true, id: 'u-42' } },
        'POST /api/users/sendVerifyEmail': { body: { success: true } },
      },
    });
    await fill(app, {
      'First name': 'Ada',
      'Last name': 'Lovelace',
      'E-mail': 'ada@example.com',
      Password: 'Strong#2026',
    });
    await app.user.click(app.screen.getByRole('button', { name: 'Create account' }));
    const confirmation = await app.screen.findByTestId('registration-confirmation');
    expect(app.screen.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' })).toBeTruthy();
    expect(app.screen.getByText('Check your e-mail box')).toBeTruthy();
    expect(app.api.calls[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'Strong#2026',
      locale: 'de',
      registrationToken: 'reg-1',
    });
    expect(getCookie('registrationToken')).toBeUndefined();

    await app.user.click(within(confirmation).getByRole('button', { name: 'Resend e-mail' }));
    expect(await app.screen.findByText('An email with activation link was just sent to your inbox.')).toBeTruthy();
    expect(app.api.calls.at(-1)).toMatchObject({ path: '/api/users/sendVerifyEmail', body: { id: 'u-42' } });

    await app.user.click(within(confirmation).getByRole('link', { name: 'Back to login page' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/login'));
  });

  it('says how long to wait when the server refuses a resend so soon, and not that it was sent', async () => {
    notifications.clean();
    const app = await renderApp({
      path: '/register',
      routes: {
        'POST /api/users/register': { body: { success: true, id: 'u-43' } },
        'POST /api/users/sendVerifyEmail': {
          status: 429,
          body: {
            error: { code: 'auth.verification_resend_too_soon', message: 'x', data: { retryAfter: 42 } },
            requestId: 'r',
          },
        },
      },
    });
    await fill(app, {
      'First name': 'Ada',
      'Last name': 'Lovelace',
      'E-mail': 'ada@example.com',
      Password: 'Strong#2026',
    });
    await app.user.click(app.screen.getByRole('button', { name: 'Create account' }));
    const confirmation = await app.screen.findByTestId('registration-confirmation');
    await app.user.click(within(confirmation).getByRole('button', { name: 'Resend e-mail' }));
    expect(
      await app.screen.findByText(
        'An e-mail with the activation link was sent less than a minute ago. Please wait 42 seconds before sending it again.',
      ),
    ).toBeTruthy();
    expect(app.screen.queryByText('An email with activation link was just sent to your inbox.')).toBeNull();
  });

  it("puts the server's 400 details on the fields", async () => {
    const app = await renderApp({
      path: '/register',
      routes: {
        'POST /api/users/register': {
          status: 400,
          body: {
            error: { code: 'validation.failed', message: 'x', details: [{ field: 'email', code: 'email' }] },
            requestId: 'r',
          },
        },
      },
    });
    await fill(app, {
      'First name': 'Ada',
      'Last name': 'Lovelace',
      'E-mail': 'ada@example.com',
      Password: 'Strong#2026',
    });
    await app.user.click(app.screen.getByRole('button', { name: 'Create account' }));
    expect(await app.screen.findByText('This e-mail is incorrect')).toBeTruthy();
    expect(app.screen.getByTestId('register-form-error').textContent).toContain('Please fill form with valid data');
  });
});
