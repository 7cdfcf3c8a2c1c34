import { permissionsGroup } from '../permissions.js';

export default permissionsGroup('site');
