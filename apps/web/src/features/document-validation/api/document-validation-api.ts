import type { ValidateEdifactRequest, ValidateEdifactResponse } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

/** `POST /api/validation/edifact`: the messages and findings of the three levels (syntax, specification, map). */
export function postValidateEdifact(api: ApiClient, request: ValidateEdifactRequest): Promise<ValidateEdifactResponse> {
  // 413 (too large) is answered on the page with its own text; 403 keeps the client's toast.
  return api.post<ValidateEdifactResponse>('/validation/edifact', request, { quietStatuses: [413] });
}

/** `POST /api/validation/edifact/contrl`: the CONTRL report as EDIFACT text. */
export async function postContrl(api: ApiClient, request: ValidateEdifactRequest): Promise<string> {
  const body = await api.post<unknown>('/validation/edifact/contrl', request, { quietStatuses: [413] });
  return typeof body === 'string' ? body : JSON.stringify(body);
}
