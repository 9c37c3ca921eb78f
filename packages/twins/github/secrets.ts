/**
 * A repository's secrets as GitHub keeps them (#84), per repository (twin-own.ts), for each of
 * Actions, Agents, Codespaces and Dependabot: `PUT …/{kind}/secrets/{secret_name}` makes one (`201`,
 * an empty object) or replaces its value (`204`), its name as GitHub shows it (upper case: GitHub's
 * secret names ignore case); `GET …/secrets/{secret_name}` reads `{ name, created_at, updated_at }`
 * (its value is never answered), `GET …/secrets` lists them (`{ total_count, secrets }`, by name),
 * `DELETE` removes one (`204`; `404` for one never made). The value sent is not kept: GitHub never
 * answers it either.
 *
 * @module
 */
import type { FlowError, FlowState } from '@mockpoint/core/internal';
import type { RepoOperation, RepoPlace } from './pushes.js';

const KIND = 'secrets';
const SECRETS = /^\/repos\/\{owner\}\/\{repo\}\/(actions|agents|codespaces|dependabot)\/secrets(\/\{secret_name\})?$/;
const NOT_FOUND: FlowError = { status: 404, type: 'invalid_request_error', message: 'Not Found' };

/** One secret kept: the repository and kind it is of, and the secret as read. */
interface SecretRecord {
  secret: { name: string; created_at: string; updated_at: string };
}

/** The secrets of `kind` of the repository, by name. */
async function secretsOf(state: FlowState, place: RepoPlace, kind: string): Promise<SecretRecord[]> {
  const prefix = `${place.scope}:${kind}:`;
  return [...(await state.read<SecretRecord>(KIND))]
    .filter(([key]) => key.startsWith(prefix))
    .map(([, record]) => record)
    .sort((a, b) => (a.secret.name < b.secret.name ? -1 : a.secret.name > b.secret.name ? 1 : 0));
}

/** A repository's secrets of Actions, Agents, Codespaces and Dependabot; `undefined`: not theirs. */
export const githubSecrets: RepoOperation = async (matched, _sent, state, place) => {
  const { method, template } = matched.op;
  const found = SECRETS.exec(template);
  // Below a repository never made (a read): the document's, or its 404.
  if (found === null || place.repository === undefined) return undefined;
  const kind = found[1] as string;
  if (found[2] === undefined) {
    if (method !== 'GET') return undefined;
    const all = await secretsOf(state, place, kind);
    if (state.examples && all.length === 0) return undefined;
    return {
      list: all.map((record) => record.secret),
      wrap: (items: Record<string, unknown>[], total: number) => ({ total_count: total, secrets: items }),
    };
  }
  const name = (matched.values.secret_name ?? '').toUpperCase();
  const key = `${place.scope}:${kind}:${name}`;
  const record = (await state.read<SecretRecord>(KIND)).get(key);
  if (method === 'PUT') {
    const now = new Date(state.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const secret = { name, created_at: record?.secret.created_at ?? now, updated_at: now };
    await state.keep(KIND, key, { secret } satisfies SecretRecord);
    return record === undefined ? { status: 201, body: {} } : { status: 204 };
  }
  if (record === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') return { status: 200, body: record.secret };
  if (method !== 'DELETE') return undefined;
  await state.keep(KIND, key, undefined);
  return { status: 204 };
};
