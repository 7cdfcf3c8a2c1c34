/** Types of scripts/api-docs.mjs (the endpoint tables of docs/api.md), for the test that checks them. */
export declare const BEGIN: string;
export declare const END: string;
/** The endpoint tables, one per family, as Markdown, from an OpenAPI document. */
export declare function endpointTables(doc: unknown): string;
/** `markdown` with the text between BEGIN and END replaced by `tables`. */
export declare function withTables(markdown: string, tables: string): string;
