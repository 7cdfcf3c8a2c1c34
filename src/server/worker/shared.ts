/** The sandbox's one shared worker thread (pool.ts), for work that is not tied to a request's life: started on first use. */
import { CpuWorker } from './pool.js';

let shared: CpuWorker | undefined;

export function sandboxWorker(): CpuWorker {
  return (shared ??= new CpuWorker());
}
