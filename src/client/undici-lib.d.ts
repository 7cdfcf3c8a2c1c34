// The two undici modules that the client loads by path (see http.ts), typed from undici's own types.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export = Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** `Dispatcher.prototype.request`, called on a dispatcher: `request.call(agent, {origin, path, ...})`. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
