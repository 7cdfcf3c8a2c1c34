import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import put from './put.js';
import { publish, unpublish } from './visibility.js';
import del from './delete.js';
import versions from './versions.js';
import version from './version.js';
import content from './content.js';

export default defineGroup({
  name: 'openapi',
  summary: 'OpenAPI specifications and their versions',
  commands: [list, get, create, put, publish, unpublish, del, versions, version, content],
});
