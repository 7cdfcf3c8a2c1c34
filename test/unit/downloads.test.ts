import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/server/clock.js';
import { DOWNLOAD_TTL_MS, downloadUrl, serveDownload } from '../../src/server/downloads.js';
import { HttpError } from '../../src/server/errors.js';
import type { FamilyHooks } from '../../src/server/store.js';
import { Store } from '../../src/server/store.js';

/** A family that serves one kind of download: the claims, echoed. */
const echo: FamilyHooks = {
  downloads: {
    'test-echo': (_store, claims) => {
      if (claims.gone) throw new HttpError(404, 'gone');
      return { contentType: 'text/plain', filename: 'echo "1".txt', body: Buffer.from(JSON.stringify(claims)) };
    },
  },
};

function store(adminToken: string): Store {
  const s = new Store(new Clock(() => Date.UTC(2030, 0, 1)), [echo]);
  s.addUser({ id: 'u-admin', displayName: 'Admin', email: 'a@x.test', token: adminToken });
  s.data.sandboxAdmin = 'u-admin';
  return s;
}

const pathOf = (url: string) => new URL(url).pathname;

/** The status and message of what `serveDownload` throws. */
function failure(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('signed downloads', () => {
  it('serve what the claims name, with a safe file name, until they expire', async () => {
    const s = store('token-one-12345');
    const url = downloadUrl(s, 'http://sandbox', 'test-echo', { a: '1' }, 'echo "1".txt');
    expect(url).toMatch(/^http:\/\/sandbox\/downloads\/[\w-]+\.[\w-]+\/echo%20%221%22\.txt$/);
    const res = await serveDownload(s, 'GET', pathOf(url));
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"a":"1"}');
    expect(res.headers).toMatchObject({ 'content-type': 'text/plain', 'content-length': '9', 'content-disposition': 'attachment; filename="echo _1_.txt"' });
    expect(failure(() => serveDownload(s, 'POST', pathOf(url))).status).toBe(404);

    s.clock.advance(DOWNLOAD_TTL_MS - 1);
    expect((await serveDownload(s, 'GET', pathOf(url))).status).toBe(200);
    s.clock.advance(1);
    expect(failure(() => serveDownload(s, 'GET', pathOf(url))).message).toBe('this download link expired at 2030-01-01T01:00:00.000Z: ask for a new one');
  });

  it('refuse changed claims, another sandbox’s links, and malformed tokens', () => {
    const s = store('token-one-12345');
    const url = downloadUrl(s, 'http://sandbox', 'test-echo', { a: '1' }, 'x');
    const [payload, signature] = pathOf(url).split('/')[2].split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, c: { a: '2' } })).toString('base64url');
    const forged = (token: string) => failure(() => serveDownload(s, 'GET', `/downloads/${token}/x`));
    expect(forged(`${changed}.${signature}`)).toEqual({ status: 404, message: 'no such download: the link is not one this sandbox made' });
    for (const token of ['', 'abc', `${payload}.`, `${payload}.${signature}.x`, `${payload}.${signature.slice(1)}`]) expect(forged(token).status).toBe(404);
    expect(failure(() => serveDownload(store('token-two-12345'), 'GET', pathOf(url))).status).toBe(404);
    // The producer's own 404 (what the claims named is gone) comes through.
    const gone = downloadUrl(s, 'http://sandbox', 'test-echo', { gone: 'yes' }, 'x');
    expect(failure(() => serveDownload(s, 'GET', pathOf(gone)))).toEqual({ status: 404, message: 'gone' });
  });
});
