import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_UPLOAD_MAX_BYTES } from '@portal/contracts';
import { renderApp } from '../../../test/render-app.tsx';
import { documentsRoutes, signedIn } from '../documents-test-data.ts';

/** A file that says it is `size` bytes long without holding them. */
function fileOf(name: string, size: number): File {
  const file = new File(['UNA'], name, { type: 'application/edifact' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('documents upload', () => {
  it('refuses a file over 20 MB before anything is sent, and takes several files at once', async () => {
    const { routes } = documentsRoutes();
    const app = await renderApp({ path: '/documents/out', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Upload files' }));
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>('input[type="file"]');
      if (!found) throw new Error('no file input yet');
      return found;
    });
    expect(input.multiple).toBe(true);
    await app.user.upload(input, [
      fileOf('big.edi', DOCUMENT_UPLOAD_MAX_BYTES + 1),
      fileOf('orders.edi', 1000),
      fileOf('more.edi', DOCUMENT_UPLOAD_MAX_BYTES),
    ]);
    const items = await app.screen.findAllByTestId('upload-item');
    expect(items).toHaveLength(3);
    expect(items[0]?.getAttribute('data-status')).toBe('error');
    expect(within(items[0]!).getByRole('alert').textContent).toContain('big.edi is too large');
    expect(items[1]?.getAttribute('data-status')).toBe('pending');
    expect(items[2]?.getAttribute('data-status')).toBe('pending');
    // Nothing went to the server yet.
    expect(app.api.calls.some((c) => c.path === '/api/documents/upload')).toBe(false);
    expect(app.screen.getByRole('button', { name: 'Upload' }).hasAttribute('disabled')).toBe(false);
  });
});
