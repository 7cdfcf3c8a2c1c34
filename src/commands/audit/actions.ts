import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/audit.js';

export default defineCommand({
  name: 'actions',
  summary: 'List the actions audit events name (what --action of audit list takes)',
  examples: ['docsctl audit actions', 'docsctl audit actions --json | jq -r ".[].id"'],
  output: { columns: ['id', 'label'] },
  async run(ctx) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return (await api.call(ops.listAuditEventActions, { params: { organizationId } })).items;
  },
});
