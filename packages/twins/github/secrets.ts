/**
 * Secrets as GitHub keeps them (#84): a repository's of Actions, Agents, Codespaces and
 * Dependabot and its environments' (per repository, twin-own.ts), an organization's of the same
 * four and the user's Codespaces secrets. `PUT …/secrets/{secret_name}` makes one (`201`, an empty
 * object) or replaces its value (`204`), its name as GitHub shows it (upper case: GitHub's secret
 * names ignore case); `GET …/secrets/{secret_name}` reads `{ name, created_at, updated_at }` (an
 * organization's and the user's with their `visibility` and `selected_repositories_url`; the value
 * is never answered), `GET …/secrets` lists them (`{ total_count, secrets }`, by name), `DELETE`
 * removes one (`204`; `404` for one never made). The value sent is not kept: GitHub never answers
 * it either. A name GitHub's rule refuses ({@link secretNameRefusal}) is not made. Below an
 * organization or an environment the twin does not hold, orgs.ts's and the engine's 404 come first.
 *
 * @module
 */
import type { FlowError, FlowState, MatchedOperation, OwnAnswer, OwnOperation } from '@mockpoint/core/internal';
import { environmentHeld } from './environments.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation } from './pushes.js';
import { urlPart } from './url-part.js';

const KIND = 'secrets';
/** A repository's secrets (an environment's too): the kind, the secret's path if one. */
const SECRETS =
  /^\/repos\/\{owner\}\/\{repo\}\/(actions|agents|codespaces|dependabot|environments\/\{environment_name\})\/secrets(\/\{secret_name\})?$/;
/** An organization's secrets and the user's Codespaces secrets: the owner's path, the secret's if one. */
const OWNER_SECRETS =
  /^\/(orgs\/\{org\}\/(?:actions|agents|codespaces|dependabot)|user\/codespaces)\/secrets(\/\{secret_name\})?$/;

/**
 * GitHub's refusal of a secret's name, or `undefined` for one it takes. The rule ("Naming your
 * secrets" in GitHub's Actions docs): letters, digits and underscores only, not starting with a
 * digit, not with `GITHUB_` (in any case). The first sentence is the API's answer as recorded
 * (a `422` of `PUT …/secrets/{secret_name}`); the `GITHUB_` one is the sentence GitHub shows for
 * it, without the page's "Failed to add secret." (no API answer of it recorded).
 */
export function secretNameRefusal(name: string): FlowError | undefined {
  let message: string | undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    message =
      'Secret names can only contain alphanumeric characters ([a-z], [A-Z], [0-9]) or underscores (_). Spaces are not allowed. Must start with a letter ([a-z], [A-Z]) or underscores (_).';
  else if (/^GITHUB_/i.test(name)) message = 'Secret names must not start with GITHUB_.';
  return message === undefined ? undefined : { status: 422, type: 'invalid_request_error', message };
}

/** One secret kept: the repository and kind it is of, and the secret as read. */
interface SecretRecord {
  secret: {
    name: string;
    created_at: string;
    updated_at: string;
    visibility?: string;
    selected_repositories_url?: string;
  };
}

/** The secrets kept under `prefix` (an owner's scope and a kind), by name. */
async function secretsOf(state: FlowState, prefix: string): Promise<SecretRecord[]> {
  return [...(await state.read<SecretRecord>(KIND))]
    .filter(([key]) => key.startsWith(prefix))
    .map(([, record]) => record)
    .sort((a, b) => (a.secret.name < b.secret.name ? -1 : a.secret.name > b.secret.name ? 1 : 0));
}

/** The time as GitHub writes it in a secret, to the second. */
const stamp = (state: FlowState) => new Date(state.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The secrets kept under `prefix` (`{scope}:{kind}:`): the list, or the one named `name` read,
 * made (`shown`: what an owner's secret shows besides its name and times) or removed.
 */
async function secretsAt(
  matched: MatchedOperation,
  state: FlowState,
  prefix: string,
  shown?: (name: string, was: SecretRecord | undefined) => Record<string, string>,
): Promise<OwnAnswer | undefined> {
  const { method } = matched.op;
  if (matched.values.secret_name === undefined) {
    if (method !== 'GET') return undefined;
    const all = await secretsOf(state, prefix);
    if (state.examples && all.length === 0) return undefined;
    return {
      list: all.map((record) => record.secret),
      wrap: (items: Record<string, unknown>[], total: number) => ({ total_count: total, secrets: items }),
    };
  }
  const name = matched.values.secret_name.toUpperCase();
  const key = `${prefix}${name}`;
  const record = (await state.read<SecretRecord>(KIND)).get(key);
  if (method === 'PUT') {
    const refusal = secretNameRefusal(matched.values.secret_name);
    if (refusal !== undefined) return { error: refusal };
    const now = stamp(state);
    const secret = { name, created_at: record?.secret.created_at ?? now, updated_at: now, ...shown?.(name, record) };
    await state.keep(KIND, key, { secret } satisfies SecretRecord);
    return record === undefined ? { status: 201, body: {} } : { status: 204 };
  }
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: record.secret };
  if (method !== 'DELETE') return undefined;
  await state.keep(KIND, key, undefined);
  return { status: 204 };
}

/** A repository's secrets of Actions, Agents, Codespaces and Dependabot, and its environments'; `undefined`: not theirs. */
export const githubSecrets: RepoOperation = async (matched, _sent, state, place) => {
  const found = SECRETS.exec(matched.op.template);
  // Below a repository never made (a read): the document's, or its 404.
  if (found === null || place.repository === undefined) return undefined;
  const environment = matched.values.environment_name;
  // An environment never made holds no secrets: GitHub's 404, nothing kept.
  if (environment !== undefined && !(await environmentHeld(state, place, environment)))
    return state.examples ? undefined : { error: NOT_FOUND };
  const kind = environment === undefined ? found[1] : `environment/${encodeURIComponent(environment.toLowerCase())}`;
  return secretsAt(matched, state, `${place.scope}:${kind}:`);
};

/**
 * An organization's secrets (its `visibility` as sent, `all` kept when not; their repositories'
 * URL) and the user's Codespaces secrets (`selected` once given repositories); `undefined`: not theirs.
 */
export const githubOwnerSecrets: OwnOperation = async (matched, sent, state) => {
  const found = OWNER_SECRETS.exec(matched.op.template);
  if (found === null) return undefined;
  const org = matched.values.org;
  const owner = found[1] as string;
  const at = (name: string) =>
    `https://api.github.com/${owner.replace('{org}', urlPart(org ?? ''))}/secrets/${urlPart(name)}/repositories`;
  // `@…`: no repository's scope (`login/name`) starts so, so an organization's secrets never mix with one's.
  const scope = org === undefined ? '@user' : `@org:${org.toLowerCase()}`;
  const kind = owner.split('/').at(-1) as string;
  return secretsAt(matched, state, `${scope}:${kind}:`, (name, was) => {
    const { visibility, selected_repository_ids: selected } = sent.body;
    const chosen =
      org === undefined
        ? Array.isArray(selected)
          ? 'selected'
          : (was?.secret.visibility ?? 'all')
        : typeof visibility === 'string'
          ? visibility
          : (was?.secret.visibility ?? 'all');
    return { visibility: chosen, selected_repositories_url: at(name) };
  });
};
