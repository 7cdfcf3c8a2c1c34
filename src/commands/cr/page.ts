import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { pageFields } from '../content/columns.js';
import { CR_ARGS, crParams } from './columns.js';
import { resolveCrPage } from './lookup.js';

export default defineCommand({
  name: 'page',
  summary: 'Show one page of a change request, by id or path; with --markdown print its Markdown',
  args: [...CR_ARGS, { name: 'page', description: 'page id, or its path (e.g. getting-started/install)' }],
  flags: {
    markdown: { type: 'boolean', description: 'print the page as Markdown (with --json: the page with its markdown field)' },
    evaluated: { type: 'boolean', description: 'replace variables such as {{ space.vars.name }} by their values' },
  },
  examples: ['docsctl cr page sp_123 3 getting-started/install', 'docsctl cr page sp_123 3 getting-started --markdown > getting-started.md'],
  output: { fields: pageFields },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    const params = crParams(args);
    const { id } = await resolveCrPage(api, params, args.page);
    const page = await api.call(ops.getChangeRequestPage, {
      params: { ...params, pageId: id },
      query: { format: flags.markdown ? 'markdown' : 'document', ...(flags.evaluated ? { evaluated: 'true' } : {}) },
    });
    return flags.markdown && !flags.json && !flags.fields ? (page.markdown ?? '') : page;
  },
});
