/**
 * A repository's collaborators and invitations as GitHub keeps them (issue #73; its REST reference,
 * "Collaborators" and "Repository invitations"), per repository (twin-own.ts):
 *
 * - `PUT …/collaborators/{username}` (`permission` pull, triage, push, maintain or admin; push by
 *   default) invites the user: `201` with the invitation (`permissions` read, triage, write,
 *   maintain, admin). `permission` is "only valid on organization-owned repositories" (GitHub's
 *   reference): a personal repository's invitations and collaborators are all `write`. Again for a pending invitee: the same invitation, its permission changed.
 *   For a collaborator: its permission changed, `204`. For the owner: `422`.
 * - The invitee accepts with `PATCH /user/repository_invitations/{invitation_id}` (`204`; declines
 *   with `DELETE`): a collaborator then, with a `member.added` event. The twin has one user for every
 *   token (issues.ts's `GITHUB_USER`), so any invitation can be accepted, and
 *   `GET /user/repository_invitations` lists every pending one.
 * - `GET …/collaborators` lists the owner (admin) and the collaborators, each a user with its
 *   `permissions` and `role_name` (`affiliation` all, direct or outside: {@link listed}); `GET …/collaborators/{username}` is `204` for one, `404` for
 *   another; `…/permission` says `admin`, `write`, `read` or `none` with its `role_name`;
 *   `DELETE …/collaborators/{username}` removes one (`member.removed`) or its pending invitation.
 * - `GET …/invitations` lists the pending invitations; `PATCH` and `DELETE`
 *   `…/invitations/{invitation_id}` change or withdraw one.
 *
 * @module
 */
import type { FlowError, FlowState, OwnOperation } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { GITHUB_USER } from './issues.js';
import { LOGIN } from './logins.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { ownerOf } from './repo-object.js';
import { apiOf } from './statuses.js';

const REPO = '/repos/{owner}/{repo}';
const COLLABORATORS = `${REPO}/collaborators`;
const COLLABORATOR = `${COLLABORATORS}/{username}`;
const INVITATIONS = `${REPO}/invitations`;
const USER_INVITATIONS = '/user/repository_invitations';
const COLLABORATOR_KIND = 'collaborators';
const INVITATION_KIND = 'invitations';
const INVITATION_NUMBERS = 'invitation-numbers';

/** The role a `permission` sent names, by the name an invitation's `permissions` gives it. */
const ROLES: Readonly<Record<string, string>> = {
  pull: 'read',
  read: 'read',
  triage: 'triage',
  push: 'write',
  write: 'write',
  maintain: 'maintain',
  admin: 'admin',
};

/** A role in GitHub's older words, as `…/permission` and `member` events say it: maintain is write, triage read. */
function olderWord(role: string): string {
  return role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
}

/** A role's `permissions` as a collaborator shows them. */
function permissionsOf(role: string): Record<string, boolean> {
  const rank = ['read', 'triage', 'write', 'maintain', 'admin'].indexOf(role);
  return { admin: rank >= 4, maintain: rank >= 3, push: rank >= 2, triage: rank >= 1, pull: rank >= 0 };
}

/** A collaborator kept: its login as sent, its role. */
interface CollaboratorRecord {
  login: string;
  role: string;
}

/** An invitation kept: the repository it is to, its invitee's login, the invitation as answered. */
interface InvitationRecord {
  scope: string;
  values: Record<string, string>;
  login: string;
  invitation: Record<string, unknown>;
}

function refused(field: string, message: string): { error: FlowError } {
  return { error: validationFailed('custom', [{ resource: 'Repository', code: 'custom', field, message }]) };
}

/** The repository's owner's login. */
function ownerLogin(place: RepoPlace): string {
  const owner = (place.repository?.owner as Record<string, unknown> | undefined)?.login;
  return String(owner ?? place.values.owner ?? '');
}

async function collaborators(state: FlowState, place: RepoPlace): Promise<CollaboratorRecord[]> {
  return [...(await state.read<CollaboratorRecord>(COLLABORATOR_KIND))]
    .filter(([key]) => key.startsWith(`${place.scope}:`))
    .map(([, record]) => record);
}

/**
 * Who can be assigned to the repository's issues (`GET …/assignees`): its owner when a user
 * (an organization is no assignee), the authenticated user (every token's: it writes to every
 * repository the twin holds, as one with push access), and the collaborators (not those only
 * invited), in that order, each login once.
 */
export async function assignableLogins(state: FlowState, place: RepoPlace): Promise<string[]> {
  const logins = isPersonal(place) ? [ownerLogin(place)] : [];
  logins.push(GITHUB_USER.login, ...(await collaborators(state, place)).map((one) => one.login));
  const seen = new Set<string>();
  return logins.filter((login) => {
    const key = login.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function invitations(state: FlowState, scope?: string): Promise<[string, InvitationRecord][]> {
  return [...(await state.read<InvitationRecord>(INVITATION_KIND))].filter(
    ([, record]) => scope === undefined || record.scope === scope,
  );
}

/** A collaborator as `GET …/collaborators` lists one. */
function shownCollaborator(login: string, role: string): Record<string, unknown> {
  return { ...ownerOf(login, false), permissions: permissionsOf(role), role_name: role };
}

/** Tells the repository's hooks that `login` was added or removed (`member`). */
function tellMember(state: FlowState, place: RepoPlace, login: string, action: 'added' | 'removed', role?: string) {
  state.emit({
    kind: 'action',
    template: COLLABORATORS,
    values: place.values,
    events: [`member.${action}`],
    object: ownerOf(login, false),
    // GitHub's words: `permission` the older one (maintain is write, triage read), `role_name` the role.
    ...(role === undefined
      ? {}
      : { extra: { changes: { permission: { to: olderWord(role) }, role_name: { to: role } } } }),
  });
}

/**
 * Whether the repository is a personal account's: GitHub's `permission` is "only valid on
 * organization-owned repositories", a personal repository's collaborators all `write` (push).
 */
function isPersonal(place: RepoPlace): boolean {
  return (place.repository?.owner as Record<string, unknown> | undefined)?.type !== 'Organization';
}

async function invite(username: string, sent: Record<string, unknown>, state: FlowState, place: RepoPlace) {
  if (!LOGIN.test(username)) return { error: NOT_FOUND };
  const asked = sent.permission ?? 'push';
  // A personal repository's: `permission` not read, every collaborator `write`.
  const role = isPersonal(place) ? 'write' : typeof asked === 'string' ? ROLES[asked] : undefined;
  if (role === undefined) {
    return refused('permission', 'permission must be one of pull, triage, push, maintain, admin');
  }
  if (username.toLowerCase() === ownerLogin(place).toLowerCase()) {
    return refused('username', 'Repository owner cannot be a collaborator');
  }
  const key = `${place.scope}:${username.toLowerCase()}`;
  if ((await state.read<CollaboratorRecord>(COLLABORATOR_KIND)).has(key)) {
    await state.keep(COLLABORATOR_KIND, key, { login: username, role } satisfies CollaboratorRecord);
    return { status: 204 };
  }
  const pending = (await invitations(state, place.scope)).find(
    ([, record]) => record.login.toLowerCase() === username.toLowerCase(),
  );
  if (pending !== undefined) {
    const [id, record] = pending;
    const invitation = { ...record.invitation, permissions: role };
    await state.keep(INVITATION_KIND, id, { ...record, invitation });
    return { status: 201, body: invitation };
  }
  const { full, api } = apiOf(place);
  // Numbered in the order made, never again after a withdrawal (the last number kept apart).
  const id = ((await state.read<{ last: number }>(INVITATION_NUMBERS)).get('last')?.last ?? 0) + 1;
  await state.keep(INVITATION_NUMBERS, 'last', { last: id });
  const invitation = {
    id,
    node_id: nodeId('RI', id),
    repository: place.repository ?? { name: place.values.repo, full_name: full },
    invitee: ownerOf(username, false),
    inviter: GITHUB_USER,
    permissions: role,
    created_at: new Date(state.now()).toISOString(),
    expired: false,
    url: `${api}/invitations/${id}`,
    html_url: `https://github.com/${full}/invitations`,
  };
  await state.keep(INVITATION_KIND, String(id), {
    scope: place.scope,
    values: place.values,
    login: username,
    invitation,
  } satisfies InvitationRecord);
  return { status: 201, body: invitation };
}

/** The `affiliation`s `GET …/collaborators` takes. */
const AFFILIATIONS = new Set(['all', 'direct', 'outside']);

/**
 * The collaborators of a repository: its owner (of an organization's, the twin's user, who made it
 * and administers it) and those kept; `permission` (pull, triage, push, maintain, admin) keeps
 * those who have it. `affiliation` (`all` by default) as GitHub reads it of the twin's model, whose
 * collaborators are each invited to the repository and none a member of an organization: `direct`
 * is all of a personal repository's, the kept ones of an organization's (its admin is one through
 * the organization); `outside` the kept ones of an organization's, none of a personal one's.
 */
async function listed(
  state: FlowState,
  place: RepoPlace,
  query: Record<string, unknown>,
): Promise<Record<string, unknown>[] | { error: FlowError }> {
  const affiliation = query.affiliation ?? 'all';
  if (typeof affiliation !== 'string' || !AFFILIATIONS.has(affiliation)) {
    return refused('affiliation', 'affiliation must be one of outside, direct, all');
  }
  const personal = isPersonal(place);
  const admin = personal ? ownerLogin(place) : GITHUB_USER.login;
  const kept = (await collaborators(state, place)).map(({ login, role }) => shownCollaborator(login, role));
  const withAdmin = affiliation === 'all' || (affiliation === 'direct' && personal);
  const shown = affiliation === 'outside' && personal ? [] : kept;
  const all = withAdmin ? [shownCollaborator(admin, 'admin'), ...shown] : shown;
  const wanted = typeof query.permission === 'string' ? query.permission : undefined;
  return wanted === undefined
    ? all
    : all.filter((one) => (one.permissions as Record<string, boolean>)[wanted] === true);
}

/** A repository's collaborators and invitations; `undefined`: not theirs. */
export const githubCollaborators: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  // Below a repository never made (a read): GitHub's lists of nothing, as the collections answer them.
  if (place.repository === undefined) return undefined;
  const username = matched.values.username ?? '';
  const key = `${place.scope}:${username.toLowerCase()}`;
  if (template === COLLABORATORS && method === 'GET') {
    const list = await listed(state, place, sent.query);
    return Array.isArray(list) ? { list } : list;
  }
  if (template === COLLABORATOR) {
    if (method === 'PUT') return invite(username, sent.body, state, place);
    const kept = (await state.read<CollaboratorRecord>(COLLABORATOR_KIND)).get(key);
    const isOwner = username.toLowerCase() === ownerLogin(place).toLowerCase();
    if (method === 'GET') return isOwner || kept !== undefined ? { status: 204 } : { error: NOT_FOUND };
    if (method !== 'DELETE') return undefined;
    if (kept !== undefined) {
      await state.keep(COLLABORATOR_KIND, key, undefined);
      tellMember(state, place, kept.login, 'removed');
    }
    for (const [id, record] of await invitations(state, place.scope)) {
      if (record.login.toLowerCase() === username.toLowerCase()) await state.keep(INVITATION_KIND, id, undefined);
    }
    return { status: 204 };
  }
  if (template === `${COLLABORATOR}/permission` && method === 'GET') {
    if (!LOGIN.test(username)) return { error: NOT_FOUND };
    const isOwner = username.toLowerCase() === ownerLogin(place).toLowerCase();
    const role = isOwner ? 'admin' : (await state.read<CollaboratorRecord>(COLLABORATOR_KIND)).get(key)?.role;
    // GitHub's `permission` is the older word: maintain is write, triage read.
    const permission = role === undefined ? 'none' : olderWord(role);
    const user = role === undefined ? ownerOf(username, false) : shownCollaborator(username, role);
    return { status: 200, body: { permission, role_name: role ?? 'none', user } };
  }
  if (template === INVITATIONS && method === 'GET') {
    return { list: (await invitations(state, place.scope)).map(([, record]) => record.invitation) };
  }
  if (template === `${INVITATIONS}/{invitation_id}`) {
    const id = matched.values.invitation_id ?? '';
    const record = (await invitations(state, place.scope)).find(([key]) => key === id)?.[1];
    if (record === undefined) return method === 'PATCH' || method === 'DELETE' ? { error: NOT_FOUND } : undefined;
    if (method === 'DELETE') {
      await state.keep(INVITATION_KIND, id, undefined);
      return { status: 204 };
    }
    if (method !== 'PATCH') return undefined;
    const asked = sent.body.permissions;
    const role = typeof asked === 'string' && ['read', 'triage', 'write', 'maintain', 'admin'].includes(asked);
    if (asked !== undefined && !role) {
      return refused('permissions', 'permissions must be one of read, triage, write, maintain, admin');
    }
    // A personal repository's invitation stays `write` (its `permission` only an organization's takes).
    const kept = asked === undefined || isPersonal(place) ? {} : { permissions: asked };
    const invitation = { ...record.invitation, ...kept };
    await state.keep(INVITATION_KIND, id, { ...record, invitation });
    return { status: 200, body: invitation };
  }
  return undefined;
};

/** The invitee's side (`/user/repository_invitations`): lists, accepts and declines; `undefined`: not its. */
export const githubInvitations: OwnOperation = async (matched, _sent, state) => {
  const { method, template } = matched.op;
  if (template === USER_INVITATIONS && method === 'GET') {
    return { list: (await invitations(state)).map(([, record]) => record.invitation) };
  }
  if (template !== `${USER_INVITATIONS}/{invitation_id}` || (method !== 'PATCH' && method !== 'DELETE')) {
    return undefined;
  }
  const id = matched.values.invitation_id ?? '';
  const record = (await invitations(state)).find(([key]) => key === id)?.[1];
  // stripe-mock's way with `unseen: "examples"`: the document's example answers one never made.
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  await state.keep(INVITATION_KIND, id, undefined);
  if (method === 'PATCH') {
    const role = String(record.invitation.permissions);
    await state.keep(COLLABORATOR_KIND, `${record.scope}:${record.login.toLowerCase()}`, {
      login: record.login,
      role,
    } satisfies CollaboratorRecord);
    tellMember(state, { scope: record.scope, values: record.values }, record.login, 'added', role);
  }
  return { status: 204 };
};
