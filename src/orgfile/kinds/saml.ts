/** SAML providers: created, updated (certificates compared by their body, shown by fingerprint), deleted (with --prune). */
import { UNSET_SSO_URL, ops as samlOps } from '../../contract/saml.js';
import { slug } from '../keys.js';
import type { DSaml, LSaml } from '../model.js';
import { diffFields } from '../sites.js';
import { request, type Drift, type Kept, type Step } from '../steps.js';
import { certificateBody, fieldsOf, liveCertificate, shown, type ShownField, step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffSaml(c: PlanContext): KindDiff {
  const { desired, live, prune, keys, org, keyOfId } = c;
  const { samlOf } = c.matched;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  for (const d of desired.saml) {
    const l = samlOf.get(d);
    // A team's id, or a reference to the id of a team this apply creates first (phase teams).
    const team = d.defaultTeam === undefined ? undefined : d.defaultTeam === null ? '' : c.idRef(`team:${d.defaultTeam}`);
    if (!l) {
      const body = {
        label: d.label,
        ...(d.entityID !== undefined ? { entityID: d.entityID } : {}),
        ...(d.ssoURL !== undefined ? { ssoURL: d.ssoURL } : {}),
        ...(d.certificate !== undefined ? { certificate: d.certificate } : {}),
        ...(d.defaultRole !== undefined ? { defaultRole: d.defaultRole } : {}),
        ...(team ? { defaultTeam: team } : {}),
      };
      steps.push(
        step(
          'organization',
          {
            kind: 'saml',
            action: 'create',
            key: d.key,
            title: d.label,
            fields: fieldsOf({
              ...body,
              ...(d.certificate !== undefined ? { certificate: d.certificateShown } : {}),
              ...(d.certificateUnset !== undefined ? { certificate: unknownText(d.certificateUnset) } : {}),
              ...(team ? { defaultTeam: d.defaultTeam } : {}),
            }),
          },
          [{ ...request(samlOps.createSamlProvider, { organizationId: org }, body), saves: { [`saml:${d.key}`]: 'id' } }],
        ),
      );
      // A new provider needs its certificate: apply refuses without it (plan still shows the rest).
      if (d.certificateUnset !== undefined) steps[steps.length - 1].needsEnv = d.certificateUnset;
      continue;
    }
    if (d.certificateUnset !== undefined) {
      drift.push({
        kind: 'saml',
        key: d.key,
        id: l.id,
        field: 'certificate',
        live: liveCertificate(l.certificate).from,
        file: `\${env:${d.certificateUnset}}`,
        why: `unknown, unchanged: the environment variable ${d.certificateUnset} is not set here (plan needs no secret; with it set, plan compares the certificate and apply sends it when it differs)`,
      });
    }
    const fields = samlFields(d, l);
    if (fields.length) {
      steps.push(
        step('organization', { kind: 'saml', action: 'update', key: d.key, id: l.id, title: l.label, fields: fields.map(shown) }, [
          request(
            samlOps.updateSamlProvider,
            { organizationId: org, samlProviderId: l.id },
            Object.fromEntries(fields.map((f) => [f.field, f.field === 'defaultTeam' ? team : f.to])),
          ),
        ]),
      );
    }
  }
  const matched = new Set([...samlOf.values()].map((l) => l.id));
  for (const p of live.saml) {
    if (matched.has(p.id) || !c.owned.whole('saml')) continue;
    const item = { kind: 'saml' as const, key: keys.saml.get(p.id)!, id: p.id, title: p.label };
    if (!prune) kept.push(item);
    else {
      steps.push(
        step('delete-organization', { ...item, action: 'delete' }, [request(samlOps.deleteSamlProvider, { organizationId: org, samlProviderId: p.id })]),
      );
    }
  }
  return { steps, drift, kept };

  function unknownText(variable: string): string {
    return `unknown: \${env:${variable}} is not set here (apply needs it to create the provider)`;
  }

  function samlFields(d: DSaml, l: LSaml): ShownField[] {
    const liveUrl = l.ssoURL === UNSET_SSO_URL ? '' : l.ssoURL;
    const rows: [string, unknown, unknown][] = [
      ['label', d.label, l.label],
      ['entityID', d.entityID, l.entityID],
      ['ssoURL', d.ssoURL, liveUrl],
      ['defaultRole', d.defaultRole, l.defaultRole],
      ['defaultTeam', d.defaultTeam, l.defaultTeam ? (keyOfId.team.get(l.defaultTeam.id) ?? slug(l.defaultTeam.title, 'team')) : null],
    ];
    const out: ShownField[] = diffFields(rows);
    if (d.certificate !== undefined && certificateBody(d.certificate) !== certificateBody(l.certificate)) {
      out.push({ field: 'certificate', from: l.certificate, to: d.certificate, shown: { ...liveCertificate(l.certificate), to: d.certificateShown } });
    }
    return out;
  }
}
