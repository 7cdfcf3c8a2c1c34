import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { describeIssue } from '../../contract/issues.js';
import { ops } from '../../contract/audit.js';
import { auditFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one audit event with its details (--json for its payload)',
  args: [{ name: 'event', description: 'audit event id (a UUID)' }],
  examples: ['docsctl audit get 3f1c2b9e-8d4a-4e1f-9c2b-7a6d5e4f3a2b', 'docsctl audit get 3f1c2b9e-8d4a-4e1f-9c2b-7a6d5e4f3a2b --jq .payload'],
  output: { fields: [...auditFields, 'correlationId', 'causedByEventId', 'schemaVersion'] },
  async run(ctx, { args }) {
    const organizationId = await ctx.org();
    const params = { organizationId, auditEventId: args.event };
    const checked = ops.getAuditEvent.params.safeParse(params);
    if (!checked.success) throw new UsageError(`<event>: ${describeIssue(checked.error.issues[0], params)}`);
    const api = await ctx.api();
    return api.call(ops.getAuditEvent, { params });
  },
});
