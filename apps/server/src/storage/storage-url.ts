/**
 * `STORAGE_URL`: where blobs live.
 *
 * - unset or `database:` – the application's database (PGlite or PostgreSQL), the default;
 * - `s3://BUCKET[/PREFIX/][?endpoint=URL&region=REGION&pathStyle=true|false]` – an S3-compatible bucket. `endpoint`
 *   for anything but AWS itself (MinIO, Ceph, Garage, R2…); `region` defaults to us-east-1; path-style addressing is
 *   on when an endpoint is given (what most self-hosted servers need) unless `pathStyle=false`.
 *
 * Credentials never go in the URL (it is logged and shown in process lists): the AWS SDK reads them from
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, web identity or the instance's role.
 */
export type StorageLocation = { kind: 'database' } | S3Location;

export type S3Location = {
  kind: 's3';
  bucket: string;
  /** Put before every key: empty, or ending in `/`. */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
};

/** Bucket names as S3 accepts them: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^([A-Za-z0-9!_.*'()-]+\/)*$/;
const REGION = /^[a-z0-9-]{2,32}$/;
const PARAMS = new Set(['endpoint', 'region', 'pathStyle']);

export class StorageUrlError extends Error {}

export function parseStorageUrl(value: string | undefined): StorageLocation {
  if (value === undefined || value === '' || value === 'database:') return { kind: 'database' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StorageUrlError('must be database: or s3://bucket[/prefix/][?endpoint=…&region=…&pathStyle=…]');
  }
  if (url.protocol !== 's3:') throw new StorageUrlError('must start with s3:// (or be database:)');
  // The URL parser would resolve `a/../b` to `b`: refuse dot segments as written, so the prefix is what was meant.
  const rawPath = value.slice('s3://'.length).split(/[?#]/)[0]!.split('/').slice(1);
  if (rawPath.some((s) => /^(\.|%2e){1,2}$/i.test(s)))
    throw new StorageUrlError('key prefix may not hold . or .. segments');
  if (url.username || url.password)
    throw new StorageUrlError('must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = url.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    throw new StorageUrlError(`bucket "${bucket}" is not a valid S3 bucket name`);
  let prefix = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  if (!PREFIX.test(prefix) || prefix.split('/').some((s) => s === '.' || s === '..'))
    throw new StorageUrlError(`key prefix "${prefix}" may hold only letters, digits, !_.*'()- and /`);
  for (const name of url.searchParams.keys())
    if (!PARAMS.has(name)) throw new StorageUrlError(`unknown parameter "${name}" (endpoint, region, pathStyle)`);

  const endpointText = url.searchParams.get('endpoint') ?? undefined;
  let endpoint: string | undefined;
  if (endpointText !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(endpointText);
    } catch {
      throw new StorageUrlError('endpoint must be an http:// or https:// URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new StorageUrlError('endpoint must be an http:// or https:// URL');
    if (parsed.username || parsed.password) throw new StorageUrlError('endpoint must not hold credentials');
    endpoint = parsed.toString().replace(/\/$/, '');
  }
  const region = url.searchParams.get('region') ?? 'us-east-1';
  if (!REGION.test(region)) throw new StorageUrlError(`region "${region}" is not a region name`);
  const pathStyle = url.searchParams.get('pathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    throw new StorageUrlError('pathStyle must be true or false');
  return {
    kind: 's3',
    bucket,
    prefix,
    endpoint,
    region,
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
  };
}
