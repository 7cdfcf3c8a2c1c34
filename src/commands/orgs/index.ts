import { defineCommand, defineGroup, later } from '../../cli/command.js';
import { ops } from '../../contract/orgs.js';
import { orgColumns as columns, orgFields } from './columns.js';

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organizations your token belongs to',
  examples: ['docsctl orgs list', 'docsctl orgs list --json | jq -r ".[].id"'],
  list: true,
  output: { columns },
  async run(ctx, { flags }) {
    const api = await ctx.api();
    return api.paginate(ops.listOrganizations, {}, flags.page);
  },
});

const get = defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show an organization (the current one by default)',
  args: [{ name: 'organization', description: 'organization id (default: --org or the profile’s)', optional: true }],
  examples: ['docsctl orgs get', 'docsctl orgs get org_123 --json'],
  output: { fields: orgFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.getOrganization, { params: { organizationId: args.organization ?? (await ctx.org()) } });
  },
});

export default defineGroup({
  name: 'orgs',
  summary: 'Organizations you belong to',
  commands: [
    list,
    get,
    later('update', () => import('./update.js')),
    later('export', () => import('./export.js')),
    later('backup', () => import('./backup.js')),
    later('plan', () => import('./plan.js')),
    later('apply', () => import('./apply.js')),
    later('validate', () => import('./validate.js')),
    later('schema', () => import('./schema.js')),
  ],
});
