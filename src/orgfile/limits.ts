/**
 * Bounds on reading an organization file, which is untrusted input (a file from a pull request runs
 * in CI with secrets in the environment): docs/security.md, "Org files". Plain numbers in one object
 * so that tests can lower them; the file's size is the one a user may need to raise
 * (DOCSCTL_ORG_FILE_MAX_BYTES).
 */
import { samlCertificate } from '../contract/saml.js';

export const ORG_FILE_LIMITS = {
  /**
   * An organization file's size, in bytes (YAML or JSON): 4 MiB, some 24 000 spaces as export
   * writes them; parsing takes about 70 MB of memory per MiB. Checked before the file is read whole.
   * Several files (`-f` repeated, folders) are bounded together by the same number.
   */
  fileBytes: 4 * 1024 * 1024,
  /** A certificate file's size, in bytes: the API's limit for a certificate (10 000 characters). */
  certificateBytes: samlCertificate.maxLength ?? 10_000,
  /** An OpenAPI document named by `openapi[].file`, in bytes: 4 MiB (sent as the specification's text). */
  openapiFileBytes: 4 * 1024 * 1024,
  /** The files taken from one folder given to `-f` (each, and all files together, within `fileBytes`). */
  folderFiles: 1000,
  /** Copies of an anchored value that aliases may make, nested ones multiplied (yaml's maxAliasCount). */
  aliasCount: 100,
  /** How long apply waits for an OpenAPI specification it created or changed to be processed, in ms (as `openapi create`'s default wait). */
  openapiWaitMs: 300_000,
  /** How often it asks meanwhile, in ms. */
  openapiPollMs: 250,
};

/** The variable that changes `fileBytes`. */
export const FILE_BYTES_VARIABLE = 'DOCSCTL_ORG_FILE_MAX_BYTES';
