/**
 * The sandbox's fetches check the address, not only the name: a name is resolved once (by an
 * injected resolver here: no network, only servers on 127.0.0.1), a private, link-local, metadata or
 * reserved address is refused unless the allow-list names it, and the connection goes to the
 * address that was checked, so a second answer of the resolver (DNS rebinding) is never used.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressKind,
  addressRefusal,
  canonicalAddress,
  FetchError,
  refusedHost,
  safeFetch,
  type FetchBudget,
  type ResolveName,
} from '../../src/server/lib/fetch.js';

let server: http.Server;
let port = 0;
const hits: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/to-private') res.writeHead(302, { location: `http://private.test:${port}/x` }).end();
    else if (req.url === '/to-mapped') res.writeHead(302, { location: `http://[::ffff:a9fe:a9fe]:${port}/latest` }).end();
    else if (req.url === '/to-good') res.writeHead(302, { location: `http://good.test:${port}/page` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.url}`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A resolver from a table; counts its calls per name. */
function resolver(table: Record<string, string[] | (() => string[])>): ResolveName & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const fn = async (name: string) => {
    calls.set(name, (calls.get(name) ?? 0) + 1);
    const entry = table[name];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return (typeof entry === 'function' ? entry() : entry).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
}

async function refusal(url: string, allowHosts: string[], lookup: ResolveName): Promise<string> {
  try {
    await safeFetch(url, { allowHosts, lookup, timeoutMs: 2000 });
  } catch (err) {
    expect(err).toBeInstanceOf(FetchError);
    return (err as FetchError).message;
  }
  throw new Error(`${url} was fetched`);
}

describe('address ranges', () => {
  it('classifies private, link-local, metadata, unspecified and reserved addresses, mapped forms included', () => {
    const cases: [string, string | undefined][] = [
      ['10.1.2.3', 'a private address'],
      ['172.16.0.1', 'a private address'],
      ['172.31.255.255', 'a private address'],
      ['172.32.0.1', undefined],
      ['192.168.1.1', 'a private address'],
      ['100.64.0.1', 'a private address'],
      ['169.254.169.254', 'a link-local (metadata) address'],
      ['fe80::1', 'a link-local (metadata) address'],
      ['fd00:ec2::254', 'a private address'],
      ['fc00::1', 'a private address'],
      ['127.0.0.1', 'a loopback address'],
      ['127.9.9.9', 'a loopback address'],
      ['::1', 'a loopback address'],
      ['0.0.0.0', 'an unspecified address'],
      ['::', 'an unspecified address'],
      ['::ffff:10.0.0.7', 'a private address'],
      ['::ffff:a9fe:a9fe', 'a link-local (metadata) address'],
      ['0:0:0:0:0:ffff:7f00:1', 'a loopback address'],
      ['::ffff:c0a8:101', 'a private address'],
      ['::10.0.0.7', 'a reserved address'],
      ['64:ff9b::a00:7', 'a reserved address'],
      ['224.0.0.1', 'a reserved address'],
      ['93.184.215.14', undefined],
      ['2606:4700::1111', undefined],
      ['::ffff:93.184.215.14', undefined],
    ];
    for (const [address, kind] of cases) expect(addressKind(address), address).toBe(kind);
    expect(canonicalAddress('::FFFF:A00:7')).toBe('10.0.0.7');
    expect(canonicalAddress('[fe80:0:0:0:0:0:0:1]')).toBe('fe80::1');
  });

  it('allows a non-public address only when the allow-list names it (loopback by `loopback`); names and * never do', () => {
    expect(addressRefusal('10.0.0.7', ['loopback', '*', '*.corp.test', 'docs.corp.test'])).toBe('a private address');
    expect(addressRefusal('10.0.0.7', ['loopback', '10.0.0.7'])).toBeUndefined();
    // The mapped form of an allowed address is that address.
    expect(addressRefusal('::ffff:a00:7', ['10.0.0.7'])).toBeUndefined();
    expect(addressRefusal('fe80::1', ['[fe80::1]'])).toBeUndefined();
    expect(addressRefusal('127.0.0.1', ['loopback'])).toBeUndefined();
    expect(addressRefusal('127.0.0.1', ['docs.test'])).toBe('a loopback address');
    expect(addressRefusal('::ffff:127.0.0.1', ['loopback'])).toBeUndefined();
    expect(addressRefusal('0.0.0.0', ['loopback', '*'])).toBe('an unspecified address');
    expect(addressRefusal('93.184.215.14', ['docs.test'])).toBeUndefined();
    // A URL naming a refused address is refused before any work.
    expect(refusedHost('http://[::ffff:a9fe:a9fe]/latest', ['loopback', '*'])).toBe('::ffff:a9fe:a9fe');
    expect(refusedHost('http://10.0.0.7/', ['*', '10.0.0.7'])).toBeUndefined();
    expect(refusedHost('http://0.0.0.0:8080/', ['loopback'])).toBe('0.0.0.0');
  });
});

describe('safeFetch resolves once and connects to the checked address', () => {
  it('refuses an allowed name that resolves to a private, link-local or mapped address, naming the name and the address', async () => {
    const lookup = resolver({ 'evil.test': ['10.0.0.7'], 'meta.test': ['169.254.169.254'], 'mapped.test': ['::ffff:10.0.0.7'], 'zero.test': ['0.0.0.0'] });
    const allow = ['loopback', '*.test'];
    expect(await refusal(`http://evil.test:${port}/`, allow, lookup)).toBe(
      `fetching http://evil.test:${port}/: host evil.test resolves to 10.0.0.7, a private address, which the sandbox does not fetch from unless serve --allow-fetch names that address`,
    );
    expect(await refusal(`http://meta.test/latest/meta-data`, allow, lookup)).toContain(
      'host meta.test resolves to 169.254.169.254, a link-local (metadata) address',
    );
    expect(await refusal(`http://mapped.test/`, allow, lookup)).toContain('host mapped.test resolves to ::ffff:10.0.0.7, a private address');
    expect(await refusal(`http://zero.test:${port}/`, ['*'], lookup)).toContain('resolves to 0.0.0.0, an unspecified address');
    expect(await refusal(`http://nowhere.test/`, allow, lookup)).toContain('host nowhere.test could not be resolved (ENOTFOUND)');
    expect(hits).toEqual([]);
  });

  it('a name resolving to loopback is fetched under the loopback policy, and the resolver is asked once per hop', async () => {
    const lookup = resolver({ 'good.test': ['127.0.0.1'] });
    const res = await safeFetch(`http://good.test:${port}/page`, { allowHosts: ['loopback', 'good.test'], lookup });
    expect(res.body.toString()).toBe('hello /page');
    expect(hits.at(-1)).toBe(`good.test:${port} /page`);
    expect(lookup.calls.get('good.test')).toBe(1);
    // Without `loopback` in the list, the same name is refused by its address.
    expect(await refusal(`http://good.test:${port}/page`, ['good.test'], lookup)).toContain('resolves to 127.0.0.1, a loopback address');
  });

  it('never looks the name up a second time: a rebinding resolver cannot move the connection', async () => {
    // First answer: loopback (allowed). Any later answer: the metadata address.
    let n = 0;
    const lookup = resolver({ 'rebind.test': () => (n++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']) });
    const before = hits.length;
    const res = await safeFetch(`http://rebind.test:${port}/doc`, { allowHosts: ['loopback', 'rebind.test'], lookup });
    expect(res.body.toString()).toBe('hello /doc');
    expect(lookup.calls.get('rebind.test')).toBe(1);
    expect(hits.slice(before)).toEqual([`rebind.test:${port} /doc`]);
  });

  it('uses the first address the policy allows when a name has several', async () => {
    const lookup = resolver({ 'multi.test': ['10.0.0.7', '127.0.0.1'] });
    const res = await safeFetch(`http://multi.test:${port}/m`, { allowHosts: ['loopback', 'multi.test'], lookup });
    expect(res.body.toString()).toBe('hello /m');
  });

  it('checks every redirect by address: to a name resolving to a private address, or to a mapped metadata address', async () => {
    const lookup = resolver({ 'private.test': ['192.168.0.10'], 'good.test': ['127.0.0.1'] });
    const allow = ['loopback', '*.test', '*'];
    expect(await refusal(`http://127.0.0.1:${port}/to-private`, allow, lookup)).toBe(
      `fetching http://127.0.0.1:${port}/to-private (redirected to http://private.test:${port}/x): host private.test resolves to 192.168.0.10, a private address, which the sandbox does not fetch from unless serve --allow-fetch names that address`,
    );
    expect(await refusal(`http://127.0.0.1:${port}/to-mapped`, allow, lookup)).toContain('(redirected to http://[::ffff:a9fe:a9fe]:');
    expect(await refusal(`http://127.0.0.1:${port}/to-mapped`, allow, lookup)).toContain('host ::ffff:a9fe:a9fe is a link-local (metadata) address');
    const ok = await safeFetch(`http://127.0.0.1:${port}/to-good`, { allowHosts: allow, lookup });
    expect(ok.url).toBe(`http://good.test:${port}/page`);
  });

  it('a shared budget counts every request (redirects and failures) and every byte, and its signal stops the fetch', async () => {
    const budget: FetchBudget = { fetchesLeft: 2, bytesLeft: 1000, fetchesSpent: 'no fetches left', bytesSpent: 'no bytes left' };
    const lookup = resolver({ 'good.test': ['127.0.0.1'] });
    // A redirect and its target: two requests.
    await safeFetch(`http://127.0.0.1:${port}/to-good`, { allowHosts: ['loopback', '*'], lookup, budget });
    expect(budget.fetchesLeft).toBe(0);
    expect(budget.bytesLeft).toBe(1000 - 'hello /page'.length);
    await expect(safeFetch(`http://127.0.0.1:${port}/a`, { budget })).rejects.toThrow('no fetches left');

    const small: FetchBudget = { fetchesLeft: 5, bytesLeft: 4, fetchesSpent: 'no fetches left', bytesSpent: 'no bytes left' };
    await expect(safeFetch(`http://127.0.0.1:${port}/a`, { budget: small })).rejects.toThrow(`fetching http://127.0.0.1:${port}/a: no bytes left`);

    const stop = new AbortController();
    stop.abort(new Error('the import ran out of time'));
    const stopped: FetchBudget = { fetchesLeft: 5, bytesLeft: 1000, fetchesSpent: '', bytesSpent: '', signal: stop.signal };
    await expect(safeFetch(`http://127.0.0.1:${port}/a`, { budget: stopped })).rejects.toMatchObject({
      code: 'FETCH_TIMEOUT',
      message: expect.stringContaining('the import ran out of time'),
    });
  });
});
