import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOCALES } from '@portal/i18n';
import { AppProviders } from './app/providers.tsx';
import { createServices } from './app/services.ts';
import { detectBrowserLanguage } from './i18n/language.ts';
import { initI18n } from './i18n/i18n.ts';
import { showApiErrorToast } from './lib/error-text.ts';
import { createAppRouter } from './routes/router.tsx';

async function start(): Promise<void> {
  const language = detectBrowserLanguage();
  await initI18n(language);
  const services = createServices({
    fetch: window.fetch.bind(window),
    storage: window.localStorage,
    now: () => Date.now(),
    onErrorToast: showApiErrorToast,
  });
  // Description, section 4: at start an expired access token is renewed while the refresh token is valid, else logout.
  await services.session.ensureFresh();
  const router = createAppRouter(services);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <AppProviders services={services} dir={LOCALES[language].dir}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
