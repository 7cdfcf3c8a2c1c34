import { reaction } from './react.js';

export default reaction(false);
