import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURE_PERMISSIONS, type FeaturePermission } from '@portal/contracts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

/** A stand-in for XMLHttpRequest: records the request and lets the test report progress and answer. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {}
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

async function render(permissions: FeaturePermission[] = [...FEATURE_PERMISSIONS]) {
  const app = await renderApp({
    path: '/report-issue',
    session: {
      accessToken: makeAccessToken({ exp: inFiveMinutes() }),
      refreshToken: 'r',
      refreshExpiresAt: inFiveMinutes() + 1500,
    },
    routes: { 'GET /api/users/permissions': { body: { permissions, toggles: [] } } },
  });
  if (permissions.includes('REPORT_ISSUE'))
    await app.screen.findByRole('heading', { level: 1, name: 'Report an issue' });
  // Only the upload goes through the stand-in (the page itself loads first).
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return app;
}

function fileInput(container: HTMLElement): HTMLInputElement {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

beforeEach(() => {
  FakeXhr.sent = [];
});
afterEach(() => vi.unstubAllGlobals());

describe('report an issue', () => {
  it('sends type, priority, subject, description and files with progress, then says Operation successful', async () => {
    const app = await render();
    expect(await app.screen.findByRole('heading', { level: 1, name: 'Report an issue' })).toBeTruthy();
    await app.user.click(app.screen.getByRole('radio', { name: 'Consultation' }));
    await app.user.click(app.screen.getByRole('radio', { name: 'Critical' }));
    await app.user.type(app.screen.getByLabelText(/^Subject/), 'Invoice stuck');
    await app.user.type(app.screen.getByLabelText(/^Description/), 'It stays in Sent.');
    expect(app.screen.getByRole('button', { name: 'Choose files' })).toBeTruthy();
    await app.user.upload(fileInput(app.container), [
      new File(['hello'], 'screen.png', { type: 'image/png' }),
      new File(['x'], 'notes.txt'),
    ]);
    const items = await app.screen.findAllByTestId('upload-item');
    expect(items.map((i) => within(i).getByTestId('upload-status').textContent)).toEqual([
      'Ready to send',
      'Ready to send',
    ]);

    await app.user.click(app.screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/issue-reports');
    expect(xhr.headers['Authorization']).toMatch(/^Bearer /);
    expect(xhr.body?.get('type')).toBe('consultation');
    expect(xhr.body?.get('priority')).toBe('critical');
    expect(xhr.body?.get('subject')).toBe('Invoice stuck');
    expect(xhr.body?.get('description')).toBe('It stays in Sent.');
    expect(xhr.body?.getAll('files').map((f) => (f as File).name)).toEqual(['screen.png', 'notes.txt']);

    xhr.progress(3, 12);
    await waitFor(() =>
      expect(app.screen.getAllByTestId('upload-status').map((s) => s.textContent)).toEqual([
        'Uploading…',
        'Uploading…',
      ]),
    );
    const bar = app.screen.getByRole('progressbar', { name: 'Upload progress of screen.png' });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    xhr.respond(200, { id: 'report-1' });
    expect(await app.screen.findByText('Operation successful')).toBeTruthy();
    // Sent with the report: the next report starts without them.
    expect(app.screen.queryByTestId('upload-list')).toBeNull();
    expect(app.screen.queryByText('screen.png')).toBeNull();
    expect((app.screen.getByLabelText(/^Subject/) as HTMLInputElement).value).toBe('');
  });

  it('lists a refused file with a clear message and does not send until it is removed', async () => {
    const app = await render();
    await app.screen.findByRole('heading', { level: 1, name: 'Report an issue' });
    await app.user.type(app.screen.getByLabelText(/^Subject/), 'S');
    await app.user.type(app.screen.getByLabelText(/^Description/), 'D');
    // As if dropped: the file dialog's own filter would hide the file.
    await userEvent.setup({ applyAccept: false }).upload(fileInput(app.container), [new File(['MZ'], 'tool.exe')]);
    expect(await app.screen.findByText(/tool\.exe: this file type is not allowed/)).toBeTruthy();
    await app.user.click(app.screen.getByRole('button', { name: 'Send report' }));
    expect(await app.screen.findByTestId('report-issue-error')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);
    await app.user.click(app.screen.getByRole('button', { name: 'Remove tool.exe' }));
    await app.user.click(app.screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
  });

  it("requires subject and description, and shows the server's verdict on a file", async () => {
    const app = await render();
    await app.screen.findByRole('heading', { level: 1, name: 'Report an issue' });
    await app.user.click(app.screen.getByRole('button', { name: 'Send report' }));
    expect(await app.screen.findAllByText('This field is required')).toHaveLength(2);
    expect(FakeXhr.sent).toHaveLength(0);
    await app.user.type(app.screen.getByLabelText(/^Subject/), 'S');
    await app.user.type(app.screen.getByLabelText(/^Description/), 'D');
    await app.user.upload(fileInput(app.container), [new File(['not a pdf'], 'fake.pdf')]);
    await app.user.click(app.screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(400, {
      error: {
        code: 'validation.failed',
        message: 'x',
        details: [{ field: 'files', code: 'fileType', params: { name: 'fake.pdf' } }],
      },
    });
    expect(await app.screen.findByText(/fake\.pdf: this file type is not allowed/)).toBeTruthy();
    expect(app.screen.getByTestId('upload-status').textContent).toBe('Error');
  });

  it('is not open to a user without the permission', async () => {
    const app = await render(['INBOX_READ']);
    expect(currentHref(app.router)).toBe('/documents/in');
  });
});
