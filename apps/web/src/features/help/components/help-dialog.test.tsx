import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS, type FeaturePermission } from '@portal/contracts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { HELP_ARTICLE_IDS, searchArticles, type HelpArticle } from '../api/help-articles.ts';

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

function render(path: string, permissions: FeaturePermission[] = [...FEATURE_PERMISSIONS]) {
  return renderApp({
    path,
    session: {
      accessToken: makeAccessToken({ exp: inFiveMinutes() }),
      refreshToken: 'r',
      refreshExpiresAt: inFiveMinutes() + 1500,
    },
    routes: { 'GET /api/users/permissions': { body: { permissions, toggles: [] } } },
  });
}

describe('help dialog', () => {
  it('opens over the current page from the navigation, with /help in the address bar, and closes back to it', async () => {
    const app = await render('/documents/in');
    await app.user.click(await app.screen.findByTestId('nav-help'));
    const dialog = await app.screen.findByRole('dialog', { name: 'Help' });
    expect(app.router.state.location.pathname).toBe('/documents/in');
    expect(app.router.state.location.maskedLocation?.pathname).toBe('/help');
    // The page stays behind the dialog.
    expect(app.screen.getByTestId('nav-inbox').getAttribute('aria-current')).toBe('page');
    // The articles come with the help texts, which may still be loading when the dialog opens.
    for (const id of HELP_ARTICLE_IDS) expect(await within(dialog).findByTestId(`help-article-${id}`)).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Close help' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'Help' })).toBeNull());
    expect(currentHref(app.router)).toBe('/documents/in');
  });

  it('is its own route when opened directly, searchable, with the contact and the report link', async () => {
    const app = await render('/help');
    const dialog = await app.screen.findByRole('dialog', { name: 'Help' });
    await app.user.type(await within(dialog).findByRole('searchbox', { name: 'Search help' }), 'password');
    await waitFor(() => expect(within(dialog).queryByTestId('help-article-ettn')).toBeNull());
    expect(within(dialog).getByTestId('help-article-profile')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: /Your profile/ }));
    expect(within(dialog).getByText(/at least eight characters/)).toBeTruthy();
    await app.user.clear(within(dialog).getByRole('searchbox', { name: 'Search help' }));
    await app.user.type(within(dialog).getByRole('searchbox', { name: 'Search help' }), 'zzzz');
    expect(await within(dialog).findByText(/No article matches/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'support@open-edi-portal.example' }).getAttribute('href')).toBe(
      'mailto:support@open-edi-portal.example',
    );
    await app.user.click(within(dialog).getByRole('link', { name: 'Report an issue' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/report-issue'));
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'Help' })).toBeNull());
  });

  it('has no report link without the permission', async () => {
    const app = await render('/help', ['INBOX_READ']);
    const dialog = await app.screen.findByRole('dialog', { name: 'Help' });
    await within(dialog).findByText('Contact', { selector: 'h3' });
    expect(within(dialog).queryByRole('link', { name: 'Report an issue' })).toBeNull();
  });
});

describe('searchArticles', () => {
  const article = (id: HelpArticle['id'], title: string, body = ''): HelpArticle => ({
    id,
    title,
    summary: '',
    keywords: [],
    body,
    bodyInEnglish: false,
  });

  it('needs every word, ignores case and accents, ranks title matches first', () => {
    const list = [article('profile', 'Profil', 'hasło zmiana'), article('contact', 'Hasło', 'pomoc')];
    expect(searchArticles(list, 'HASLO').map((a) => a.id)).toEqual(['contact', 'profile']);
    expect(searchArticles(list, 'haslo zmiana').map((a) => a.id)).toEqual(['profile']);
    expect(searchArticles(list, '  ')).toHaveLength(2);
  });
});
