/**
 * The planner as a function (issue 26): (file, organization) → steps, no HTTP. Each case gives the
 * file's YAML and the service's items, and the steps expected: their phase, what they change, and
 * the requests they send (operation, params, body; ids not known yet as references).
 */
import { describe, expect, it } from 'vitest';
import type { Live } from '../../src/orgfile/model.js';
import { buildPlan } from '../../src/orgfile/plan.js';
import { parseOrgFile } from '../../src/orgfile/source.js';
import { PHASES, type Step } from '../../src/orgfile/steps.js';
import { liveSite, liveSpace } from '../helpers/live.js';

function live(parts: Partial<Live> = {}): Live {
  return {
    organization: 'org',
    kinds: new Set(['collections', 'spaces', 'sites', 'members', 'saml', 'openapi', 'teams']),
    collections: [],
    spaces: [],
    sites: [],
    members: [],
    saml: [],
    openapi: [],
    teams: [],
    ...parts,
  };
}

const space = (id: string, title: string, parent?: string) => liveSpace(id, title, parent ? { parent } : {});
const collection = (id: string, title: string, parent?: string) => ({ id, title, defaultLevel: 'inherit' as const, ...(parent ? { parent } : {}) });

/** A step as one line: `phase action kind key: op(params) body`, references as `@name`. */
function line(s: Step): string {
  const text = (v: unknown) => JSON.stringify(v).replace(/\{"\$ref":"([^"]+)"\}/g, '@$1');
  return `${s.phase} ${s.action} ${s.kind} ${s.site ? `${s.site}/` : ''}${s.key}: ${s.requests.map((r) => `${r.op}${text(r.params)}${r.body !== undefined ? ` ${text(r.body)}` : ''}`).join('; ')}`;
}

function plan(yaml: string, from: Live, prune = false): string[] {
  return buildPlan(parseOrgFile(`version: 1\n${yaml}`, 'org.yaml'), from, { prune }).steps.map(line);
}

describe('the planner: (file, organization) → steps', () => {
  const cases: { name: string; file: string; live: Live; prune?: boolean; steps: string[] }[] = [
    {
      name: 'a space deleted in the app, in the file with its id: restored (its id saved for what shows it), updated, moved; its collection gone: back at the root',
      file: 'collections:\n  - title: Guides\nspaces:\n  - key: welcome\n    id: s1\n    title: Welcome back\n    parent: guides\n',
      live: live({
        collections: [collection('c1', 'Guides')],
        deletedSpaces: new Map([
          ['s1', { space: space('s1', 'Welcome', 'c-gone'), deletedAt: '2026-11-25T10:00:00.000Z', restorableUntil: '2026-12-02T10:00:00.000Z' }],
        ]),
      }),
      steps: [
        'spaces restore space welcome: restoreSpace{"spaceId":"s1"}',
        'spaces update space welcome: updateSpace{"spaceId":"s1"} {"title":"Welcome back"}',
        'space-moves move space welcome: moveSpace{"spaceId":"s1"} {"parent":"c1"}',
      ],
    },
    {
      name: 'a space whose id cannot be restored: created, the reason on the step',
      file: 'spaces:\n  - key: welcome\n    id: s1\n    title: Welcome\n',
      live: live({ deletedSpaces: new Map([['s1', 's1 is neither a space of the organization nor a deleted one it can still restore']]) }),
      steps: ['spaces create space welcome: createSpace{"organizationId":"org"} {"title":"Welcome"}'],
    },
    {
      name: 'nothing to do',
      file: 'collections:\n  - title: Guides\nspaces:\n  - title: Welcome\n    parent: guides\n',
      live: live({ collections: [collection('c1', 'Guides')], spaces: [space('s1', 'Welcome', 'c1')] }),
      steps: [],
    },
    {
      name: 'defaultLevel null (no access) on new content is sent, as the other levels are: the next plan has nothing to do',
      file: 'collections:\n  - title: Guides\n    defaultLevel: null\nspaces:\n  - title: Secret\n    parent: guides\n    defaultLevel: null\n',
      live: live(),
      steps: [
        'collections create collection guides: createCollection{"organizationId":"org"} {"title":"Guides"}; updateCollection{"collectionId":@collection:guides} {"defaultLevel":null}',
        'spaces create space secret: createSpace{"organizationId":"org"} {"title":"Secret","parent":@collection:guides}; updateSpace{"spaceId":@space:secret} {"defaultLevel":null}',
      ],
    },
    {
      name: 'a space in a collection with defaultLevel null, as the service answers it: nothing to do',
      file: 'collections:\n  - title: Guides\nspaces:\n  - title: Secret\n    parent: guides\n    defaultLevel: null\n',
      live: live({ collections: [collection('c1', 'Guides')], spaces: [{ ...space('s1', 'Secret', 'c1'), defaultLevel: null }] }),
      steps: [],
    },
    {
      name: 'creations top-down: a collection inside a new one names it by reference; the space in it too',
      file: 'collections:\n  - title: Inner\n    parent: outer\n  - title: Outer\nspaces:\n  - title: Welcome\n    parent: inner\n',
      live: live(),
      steps: [
        'collections create collection outer: createCollection{"organizationId":"org"} {"title":"Outer"}',
        'collections create collection inner: createCollection{"organizationId":"org"} {"title":"Inner","parent":@collection:outer}',
        'spaces create space welcome: createSpace{"organizationId":"org"} {"title":"Welcome","parent":@collection:inner}',
      ],
    },
    {
      name: 'a known parent is its id, not a reference; updates and moves',
      file: 'collections:\n  - title: Guides\n  - title: API\nspaces:\n  - key: welcome\n    id: s1\n    title: Hello\n    parent: api\n',
      live: live({ collections: [collection('c1', 'Guides'), collection('c2', 'API')], spaces: [space('s1', 'Welcome', 'c1')] }),
      steps: [
        'spaces update space welcome: updateSpace{"spaceId":"s1"} {"title":"Hello"}',
        'space-moves move space welcome: moveSpace{"spaceId":"s1"} {"parent":"c2"}',
      ],
    },
    {
      name: 'deletions bottom-up, only with --prune: sites, then spaces, then collections (the top-most only)',
      file: 'collections: []\nspaces: []\nsites: []\n',
      live: live({
        collections: [collection('c1', 'Outer'), collection('c2', 'Inner', 'c1')],
        spaces: [space('s1', 'Welcome', 'c2')],
        sites: [liveSite('site1', 'Docs', { published: false })],
      }),
      prune: true,
      steps: [
        'delete-sites delete site docs: deleteSite{"organizationId":"org","siteId":"site1"}',
        'delete-spaces delete space welcome: deleteSpace{"spaceId":"s1"}',
        'delete-collections delete collection outer: deleteCollection{"collectionId":"c1"}',
      ],
    },
    {
      name: 'without --prune nothing is deleted',
      file: 'collections: []\nspaces: []\n',
      live: live({ collections: [collection('c1', 'Outer')], spaces: [space('s1', 'Welcome')] }),
      steps: [],
    },
    {
      name: 'a new site: one lane, the site, its sections with their fields, site spaces, in order; ids by reference',
      file: `spaces:
  - title: Welcome
  - title: Reference
sites:
  - title: Docs
    sections:
      - title: Guides
        path: guides
        siteSpaces:
          - space: welcome
            path: hello
      - title: API
        siteSpaces:
          - space: reference
`,
      live: live({ spaces: [space('s1', 'Welcome'), space('s2', 'Reference')] }),
      steps: [
        'sites create site docs: createSite{"organizationId":"org"} {"title":"Docs"}',
        'sites create section docs/guides: createSiteSection{"organizationId":"org","siteId":@site:docs} {"spaceId":"s1","title":"Guides"}; updateSiteSection{"organizationId":"org","siteId":@site:docs,"siteSectionId":@docs/section/guides} {"path":"guides"}; updateSiteSpace{"organizationId":"org","siteId":@site:docs,"siteSpaceId":@docs/site-space/welcome} {"path":"hello"}',
        'sites create section docs/api: createSiteSection{"organizationId":"org","siteId":@site:docs} {"spaceId":"s2","title":"API"}',
      ],
    },
    {
      name: 'members, SAML and OpenAPI: the organization phase; a removed member only with --prune, in the deletions',
      file: `members:
  - key: rex
    id: u1
    role: admin
openapi:
  - slug: pets
    url: https://example.com/pets.json
`,
      live: live({
        members: [
          { id: 'u1', name: 'Rex', role: 'read' },
          { id: 'u2', name: 'Ann', role: 'read' },
        ],
        openapi: [{ slug: 'old', visibility: 'private' }],
      }),
      prune: true,
      steps: [
        'organization update member rex: updateMember{"organizationId":"org","userId":"u1"} {"role":"admin"}',
        'organization create openapi pets: createOpenAPISpec{"organizationId":"org"} {"slug":"pets","source":{"url":"https://example.com/pets.json"}}',
        'delete-organization delete member ann: removeMember{"organizationId":"org","userId":"u2"}',
        'delete-organization delete openapi old: deleteOpenAPISpec{"organizationId":"org","specSlug":"old"}',
      ],
    },
    {
      name: 'a locked space: an edit of its title unlocks and locks again, in the same step',
      file: 'spaces:\n  - key: welcome\n    id: s1\n    title: Hello\n',
      live: live({ spaces: [{ ...space('s1', 'Welcome'), editMode: 'locked' }] }),
      steps: [
        'spaces update space welcome: updateSpace{"spaceId":"s1"} {"title":"Hello","editMode":"live"}; updateSpace{"spaceId":"s1"} {"editMode":"locked"}',
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      expect(plan(c.file, c.live, c.prune)).toEqual(c.steps);
    });
  }

  it('steps are data: a plan survives JSON, and its steps are in PHASES order', () => {
    const p = buildPlan(
      parseOrgFile('version: 1\ncollections:\n  - title: A\nspaces:\n  - title: S\n    parent: a\n', 'org.yaml'),
      live({ spaces: [space('s9', 'Old')] }),
      { prune: true },
    );
    expect(JSON.parse(JSON.stringify(p.steps))).toEqual(p.steps);
    const order = p.steps.map((s) => PHASES.indexOf(s.phase));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(p.changes).toHaveLength(p.steps.length);
  });
});

describe('readable, honest plans', () => {
  it('a nested value prints each leaf that differs: a changed reviewer is seen even past 80 characters', async () => {
    const { changeLines } = await import('../../src/orgfile/render.js');
    const rules = (reviewer: string) => ({
      type: 'rules',
      rules: [{ rule: 'require_change_request_subject' }, { rule: 'require_review_from_users', users: ['ann-analyst', 'bob-builder', reviewer] }],
    });
    const lines = changeLines({
      kind: 'space',
      action: 'update',
      key: 'welcome',
      fields: [{ field: 'mergeRules', from: rules('rex-reader'), to: rules('eve-editor') }],
    });
    expect(lines).toEqual(['~ space welcome', '    mergeRules.rules[1].users[2]: "rex-reader" → "eve-editor"']);
  });

  it('deletions that cannot be undone are flagged: a member (invited again), an OpenAPI specification (its versions)', async () => {
    const { renderPlan } = await import('../../src/orgfile/render.js');
    const p = buildPlan(
      parseOrgFile('version: 1\nmembers: []\nopenapi: []\n', 'org.yaml'),
      live({ members: [{ id: 'u2', name: 'Ann', role: 'read' }], openapi: [{ slug: 'pets', visibility: 'private' }] }),
      { prune: true },
    );
    const text = renderPlan(p);
    expect(text).toContain('  - member ann (Ann)\n      removed from the organization\n      ! cannot be undone: they must be invited again');
    expect(text).toContain('  - openapi pets\n      ! cannot be undone: every version of the specification goes with it');
    expect(text).toContain('2 changes cannot be undone (marked !): read them before applying.\nPlan: 0 to create, 0 to update, 0 to move, 2 to delete.');
  });
});
