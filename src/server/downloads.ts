/**
 * Files the sandbox serves outside `/v1`, at signed, expiring URLs (a change request's PDF): the URL
 * itself is the authorization, so it opens in a browser or with curl, without a bearer token, as the
 * service's export links do.
 *
 * A URL is `<base>/downloads/<token>/<file name>`; the token is `<payload>.<signature>`, the payload
 * (kind, claims, expiry) as base64url JSON, signed with HMAC-SHA256 under a key derived from the
 * sandbox admin's token (a secret of the state, so links survive a restart with `--data`). Nothing is
 * stored: the file is produced when it is fetched, from the claims (ids of immutable revisions), by
 * the family that declares that kind of download (its `downloads`).
 * The file name part is for browsers and `curl -O`; it is not checked.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError, notFound } from './errors.js';
import type { Store } from './store.js';

export const DOWNLOADS_PATH = '/downloads/';
/** How long a download URL stays valid (on the sandbox's clock). */
export const DOWNLOAD_TTL_MS = 3_600_000;

interface Payload {
  k: string;
  c: Record<string, string>;
  /** Expiry, ms since the epoch on the store's clock. */
  e: number;
}

function signingKey(store: Store): Buffer {
  const admin = store.data.users.get(store.data.sandboxAdmin);
  return createHash('sha256')
    .update(`docsctl-downloads:${admin?.token ?? ''}`)
    .digest();
}

const sign = (store: Store, payload: string) => createHmac('sha256', signingKey(store)).update(payload).digest('base64url');

/** A URL that serves the `kind` file for `claims` until it expires. */
export function downloadUrl(store: Store, baseUrl: string, kind: string, claims: Record<string, string>, filename: string): string {
  const payload = Buffer.from(JSON.stringify({ k: kind, c: claims, e: store.clock.now() + DOWNLOAD_TTL_MS } satisfies Payload)).toString('base64url');
  return `${baseUrl}${DOWNLOADS_PATH}${payload}.${sign(store, payload)}/${encodeURIComponent(filename)}`;
}

/**
 * The answer to a request under `DOWNLOADS_PATH`: a link that is not valid (or names nothing) throws
 * at once; the file may take its time to produce (a PDF is made in the worker thread).
 */
export function serveDownload(store: Store, method: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  if (method !== 'GET') throw new HttpError(404, `no route ${method} ${path}`);
  const token = path.slice(DOWNLOADS_PATH.length).split('/')[0];
  const payload = verify(store, token);
  if (!payload) throw notFound('no such download: the link is not one this sandbox made');
  if (payload.e <= store.clock.now()) throw notFound(`this download link expired at ${new Date(payload.e).toISOString()}: ask for a new one`);
  const produce = store.families.find((f) => Object.hasOwn(f.downloads ?? {}, payload.k))?.downloads?.[payload.k];
  if (!produce) throw notFound(`no such download: unknown kind ${payload.k}`);
  return Promise.resolve(produce(store, payload.c)).then((file) => ({
    status: 200,
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.body.length),
      'content-disposition': `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
      'cache-control': 'private, no-store',
    },
    body: file.body,
  }));
}

function verify(store: Store, token: string): Payload | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(store, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Payload;
    return typeof parsed.k === 'string' && typeof parsed.e === 'number' && parsed.c && typeof parsed.c === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
