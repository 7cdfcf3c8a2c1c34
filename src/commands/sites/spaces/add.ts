import { checkBody, defineCommand } from '../../../cli/command.js';
import { UsageError } from '../../../cli/errors.js';
import { ops, siteTitle } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';
import { spaceChoice } from '../flags.js';
import { pageIdFlags, pageIdOf, characters } from '../../flags.js';

export default defineCommand({
  name: 'add',
  aliases: ['create'],
  summary: 'Publish a space (existing, or new) in a site, at the end of a section (default: the default section)',
  description: 'On an unpublished site a new site space is a draft until the site is published; on a published one it is ' + 'live unless --draft is given.',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    space: { description: 'the space to publish (or --new-space)', value: 'space', conflicts: ['newSpace'] },
    newSpace: { type: 'boolean', description: 'create a new space for it, titled after --title (needs the create role)' },
    template: { description: 'content template of the new space (with --new-space), such as getting-started', value: 'id' },
    title: { description: `its own title (${characters(siteTitle)}; default: the space’s); with --new-space, the space’s`, value: 'title' },
    section: { description: 'the section to add it to (default: the default section, or the site itself without sections)', value: 'id' },
    ...pageIdFlags('a page of the space to show at its root', 'id'),
    draft: { type: 'boolean', description: 'add it as a draft, which visitors do not see' },
  },
  examples: [
    'docsctl sites spaces add site_123 --space sp_456',
    'docsctl sites spaces add site_123 --space sp_456 --section sec_789 --title "Version 2"',
    'docsctl sites spaces add site_123 --new-space --template getting-started --title "Getting started"',
  ],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const spaceId = spaceChoice(flags);
    if (flags.template !== undefined && !flags.newSpace) throw new UsageError('--template needs --new-space');
    const body = checkBody(
      ops.createSiteSpace,
      {
        spaceId,
        template: flags.template === undefined ? undefined : { id: flags.template },
        title: flags.title,
        sectionId: flags.section,
        pageId: pageIdOf(ctx, flags),
        draft: flags.draft || undefined,
      },
      { spaceId: '--space', sectionId: '--section', pageId: '--page-id' },
    );
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSiteSpace, { params: { organizationId, siteId: args.site }, body });
  },
});
