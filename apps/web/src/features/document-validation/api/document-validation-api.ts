import {
  ContrlReportSchema,
  ValidateEdifactResponseSchema,
  type ValidateEdifactRequest,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

/** `POST /api/validation/edifact`: the messages and findings of the three levels (syntax, specification, map). */
export function postValidateEdifact(api: ApiClient, request: ValidateEdifactRequest): Promise<ValidateEdifactResponse> {
  // 413 (too large) is answered on the page with its own text; 403 keeps the client's toast.
  return api.post('/validation/edifact', ValidateEdifactResponseSchema, request, { quietStatuses: [413] });
}

/** `POST /api/validation/edifact/contrl`: the CONTRL report as EDIFACT text. */
export function postContrl(api: ApiClient, request: ValidateEdifactRequest): Promise<string> {
  return api.post('/validation/edifact/contrl', ContrlReportSchema, request, { quietStatuses: [413] });
}
