/** The sandbox as a library: `import { startServer } from 'docsctl/server'`. */
export { startServer, type RunningServer, type ServerOptions } from './serve.js';
export { createApp, type AppRequest, type AppResponse } from './app.js';
export { defaultSeed, loadSeed, type SeedData } from './seed.js';
export { Store } from './store.js';
