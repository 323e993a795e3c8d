import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CompanyLocationSchema, type CompanyLocationRequest } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { companyLocationKeys, type LocationsPath } from './company-locations-queries.ts';

const one = (path: LocationsPath, gln: string) => `${path}/${encodeURIComponent(gln)}`;

/** Adds a location, or replaces the one of `gln` (its GLN may change). */
export function useSaveLocationMutation(path: LocationsPath) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gln, body }: { gln: string | undefined; body: CompanyLocationRequest }) =>
      gln ? api.put(one(path, gln), CompanyLocationSchema, body) : api.post(path, CompanyLocationSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyLocationKeys.list(path) }),
  });
}

export function useDeleteLocationMutation(path: LocationsPath) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gln: string) => api.delete(one(path, gln)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyLocationKeys.list(path) }),
  });
}
