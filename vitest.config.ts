import { relative } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (from full runs: npx vitest run). With two workers the
 * suite ends when its longest file does, at best: those must start first. Vitest orders by the
 * durations it recorded in the last run (node_modules/.vite/vitest); where it has none (a fresh
 * checkout, CI) it would order by file size, which put a 35 s file last. Update when a file grows slow.
 */
const SLOWEST = [
  'test/e2e/event-loop.test.ts',
  'test/e2e/persistence.test.ts',
  'test/property/hostile.test.ts',
  'test/unit/markdown-reads.test.ts',
  'test/prism/commands.test.ts',
  'test/e2e/scripting-json.test.ts',
  'test/e2e/access-table.test.ts',
  'test/e2e/completion.test.ts',
  'test/unit/search-index.test.ts',
  'test/e2e/api.test.ts',
  'test/e2e/hostile-output.test.ts',
  'test/e2e/readme.test.ts',
  'test/e2e/serve-detach.test.ts',
  'test/soak/soak.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/terminal.test.ts',
];

/** Vitest's order (longest first by its records) when it has a record of every file; else SLOWEST first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (f: TestSpecification) => relative(root, f.moduleId);
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`))) return sorted;
    const rank = (f: TestSpecification) => (SLOWEST.includes(path(f)) ? SLOWEST.indexOf(path(f)) : SLOWEST.length);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Dependencies resolved as the build resolves them (scripts/build.mjs, esbuild: no `development`
 * condition). Vitest adds `development` (Vite's default where NODE_ENV is not `production`), which
 * gives the micromark family its development builds: assertions and `debug` calls on every token,
 * about twice the CPU of what ships (the event-loop and Markdown tests spend most of theirs there),
 * and code that is not the code users run. Removed after Vitest's own plugin has set it.
 */
const shippedConditions: Plugin = {
  name: 'shipped-conditions',
  enforce: 'post',
  configResolved(config) {
    for (const resolve of [config.resolve, config.ssr?.resolve, config.environments?.ssr?.resolve]) {
      if (resolve?.conditions) resolve.conditions = resolve.conditions.filter((c) => c !== 'development' && c !== 'development|production');
    }
  },
};

export default defineConfig({
  plugins: [shippedConditions],
  test: {
    include: ['test/**/*.test.ts'],
    // SUITE_CPU_LOG=FILE: each file's CPU time, appended to FILE (the helper's comment; without the
    // variable it registers nothing).
    setupFiles: ['test/helpers/cpu-per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Three workers on two cores: a file waiting (on a child process it started, a timer, a
    // terminal) leaves its core to another file's work; with two, the cores were often idle
    // (docs/performance.md, Test suite).
    maxWorkers: 3,
    // Test files share their worker's process (one after the other): the sources, the command tree
    // and the official document's validators are loaded once per worker instead of once per file,
    // which was half of the suite's time. So a file that changes module state (LIMITS, a spy) or
    // the process's (process.env) puts it back after its tests, as limits.test.ts does.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
