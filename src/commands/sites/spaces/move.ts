import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';
import { lastFlag, siteMoveBody } from '../../move.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a site space next to another (it joins that one’s section), or to the end of its own section',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'siteSpace', description: 'site space id' },
  ],
  flags: {
    before: { description: 'place it just before this site space', value: 'id' },
    after: { description: 'place it just after this site space', value: 'id' },
    last: lastFlag('move it to the end of its own section (or of the site without sections)', ['before', 'after']),
  },
  examples: [
    'docsctl sites spaces move site_123 ss_456 --after ss_789',
    'docsctl sites spaces move site_123 ss_456 --after ss_1 --before ss_2   # between two neighbours',
  ],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const ref = (id: string) => ({ type: 'site-space', siteSpace: id });
    const checked = siteMoveBody(ops.moveSiteSpace, flags, { before: { before: ref }, after: { after: ref } });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSpace, { params: { organizationId, siteId: args.site, siteSpaceId: args.siteSpace }, body: checked });
  },
});
