/**
 * Fault injection, for exercising clients' retries: `--chaos RATE` answers a seeded random share of
 * /v1 requests with 429, 500, 503, a delay or a dropped connection, before any work is done;
 * `PUT /_sandbox/faults` scripts exact failures per route.
 */
import { z } from 'zod';

const FaultRule = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  /** Path pattern: `*` matches one segment, a trailing `**` any rest; e.g. `/v1/spaces/*`. */
  path: z.string().min(1).max(500).default('/v1/**'),
  status: z.number().int().min(400).max(599).optional(),
  retryAfter: z.number().int().min(0).max(3600).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  drop: z.boolean().optional(),
  probability: z.number().min(0).max(1).default(1),
  /** How many requests it applies to; unlimited when omitted. */
  count: z.number().int().min(1).optional(),
});
export const FaultRules = z.strictObject({ rules: z.array(FaultRule).max(100) });
export type FaultRuleT = z.output<typeof FaultRule>;

export interface Fault {
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  drop?: boolean;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private rules: (FaultRuleT & { re: RegExp; used: number })[] = [];
  private readonly random: () => number;
  /** Requests chaos has faulted so far, by kind. */
  private readonly injected: Record<string, number> = {};

  constructor(private readonly chaos: { rate: number; seed: number } | undefined) {
    this.random = prng(chaos?.seed ?? 1);
  }

  set(rules: FaultRuleT[]): void {
    this.rules = rules.map((r) => ({ ...r, re: pathPattern(r.path), used: 0 }));
  }

  /** Chaos settings and what it did so far (undefined without chaos). */
  chaosReport() {
    return this.chaos ? { ...this.chaos, injected: { ...this.injected } } : undefined;
  }

  list() {
    return this.rules.map(({ re: _re, used, ...r }) => ({ ...r, used, ...(r.count ? { remaining: Math.max(0, r.count - used) } : {}) }));
  }

  /** No rule and no chaos: no request can be faulted. */
  get idle(): boolean {
    return this.rules.length === 0 && !this.chaos;
  }

  /** The fault for this request, if any: scripted rules first, then chaos. */
  pick(method: string, path: string): Fault | undefined {
    for (const r of this.rules) {
      if ((r.method && r.method !== method) || !r.re.test(path) || (r.count !== undefined && r.used >= r.count)) continue;
      if (this.random() >= r.probability) continue;
      r.used++;
      return { status: r.status, retryAfter: r.retryAfter, latencyMs: r.latencyMs, drop: r.drop };
    }
    if (!this.chaos || !path.startsWith('/v1/') || this.random() >= this.chaos.rate) return undefined;
    const fault = this.chaosFault();
    const kind = fault.status ? String(fault.status) : fault.drop ? 'drop' : 'latency';
    this.injected[kind] = (this.injected[kind] ?? 0) + 1;
    return fault;
  }

  private chaosFault(): Fault {
    switch (Math.floor(this.random() * 5)) {
      case 0:
        return { status: 429, retryAfter: Math.floor(this.random() * 2) };
      case 1:
        return { status: 500 };
      case 2:
        return { status: 503, retryAfter: 0 };
      case 3:
        return { latencyMs: 50 + Math.floor(this.random() * 250) };
      default:
        return { drop: true };
    }
  }
}

function pathPattern(p: string): RegExp {
  const escaped = p
    .split('/')
    .map((seg) => (seg === '**' ? '.*' : seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}
