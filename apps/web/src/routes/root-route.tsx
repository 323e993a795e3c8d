import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { SessionWatcher } from '../app/session/session-watcher.tsx';
import { NotFoundPage } from '../components/not-found-page.tsx';
import type { RouterContext } from './router-context.ts';

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <>
      <SessionWatcher />
      <Outlet />
    </>
  );
}
