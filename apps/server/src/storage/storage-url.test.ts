import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { parseStorageUrl, StorageUrlError } from './storage-url.ts';

describe('parseStorageUrl', () => {
  it('is the database when unset, empty or database:', () => {
    for (const value of [undefined, '', 'database:']) expect(parseStorageUrl(value)).toEqual({ kind: 'database' });
  });

  it('reads AWS itself: a bucket, the default region, virtual-hosted addressing', () => {
    expect(parseStorageUrl('s3://portal-files')).toEqual({
      kind: 's3',
      bucket: 'portal-files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('reads a self-hosted server: endpoint, region, a key prefix, path-style unless told otherwise', () => {
    expect(parseStorageUrl('s3://edi.files/portal/prod?endpoint=http://minio:9000/&region=eu-central-1')).toEqual({
      kind: 's3',
      bucket: 'edi.files',
      prefix: 'portal/prod/',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
    });
    expect(parseStorageUrl('s3://files/?endpoint=https://r2.example.com&pathStyle=false')).toMatchObject({
      prefix: '',
      forcePathStyle: false,
    });
  });

  it.each([
    ['ftp://files', /s3:\/\//],
    ['files', /must be database: or s3:/],
    ['s3://key:secret@files', /credentials/],
    ['s3://ab', /bucket "ab"/],
    ['s3://Files', /bucket "Files"/],
    ['s3://files..x', /bucket/],
    ['s3://files/a b/', /key prefix/],
    ['s3://files/a/../b', /key prefix/],
    ['s3://files/a/%2E%2e/b', /key prefix/],
    ['s3://files?endpoint=minio:9000', /endpoint must be an http/],
    ['s3://files?endpoint=file:///tmp', /endpoint must be an http/],
    ['s3://files?endpoint=http://u:p@minio', /endpoint must not hold credentials/],
    ['s3://files?region=EU%20WEST', /region/],
    ['s3://files?pathStyle=yes', /pathStyle must be true or false/],
    ['s3://files?acl=public-read', /unknown parameter "acl"/],
  ])('refuses %s', (value, message) => {
    expect(() => parseStorageUrl(value)).toThrow(StorageUrlError);
    expect(() => parseStorageUrl(value)).toThrow(message);
  });
});

describe('STORAGE_URL in the configuration', () => {
  it('stops the start with a message naming the variable', () => {
    expect(() => loadConfig({ STORAGE_URL: 's3://key:secret@files' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_URL: 's3://key:secret@files' })).toThrow(
      /STORAGE_URL: must not hold credentials/,
    );
  });

  it('gives the parsed location, the database when unset', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'database' });
    expect(loadConfig({ STORAGE_URL: 's3://portal-files/x/' }).storage).toMatchObject({
      bucket: 'portal-files',
      prefix: 'x/',
    });
  });
});
