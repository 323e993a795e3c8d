import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateChatSearch } from '../features/admin/admin-search.ts';
import { chatQuestionsQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

/** The AI assistant's questions, with their answers and feedback (issue 15). */
export const adminChatRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/chat',
  validateSearch: validateChatSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({
      ...chatQuestionsQuery(context.api, deps),
      revalidateIfStale: true,
    });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/chat-questions-page.tsx')),
    'ChatQuestionsPage',
  ),
});
