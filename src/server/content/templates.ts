/**
 * Built-in content templates, `getting-started` and `api-reference` (TEMPLATE_IDS). Applying one
 * appends its pages at the top level (slugs made unique) and adds its variables where unset.
 * Both take one optional content reference, `logo`: a file, of the content the template is applied
 * to, or (with `space`) of another space, which is then copied into that content; it shows on the
 * first page. Links between a template's pages are written as paths within the template and
 * rewritten to where its pages land.
 */
import type { ContentRefInput } from '../../contract/content.js';
import { badRequest, forbidden, HttpError } from '../errors.js';
import type { SpaceRec, Store } from '../store.js';
import { rewriteLinks } from './links.js';
import { contentOf, edit, emptyContent, findFile, newPage, revisionOf, slugPlacer, type FileRec, type PageRec, type RevisionContent } from './model.js';

interface TemplatePage {
  title: string;
  slug: string;
  emoji?: string;
  description?: string;
  markdown: string;
  computed?: PageRec['computed'];
  pages?: TemplatePage[];
}

interface Template {
  variables: Record<string, string>;
  pages: TemplatePage[];
}

const TEMPLATES: Record<string, Template> = {
  'getting-started': {
    variables: { product: 'Your product' },
    pages: [
      {
        title: 'Getting started',
        slug: 'getting-started',
        emoji: '🚀',
        description: 'Install {{ space.vars.product }} and make your first steps',
        markdown: [
          '# Getting started',
          '',
          'Welcome to the documentation of {{ space.vars.product }}. Start with the [installation](/getting-started/installation), then follow the [quickstart](/getting-started/quickstart).',
          '',
        ].join('\n'),
        pages: [
          {
            title: 'Installation',
            slug: 'installation',
            markdown: [
              '# Installation',
              '',
              '## Requirements',
              '',
              'List what must be installed first.',
              '',
              '## Install',
              '',
              '```sh',
              'npm install your-product',
              '```',
              '',
              'Next: the [quickstart](/getting-started/quickstart).',
              '',
            ].join('\n'),
          },
          {
            title: 'Quickstart',
            slug: 'quickstart',
            markdown: [
              '# Quickstart',
              '',
              'Make something useful in five minutes, once the [installation](/getting-started/installation) is done.',
              '',
              '## Next steps',
              '',
              'Read the [FAQ](/faq) for the questions everyone asks.',
              '',
            ].join('\n'),
          },
        ],
      },
      {
        title: 'FAQ',
        slug: 'faq',
        emoji: '❓',
        markdown: ['# FAQ', '', '## Where do I get help?', '', 'Ask in your community channel.', ''].join('\n'),
      },
    ],
  },
  'api-reference': {
    variables: { apiBaseUrl: 'https://api.example.com/v1' },
    pages: [
      {
        title: 'API reference',
        slug: 'api-reference',
        emoji: '📖',
        description: 'Endpoints, authentication and errors of the API',
        markdown: [
          '# API reference',
          '',
          'Every request goes to `{{ space.vars.apiBaseUrl }}`. Read how to [authenticate](/api-reference/authentication), the [endpoints](/api-reference/endpoints) and the [errors](/api-reference/errors).',
          '',
        ].join('\n'),
        pages: [
          {
            title: 'Authentication',
            slug: 'authentication',
            markdown: ['# Authentication', '', 'Send a bearer token with every request:', '', '```http', 'Authorization: Bearer <token>', '```', ''].join('\n'),
          },
          {
            title: 'Endpoints',
            slug: 'endpoints',
            markdown: '',
            computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'api' } } }, props: { models: false } },
          },
          {
            title: 'Errors',
            slug: 'errors',
            markdown: [
              '# Errors',
              '',
              'Errors answer a 4xx or 5xx status with a JSON body naming the problem. See [authentication](/api-reference/authentication) for 401.',
              '',
            ].join('\n'),
          },
        ],
      },
    ],
  },
};

const TEMPLATE_IDS = Object.keys(TEMPLATES);

export interface TemplateParams {
  contentRefs?: Record<string, ContentRefInput>;
}

/**
 * The file a reference names in another space (`where` names the reference in errors). The caller
 * checks that the user may read that space.
 */
export type OtherSpaceFile = (spaceId: string, fileId: string, where: string) => FileRec;

/**
 * Files of other spaces, from their active revision, as the caller may read them: `readSpace` is the
 * caller's view of a space (throwing 404 when they cannot see it, 403 when they may not read it).
 * A space the caller cannot see is a 400 on the reference (it is in the body), as is a missing file;
 * one they may not read a 403 saying so.
 */
export function filesOfReadableSpaces(store: Store, readSpace: (spaceId: string) => SpaceRec): OtherSpaceFile {
  return (spaceId, fileId, where) => {
    let space: SpaceRec;
    try {
      space = readSpace(spaceId);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (err.status === 403) throw forbidden(`${where}: reading file ${fileId} of space ${spaceId} needs the read role or above on that space`);
      throw badRequest(`${where}.space: no space ${spaceId}`);
    }
    const file = findFile(contentOf(revisionOf(store, space.revision)), fileId);
    if (!file) throw badRequest(`${where}: no file ${fileId} in space ${spaceId}`);
    return file;
  };
}

/**
 * New content: `content` (of space `spaceId`) with the template's pages appended. 400 for an unknown
 * template or reference. A file of another space (`space` set) is read with `otherSpaceFile` and
 * copied into the content (its bytes are shared, stored once).
 */
export function applyTemplate(
  store: Store,
  spaceId: string,
  content: RevisionContent,
  id: string,
  params: TemplateParams = {},
  otherSpaceFile?: OtherSpaceFile,
): RevisionContent {
  const template = TEMPLATES[id];
  if (!template) throw badRequest(`id: unknown template "${id}"; known templates: ${TEMPLATE_IDS.join(', ')}`);
  let logo: FileRec | undefined;
  for (const [name, ref] of Object.entries(params.contentRefs ?? {})) {
    const where = `params.contentRefs.${name}`;
    if (name !== 'logo') throw badRequest(`${where}: template ${id} takes only the content reference "logo"`);
    if (ref.kind !== 'file') throw badRequest(`${where}: must be a file reference ({kind: "file", file, space?}), not kind ${ref.kind}`);
    if (ref.space === undefined || ref.space === spaceId) {
      logo = findFile(content, ref.file);
      if (!logo) throw badRequest(`${where}: no file ${ref.file} in this space`);
    } else {
      if (!otherSpaceFile) throw badRequest(`${where}.space: must be this space (${spaceId})`);
      logo = otherSpaceFile(ref.space, ref.file, where);
    }
  }
  const next = edit(content);
  if (logo && !findFile(next, logo.id)) next.files.push(structuredClone(logo));
  /** Path in the template → path where the page landed. */
  const landed = new Map<string, string>();
  const built: PageRec[] = [];
  const slug = slugPlacer();
  const build = (t: TemplatePage, siblings: PageRec[], templatePath: string, parentPath: string, first: boolean): PageRec => {
    const page = newPage(store, {
      title: t.title,
      slug: slug(siblings, t.slug),
      markdown: first && logo ? `![Logo](file:${logo.id})\n\n${t.markdown}` : t.markdown,
      ...(t.emoji ? { emoji: t.emoji } : {}),
      ...(t.description ? { description: t.description } : {}),
      ...(t.computed ? { computed: t.computed } : {}),
    });
    const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
    landed.set(`${templatePath}/${t.slug}`, path);
    built.push(page);
    for (const child of t.pages ?? []) page.pages.push(build(child, page.pages, `${templatePath}/${t.slug}`, path, false));
    return page;
  };
  template.pages.forEach((t, i) => next.pages.push(build(t, next.pages, '', '', i === 0)));
  for (const page of built)
    page.markdown = rewriteLinks(page.markdown, (href) => {
      const target = landed.get(href);
      return target === undefined ? undefined : `/${target}`;
    });
  next.variables = { ...template.variables, ...next.variables };
  return next;
}

/**
 * The content of a new space made from a template (the `template` of a create body: a space, a section
 * or a site space with a new space): the template's pages on empty content. Errors name the field
 * (`template.id: …`, `template.params.contentRefs.logo: …`) and keep their status.
 */
export function newSpaceContent(store: Store, template: { id: string; params?: TemplateParams }, otherSpaceFile?: OtherSpaceFile): RevisionContent {
  try {
    return applyTemplate(store, '', emptyContent(), template.id, template.params, otherSpaceFile);
  } catch (e) {
    if (e instanceof HttpError) throw new HttpError(e.status, `template.${e.message}`, e.headers);
    throw e;
  }
}
