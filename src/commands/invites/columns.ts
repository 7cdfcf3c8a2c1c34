/** How invitations and invite links show in tables and key/value lines. */
import type { Column } from '../../cli/output.js';

/** An invite link as the contract gives it: to the organization (role), or to a space or collection (level). */
type Link = { id: string; redundant: boolean; role?: string | null; level?: string | null; space?: { id: string }; collection?: { id: string } };

/** The role a link gives (null: a guest). */
const linkRole = (l: Link) => ('role' in l ? l.role : l.level) ?? 'guest';
/** What a link lets its holder into: `organization`, `space:sp_1`, `collection:col_1`. */
const linkTarget = (l: Link) => (l.space ? `space:${l.space.id}` : l.collection ? `collection:${l.collection.id}` : 'organization');

/** What a link gives, in words: `edit in the organization`, `comment on space sp_1`. */
export function linkGives(l: Link): string {
  const t = linkTarget(l);
  return `${linkRole(l)} ${t === 'organization' ? 'in the organization' : `on ${t.replace(':', ' ')}`}`;
}

export const linkColumns: Column<Link>[] = ['id', { key: 'target', value: linkTarget }, { key: 'role', value: linkRole }, 'redundant'];

/** The answer of an invitation by email. */
type Invited = { users: string[]; invited: number; failedSSOEmails?: string[] };
export const invitedFields: Column<Invited>[] = [
  'invited',
  { key: 'users', value: (a) => a.users.join(',') },
  { key: 'failedSSOEmails', value: (a) => (a.failedSSOEmails ?? []).join(',') },
];
