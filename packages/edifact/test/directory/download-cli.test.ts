import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDirectoriesCommand } from '../../src/cli/directories-command.ts';
import { directoryUrl, downloadDirectory } from '../../src/directory/node/download.ts';
import { openDirectoryStore } from '../../src/directory/node/store.ts';
import { shippedDirectoryZips } from '../../src/directory/node/shipped.ts';

let server: Server;
let baseUrl = '';
let folder = '';
const requests: string[] = [];

beforeAll(async () => {
  const zip = readFileSync(shippedDirectoryZips.D96A);
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/untdid/d96a/d96a.zip') {
      response.writeHead(200, { 'content-type': 'application/zip' });
      response.end(zip);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/untdid`;
  folder = await mkdtemp(join(tmpdir(), 'edifact-download-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('download', () => {
  it('builds UNECE addresses', () => {
    expect(directoryUrl('D96A')).toBe('https://service.unece.org/trade/untdid/d96a/d96a.zip');
    expect(directoryUrl('D01B', 'https://mirror.example/edi/{name}.zip')).toBe('https://mirror.example/edi/D01B.zip');
  });

  it('downloads a directory zip from a local server and imports it', async () => {
    const store = openDirectoryStore(join(folder, 'a'));
    const info = await downloadDirectory('D96A', { store, baseUrl });
    expect(info).toMatchObject({ name: 'D96A', messages: 125 });
    expect((await store.load('D96A'))?.messages.ORDERS).toBeDefined();
    await expect(downloadDirectory('D01B', { store, baseUrl })).rejects.toThrow(/HTTP 404/);
    await expect(downloadDirectory('../x', { store, baseUrl })).rejects.toThrow(/not a directory name/);
  });
});

describe('edifact directories CLI', () => {
  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    return { out, err, restore: () => (o.mockRestore(), e.mockRestore()) };
  };

  it('imports, downloads and lists', async () => {
    const store = join(folder, 'cli');
    const io = capture();
    try {
      expect(await runDirectoriesCommand(['list', '--store', store])).toBe(0);
      expect(await runDirectoriesCommand(['import', shippedDirectoryZips.D96A, '--store', store])).toBe(0);
      expect(await runDirectoriesCommand(['download', 'd96a', `--store=${store}`, '--base-url', baseUrl])).toBe(0);
      expect(await runDirectoriesCommand(['list', '--store', store])).toBe(0);
      expect(await runDirectoriesCommand(['import', '/nonexistent', '--store', store])).toBe(1);
      expect(await runDirectoriesCommand(['frobnicate'])).toBe(2);
      expect(await runDirectoriesCommand(['import', '--store'])).toBe(2);
    } finally {
      io.restore();
    }
    expect(io.out[0]).toMatch(/no directories/);
    expect(io.out.filter((l) => l.startsWith('D96A'))).toHaveLength(3);
    expect(io.err.join('')).toMatch(/nonexistent/);
  });
});
