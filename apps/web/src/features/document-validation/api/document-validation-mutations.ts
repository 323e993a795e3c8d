import { useMutation } from '@tanstack/react-query';
import type { ValidateEdifactRequest } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { postContrl, postValidateEdifact } from './document-validation-api.ts';

/** Validation changes nothing on the server, so there is no cached query to invalidate. */
export function useValidateEdifact() {
  const api = useApi();
  return useMutation({ mutationFn: (request: ValidateEdifactRequest) => postValidateEdifact(api, request) });
}

export function useContrlReport() {
  const api = useApi();
  return useMutation({ mutationFn: (request: ValidateEdifactRequest) => postContrl(api, request) });
}
