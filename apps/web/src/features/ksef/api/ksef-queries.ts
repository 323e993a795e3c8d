import { queryOptions } from '@tanstack/react-query';
import { KsefConnectionSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const ksefKeys = {
  all: ['ksef'] as const,
  settings: () => [...ksefKeys.all, 'settings'] as const,
};

/** The company's KSeF connection as the API shows it: never the token or the private key. */
export function ksefSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: ksefKeys.settings(),
    queryFn: ({ signal }) => api.get('/company/ksef', KsefConnectionSchema, { signal }),
  });
}
