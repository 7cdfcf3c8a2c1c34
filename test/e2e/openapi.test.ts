import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runInProcess, useSandbox } from '../helpers/inprocess.js';
import { checkAnswer } from '../helpers/official.js';

// The sandbox's fetches of a URL give up after 400 ms here.
const sb = useSandbox({ fetchTimeoutMs: 400 });
const dir = mkdtempSync(join(tmpdir(), 'docsctl-openapi-'));

const petstore = (version: string) => ({
  openapi: '3.0.3',
  info: { title: 'Petstore', version },
  paths: { '/pets': { get: { responses: { '200': { description: 'the pets' } } } } },
});
const YAML_SPEC = `openapi: 3.1.0
info:
  title: Petstore (YAML)
  version: "3.0"
paths:
  /pets/{id}:
    get:
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        "200": { description: one pet }
`;

/** What the test's own server answers at /spec.json (changed by tests to make new versions). */
let served = petstore('1.0.0');
let specServer: http.Server;
let base = '';
const hanging: http.ServerResponse[] = [];

beforeAll(async () => {
  specServer = http.createServer((req, res) => {
    if (req.url === '/spec.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(served));
    } else if (req.url === '/not-openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hello: 'world' }));
    } else if (req.url === '/slow.json') {
      hanging.push(res); // never answers: the sandbox's fetch times out
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((done) => specServer.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(specServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  specServer.closeAllConnections();
  await new Promise<void>((done) => specServer.close(() => done()));
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const get = (slug: string) => sb.request('GET', `/v1/orgs/org-acme/openapi/${slug}`);

/** Poll the API (not the CLI) until processing completes. */
async function settled(slug: string) {
  for (let i = 0; i < 200; i++) {
    const r = await get(slug);
    if (r.body.processingState === 'complete') return r.body;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error(`${slug} did not complete`);
}

describe('openapi specifications', () => {
  it('creates from a URL served on 127.0.0.1 and waits: a first version holding the document', async () => {
    served = petstore('1.0.0');
    const spec = await sb.json(['openapi', 'create', 'petstore', '--url', `${base}/spec.json`, '--wait']);
    expect(spec).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      sourceURL: `${base}/spec.json`,
      processingState: 'complete',
      visibility: 'private',
      lastVersion: expect.any(String),
      lastProcessedAt: expect.any(String),
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${sb.server.url}/v1/orgs/org-acme/openapi/petstore` },
    });
    expect(spec).not.toHaveProperty('lastProcessErrorCode');
    // a private specification has no published address
    expect(spec.urls).not.toHaveProperty('published');

    const versions = await sb.json(['openapi', 'versions', 'petstore']);
    expect(versions).toEqual([
      {
        object: 'openapi-spec-version',
        id: spec.lastVersion,
        createdAt: spec.lastProcessedAt,
        url: `${base}/spec.json`,
        urls: { location: `${sb.server.url}/v1/orgs/org-acme/openapi/petstore/versions/${spec.lastVersion}` },
      },
    ]);
    expect(await sb.json(['openapi', 'version', 'petstore'])).toEqual(versions[0]);
    expect(await sb.json(['openapi', 'version', 'petstore', spec.lastVersion])).toEqual(versions[0]);

    const content = await sb.run(['openapi', 'content', 'petstore']);
    expect(content.exitCode).toBe(0);
    expect(JSON.parse(content.stdout)).toEqual(petstore('1.0.0'));
    expect(await sb.json(['openapi', 'content', 'petstore'])).toEqual({
      filesystem: { 'openapi.json': petstore('1.0.0') },
      url: `${base}/spec.json`,
      urls: { source: `${base}/spec.json`, public: null },
    });
  });

  it('answers pending at once, then processes in the background: pending → complete', async () => {
    const r = await sb.request('POST', '/v1/orgs/org-acme/openapi', { slug: 'bg', source: { url: `${base}/spec.json` } });
    expect(r.status).toBe(201);
    expect(r.body.processingState).toBe('pending');
    expect(r.body).not.toHaveProperty('lastVersion');
    const done = await settled('bg');
    expect(done.lastVersion).toEqual(expect.any(String));

    // --no-wait answers at once (without it the CLI waits, on a terminal or not)
    const noWait = await sb.json(['openapi', 'put', 'bg', '--url', `${base}/spec.json`, '--no-wait']);
    expect(noWait.processingState).toBe('pending');
  });

  it('put: 201 when the slug is new, 200 when it exists; each successful put adds one version', async () => {
    const created = await sb.request('PUT', '/v1/orgs/org-acme/openapi/pets', { source: { text: JSON.stringify(petstore('1.0.0')) } });
    expect(created.status).toBe(201);
    const first = await settled('pets');
    expect(first).not.toHaveProperty('sourceURL');

    const yamlFile = file('pets.yaml', YAML_SPEC);
    const second = await sb.json(['openapi', 'put', 'pets', '--file', yamlFile, '--wait']);
    expect(second.lastVersion).not.toBe(first.lastVersion);
    served = petstore('2.0.0');
    const replaced = await sb.request('PUT', '/v1/orgs/org-acme/openapi/pets', { source: { url: `${base}/spec.json` } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(first.id);
    const third = await settled('pets');

    const versions = await sb.json(['openapi', 'versions', 'pets']);
    expect(versions.map((v: { id: string }) => v.id)).toEqual([third.lastVersion, second.lastVersion, first.lastVersion]);
    expect(versions[0].url).toBe(`${base}/spec.json`);
    // a version sent as text is readable at its content URL
    expect(versions[2].url).toBe(`${sb.server.url}/v1/orgs/org-acme/openapi/pets/versions/${first.lastVersion}/content`);

    expect(JSON.parse((await sb.run(['openapi', 'content', 'pets'])).stdout)).toEqual(petstore('2.0.0'));
    const yaml = await sb.json(['openapi', 'content', 'pets', second.lastVersion]);
    expect(yaml.filesystem).toEqual({ 'openapi.yaml': parseYaml(YAML_SPEC) });
    expect(JSON.parse((await sb.run(['openapi', 'content', 'pets', first.lastVersion])).stdout)).toEqual(petstore('1.0.0'));
    expect(JSON.parse((await sb.run(['openapi', 'content', 'pets', '--version', first.lastVersion])).stdout)).toEqual(petstore('1.0.0'));
  });

  it('a slow URL times out: FETCH_TIMEOUT recorded, exit 1, the previous version kept', async () => {
    served = petstore('1.0.0');
    const good = await sb.json(['openapi', 'create', 'slow', '--url', `${base}/spec.json`, '--wait']);
    const r = await sb.run(['openapi', 'put', 'slow', '--url', `${base}/slow.json`, '--wait']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('lastProcessErrorCode\tFETCH_TIMEOUT');
    expect(r.stdout).toContain(`lastVersion\t${good.lastVersion}`);
    expect(r.stderr).toContain('error: processing slow failed: FETCH_TIMEOUT');
    expect(r.stderr).toMatch(/FETCH_TIMEOUT: fetching http:\/\/127\.0\.0\.1:\d+\/slow\.json: timed out after 400 ms/);
    expect(r.stderr).toContain(`hint: the previous version ${good.lastVersion} is kept`);

    const spec = (await get('slow')).body;
    expect(spec).toMatchObject({
      processingState: 'complete',
      lastVersion: good.lastVersion,
      lastProcessErrorCode: 'FETCH_TIMEOUT',
      sourceURL: `${base}/slow.json`,
    });
    expect(spec.lastProcessedErrors).toEqual([{ code: 'FETCH_TIMEOUT', message: expect.stringContaining('timed out after 400 ms') }]);
    expect(spec.lastProcessedErrorCount).toBe(1);
    expect(await sb.json(['openapi', 'versions', 'slow'])).toHaveLength(1);
    expect(JSON.parse((await sb.run(['openapi', 'content', 'slow'])).stdout)).toEqual(petstore('1.0.0'));

    // the next successful put clears the error
    const fixed = await sb.json(['openapi', 'put', 'slow', '--url', `${base}/spec.json`, '--wait']);
    expect(fixed).not.toHaveProperty('lastProcessErrorCode');
    expect(fixed).not.toHaveProperty('lastProcessedErrors');
    expect(fixed.lastProcessedErrorCount).toBe(0);
    expect(await sb.json(['openapi', 'versions', 'slow'])).toHaveLength(2);
  });

  it('an invalid document is a PARSE_ERROR with the reasons, and no version', async () => {
    const notYaml = await sb.run(['openapi', 'create', 'broken', '--file', file('broken.yaml', 'openapi: 3.0.0\ninfo: [unclosed\n'), '--wait', '--json']);
    expect(notYaml.exitCode).toBe(1);
    const shown = JSON.parse(notYaml.stdout);
    expect(shown).toMatchObject({ slug: 'broken', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(shown.lastProcessedErrors[0].code).toBe('INVALID_YAML');
    expect(JSON.parse(notYaml.stderr).error).toMatchObject({ exitCode: 1, message: expect.stringContaining('processing broken failed: PARSE_ERROR') });
    expect(shown).not.toHaveProperty('lastVersion');
    expect(await sb.json(['openapi', 'versions', 'broken'])).toEqual([]);
    const none = await sb.run(['openapi', 'content', 'broken']);
    expect(none.exitCode).toBe(4);
    expect(none.stderr).toContain('specification broken has no version yet');

    const other = await sb.run(['openapi', 'put', 'broken', '--url', `${base}/not-openapi.json`, '--wait']);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toContain("NOT_OPENAPI: not an OpenAPI 3.x or Swagger 2.0 document: missing 'openapi' field");

    const missing = await sb.run(['openapi', 'put', 'broken', '--url', `${base}/nowhere.json`, '--wait']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('processing broken failed: FETCH_ERROR');
    expect(missing.stderr).toContain('answered 404');
  });

  it('counts every error of the last processing, and lists the first 20', async () => {
    // 30 times the same key: 29 duplicate-key errors
    const yaml = file('dup.yaml', 'openapi: 3.0.0\n' + 'k: 1\n'.repeat(30));
    const r = await sb.run(['openapi', 'create', 'dup', '--file', yaml, '--wait', '--json']);
    expect(r.exitCode).toBe(1);
    const spec = JSON.parse(r.stdout);
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 29 });
    expect(spec.lastProcessedErrors).toHaveLength(20);
    expect(spec.lastProcessedErrors[0]).toEqual({ code: 'INVALID_YAML', message: expect.stringContaining('line 3') });
    const human = await sb.run(['openapi', 'put', 'dup', '--file', yaml, '--wait']);
    expect(human.stderr).toContain('  … and 9 more');
    expect(human.stdout).toContain('lastProcessedErrorCount\t29');
    // a URL the sandbox cannot fetch is one error
    const one = await sb.run(['openapi', 'put', 'dup', '--url', `${base}/nowhere.json`, '--wait', '--json']);
    expect(JSON.parse(one.stdout)).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR', lastProcessedErrorCount: 1 });
  });

  it('takes slugs with upper-case letters, keeps their case, and finds them whatever the case asked', async () => {
    const created = await sb.json(['openapi', 'create', 'PetStore-V2', '--file', file('pets.json', JSON.stringify(petstore('1.0.0'))), '--wait']);
    expect(created).toMatchObject({ slug: 'PetStore-V2', processingState: 'complete' });
    expect(created.urls.location).toBe(`${sb.server.url}/v1/orgs/org-acme/openapi/PetStore-V2`);
    for (const asked of ['PetStore-V2', 'petstore-v2', 'PETSTORE-V2']) {
      expect((await sb.json(['openapi', 'get', asked])).id).toBe(created.id);
    }
    expect(JSON.parse((await sb.run(['openapi', 'content', 'petstore-v2'])).stdout)).toEqual(petstore('1.0.0'));
    // one specification per slug, whatever the case: create refuses, put replaces (keeping the slug)
    const again = await sb.run(['openapi', 'create', 'petstore-v2', '--url', `${base}/spec.json`]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('slug: a specification petstore-v2 already exists in this organization as PetStore-V2');
    const replaced = await sb.request('PUT', '/v1/orgs/org-acme/openapi/PETSTORE-V2', { source: { text: JSON.stringify(petstore('2.0.0')) } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.id, slug: 'PetStore-V2' });
    // The put is processed in the background (a process's start used to hide the wait).
    await settled('PetStore-V2');
    expect(await sb.json(['openapi', 'versions', 'PetStore-V2'])).toHaveLength(2);
    expect((await sb.run(['openapi', 'list'])).stdout).toMatch(/^PetStore-V2\t/);
    expect((await sb.run(['openapi', 'delete', 'PETSTORE-v2', '--yes'])).exitCode).toBe(0);
    expect((await sb.request('GET', '/v1/orgs/org-acme/openapi')).body.count).toBe(0);
  });

  it('rejects bad input before sending (exit 2) and on the server (400), nothing created', async () => {
    const cases: [string[], string][] = [
      [['create', 'Bad_Slug', '--url', `${base}/spec.json`], '<slug>: must match the pattern /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/'],
      [['create', 'x'.repeat(101), '--url', `${base}/spec.json`], '<slug>: must be at most 100 characters'],
      [['put', 'double--dash', '--url', `${base}/spec.json`], '<slug>: must match the pattern /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/'],
      [['put', 'ok', '--url', 'not a url'], '--url: must be an absolute URI'],
      [['put', 'ok', '--url', '/spec.json'], '--url: must be an absolute URI'],
      [['put', 'ok', '--file', file('empty.json', '')], '--file: must not be empty'],
      [['put', 'ok', '--file', join(dir, 'missing.json')], `--file: ${join(dir, 'missing.json')}: cannot read it (ENOENT)`],
      [['put', 'ok'], 'needs exactly one of --url or --file'],
      [['put', 'ok', '--url', `${base}/spec.json`, '--file', file('x.json', '{}')], 'needs exactly one of --url or --file'],
    ];
    for (const [args, message] of cases) {
      const r = await sb.run(['openapi', ...args]);
      expect({ args, exitCode: r.exitCode }).toEqual({ args, exitCode: 2 });
      expect(r.stderr).toContain(message);
    }

    const server: [string, string, unknown, string][] = [
      ['POST', '/v1/orgs/org-acme/openapi', { slug: 'Bad_Slug', source: { url: `${base}/spec.json` } }, 'slug: must match the pattern'],
      ['POST', '/v1/orgs/org-acme/openapi', { slug: 'ok', source: { url: 'not a url' } }, 'source.url: must be an absolute URI'],
      ['POST', '/v1/orgs/org-acme/openapi', { slug: 'ok', source: {} }, 'source: needs exactly one of url or text'],
      ['POST', '/v1/orgs/org-acme/openapi', { slug: 'ok' }, 'source: is required'],
      // the path takes any text, but a new specification's slug follows the rule
      ['PUT', '/v1/orgs/org-acme/openapi/Bad_Slug', { source: { text: 'x' } }, 'specSlug: must match the pattern'],
      ['PUT', '/v1/orgs/org-acme/openapi/ok', { source: { text: '' } }, 'source.text: must not be empty'],
    ];
    for (const [method, path, body, message] of server) {
      const r = await sb.request(method, path, body);
      expect({ path, body, status: r.status }).toEqual({ path, body, status: 400 });
      expect(r.body.error.message).toContain(message);
    }
    expect((await sb.request('GET', '/v1/orgs/org-acme/openapi')).body.count).toBe(0);

    // any URI is taken; one the sandbox cannot fetch is a FETCH_ERROR on the specification, not a request error
    const ftp = await sb.run(['openapi', 'put', 'ftp', '--url', 'ftp://127.0.0.1/spec.json', '--wait']);
    expect(ftp.exitCode).toBe(1);
    expect(ftp.stderr).toContain('FETCH_ERROR: fetching ftp://127.0.0.1/spec.json: only http(s) URLs can be fetched');
    expect((await sb.request('DELETE', '/v1/orgs/org-acme/openapi/ftp')).status).toBe(204);

    await sb.request('POST', '/v1/orgs/org-acme/openapi', { slug: 'taken', source: { text: JSON.stringify(petstore('1')) } });
    const taken = await sb.run(['openapi', 'create', 'taken', '--url', `${base}/spec.json`]);
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toContain('slug: a specification taken already exists in this organization (PUT replaces it)');
    expect((await sb.request('GET', '/v1/orgs/org-acme/openapi')).body.count).toBe(1);
  });

  it('publish and unpublish; guests see public specifications only', async () => {
    await sb.request('PUT', '/v1/orgs/org-acme/openapi/pub', { source: { text: JSON.stringify(petstore('1.0.0')) } });
    const done = await settled('pub');
    expect((await sb.run(['openapi', 'get', 'pub'], { as: 'guest' })).exitCode).toBe(5);
    expect(await sb.json(['openapi', 'list'], { as: 'guest' })).toEqual([]);
    expect((await sb.json(['openapi', 'get', 'pub'], { as: 'read' })).permissions).toEqual({ view: true, edit: false });

    const published = await sb.json(['openapi', 'publish', 'pub']);
    expect(published).toMatchObject({ visibility: 'public', urls: { published: `${sb.server.url}/openapi/org-acme/pub` } });
    expect((await sb.json(['openapi', 'list'], { as: 'guest' })).map((s: { slug: string }) => s.slug)).toEqual(['pub']);
    const content = await sb.json(['openapi', 'content', 'pub'], { as: 'guest' });
    expect(content.urls.public).toBe(`${sb.server.url}/openapi/org-acme/pub/${done.lastVersion}`);

    expect((await sb.json(['openapi', 'unpublish', 'pub'])).visibility).toBe('private');
    expect((await sb.run(['openapi', 'content', 'pub'], { as: 'guest' })).exitCode).toBe(5);
  });

  it('only admins change specifications; list prints the documented columns', async () => {
    await sb.request('PUT', '/v1/orgs/org-acme/openapi/pub', { source: { text: JSON.stringify(petstore('1.0.0')) } });
    const done = await settled('pub');
    const forbidden = await sb.run(['openapi', 'put', 'pub', '--url', `${base}/spec.json`], { as: 'create' });
    expect(forbidden.exitCode).toBe(5);
    expect(forbidden.stderr).toContain('replacing an OpenAPI specification needs the admin role or above; you have create');
    expect((await sb.run(['openapi', 'publish', 'pub'], { as: 'edit' })).exitCode).toBe(5);
    expect((await sb.run(['openapi', 'list'], { as: 'outsider' })).exitCode).toBe(4);

    const list = await sb.run(['openapi', 'list']);
    expect(list.stdout).toBe(`pub\tprivate\tcomplete\t${done.lastProcessedAt}\t\t${done.lastVersion}`);
  });

  it('deletes a specification with its versions (204 also when missing)', async () => {
    await sb.request('PUT', '/v1/orgs/org-acme/openapi/gone', { source: { text: JSON.stringify(petstore('1.0.0')) } });
    const done = await settled('gone');
    expect((await sb.run(['openapi', 'delete', 'gone'])).exitCode).toBe(2);
    const r = await sb.run(['openapi', 'delete', 'gone', '--yes']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: 'deleted OpenAPI specification gone' });
    expect((await sb.run(['openapi', 'get', 'gone'])).exitCode).toBe(4);
    expect((await sb.request('DELETE', '/v1/orgs/org-acme/openapi/gone')).status).toBe(204);

    // a new specification with the same slug starts with no versions
    await sb.request('PUT', '/v1/orgs/org-acme/openapi/gone', { source: { text: JSON.stringify(petstore('2.0.0')) } });
    await settled('gone');
    const versions = await sb.json(['openapi', 'versions', 'gone']);
    expect(versions).toHaveLength(1);
    expect(versions[0].id).not.toBe(done.lastVersion);
    expect((await sb.run(['openapi', 'version', 'gone', done.lastVersion])).exitCode).toBe(4);
  });
});

describe('issue 15: openapi create and put wait the same way in scripts as on a terminal', () => {
  it('waits off a terminal without --wait; --no-wait opts out; a bounded wait that runs out prints the spec and exits 1', async () => {
    served = petstore('1.0.0');
    const waited = await sb.json(['openapi', 'create', 'w', '--url', `${base}/spec.json`]);
    expect(waited).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    const put = await sb.json(['openapi', 'put', 'w', '--url', `${base}/spec.json`]);
    expect(put.processingState).toBe('complete');

    const r = await sb.run(['openapi', 'put', 'w', '--url', `${base}/slow.json`, '--wait-timeout', '0.1', '--json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ slug: 'w', processingState: expect.not.stringMatching(/^complete$/) });
    expect(JSON.parse(r.stderr).error).toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/^gave up waiting after 0\.1 s: w is still (pending|in progress) \(the service goes on processing it\)$/),
      hint: 'see where it is with docsctl openapi get w; wait longer with --wait-timeout SECONDS, or not at all with --no-wait',
    });
    await settled('w');

    const both = await sb.run(['openapi', 'put', 'w', '--url', `${base}/spec.json`, '--no-wait', '--wait-timeout', '5']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--no-wait and --wait-timeout cannot be used together');
    const zero = await sb.run(['openapi', 'put', 'w', '--url', `${base}/spec.json`, '--wait-timeout', '0']);
    expect(zero.exitCode).toBe(2);
    const help = (await sb.run(['openapi', 'put', '--help'])).stdout;
    expect(help.replace(/\s+/g, ' ')).toContain('the same way on a terminal (with a spinner) and in scripts');
    expect(help).toContain('--wait-timeout <seconds>');
  });

  it('openapi delete without --yes names the specification by its slug', async () => {
    const r = await sb.run(['openapi', 'delete', 'petstore']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Delete OpenAPI specification petstore? All its versions go with it.');
  });
});

describe('openapi content: any filesystem the official document allows', () => {
  /** The version's content, as a service may send it (the document leaves `filesystem` a free-form object). */
  let filesystem: Record<string, unknown> = {};
  let service: http.Server;
  let serviceUrl: string;
  beforeAll(async () => {
    service = http.createServer((req, res) => {
      req.resume();
      if (req.method === 'GET' && req.url === '/v1/orgs/o/openapi/pets/versions/latest/content') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer()));
      } else res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not here' } }));
    });
    await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    service.closeAllConnections();
    await new Promise((done) => service.close(done));
  });
  const answer = () => ({ filesystem, urls: { source: 'https://example.com/pets.yaml', public: null } });
  const run = (env: Record<string, string> = {}) =>
    runInProcess(['openapi', 'content', 'pets'], {
      env: {
        HOME: sb.home,
        DOCSCTL_CONFIG_DIR: sb.home,
        DOCSCTL_API_URL: serviceUrl,
        DOCSCTL_TOKEN: 'tok-openapi-1234',
        DOCSCTL_ORG: 'o',
        DOCSCTL_MAX_RETRIES: '0',
        ...env,
      },
    });

  it('writes the openapi.* file of several, the only file, or else the whole filesystem as JSON, in TSV and table mode', async () => {
    const cases: { filesystem: Record<string, unknown>; out: string; note?: string }[] = [
      { filesystem: { 'openapi.yaml': 'openapi: 3.1.0\n', 'schemas/pet.yaml': 'type: object\n' }, out: 'openapi: 3.1.0' },
      { filesystem: { 'spec/openapi.json': petstore('1') }, out: JSON.stringify(petstore('1'), null, 2) },
      { filesystem: {}, out: '{}', note: 'the version holds no file: this is its whole filesystem, as JSON' },
      {
        filesystem: { 'pets.yaml': 'a: 1\n', 'common.yaml': 'b: 2\n' },
        out: JSON.stringify({ 'pets.yaml': 'a: 1\n', 'common.yaml': 'b: 2\n' }, null, 2),
        note: 'the version holds 2 files (pets.yaml, common.yaml) and no openapi.* file: this is its whole filesystem, as JSON',
      },
    ];
    for (const c of cases) {
      filesystem = c.filesystem;
      expect(checkAnswer('GET', '/orgs/o/openapi/pets/versions/latest/content', 200, JSON.stringify(answer())).problems).toEqual([]);
      for (const env of [{}, { DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1' }] as Record<string, string>[]) {
        const r = await run(env);
        const what = `${JSON.stringify(c.filesystem)} ${JSON.stringify(env)}`;
        expect(r.exitCode, `${what}: ${r.stderr}`).toBe(0);
        expect(r.stdout, what).toBe(c.out);
        if (c.note) expect(r.stderr, what).toContain(c.note);
        else expect(r.stderr, what).toBe('');
      }
    }
  });
});
