/** How organizations show in tables and key/value lines. */
import { withExtras, type Column } from '../../cli/output.js';
import type { Organization } from '../../contract/orgs.js';

/** `none`, or each rule with its users: `require_specific_reviewers(u_ada,u_bob); require_author_to_merge`. */
function mergeRulesOf(o: Organization): string {
  if (o.mergeRules.type === 'none') return 'none';
  return o.mergeRules.rules.map((r) => ('users' in r ? `${r.rule}(${r.users.join(',')})` : r.rule)).join('; ');
}

export const orgFields: Column<Organization>[] = [
  'id',
  'title',
  'plan',
  { key: 'defaultRole', value: (o) => o.defaultRole ?? 'guest' },
  { key: 'emailDomains', value: (o) => o.emailDomains.join(',') },
  'hostname',
  { key: 'defaultSite', value: (o) => o.defaultContent?.site },
  'sso',
  'ai',
  'inviteLinks',
  { key: 'mergeRules', value: mergeRulesOf },
  'createdAt',
  { key: 'app', header: 'url', value: (o) => o.urls.app },
];
export const orgColumns: Column<Organization>[] = withExtras(['id', 'title', 'plan', 'createdAt'], orgFields);
