/** How OpenAPI specifications and versions show in tables and key/value lines. */
import type { Column } from '../../cli/output.js';
import type { OpenAPISpec, OpenAPISpecVersion } from '../../contract/openapi.js';

export const specColumns: Column<OpenAPISpec>[] = ['slug', 'visibility', 'processingState', 'lastProcessedAt', 'lastProcessErrorCode', 'lastVersion'];
export const specFields: Column<OpenAPISpec>[] = [
  'id', 'slug', 'visibility', 'sourceURL', 'processingState', 'lastVersion', 'lastProcessedAt', 'lastProcessErrorCode',
  { key: 'lastProcessedErrors', value: (s) => s.lastProcessedErrors?.map((e) => `${e.code}: ${e.message}`).join('; ') },
  'createdAt', 'updatedAt', { key: 'published', value: (s) => s.urls.published },
];
export const versionColumns: Column<OpenAPISpecVersion>[] = ['id', 'createdAt', 'url'];
