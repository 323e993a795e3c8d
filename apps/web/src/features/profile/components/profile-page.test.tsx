import { waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ALL_FEATURE_PERMISSIONS_FOR_TEST, profileSession, profileRoutes } from './profile-test-data.ts';
import { getCookie } from '../../../lib/cookies.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { pageReloader } from '../page-reloader.ts';

const incorrect = {
  status: 400,
  body: {
    success: false,
    message: 'CURRENT_PASSWORD_INCORRECT',
    error: {
      code: 'auth.current_password_incorrect',
      message: 'x',
      details: [{ field: 'currentPassword', code: 'currentPasswordIncorrect' }],
    },
    requestId: 'r',
  },
};

describe('profile page', () => {
  it('shows the panels the permissions allow and opens a deep-linked one', async () => {
    const app = await renderApp({
      path: '/profile?panel=password',
      session: profileSession(),
      routes: profileRoutes(['USER_PROFILE_READ']),
    });
    const tabs = await app.screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Profile settings',
      'Password',
      'Language',
      'Additional settings',
    ]);
    expect(app.screen.getByRole('tab', { name: 'Password' }).getAttribute('aria-selected')).toBe('true');
    // Read-only without USER_PROFILE_MODIFY: the values are shown, no save button.
    await app.user.click(app.screen.getByRole('tab', { name: 'Profile settings' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/profile?panel=profile-settings'));
    const panel = app.screen.getByRole('form', { name: 'Profile settings' });
    expect((within(panel).getByLabelText('First name') as HTMLInputElement).readOnly).toBe(true);
    expect(within(panel).queryByRole('button', { name: 'Save changes' })).toBeNull();
  });

  it('shows the company and e-TTN panels with their permissions and role', async () => {
    const app = await renderApp({
      path: '/profile?panel=ettn-subscriptions',
      session: profileSession(['ettn']),
      routes: profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
    });
    expect(await app.screen.findByRole('tab', { name: 'Company settings' })).toBeTruthy();
    expect(await app.screen.findByText('No subscriptions yet')).toBeTruthy();
  });

  it('sends a role demo user away', async () => {
    const app = await renderApp({
      path: '/profile',
      session: profileSession(['demo']),
      routes: profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
    });
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('saves names and telephone', async () => {
    const routes = profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST);
    const app = await renderApp({ path: '/profile', session: profileSession(), routes });
    const first = await app.screen.findByLabelText(/^First name/);
    await app.user.clear(first);
    await app.user.type(first, 'Ann');
    await app.user.type(app.screen.getByLabelText('Telephone number'), 'abc');
    await app.user.click(app.screen.getByRole('button', { name: 'Save changes' }));
    expect(await app.screen.findByText(/Enter a telephone number/)).toBeTruthy();
    await app.user.clear(app.screen.getByLabelText('Telephone number'));
    await app.user.type(app.screen.getByLabelText('Telephone number'), '+48 600 100 200');
    await app.user.click(app.screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === '/api/users/updateUserData')?.body).toEqual({
        firstName: 'Ann',
        lastName: 'User',
        telephone: '+48 600 100 200',
      }),
    );
    expect(await app.screen.findByText('Operation successful')).toBeTruthy();
  });

  it('changes the password: a wrong current one, the same one, an unknown failure, too many attempts, then success', async () => {
    let reply: { status?: number; body: unknown } = incorrect;
    const routes = {
      ...profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
      'POST /api/users/changePassword': () => reply,
    };
    const app = await renderApp({ path: '/profile?panel=password', session: profileSession(), routes });
    const form = await app.screen.findByRole('form', { name: 'Password' });
    const fill = async (current: string, next: string, repeat = next) => {
      for (const [label, value] of [
        [/^Current password/, current],
        [/^New password/, next],
        [/^Repeat new password/, repeat],
      ] as const) {
        const input = within(form).getByLabelText(label);
        await app.user.clear(input);
        await app.user.type(input, value);
      }
      await app.user.click(within(form).getByRole('button', { name: 'Change password' }));
    };

    await fill('Same#Pass2026', 'Same#Pass2026');
    expect(await within(form).findByText('New password must be different from current password')).toBeTruthy();
    expect(within(form).getByTestId('password-rule-special').getAttribute('data-met')).toBe('true');

    await fill('Wrong#Pass2026', 'Brand#New2026');
    expect((await within(form).findByTestId('password-result')).textContent).toBe('Current password is incorrect');
    const call = app.api.calls.find((c) => c.path === '/api/users/changePassword');
    expect(call?.body).toEqual({
      currentPassword: 'Wrong#Pass2026',
      newPassword: 'Brand#New2026',
      refreshToken: 'refresh-1',
    });

    reply = {
      status: 400,
      body: {
        success: false,
        message: 'GENERAL_ERROR',
        error: { code: 'auth.password_change_failed', message: 'x' },
        requestId: 'r',
      },
    };
    await fill('Right#Pass2026', 'Brand#New2026');
    await waitFor(() => expect(within(form).getByTestId('password-result').textContent).toBe('Unknown error'));

    reply = {
      status: 429,
      body: { success: false, error: { code: 'auth.too_many_password_attempts', message: 'x' }, requestId: 'r' },
    };
    await fill('Right#Pass2026', 'Brand#New2026');
    await waitFor(() =>
      expect(within(form).getByTestId('password-result').textContent).toBe(
        'Too many wrong passwords. Please try again later.',
      ),
    );

    reply = { body: { success: true, message: 'Operation successful' } };
    await fill('Right#Pass2026', 'Brand#New2026');
    await waitFor(() => expect(within(form).getByTestId('password-result').textContent).toBe('Operation successful'));
    expect((within(form).getByLabelText(/^Current password/) as HTMLInputElement).value).toBe('');
  });

  it('saves another language, keeps it in the lang cookie and reloads the page', async () => {
    const reload = vi.spyOn(pageReloader, 'reload').mockImplementation(() => undefined);
    const app = await renderApp({
      path: '/profile?panel=language',
      session: profileSession(),
      routes: profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
    });
    const form = await app.screen.findByRole('form', { name: 'Language' });
    await app.user.click(within(form).getByRole('radio', { name: 'Polski' }));
    await app.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(app.api.calls.find((c) => c.path === '/api/users/setLanguage')?.body).toEqual({ language: 'pl' });
    expect(getCookie('lang')).toBe('pl');
    // The saved change left nothing unsaved, so the reload is not held up by the Stay/Leave question.
    expect(app.screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('asks Stay or Leave before leaving with unsaved changes', async () => {
    const app = await renderApp({
      path: '/profile',
      session: profileSession(),
      routes: profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
    });
    await app.user.type(await app.screen.findByLabelText(/^First name/), 'x');
    // Switching panels is not leaving.
    await app.user.click(app.screen.getByRole('tab', { name: 'Password' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/profile?panel=password'));
    expect(app.screen.queryByText('Unsaved changes')).toBeNull();

    void app.router.navigate({ to: '/documents/in' });
    const dialog = await app.screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText('Your changes will not be saved. Do you want to leave this site?')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog')).toBeNull());
    expect(currentHref(app.router)).toBe('/profile?panel=password');

    void app.router.navigate({ to: '/documents/in' });
    await app.user.click(within(await app.screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });
});
