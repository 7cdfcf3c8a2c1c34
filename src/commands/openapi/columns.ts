/** How OpenAPI specifications and versions show in tables and key/value lines. */
import type { Column } from '../../cli/output.js';
import type { OpenAPISpec, OpenAPISpecVersion } from '../../contract/openapi.js';

/** `INVALID_JSON: line 1, column 2: …`, or the message alone when the error has no code. */
export function errorLine(e: { code?: string; message: string }): string {
  return e.code ? `${e.code}: ${e.message}` : e.message;
}

export const specColumns: Column<OpenAPISpec>[] = ['slug', 'visibility', 'processingState', 'lastProcessedAt', 'lastProcessErrorCode', 'lastVersion'];
export const specFields: Column<OpenAPISpec>[] = [
  'id', 'slug', 'visibility', 'sourceURL', 'processingState', 'lastVersion', 'lastProcessedAt', 'lastProcessErrorCode',
  { key: 'lastProcessedErrors', value: (s) => s.lastProcessedErrors?.map(errorLine).join('; ') }, 'lastProcessedErrorCount',
  'createdAt', 'updatedAt', { key: 'published', value: (s) => s.urls.published },
];
export const versionColumns: Column<OpenAPISpecVersion>[] = ['id', 'createdAt', 'url'];
