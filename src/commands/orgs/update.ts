import { checkBody, defineCommand, nonEmpty } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { readFileOrStdin } from '../../cli/input.js';
import { MEMBER_ROLES } from '../../contract/members.js';
import { roleOrGuest, characters } from '../flags.js';
import { ops, type OrganizationMergeRules, orgTitle, UpdateOrganizationBody } from '../../contract/orgs.js';
import { orgFields } from './columns.js';

const ON_OFF = ['true', 'false'] as const;
const toBool = (v: (typeof ON_OFF)[number] | undefined) => (v === undefined ? undefined : v === 'true');

/** `--merge-rules none`, or a file of rules: `{"type": "rules", "rules": […]}` or the list alone. */
async function mergeRulesOf(ctx: Parameters<typeof readFileOrStdin>[0], given: string): Promise<OrganizationMergeRules> {
  if (given === 'none') return { type: 'none' };
  const text = await readFileOrStdin(ctx, given, '--merge-rules');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--merge-rules: ${given} is not JSON (${(e as Error).message})`);
  }
  return (Array.isArray(value) ? { type: 'rules', rules: value } : value) as OrganizationMergeRules;
}

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change the organization’s settings: title, email domains, default role and site, SSO, merge rules…',
  description:
    'Needs the admin role. Merge rules are those of every space whose merge rules are inherit: --merge-rules ' +
    'takes a JSON file ({"type": "rules", "rules": [...]} or the list alone), - for stdin, or none.',
  args: [{ name: 'organization', description: 'organization id (default: --org or the profile’s)', optional: true }],
  flags: {
    title: { description: `new title (${characters(orgTitle)})`, value: 'title' },
    emailDomains: { type: 'list', description: 'email domains of the organization (comma-separated or repeated; "" for none)', value: 'domain' },
    hostname: { description: `the organization’s address on the service (${characters(UpdateOrganizationBody.shape.hostname)})`, value: 'name' },
    defaultRole: { description: 'role of new members, or guest for none (null is the same)', value: 'role', choices: MEMBER_ROLES, nullable: true },
    defaultSite: { description: 'site that visitors of the organization land on, or null to remove it', value: 'site', nullable: true },
    logo: { description: 'URL of the organization’s logo, or null to remove it', value: 'url', nullable: true },
    sso: { description: 'enforce single sign-on (needs an active SAML provider)', value: 'bool', choices: ON_OFF },
    ai: { description: 'use the AI features', value: 'bool', choices: ON_OFF },
    inviteLinks: { description: 'allow invite links', value: 'bool', choices: ON_OFF },
    mergeRules: { description: 'merge rules from a JSON file, - for stdin, or none', value: 'file' },
    requireReviewers: { description: 'merge rule: changes need a review by one of these users (comma-separated ids)', value: 'users' },
  },
  examples: [
    'docsctl orgs update --title "Acme Docs" --email-domains acme.test,acme.example',
    'docsctl orgs update --require-reviewers u_ada,u_bob',
    'docsctl orgs update --merge-rules rules.json',
    'docsctl orgs update --default-site site_123 --sso true',
  ],
  output: { fields: orgFields },
  async run(ctx, { args, flags }) {
    if (flags.mergeRules !== undefined && flags.requireReviewers !== undefined) {
      throw new UsageError('--merge-rules and --require-reviewers cannot be used together');
    }
    let mergeRules: OrganizationMergeRules | undefined;
    if (flags.mergeRules !== undefined) mergeRules = await mergeRulesOf(ctx, flags.mergeRules);
    if (flags.requireReviewers !== undefined) {
      const users = flags.requireReviewers
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      mergeRules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users }] };
    }
    const emailDomains = flags.emailDomains
      ?.flatMap((d) => d.split(','))
      .map((d) => d.trim())
      .filter(Boolean);
    const body = checkBody(
      ops.updateOrganization,
      {
        title: flags.title,
        emailDomains,
        hostname: flags.hostname,
        defaultRole: roleOrGuest(flags.defaultRole),
        defaultContent: flags.defaultSite === undefined ? undefined : flags.defaultSite === null ? null : { type: 'site', site: flags.defaultSite },
        logo: flags.logo,
        sso: toBool(flags.sso),
        ai: toBool(flags.ai),
        inviteLinks: toBool(flags.inviteLinks),
        mergeRules,
      },
      {
        defaultContent: '--default-site',
        mergeRules: flags.requireReviewers !== undefined ? '--require-reviewers' : '--merge-rules',
      },
    );
    nonEmpty(body, 'pass at least one flag; see docsctl orgs update --help');
    const api = await ctx.api();
    return api.call(ops.updateOrganization, { params: { organizationId: args.organization ?? (await ctx.org()) }, body });
  },
});
