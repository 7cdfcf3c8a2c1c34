import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import del from './delete.js';
import publish from './publish.js';
import unpublish from './unpublish.js';
import published from './published.js';
import sections from './sections/index.js';
import sectionGroups from './section-groups/index.js';
import spaces from './spaces/index.js';
import schema from './schema/index.js';

export default defineGroup({
  name: 'sites',
  summary: 'Sites: publish spaces, with sections, section groups and site spaces',
  commands: [list, get, create, update, del, publish, unpublish, published, sections, sectionGroups, spaces, schema],
});
