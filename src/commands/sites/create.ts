import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, SITE_TYPES, SITE_VISIBILITIES, siteTitle } from '../../contract/sites.js';
import { siteFields } from './columns.js';
import { requiredText } from '../prompts.js';
import { characters, lengthBounds } from '../flags.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a site (unpublished), optionally publishing spaces in it',
  description:
    'A title is required (the API would make an untitled site): asked for on a terminal when --title is missing or blank, a usage error (exit 2) otherwise.',
  flags: {
    title: { description: `title (${characters(siteTitle)}; required, asked for on a terminal)`, value: 'title' },
    type: { description: 'type (plan) of the site (default basic)', value: 'type', choices: SITE_TYPES },
    visibility: { description: 'who may see it once published (default public)', value: 'visibility', choices: SITE_VISIBILITIES },
    space: { type: 'list', description: 'a space to publish in it (repeatable, in order)', value: 'space' },
  },
  examples: [
    'docsctl sites create --title "Developer docs"',
    'docsctl sites create --title Handbook --visibility share-link --space sp_123 --space sp_456 --json',
  ],
  output: { fields: siteFields },
  async run(ctx, { flags }) {
    const title = await requiredText(ctx, flags.title, {
      flag: '--title',
      label: 'Title',
      ...lengthBounds(siteTitle),
      example: 'docsctl sites create --title "Developer docs"',
    });
    const body = checkBody(
      ops.createSite,
      {
        title,
        type: flags.type,
        visibility: flags.visibility,
        spaces: flags.space,
      },
      { spaces: '--space' },
    );
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSite, { params: { organizationId }, body });
  },
});
