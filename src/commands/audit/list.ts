import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/audit.js';
import { auditColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organization’s audit events, newest first, by time, action, actor or target',
  flags: {
    from: { description: 'events at or after this time (RFC 3339: 2026-01-02T03:04:05Z)', value: 'time' },
    to: { description: 'events at or before this time (RFC 3339)', value: 'time' },
    action: { description: 'only this action (see docsctl audit actions)', value: 'action' },
    actor: { description: 'only events by this actor (a user id)', value: 'user' },
    target: { description: 'only events on this object (its id: a space, a team, a member…)', value: 'id' },
  },
  examples: [
    'docsctl audit list',
    'docsctl audit list --target sp_123 --all',
    'docsctl audit list --actor u_123 --from 2026-01-01T00:00:00Z --json | jq -r ".[].action"',
  ],
  list: true,
  output: { columns: auditColumns },
  async run(ctx, { flags }) {
    const query = checkQuery(ops.listAuditEvents, { from: flags.from, to: flags.to, action: flags.action, actor: flags.actor, target: flags.target });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listAuditEvents, { params: { organizationId }, query }, flags.page);
  },
});
