/** The sandbox's injectable clock: real time plus an offset that tests and `/_sandbox/clock` move. */
export class Clock {
  private offsetMs = 0;
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offsetMs;
  }
  private lastMs = NaN;
  private lastIso = '';
  iso(): string {
    // Formatting a date costs more than the rest of stamping a record; many requests share a millisecond.
    const ms = this.now();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastIso = new Date(ms).toISOString();
    }
    return this.lastIso;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  get offset(): number {
    return this.offsetMs;
  }
  set offset(ms: number) {
    this.offsetMs = ms;
  }
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parse a duration like `8d`, `90m`, `1h30m`, `500ms`; returns milliseconds or null. */
export function parseDuration(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  return matched === text.length && matched > 0 ? total : null;
}
