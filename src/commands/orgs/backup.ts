import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { plural } from '../../cli/text.js';
import { ops as spaceOps } from '../../contract/spaces.js';
import type { BackupManifest, BackupSpace } from '../../contentfiles/backup.js';
import { checkOutFolder, exportFlags, runExport, spaceSource } from '../content/export.js';
import type { Context } from '../../cli/context.js';
import type { OrgFileData } from '../../orgfile/schema.js';
import type { Reader } from '../../orgfile/live.js';
import { concurrencyOf } from './orgfile.js';

/**
 * The documents of the specifications made from one (no `url`), as the backup writes them
 * (`openapi/<slug>.yaml`); each is named in `data` as its specification's `file:`, so that the org
 * file plans clean against the organization and `serve --seed` makes them again. One the org file
 * could not read back (past ORG_FILE_LIMITS.openapiFileBytes), or whose slug cannot be a file name,
 * is said on stderr and left without `file:`.
 */
async function specDocuments(
  ctx: Context,
  r: Reader,
  org: string,
  data: OrgFileData,
  stringify: (v: unknown, o: { lineWidth: number }) => string,
  openapiPath: (slug: string) => string | undefined,
): Promise<{ slug: string; path: string; text: string }[]> {
  const made = (data.openapi ?? []).filter((s) => s.url === undefined);
  if (made.length === 0) return [];
  const [{ readSpecDocuments }, { ORG_FILE_LIMITS }] = await Promise.all([import('../../orgfile/live.js'), import('../../orgfile/limits.js')]);
  const documents = await readSpecDocuments(
    r,
    org,
    made.map((s) => s.slug),
  );
  const out: { slug: string; path: string; text: string }[] = [];
  data.openapi = data.openapi?.map((s) => {
    const document = s.url === undefined ? documents.get(s.slug.toLowerCase()) : undefined;
    if (document === undefined) return s;
    const path = openapiPath(s.slug);
    const text = stringify(document, { lineWidth: 0 });
    if (!path || Buffer.byteLength(text) > ORG_FILE_LIMITS.openapiFileBytes) {
      ctx.info(
        `openapi ${s.slug}: its document not written (${!path ? 'its slug is not a file name' : `larger than the ${ORG_FILE_LIMITS.openapiFileBytes / 2 ** 20} MiB an organization file’s file: may name`}); docsctl openapi content ${s.slug} writes it`,
      );
      return s;
    }
    out.push({ slug: s.slug, path, text });
    return { slug: s.slug, file: path, ...(s.visibility !== undefined ? { visibility: s.visibility } : {}) };
  });
  return out;
}

export default defineCommand({
  name: 'backup',
  summary: 'Back the organization up to a folder: its organization file, every space’s content in Git Sync’s layout, a manifest',
  description:
    'DIR/org.yaml is what docsctl orgs export writes, with DIR/openapi/SLUG.yaml the document of each OpenAPI specification made from one; DIR/KEY/ holds each space’s content as docsctl content export writes it ' +
    '(KEY: the space’s key in org.yaml); DIR/manifest.json lists the spaces with their ids, revisions and checksums. ' +
    'A rerun skips the spaces whose revision and files have not changed, and resumes an interrupted backup. --check writes nothing and exits 1 ' +
    'on differences. Restoring content into the service is Git Sync’s job; docsctl serve --seed DIR starts a sandbox from a backup. See docs/content-export.md.',
  flags: {
    out: { short: 'o', description: 'the folder to write (made when missing)', value: 'dir' },
    spaces: {
      type: 'list',
      description: 'only these spaces, by key or id (repeatable, or comma-separated); the others in the manifest are kept',
      value: 'key',
    },
    ...exportFlags,
  },
  examples: [
    'docsctl orgs backup --out backup/',
    'docsctl orgs backup --out backup/ --spaces handbook,api-reference',
    'docsctl orgs backup --out backup/ --check     # in CI: exit 1 when backup/ is not the organization',
  ],
  async run(ctx, { flags }) {
    if (!flags.out) throw new UsageError('--out DIR is required: the folder to write the backup to');
    const out = flags.out;
    await checkOutFolder(out);
    const check = Boolean(flags.check);
    const concurrency = concurrencyOf(flags.concurrency);
    const format = flags.format ?? 'markdown';
    const backup = await import('../../contentfiles/backup.js');
    const { reader, exportOrganization } = await import('../../orgfile/workflow.js');
    const { formatFile } = await import('../../orgfile/export.js');
    const { stringify } = await import('yaml');
    const api = await ctx.api();
    const org = await ctx.org();

    const previous = await backup.readManifest(out);
    if (previous && previous.organization !== org)
      throw new UsageError(`${out} holds the backup of organization ${previous.organization}: back ${org} up into another folder`, 'nothing was written');
    const r = reader(api, concurrency);
    const { data } = await ctx.spinning(`reading organization ${org}…`, exportOrganization(r, org));
    // Specifications made from a document (no URL to fetch it from again): their latest document beside the org file, named as their `file:`.
    const documents = await specDocuments(ctx, r, org, data, stringify, backup.openapiPath);
    const orgText = formatFile(data, 'yaml', 'org.schema.json', (v) => stringify(v, { lineWidth: 0 }));
    const all = (data.spaces ?? []).map((s) => ({ key: String(s.key), id: String(s.id), title: String(s.title) }));
    let chosen = all;
    if (flags.spaces?.length) {
      const wanted = flags.spaces.flatMap((s) => s.split(',')).filter(Boolean);
      const unknown = wanted.filter((w) => !all.some((s) => s.key === w || s.id === w));
      if (unknown.length)
        throw new UsageError(
          `--spaces: no space ${unknown.map((u) => `"${u}"`).join(', ')} in organization ${org}`,
          `its spaces: ${all.map((s) => s.key).join(', ') || '(none)'}`,
        );
      chosen = all.filter((s) => wanted.includes(s.key) || wanted.includes(s.id));
    }

    const differences: string[] = [];
    const orgFile = await backup.putFile(out, backup.ORG_FILE, orgText, check);
    if (orgFile.changed) {
      if (check) differences.push(`${orgFile.existed ? '~' : '+'} ${backup.ORG_FILE}`);
      else ctx.info(`wrote ${join(out, backup.ORG_FILE)}`);
    }
    const openapi: NonNullable<BackupManifest['openapi']> = [];
    for (const d of documents) {
      const put = await backup.putFile(out, d.path, d.text, check);
      openapi.push({ slug: d.slug, path: d.path, sha256: put.sha256 });
      if (!put.changed) continue;
      if (check) differences.push(`${put.existed ? '~' : '+'} ${d.path}`);
      else ctx.info(`wrote ${join(out, d.path)}`);
    }
    const manifest: BackupManifest = {
      docsctl: 1,
      organization: org,
      orgFile: { path: backup.ORG_FILE, sha256: orgFile.sha256 },
      ...(openapi.length ? { openapi } : {}),
      // Spaces not chosen this time keep their entries; chosen ones are replaced as they are backed up.
      spaces: (previous?.spaces ?? []).filter((s) => all.some((a) => a.id === s.id)),
    };
    const failed: string[] = [];
    let skipped = 0;
    for (const space of chosen) {
      const folder = backup.folderName(space.key, space.id);
      const { revision } = await api.call(spaceOps.getSpace, { params: { spaceId: space.id } });
      const before = previous?.spaces.find((s) => s.id === space.id);
      if (!check && before && before.folder === folder && before.revision === revision && (await backup.folderIntact(join(out, folder), before))) {
        skipped++;
        continue;
      }
      try {
        const summary = await runExport(ctx, spaceSource(api, space.id), join(out, folder), {
          format,
          prune: Boolean(flags.prune),
          check,
          concurrency,
          label: space.key,
        });
        if (check && summary.differences.length > 0) differences.push(`~ ${folder}/`);
        if (!check) {
          const entry: BackupSpace = {
            key: space.key,
            id: space.id,
            title: space.title,
            revision,
            folder,
            ...(await backup.folderChecksum(join(out, folder))),
          };
          manifest.spaces = [...manifest.spaces.filter((s) => s.id !== space.id), entry];
          await backup.writeManifest(out, manifest, all);
        }
      } catch (e) {
        if (e instanceof UsageError) throw e;
        failed.push(space.key);
        ctx.info(`${space.key}: ${(e as Error).message}`);
      }
    }
    // Spaces of the backup the organization no longer has.
    for (const gone of (previous?.spaces ?? []).filter((s) => !all.some((a) => a.id === s.id))) {
      if (check) differences.push(`- ${gone.folder}/ (space ${gone.id} is no longer in the organization)`);
      else if (flags.prune) {
        await rm(join(out, backup.safeFolder(gone.folder)), { recursive: true, force: true });
        ctx.info(`removed ${gone.folder}/ (space ${gone.id} is no longer in the organization)`);
      } else {
        manifest.spaces.push(gone);
        ctx.info(`${gone.folder}/: space ${gone.id} is no longer in the organization, left in place (--prune removes it)`);
      }
    }
    // What the top of the folder holds that is not the backup's (removed with --prune from a folder that was a backup before).
    const folders = new Set([...all.map((s) => backup.folderName(s.key, s.id)), ...(previous?.spaces ?? []).map((s) => s.folder)]);
    const extras = [...(await backup.extraEntries(out, folders)), ...(await backup.extraDocuments(out, new Set(documents.map((d) => d.path))))];
    if (check) differences.push(...extras.map((e) => `- ${e}`));
    else if (flags.prune && previous) {
      for (const extra of extras) await rm(join(out, extra), { recursive: true, force: true });
      if (extras.length > 0) ctx.info(`removed what is not the backup's:\n${extras.map((e) => `  - ${e}`).join('\n')}`);
    } else if (extras.length > 0)
      ctx.info(
        `${plural(extras.length, 'entry', 'entries')} in ${out} not the backup's, left in place (${
          flags.prune ? 'the folder held no backup before: a rerun with --prune removes them' : '--prune removes them'
        }):\n${extras.map((e) => `  ? ${e}`).join('\n')}`,
      );
    if (!check) await backup.writeManifest(out, manifest, all);
    if (skipped > 0) ctx.info(`${plural(skipped, 'space')} unchanged since the last backup (same revision, files intact): skipped`);
    if (failed.length > 0)
      throw new CliError(
        `${plural(failed.length, 'space')} not backed up: ${failed.join(', ')}`,
        EXIT.FAILED,
        'run it again: what was written is kept, the rest follows',
      );
    if (check) {
      if (differences.length > 0) {
        ctx.info(`${out} differs from organization ${org}:\n${differences.map((d) => `  ${d}`).join('\n')}`);
        throw new CliError(
          `${out} differs from organization ${org} (${plural(differences.length, 'difference')})`,
          EXIT.FAILED,
          'back up again without --check to update it',
        );
      }
      ctx.info(`${out} is up to date with organization ${org} (${plural(chosen.length, 'space')})`);
      return;
    }
    ctx.info(`backed up organization ${org} to ${out}: ${plural(chosen.length, 'space')}`);
    return flags.json ? manifest : undefined;
  },
});
