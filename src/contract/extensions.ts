/**
 * Operations of the interface docsctl implements that GitBook's published
 * API description does not have: the sandbox serves them; a service that follows the official document
 * answers 404, and the client then names the missing endpoint (docs/compatibility.md lists them, and a
 * test keeps this list equal to the contract's operations absent from the document).
 */
export const SEED_ONLY_OPS: ReadonlySet<string> = new Set([
  'transferSpace',
  'importSpaceContent',
  'importChangeRequestContent',
  'listSpaceLinks',
  'listSpacePageLinks',
  'listSpacePageBacklinks',
  'listSpaceFileBacklinks',
  'listChangeRequestPageLinks',
  'listChangeRequestFileBacklinks',
  'addSiteSectionToGroup',
  'removeSiteSectionFromGroup',
]);
