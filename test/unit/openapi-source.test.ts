import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processOpenApiSource } from '../../src/server/lib/openapi-source.js';

const JSON_SPEC = JSON.stringify(
  {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.2.0' },
    paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } },
  },
  null,
  2,
);

const YAML_SPEC = `openapi: 3.1.0
info:
  title: Pets YAML
  version: "2.0"
webhooks:
  newPet:
    post:
      responses:
        "200": { description: ok }
`;

const SWAGGER_SPEC = `swagger: "2.0"
info:
  title: Legacy
  version: v1
paths: {}
`;

let server: http.Server;
let base: string;
const hanging: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/openapi.yaml') {
      res.writeHead(200, { 'content-type': 'application/yaml' });
      res.end(YAML_SPEC);
    } else if (req.url === '/slow') {
      hanging.push(res);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('processOpenApiSource', () => {
  it('accepts an OpenAPI 3 JSON document', async () => {
    const result = await processOpenApiSource({ text: JSON_SPEC });
    expect(result).toEqual({
      ok: true,
      document: JSON.parse(JSON_SPEC),
      filename: 'openapi.json',
      format: 'json',
      kind: 'openapi3',
      title: 'Pets',
      version: '1.2.0',
    });
  });

  it('accepts an OpenAPI 3.1 YAML document with webhooks and no paths', async () => {
    const result = await processOpenApiSource({ text: YAML_SPEC });
    expect(result).toMatchObject({
      ok: true,
      filename: 'openapi.yaml',
      format: 'yaml',
      kind: 'openapi3',
      title: 'Pets YAML',
      version: '2.0',
    });
    expect(result.ok && result.document.webhooks).toBeTruthy();
  });

  it('accepts a Swagger 2.0 document', async () => {
    const result = await processOpenApiSource({ text: SWAGGER_SPEC });
    expect(result).toMatchObject({ ok: true, kind: 'swagger2', format: 'yaml', title: 'Legacy', version: 'v1' });
  });

  it('fetches the document from a URL', async () => {
    const result = await processOpenApiSource({ url: `${base}/openapi.yaml` });
    expect(result).toMatchObject({ ok: true, format: 'yaml', filename: 'openapi.yaml', title: 'Pets YAML' });
  });

  it('reports invalid YAML with its line', async () => {
    const result = await processOpenApiSource({ text: 'openapi: 3.0.0\ninfo:\n  title: x\n version: "1"\npaths: {}\n' });
    expect(result).toEqual({
      ok: false,
      code: 'PARSE_ERROR',
      errors: [{ code: 'INVALID_YAML', message: 'line 4, column 1: All mapping items must start at the same column' }],
    });
  });

  it('reports invalid JSON with its line and column', async () => {
    const result = await processOpenApiSource({ text: '{\n  "openapi": "3.0.0"\n  "info": {}\n}' });
    expect(result).toEqual({
      ok: false,
      code: 'PARSE_ERROR',
      errors: [{ code: 'INVALID_JSON', message: "line 3, column 3: Expected ',' or '}' after property value" }],
    });
    // A JSON-looking text is never reinterpreted as YAML.
    expect(await processOpenApiSource({ text: '{"openapi": "3.0.0", "info": ,}' })).toMatchObject({
      ok: false,
      errors: [{ code: 'INVALID_JSON', message: expect.stringMatching(/^(line 1, column 30|invalid JSON): /) }],
    });
  });

  it('reports valid YAML that is not OpenAPI', async () => {
    expect(await processOpenApiSource({ text: 'name: my-service\nreplicas: 3\n' })).toEqual({
      ok: false,
      code: 'PARSE_ERROR',
      errors: [{ code: 'NOT_OPENAPI', message: "not an OpenAPI 3.x or Swagger 2.0 document: missing 'openapi' field" }],
    });
    expect(await processOpenApiSource({ text: '- a\n- b\n' })).toMatchObject({
      ok: false,
      errors: [{ message: 'not an OpenAPI 3.x or Swagger 2.0 document: the document is a list, not an object' }],
    });
    // An unquoted 3.0 is a YAML number.
    expect(await processOpenApiSource({ text: 'openapi: 3.0\ninfo: {title: x, version: "1"}\npaths: {}\n' })).toMatchObject({
      ok: false,
      errors: [{ code: 'NOT_OPENAPI', message: expect.stringContaining('got the number 3') }],
    });
    expect(await processOpenApiSource({ text: '' })).toMatchObject({
      ok: false,
      errors: [{ code: 'EMPTY_DOCUMENT' }],
    });
  });

  it('lists everything wrong with info and paths', async () => {
    const result = await processOpenApiSource({ text: 'openapi: 3.0.3\ninfo:\n  version: 1.0\n' });
    expect(result).toEqual({
      ok: false,
      code: 'PARSE_ERROR',
      errors: [
        { code: 'INVALID_INFO', message: "missing 'info.title'" },
        { code: 'INVALID_INFO', message: "'info.version' must be a string, got the number 1" },
        { code: 'INVALID_PATHS', message: "missing 'paths' object" },
      ],
    });
  });

  it('bounds YAML alias expansion', async () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++)
      lines.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
      );
    const result = await processOpenApiSource({ text: lines.join('\n') });
    expect(result).toMatchObject({ ok: false, code: 'PARSE_ERROR', errors: [{ code: 'INVALID_YAML' }] });
  });

  it('reports a fetch timeout as FETCH_TIMEOUT', async () => {
    const result = await processOpenApiSource({ url: `${base}/slow` }, { fetch: { timeoutMs: 150 } });
    expect(result).toEqual({
      ok: false,
      code: 'FETCH_TIMEOUT',
      errors: [{ code: 'FETCH_TIMEOUT', message: `fetching ${base}/slow: timed out after 150 ms` }],
    });
  });

  it('reports a 404 as FETCH_ERROR', async () => {
    const result = await processOpenApiSource({ url: `${base}/missing.json` });
    expect(result).toEqual({
      ok: false,
      code: 'FETCH_ERROR',
      errors: [{ code: 'FETCH_ERROR', message: `fetching ${base}/missing.json: answered 404` }],
    });
  });
});
