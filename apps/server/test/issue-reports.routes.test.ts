import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISSUE_REPORT_MAX_FILE_BYTES, ISSUE_REPORT_MAX_FILES, ISSUE_REPORT_MAX_TOTAL_BYTES } from '@portal/contracts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';
import { startSmtpReceiver } from './smtp.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const SUPPORT = 'helpdesk@support.example.com';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c40000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

type Part = { name: string; type?: string; data: Buffer | string };
const FIELDS = {
  type: 'technical',
  priority: 'critical',
  subject: 'Invoice export fails',
  description: 'The export of invoice 7 stops at 50 %.',
};

/** A multipart body as a browser sends it, from FormData through the Fetch API's Request. */
async function multipart(fields: Record<string, string>, files: Part[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('files', new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const request = new Request('http://x', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let user: string;
let admin: string;

async function submit(fields: Record<string, string>, files: Part[] = [], token: string | null = user) {
  const body = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/issue-reports',
    headers: { ...body.headers, ...(token ? bearer(token) : {}) },
    payload: body.payload,
  });
}
const codes = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: SUPPORT } });
  user = (await login(t.app)).access_token;
  admin = (await login(t.app, ADMIN)).access_token;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('POST /api/issue-reports', () => {
  it('stores the report and e-mails it to support with the attachments', async () => {
    const res = await submit(FIELDS, [
      { name: 'screen shot.png', type: 'image/png', data: PNG },
      { name: 'order.edi', data: "UNA:+.? 'UNB+UNOC:3+5790000000001:14+5790000000002:14+260101:1200+1'" },
    ]);
    expect(res.statusCode).toBe(200);
    const id = res.json().id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const mail = await smtp.waitFor(SUPPORT, /Invoice export fails/);
    expect(mail.subject).toBe('Issue report: Invoice export fails');
    expect(mail.text).toContain('Uma User (user@demo.example.com) of Demo Supplier reported an issue.');
    expect(mail.text).toContain('Priority: critical');
    expect(mail.text).toContain('The export of invoice 7 stops at 50 %.');
    expect(mail.attachments).toEqual([
      { filename: 'screen shot.png', size: PNG.length },
      { filename: 'order.edi', size: 68 },
    ]);

    const list = (await t.app.inject({ url: '/api/admin/issue-reports', headers: bearer(admin) })).json();
    const report = list.items.find((r: { id: string }) => r.id === id);
    expect(report).toMatchObject({
      type: 'technical',
      priority: 'critical',
      subject: 'Invoice export fails',
      status: 'new',
      company: { name: 'Demo Supplier' },
      user: { email: 'user@demo.example.com', firstName: 'Uma' },
    });
    expect(
      report.files.map((f: { filename: string; contentType: string; size: number }) => [
        f.filename,
        f.contentType,
        f.size,
      ]),
    ).toEqual([
      ['order.edi', 'application/edifact', 68],
      ['screen shot.png', 'image/png', PNG.length],
    ]);

    const png = report.files.find((f: { filename: string }) => f.filename === 'screen shot.png');
    const download = await t.app.inject({
      url: `/api/admin/issue-reports/${id}/files/${png.id}`,
      headers: bearer(admin),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="screen shot.png"; filename*=UTF-8''screen%20shot.png`,
    );
    expect(download.rawPayload.equals(PNG)).toBe(true);
  });

  it('accepts a report without files and a PDF whatever type the browser claims', async () => {
    expect((await submit({ ...FIELDS, type: 'consultation', priority: 'minor' })).statusCode).toBe(200);
    const res = await submit({ ...FIELDS, subject: 'PDF' }, [
      { name: 'Faktura č. 7.PDF', type: 'text/html', data: PDF },
    ]);
    expect(res.statusCode).toBe(200);
    const list = (
      await t.app.inject({ url: '/api/admin/issue-reports?type=technical', headers: bearer(admin) })
    ).json();
    const report = list.items.find((r: { subject: string }) => r.subject === 'PDF');
    expect(report.files[0]).toMatchObject({ filename: 'Faktura č. 7.PDF', contentType: 'application/pdf' });
    const download = await t.app.inject({
      url: `/api/admin/issue-reports/${report.id}/files/${report.files[0].id}`,
      headers: bearer(admin),
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Faktura _. 7.PDF"; filename*=UTF-8''Faktura%20%C4%8D.%207.PDF`,
    );
    expect(download.headers['content-type']).toBe('application/pdf');
  });

  it('refuses forbidden types, disguised binaries, empty files with the field files', async () => {
    const cases: [Part, string][] = [
      [{ name: 'tool.exe', data: Buffer.from('MZ\x90\x00') }, 'files:fileType'],
      [{ name: 'page.html', data: '<script>alert(1)</script>' }, 'files:fileType'],
      [{ name: 'fake.png', type: 'image/png', data: '<svg onload=alert(1)>' }, 'files:fileType'],
      [{ name: 'notes.txt', data: Buffer.from([0x4d, 0x5a, 0x00, 0x01, 0x02]) }, 'files:fileType'],
      [{ name: 'archive.zip', data: 'not a zip' }, 'files:fileType'],
      [{ name: 'noextension', data: 'hello' }, 'files:fileType'],
      [{ name: 'empty.txt', data: '' }, 'files:fileEmpty'],
    ];
    for (const [file, code] of cases) {
      const res = await submit(FIELDS, [file]);
      expect(res.statusCode, file.name).toBe(400);
      expect(codes(res), file.name).toEqual([code]);
      expect(res.json().error.details[0].params.name).toBe(file.name);
    }
  });

  it('refuses a file over 5 MB, more than 5 files and more than 10 MB together', async () => {
    const big = await submit(FIELDS, [{ name: 'big.txt', data: Buffer.alloc(ISSUE_REPORT_MAX_FILE_BYTES + 1, 0x41) }]);
    expect(big.statusCode).toBe(400);
    expect(codes(big)).toEqual(['files:fileTooLarge']);

    const six = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }));
    const many = await submit(FIELDS, six);
    expect(many.statusCode).toBe(400);
    expect(codes(many)).toEqual(['files:tooManyFiles']);

    // Each file within its limit, together just over 10 MB, the body still under the request limit.
    const sizes = [ISSUE_REPORT_MAX_FILE_BYTES, ISSUE_REPORT_MAX_FILE_BYTES, 100_000];
    const total = await submit(
      FIELDS,
      sizes.map((size, i) => ({ name: `part${i}.csv`, data: Buffer.alloc(size, 0x41) })),
    );
    expect(total.statusCode).toBe(400);
    expect(codes(total)).toEqual(['files:totalTooLarge']);
  });

  it('answers 413 when the whole body is over the limit', async () => {
    const files = Array.from({ length: 3 }, (_, i) => ({
      name: `x${i}.txt`,
      data: Buffer.alloc(4 * 1024 * 1024 + 100_000, 0x41),
    }));
    const res = await submit(FIELDS, files);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('request.too_large');
  });

  it('refuses bad or missing fields with the field', async () => {
    const res = await submit({ type: 'complaint', priority: 'minor', subject: ' ', description: 'x'.repeat(5001) });
    expect(res.statusCode).toBe(400);
    expect(codes(res).sort()).toEqual(['description:tooLong', 'subject:required', 'type:oneOf']);
    const missing = await submit({});
    expect(
      codes(missing)
        .map((c) => c.split(':')[0])
        .sort(),
    ).toEqual(['description', 'priority', 'subject', 'type']);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/issue-reports',
      headers: bearer(user),
      payload: FIELDS,
    });
    expect(json.statusCode).toBe(415);
  });

  it('needs the REPORT_ISSUE permission and a login', async () => {
    const clerk = (await login(t.app, CLERK)).access_token;
    const forbidden = await submit(FIELDS, [], clerk);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('auth.forbidden');
    expect((await submit(FIELDS, [], admin)).statusCode).toBe(403);
    expect((await submit(FIELDS, [], null)).statusCode).toBe(401);
  });
});

describe('admin issue reports', () => {
  it('lists newest first, filtered, page by page', async () => {
    const all = (await t.app.inject({ url: '/api/admin/issue-reports', headers: bearer(admin) })).json();
    expect(all.items.length).toBe(3);
    const times = all.items.map((r: { createdAt: string }) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const first = (await t.app.inject({ url: '/api/admin/issue-reports?limit=2', headers: bearer(admin) })).json();
    const second = (
      await t.app.inject({ url: `/api/admin/issue-reports?limit=2&cursor=${first.nextCursor}`, headers: bearer(admin) })
    ).json();
    expect([...first.items, ...second.items].map((r: { id: string }) => r.id)).toEqual(
      all.items.map((r: { id: string }) => r.id),
    );
    expect(second.nextCursor).toBeNull();
    const consultation = (
      await t.app.inject({ url: '/api/admin/issue-reports?type=consultation', headers: bearer(admin) })
    ).json();
    expect(consultation.items.map((r: { priority: string }) => r.priority)).toEqual(['minor']);
    const bad = await t.app.inject({ url: '/api/admin/issue-reports?priority=urgent', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
    expect(codes(bad)).toEqual(['priority:oneOf']);
  });

  it('answers 404 for unknown reports or files, 400 for bad ids, 403 to non-admins, 401 without a token', async () => {
    const report = (await t.app.inject({ url: '/api/admin/issue-reports', headers: bearer(admin) }))
      .json()
      .items.find((r: { files: unknown[] }) => r.files.length);
    const file = report.files[0].id as string;
    expect(
      (await t.app.inject({ url: `/api/admin/issue-reports/${UNKNOWN}/files/${file}`, headers: bearer(admin) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/admin/issue-reports/${report.id}/files/${UNKNOWN}`, headers: bearer(admin) }))
        .statusCode,
    ).toBe(404);
    const bad = await t.app.inject({ url: `/api/admin/issue-reports/${report.id}/files/nope`, headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
    expect(codes(bad)).toEqual(['fileId:uuid']);
    for (const url of ['/api/admin/issue-reports', `/api/admin/issue-reports/${report.id}/files/${file}`]) {
      expect((await t.app.inject({ url, headers: bearer(user) })).statusCode).toBe(403);
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });
});

describe('PATCH /api/admin/issue-reports/:id', () => {
  const patch = (id: string, payload: unknown, token: string | null = admin) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/admin/issue-reports/${id}`,
      headers: token ? bearer(token) : {},
      payload: payload as object,
    });
  const newest = async () =>
    (await t.app.inject({ url: '/api/admin/issue-reports?limit=1', headers: bearer(admin) })).json().items[0] as {
      id: string;
      status: string;
    };

  it('sets the status, answers the report and records the change once', async () => {
    const report = await newest();
    expect(report.status).toBe('new');
    const res = await patch(report.id, { status: 'in_progress' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: report.id, status: 'in_progress' });
    expect((await newest()).status).toBe('in_progress');
    const entry = await latestAudit(t.database.db, 'issue_report.status_changed');
    expect(entry).toMatchObject({ details: { reportId: report.id, before: 'new', after: 'in_progress' } });
    // The same status again changes nothing and records nothing.
    expect((await patch(report.id, { status: 'in_progress' })).statusCode).toBe(200);
    expect((await latestAudit(t.database.db, 'issue_report.status_changed'))?.id).toBe(entry?.id);
    expect((await patch(report.id, { status: 'closed' })).json().status).toBe('closed');
  });

  it('refuses a bad status or id with the field, an unknown id with 404', async () => {
    const report = await newest();
    const bad = await patch(report.id, { status: 'done' });
    expect(bad.statusCode).toBe(400);
    expect(codes(bad)).toEqual(['status:oneOf']);
    expect(codes(await patch(report.id, {}))).toEqual(['status:oneOf']);
    const badId = await patch('nope', { status: 'resolved' });
    expect(badId.statusCode).toBe(400);
    expect(codes(badId)).toEqual(['id:uuid']);
    expect((await patch(UNKNOWN, { status: 'resolved' })).statusCode).toBe(404);
  });

  it('is for admins only: 403 to others (before the body is read), 401 without a token', async () => {
    const report = await newest();
    expect((await patch(report.id, { status: 'resolved' }, user)).statusCode).toBe(403);
    expect((await patch(report.id, { status: 'whatever' }, user)).statusCode).toBe(403);
    expect((await patch(report.id, { status: 'resolved' }, null)).statusCode).toBe(401);
    expect((await newest()).status).not.toBe('resolved');
  });
});

describe('OpenAPI', () => {
  it('describes the multipart form: fields, binary files and their limits', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const body = doc.paths['/api/issue-reports'].post.requestBody;
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    const form = body.content['multipart/form-data'].schema;
    expect(form.required).toEqual(['type', 'priority', 'subject', 'description']);
    expect(form.properties.type.enum).toEqual(['technical', 'consultation']);
    expect(form.properties.subject).toMatchObject({ type: 'string', maxLength: 200 });
    expect(form.properties.files).toMatchObject({
      type: 'array',
      maxItems: ISSUE_REPORT_MAX_FILES,
      items: { type: 'string', format: 'binary', maxLength: ISSUE_REPORT_MAX_FILE_BYTES },
    });
    expect(form.properties.files.description).toContain(String(ISSUE_REPORT_MAX_TOTAL_BYTES));
  });
});
