/** How OpenAPI specifications and versions show in tables and key/value lines. */
import { withExtras, type Column } from '../../cli/output.js';
import type { OpenAPISpec, OpenAPISpecVersion } from '../../contract/openapi.js';

/** `INVALID_JSON: line 1, column 2: …`, or the message alone when the error has no code. */
export function errorLine(e: { code?: string; message: string }): string {
  return e.code ? `${e.code}: ${e.message}` : e.message;
}

export const specFields: Column<OpenAPISpec>[] = [
  'id',
  'slug',
  'visibility',
  'sourceURL',
  'processingState',
  'lastVersion',
  'lastProcessedAt',
  'lastProcessErrorCode',
  { key: 'lastProcessedErrors', value: (s) => s.lastProcessedErrors?.map(errorLine).join('; ') },
  'lastProcessedErrorCount',
  'createdAt',
  'updatedAt',
  { key: 'published', value: (s) => s.urls.published },
];
/** The slug first: it is what the other commands take (the spec's id is the API's alone). */
export const specColumns: Column<OpenAPISpec>[] = withExtras(
  ['slug', 'visibility', 'processingState', 'lastProcessedAt', 'lastProcessErrorCode', 'lastVersion'],
  specFields,
);
export const versionColumns: Column<OpenAPISpecVersion>[] = ['id', 'createdAt', 'url'];
