/**
 * An organization's teams as GitHub names them (#84): a team made by `POST /orgs/{org}/teams` is
 * read at `…/teams/{team_slug}` by its `slug` — its name in lower case without accents, each run
 * of other characters than letters and digits one hyphen, none first or last (`Core Team` →
 * `core-team`) — and at `GET /teams/{team_id}` by its `id` (GitHub's legacy path), its URLs its
 * organization's. A second team of a name whose slug the organization's teams hold already is
 * GitHub's `422`.
 *
 * @module
 */
import type { FlowError, FlowKit, FlowState, OwnOperation } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { NOT_FOUND } from './not-found.js';
import { orgIdentity } from './repo-object.js';
import { urlPart } from './url-part.js';

const TEAMS = '/orgs/{org}/teams';

/** A team's slug from its `name`, as GitHub derives it (Rails' `parameterize`: accents dropped, `é` → `e`). */
export function teamSlug(name: unknown): string {
  return String(name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A team made in organization `values.org`: its slug and URLs (`keyed`, once it has its `id`). */
export function teamKeyed(template: string, object: Record<string, unknown>, values: Record<string, string>): void {
  if (template !== TEAMS || values.org === undefined) return;
  const org = orgIdentity(values.org);
  const slug = teamSlug(object.name);
  const api = `https://api.github.com/organizations/${String(org.id)}/team/${String(object.id)}`;
  Object.assign(object, {
    slug,
    url: api,
    html_url: `https://github.com/orgs/${urlPart(values.org)}/teams/${urlPart(slug)}`,
    members_url: `${api}/members{/member}`,
    repositories_url: `${api}/repos`,
  });
}

/**
 * GitHub's refusal of a team made (`POST /orgs/{org}/teams`) of a name whose slug one of the
 * organization's teams has: `422 Validation Failed`, `Name must be unique for this org`.
 */
export async function teamNameTaken(template: string, name: unknown, kit: FlowKit): Promise<FlowError | undefined> {
  if (template !== TEAMS || typeof name !== 'string') return undefined;
  const slug = teamSlug(name);
  const teams = await kit.objects(TEAMS, kit.values);
  if (!teams.some((team) => String(team.slug) === slug)) return undefined;
  return validationFailed('custom', [
    { resource: 'Team', code: 'custom', field: 'name', message: 'Name must be unique for this org' },
  ]);
}

/** The team of `id` in any organization the twin holds, if one is. */
export async function teamById(state: FlowState, id: string): Promise<Record<string, unknown> | undefined> {
  for (const teams of (await state.objectsByScope(TEAMS)).values()) {
    const team = teams.find((one) => String(one.id) === id);
    if (team !== undefined) return team;
  }
  return undefined;
}

/** Whether organization `org` holds a team of slug `slug`. */
export async function teamHeld(state: FlowState, org: string, slug: string): Promise<boolean> {
  const wanted = slug.toLowerCase();
  return (await state.objects(TEAMS, { org })).some((team) => String(team.slug).toLowerCase() === wanted);
}

/** `GET /teams/{team_id}`: the team of that id, GitHub's 404 for none; `undefined`: another operation. */
export const githubTeams: OwnOperation = async (matched, _sent, state) => {
  if (matched.op.template !== '/teams/{team_id}' || matched.op.method !== 'GET' || state.examples) return undefined;
  const team = await teamById(state, matched.values.team_id ?? '');
  return team === undefined ? { error: NOT_FOUND } : { status: 200, body: team };
};
