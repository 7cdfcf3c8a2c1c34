/** What `orgs export`, `plan` and `apply` share: the file read and checked (exit 2), the reader, the plan. */
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { Desired } from '../../orgfile/model.js';
import type { Plan } from '../../orgfile/plan.js';
import type { Step } from '../../orgfile/steps.js';
import type { Reader } from '../../orgfile/live.js';
import { CONCURRENCY } from '../../orgfile/pool.js';

export const fileFlags = {
  file: {
    short: 'f',
    type: 'list',
    description:
      'an organization file (YAML or JSON; see docsctl orgs schema), or a folder of them (its *.yaml, *.yml and *.json, in name order); several are one organization',
    value: 'file',
  },
  prune: {
    type: 'boolean',
    description:
      'delete what the files do not have, only what they own: the kinds they declare, or what their owns: lists (a file without sites: never deletes a site)',
  },
  concurrency: {
    type: 'number',
    description: `requests at a time (default ${CONCURRENCY.default}; 429 answers are retried after their Retry-After)`,
    value: 'n',
  },
} as const;

export function concurrencyOf(n: number | undefined): number {
  if (n === undefined) return CONCURRENCY.default;
  if (!Number.isInteger(n) || n < 1 || n > CONCURRENCY.max) throw new UsageError(`--concurrency: must be a whole number from 1 to ${CONCURRENCY.max}`);
  return n;
}

/** The largest organization file taken: DOCSCTL_ORG_FILE_MAX_BYTES, else ORG_FILE_LIMITS.fileBytes. */
export async function orgFileMaxBytes(env: NodeJS.ProcessEnv): Promise<number> {
  const { FILE_BYTES_VARIABLE, ORG_FILE_LIMITS } = await import('../../orgfile/limits.js');
  const given = env[FILE_BYTES_VARIABLE];
  if (given === undefined || given === '') return ORG_FILE_LIMITS.fileBytes;
  const n = Number(given);
  if (!/^\d+$/.test(given) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${FILE_BYTES_VARIABLE}: must be a whole number of bytes, at least 1`);
  return n;
}

/** The files `-f` gives (at least one), else a usage error. */
export function filesOf(files: string[] | undefined, command: string): string[] {
  if (!files?.length)
    throw new UsageError(
      'missing --file: the organization file (or a folder of them)',
      `e.g. docsctl orgs ${command} -f org.yaml (docsctl orgs export writes one)`,
    );
  return files;
}

/** `-f a.yaml -f teams/`: the files as given, for messages. */
export function fileArgs(files: string[]): string {
  return files.map((f) => `-f ${f}`).join(' ');
}

/** The files, read and checked before anything is sent: every problem at its file:line:column (exit 2). */
export async function loadDesired(ctx: Context, files: string[] | undefined, command: string): Promise<Desired> {
  const given = filesOf(files, command);
  const { loadOrgFiles, OrgFileError } = await import('../../orgfile/source.js');
  const maxBytes = await orgFileMaxBytes(ctx.env);
  try {
    // Plan needs no secret: an unset ${env:NAME} is an unknown value (apply refuses to send it: refuseUnknown).
    return loadOrgFiles(given, { env: ctx.env, maxBytes, unsetEnv: 'unknown' });
  } catch (e) {
    if (e instanceof OrgFileError) throw new UsageError(e.message, 'nothing was sent; fix the file (docsctl orgs schema prints its JSON Schema)');
    throw e;
  }
}

/** Apply refuses a plan with a step that must send a value the plan did not have (an unset `${env:NAME}`): exit 2, nothing sent. */
export async function refuseUnknown(steps: Step[]): Promise<void> {
  const { unsetVariables } = await import('../../orgfile/steps.js');
  const unset = unsetVariables(steps);
  if (!unset.length) return;
  const names = [...new Set(unset.map((u) => u.variable))];
  throw new UsageError(
    [
      `${names.map((n) => `\${env:${n}}`).join(', ')}: the environment variable${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not set, and apply would send ${names.length > 1 ? 'their values' : 'its value'}: nothing was applied`,
      ...unset.map((u) => `  ${u.step.kind} ${u.step.key}: ${u.step.action} needs \${env:${u.variable}}`),
    ].join('\n'),
    `set ${names.join(', ')} (plan needs no secret; apply does when it sends one)`,
  );
}

/** `plan --out`: the plan as data, readable by its owner only (it holds the values it sends). */
export async function writePlan(ctx: Context, file: string, plan: Plan): Promise<void> {
  const { savePlan } = await import('../../orgfile/saved.js');
  try {
    await writeFile(file, `${JSON.stringify(savePlan(plan, plan.live), null, 2)}\n`, { mode: 0o600 });
  } catch (e) {
    throw new UsageError(`--out: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  ctx.info(`wrote the plan to ${file}: apply it with docsctl orgs apply ${file}`);
}

/** Read the organization and plan; a reference to something the service lacks is a file problem too (exit 2). */
export async function planOf(ctx: Context, desired: Desired, prune: boolean, concurrency: number): Promise<{ plan: Plan; reader: Reader }> {
  const { reader: makeReader, planFile } = await import('../../orgfile/workflow.js');
  const { OrgFileError } = await import('../../orgfile/source.js');
  const reader = makeReader(await ctx.api(), concurrency);
  const org = await ctx.org();
  try {
    const plan = await ctx.spinning(`reading organization ${org}…`, planFile(reader, org, desired, prune));
    return { plan, reader };
  } catch (e) {
    if (e instanceof OrgFileError) throw new UsageError(e.message, 'nothing was changed; fix the file');
    throw e;
  }
}
