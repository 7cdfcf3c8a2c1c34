/**
 * Text written in the user's editor, as `git commit` and `gh issue comment` do: a temporary file is
 * opened in $DOCSCTL_EDITOR, $VISUAL or $EDITOR (else nano, or vi where nano is missing; notepad on
 * Windows), and its text read back once the editor exits. Only on a terminal: the caller checks.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Context } from './context.js';
import { CliError, EXIT } from './errors.js';

/** The editor command line the environment asks for (it may carry arguments: `code --wait`). */
function editorCommand(env: NodeJS.ProcessEnv): string {
  for (const name of ['DOCSCTL_EDITOR', 'VISUAL', 'EDITOR']) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  if (process.platform === 'win32') return 'notepad';
  const onPath = (program: string) => (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));
  return onPath('nano') ? 'nano' : 'vi';
}

export interface EditOptions {
  /** The temporary file's name (its extension picks the editor's syntax): `COMMENT.md`. */
  fileName: string;
  /** What is written, for messages: `the comment`. */
  what: string;
  initial?: string;
}

/**
 * Open the editor on a temporary file holding `initial`; the text saved, once it exits. The file
 * and its directory are removed afterwards. An editor that cannot start, or exits with a failure, is
 * an error (exit 1); the caller decides what an empty text means.
 */
export async function editText(ctx: Context, opts: EditOptions): Promise<string> {
  const editor = editorCommand(ctx.env);
  const dir = await mkdtemp(join(tmpdir(), 'docsctl-'));
  const file = join(dir, opts.fileName);
  try {
    await writeFile(file, opts.initial ?? '', { mode: 0o600 });
    ctx.info(`Writing ${opts.what} in ${editor.split(/\s+/)[0]}: save and quit to send it, or leave it empty to cancel.`);
    const code = await new Promise<number>((resolve, reject) => {
      // The editor draws on the terminal: on stderr when stdout is a pipe (`… --json | jq`).
      const stdio: ('inherit' | number)[] = ['inherit', ctx.io.stdout.isTTY ? 'inherit' : 2, 'inherit'];
      // Through the shell, so that an editor given with arguments (`code --wait`) works as in git.
      const child =
        process.platform === 'win32'
          ? spawn(`${editor} "${file}"`, { shell: true, stdio, env: ctx.env })
          : spawn('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio, env: ctx.env });
      child.on('error', reject);
      child.on('exit', (status, signal) => resolve(status ?? (signal ? 128 : 1)));
    });
    if (code !== 0) {
      throw new CliError(
        `the editor (${editor}) ${code === 127 ? 'could not be started' : `exited with status ${code}`}: nothing was sent`,
        EXIT.FAILED,
        'set EDITOR (or VISUAL, or DOCSCTL_EDITOR) to your editor, or give the text with a flag',
      );
    }
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
