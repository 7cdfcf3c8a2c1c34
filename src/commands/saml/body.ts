/** The provider's fields as flags, shared by create and update. */
import type { Context } from '../../cli/context.js';
import { checkCertificate } from '../../cli/certificate.js';
import { UsageError } from '../../cli/errors.js';
import { readFileOrStdin } from '../../cli/input.js';
import type { FlagSpec } from '../../cli/spec.js';
import { MEMBER_ROLES } from '../../contract/members.js';
import type { Role } from '../../contract/op.js';
import { roleOrGuest, characters } from '../flags.js';
import { samlEntityId, UpdateSamlBody } from '../../contract/saml.js';

export const providerFlags = {
  entityId: { description: `the identity provider’s entity ID (${characters(samlEntityId)}; "" clears it)`, value: 'id' },
  ssoUrl: { description: `the identity provider’s sign-in URL (a URI, ${characters(UpdateSamlBody.shape.ssoURL)}; about:blank clears it)`, value: 'url' },
  certificateFile: {
    description:
      'file holding the identity provider’s X.509 certificate alone, in PEM or as the bare base64 of its metadata (- for stdin; checked before sending: one certificate, no key beside it; an empty file clears it)',
    value: 'path',
  },
  defaultTeam: { description: 'team that members signing in through this provider join ("" clears it)', value: 'team' },
  defaultRole: {
    description: 'role given to members signing in through it (guest: none; null is the same)',
    value: 'role',
    choices: MEMBER_ROLES,
    nullable: true,
  },
} as const satisfies Record<string, FlagSpec>;

/** Flag names of the API fields, for messages. */
export const flagOf = { entityID: '--entity-id', ssoURL: '--sso-url', certificate: '--certificate-file' };

export async function providerFields(
  ctx: Context,
  flags: {
    entityId?: string;
    ssoUrl?: string;
    certificateFile?: string;
    defaultTeam?: string;
    defaultRole?: Role | 'guest' | null;
  },
) {
  const certificate = flags.certificateFile === undefined ? undefined : await certificateOf(ctx, flags.certificateFile);
  return {
    entityID: flags.entityId,
    ssoURL: flags.ssoUrl,
    certificate,
    defaultTeam: flags.defaultTeam,
    defaultRole: roleOrGuest(flags.defaultRole),
  };
}

/**
 * The certificate in `file` (- for stdin), checked to be one X.509 certificate and nothing else
 * before it is sent (a PEM bundle would send its private key too); an empty file clears the field.
 * Else a usage error naming the flag, the file and the rule, never the content.
 */
async function certificateOf(ctx: Context, file: string): Promise<string> {
  const text = await readFileOrStdin(ctx, file, '--certificate-file');
  if (text === '') return text;
  const check = checkCertificate(text);
  if (!check.ok)
    throw new UsageError(
      `--certificate-file: ${file === '-' ? 'stdin' : file}: ${check.why}`,
      'give the identity provider’s signing certificate alone: one PEM block, or its base64 body',
    );
  return text;
}
