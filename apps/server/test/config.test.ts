import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    // toMatchObject: a setting added later brings its own default without breaking this test.
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Open EDI Portal <no-reply@localhost>',
      supportEmail: 'support@localhost.localdomain',
      publicUrl: 'http://localhost:3000',
      legacyEdiUrl: 'https://legacy-edi.example.com/',
      logLevel: 'info',
      jwtPrivateKey: undefined,
      demoData: true,
      trustProxy: false,
      webDist: undefined,
      edifactDirectoriesImport: [],
      accessTokenTtlSeconds: 300,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', SMTP_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
  });

  it('reads the given values', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://portal@db:5432/portal',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      PUBLIC_URL: 'https://edi.example.com///',
      DEMO_DATA: 'no',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      EDIFACT_DIRECTORIES_IMPORT: ' d96a , d01b,, ',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://portal@db:5432/portal',
      smtpUrl: 'smtps://mailer:secret@smtp.example.com:465',
      publicUrl: 'https://edi.example.com',
      demoData: false,
      trustProxy: true,
      logLevel: 'warn',
      edifactDirectoriesImport: ['d96a', 'd01b'],
    });
    // PUBLIC_URL defaults to the chosen port.
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://root@localhost/portal'],
    ['DATABASE_URL', '/var/lib/portal'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SMTP_URL', 'localhost:25'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['DEMO_DATA', 'maybe'],
    ['ACCESS_TOKEN_TTL_SECONDS', '0'],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    // Only the bad variable is named.
    expect((error as Error).message.split('\n').filter((line) => /^\s+\w+: /.test(line))).toHaveLength(1);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', SMTP_URL: 'ftp://x' })).toThrow(
      /PORT: [\s\S]*SMTP_URL: |SMTP_URL: [\s\S]*PORT: /,
    );
  });
});
