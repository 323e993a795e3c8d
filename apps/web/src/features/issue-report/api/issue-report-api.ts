import {
  CreateIssueReportResponseSchema,
  type CreateIssueReportResponse,
  type IssueReportFields,
} from '@portal/contracts';
import { parseResponse } from '../../../lib/api-client.ts';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from '../../../lib/api-error.ts';
import { uploadWithProgress, type UploadProgress } from '../../../components/upload-widget/upload-request.ts';

export type SubmitIssueReportOptions = {
  fields: IssueReportFields;
  files: readonly File[];
  getAccessToken: () => string | undefined;
  refresh: () => Promise<boolean>;
  onProgress: (progress: UploadProgress) => void;
  createRequest?: () => XMLHttpRequest;
};

/** `POST /api/issue-reports` as multipart/form-data: the text fields, then one `files` part per attachment. */
export async function submitIssueReport(options: SubmitIssueReportOptions): Promise<CreateIssueReportResponse> {
  const form = new FormData();
  form.append('type', options.fields.type);
  form.append('priority', options.fields.priority);
  form.append('subject', options.fields.subject);
  form.append('description', options.fields.description);
  for (const file of options.files) form.append('files', file, file.name);
  let response;
  try {
    response = await uploadWithProgress({
      url: '/api/issue-reports',
      form,
      getAccessToken: options.getAccessToken,
      refresh: options.refresh,
      onProgress: options.onProgress,
      ...(options.createRequest ? { createRequest: options.createRequest } : {}),
    });
  } catch (cause) {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'server.unavailable', message: String(cause) });
  }
  if (response.status < 200 || response.status >= 300) throw toApiError(response.status, response.body);
  return parseResponse(CreateIssueReportResponseSchema, response.body, {
    method: 'POST',
    url: '/api/issue-reports',
    status: response.status,
  });
}
