import { resolution } from './resolve.js';

export default resolution(false);
