/**
 * The deleted spaces, as far as the service says: `GET /orgs/{org}/spaces?deleted=true` is a sandbox
 * extension (docs/compatibility.md). A service without it ignores the parameter and answers live
 * spaces (no `trash`), or refuses it: then nothing is known.
 */
import type { Api } from '../../client/api.js';
import type { Context } from '../../cli/context.js';
import { ApiError } from '../../client/errors.js';
import { ops, type ListedSpace } from '../../contract/spaces.js';

/**
 * The deleted space with this id: the listed space when it is in the trash, `null` when the
 * service lists its trash and the space is not in it, `undefined` when the service does not say
 * (no such extension, no organization selected, or the list failed otherwise). A caller who may not
 * list the organization's spaces (403, 404) has none in its trash either: `null`.
 */
export async function findInTrash(ctx: Context, api: Api, spaceId: string): Promise<ListedSpace | null | undefined> {
  try {
    const organizationId = await ctx.org();
    for await (const s of api.paginate(ops.listSpaces, { params: { organizationId }, query: { deleted: true } })) {
      if (!s.deletedAt || !s.trash) return undefined;
      if (s.id === spaceId) return s;
    }
    return null;
  } catch (err) {
    // No access to the organization's spaces: none of them is the caller's to delete or restore.
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return null;
    return undefined;
  }
}
