import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ops as memberOps } from '../../contract/members.js';
import type { Role } from '../../contract/op.js';
import { reader as makeReader } from '../../orgfile/workflow.js';
import { concurrencyOf, fileFlags } from '../orgs/orgfile.js';
import { reachedBy } from './model.js';
import { personOf, readForPerson } from './read.js';
import { ofColumns, ofRow } from './rows.js';

export default defineCommand({
  name: 'of',
  summary: 'Every space, collection and site a person reaches: their role on each and why',
  description:
    'USER is a user id or an email address of a member (or guest) of the organization. ' +
    'The reasons are those of docsctl access who. Computed from the official operations (the content with its default levels and parents, ' +
    "the sites that show each space, the person's teams, the user and team grants on every target: two requests per target, " +
    "--concurrency at a time); the spaces are checked against the service's list of the member's spaces, and any difference is reported on stderr.",
  args: [{ name: 'user', description: 'user id or email of the person' }],
  flags: { concurrency: fileFlags.concurrency },
  examples: [
    'docsctl access of u_123',
    'docsctl access of ada@example.com --json',
    'docsctl access of u_123 --jq "[.[] | select(.role == \\"admin\\" or .role == \\"create\\")]"',
  ],
  output: { columns: ofColumns },
  async run(ctx, { args, flags }) {
    const concurrency = concurrencyOf(flags.concurrency);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const r = makeReader(api, concurrency);
    const wanted = args.user.toLowerCase();
    const { view, person, theirs } = await ctx.spinning(
      `reading what ${args.user} reaches…`,
      (async () => {
        const members = await r.all(memberOps.listMembers, { params: { organizationId } });
        const member = members.find((m) => m.user.id === args.user || m.id === args.user || m.user.email?.toLowerCase() === wanted);
        if (!member)
          throw new CliError(`no member ${args.user} in organization ${organizationId}`, EXIT.NOT_FOUND, 'docsctl members list --search TEXT finds them');
        const person = personOf(member);
        const [view, theirs] = await Promise.all([
          readForPerson(r, organizationId, person),
          r.all(memberOps.listMemberSpaces, { params: { organizationId, userId: person.id } }),
        ]);
        return { view, person, theirs };
      })(),
    );
    const rows = reachedBy(view, person);
    const spaces = new Map<string, Role>(rows.filter((x) => x.kind === 'space').map((x) => [x.target.id, x.role]));
    const lines: string[] = [];
    const service = new Map(theirs.map((s) => [s.space.id, s.permission]));
    for (const [id, role] of spaces)
      if (service.get(id) !== role) lines.push(`  space ${id}: ${role} here, ${service.get(id) ?? 'not listed'} in the service's list`);
    for (const [id, role] of service) if (!spaces.has(id)) lines.push(`  space ${id}: no access here, ${role} in the service's list`);
    if (lines.length)
      ctx.info(`warning: the service's list of ${person.id}'s spaces differs from the roles computed for ${lines.length} space(s):\n${lines.join('\n')}`);
    return rows.map((x) => ofRow(view, person, x.kind, x.target, x.role, x.reason));
  },
});
