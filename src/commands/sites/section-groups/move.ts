import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupColumns } from '../columns.js';
import { lastFlag, siteMoveBody } from '../../move.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a section group next to a section or another group (it joins that one’s group, if any), or to the end of the site',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'group', description: 'section group id' },
  ],
  flags: {
    before: { description: 'place it just before this section', value: 'id', conflicts: ['beforeGroup'] },
    after: { description: 'place it just after this section', value: 'id', conflicts: ['afterGroup'] },
    beforeGroup: { description: 'place it just before this section group', value: 'id' },
    afterGroup: { description: 'place it just after this section group', value: 'id' },
    last: lastFlag('move it to the end of the site’s top level', ['before', 'after', 'beforeGroup', 'afterGroup']),
  },
  examples: [
    'docsctl sites section-groups move site_123 grp_456 --before sec_789',
    'docsctl sites section-groups move site_123 grp_456 --after-group grp_1',
    'docsctl sites section-groups move site_123 grp_456 --after sec_1 --before-group grp_2   # between two neighbours',
  ],
  output: { fields: groupColumns },
  async run(ctx, { args, flags }) {
    const section = (id: string) => ({ type: 'site-section', id });
    const group = (id: string) => ({ type: 'site-section-group', id });
    const checked = siteMoveBody(ops.moveSiteSectionGroup, flags, {
      before: { before: section, beforeGroup: group },
      after: { after: section, afterGroup: group },
    });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body: checked });
  },
});
