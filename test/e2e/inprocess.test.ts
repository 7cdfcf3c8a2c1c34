/**
 * The in-process harness (test/helpers/inprocess.ts) answers as the built binary does: the same
 * stdout, stderr and exit code for the same command line, whether it succeeds, is refused before
 * anything is sent, or fails at the service; and flag conflicts declared on the commands
 * (FlagSpec.conflicts, commander's Option.conflicts) are usage errors that send nothing.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

/** The requests the sandbox receives while `fn` runs. */
async function sent<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const requests: string[] = [];
  const handle = sb.server.app.handle;
  sb.server.app.handle = (req) => {
    requests.push(`${req.method} ${req.url.split('?')[0]}`);
    return handle(req);
  };
  try {
    return { result: await fn(), requests };
  } finally {
    sb.server.app.handle = handle;
  }
}

describe('the in-process harness', () => {
  it('gives the stdout, stderr and exit code of the built binary (success, usage error, 404, HEAD, stdin)', async () => {
    const lines: [string[], { input?: string }?][] = [
      [['spaces', 'get', 'sp-welcome', '--json']],
      [['spaces', 'get', 'sp-nope']],
      [['spaces', 'lst']],
      [['collections', 'list']],
      [['api', '-X', 'HEAD', '/v1/orgs/{org}/spaces']],
      [['api', '-X', 'POST', '/v1/orgs/{org}/collections', '--input', '-', '--jq', '.title'], { input: '{"title":"From stdin"}' }],
    ];
    // The same state (times and revisions included) before each side.
    const state = sb.server.store.exportState();
    for (const [args, o] of lines) {
      sb.server.store.importState(state);
      const inProcess = await sb.run(args, o);
      sb.server.store.importState(state);
      const subprocess = await sb.process(args, o);
      expect(inProcess, args.join(' ')).toEqual(subprocess);
    }
  });

  it('routes requests to another origin to the network, not to the sandbox', async () => {
    // Nothing listens on port 9 (discard) of loopback: a network error, exit 7, as from a process.
    const env = { DOCSCTL_API_URL: 'http://127.0.0.1:9' };
    const { result, requests } = await sent(() => sb.run(['spaces', 'get', 'sp-welcome'], { env }));
    expect(requests).toEqual([]);
    expect(result.exitCode).toBe(7);
    expect(result).toEqual(await sb.process(['spaces', 'get', 'sp-welcome'], { env }));
  });
});

describe('flag conflicts, declared on the flags', () => {
  const conflicts: [string, string[], string][] = [
    ['collections move', ['col-handbook', '--parent', 'x', '--root'], '--parent and --root'],
    ['spaces move', ['sp-welcome', '--before', 'sp-a', '--before-collection', 'col-b'], '--before and --before-collection'],
    ['spaces move', ['sp-welcome', '--after', 'sp-a', '--after-collection', 'col-b'], '--after and --after-collection'],
    ['spaces list', ['--parent', 'col-handbook', '--deleted'], '--deleted and --parent'],
    ['spaces list', ['--collection', 'col-handbook', '--deleted'], '--deleted and --collection'],
    ['spaces list', ['--all', '--limit', '3'], '--all and --limit'],
    ['comments list', ['sp-welcome', '--all', '--limit', '3'], '--all and --limit'],
    ['spaces update', ['sp-welcome', '--merge-rules', 'inherit', '--require-reviewers', 'u-admin'], '--merge-rules and --require-reviewers'],
    ['comments post', ['sp-welcome', '--body', 'x', '--body-file', '-'], '--body and --body-file'],
    ['comments post', ['sp-welcome', '--document-file', '-', '--body', 'x'], '--document-file and --body'],
    ['cr edit', ['sp-welcome', '1', '--description', 'x', '--description-file', '-'], '--description and --description-file'],
    ['sites sections move', ['site-a', 'sec-a', '--before', 'sec-b', '--last'], '--last and --before'],
    ['sites spaces move', ['site-a', 'ss-a', '--after', 'ss-b', '--last'], '--last and --after'],
    ['sites section-groups move', ['site-a', 'grp-a', '--after', 'sec-b', '--after-group', 'grp-b'], '--after and --after-group'],
    ['sites sections add', ['site-a', '--space', 'sp-welcome', '--new-space'], '--space and --new-space'],
    ['spaces list', ['--parent', 'col-a', '--collection', 'col-b'], '--parent and --collection'],
    ['spaces create', ['--title', 'T', '--parent', 'col-a', '--collection', 'col-b'], '--parent and --collection'],
    ['comments list', ['sp-welcome', '--page-id', 'p-1', '--target-page', 'p-2'], '--page-id and --target-page'],
    ['comments post', ['sp-welcome', '--body', 'x', '--page-id', 'p-1', '--page', 'p-2'], '--page-id and --page'],
    ['content links', ['sp-welcome', '--page-id', 'p-1', '--page', 'p-2'], '--page-id and --page'],
    ['sites spaces update', ['site-a', 'ss-a', '--page-id', 'p-1', '--page', 'p-2'], '--page-id and --page'],
  ];
  it.each(conflicts)('%s %j: exit 2, both flags named, the command’s help as hint, nothing sent', async (command, rest, pair) => {
    const { result, requests } = await sent(() => sb.run([...command.split(' '), ...rest]));
    expect(requests).toEqual([]);
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `error: ${pair} cannot be used together\nhint: see docsctl ${command} --help` });
  });

  it('are the same from the built binary, and in --json', async () => {
    const args = ['spaces', 'move', 'sp-welcome', '--parent', 'col-handbook', '--root'];
    expect(await sb.process(args)).toEqual(await sb.run(args));
    const json = await sb.run([...args, '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { status: null, message: '--parent and --root cannot be used together', hint: 'see docsctl spaces move --help', exitCode: 2 },
    });
  });
});
