/**
 * A request's key (twin-engine.ts): the profile's `auth` (a refusal of a request without a key of
 * the twin's form, in the provider's error shape), and the token its rate limit counts by.
 *
 * @module
 */
import { seedOf } from '../random/seeded-random.js';
import { Refusal, type TwinRequest } from './twin-answer.js';
import type { TwinProfile } from './twin-profile.js';

/** Refuses a request without a key of the profile's `auth` (a scheme it takes, the key's prefix). */
export function checkAuth(profile: TwinProfile, request: TwinRequest): void {
  const auth = profile.auth;
  if (auth === undefined) return;
  const given = request.header('authorization') ?? '';
  const [, scheme = '', token = ''] = /^(\S+)\s+(\S+)$/.exec(given) ?? [];
  const taken = auth.schemes.find((one) => one.toLowerCase() === scheme.toLowerCase());
  let key = taken === undefined ? '' : token;
  if (taken === 'Basic') key = (atobSafe(key).split(':')[0] ?? '').trim();
  if (key === '' || !key.startsWith(auth.bearerPrefix)) {
    throw new Refusal({
      status: 401,
      type: 'invalid_request_error',
      message:
        key === ''
          ? `You did not provide an API key. Send it as Authorization: ${auth.schemes[0]} ${auth.bearerPrefix}….`
          : `Invalid API Key provided: keys of this twin start with ${auth.bearerPrefix}.`,
    });
  }
}

/** Longest credential a twin's rate limit counts by as it is; a longer one by its start, length and hash. */
const CREDENTIAL_KEY_CHARS = 200;

/** The token a request's rate limit counts by (its `Authorization`'s last word): bounded, so that 10,000 long tokens stay small. */
export function credentialOf(request: TwinRequest): string {
  const token = (request.header('authorization') ?? '').trim().split(/\s+/).at(-1) ?? '';
  if (token.length <= CREDENTIAL_KEY_CHARS) return token;
  return `${token.slice(0, 100)}\u2026${token.length}:${seedOf(token).toString(16)}`;
}

function atobSafe(text: string): string {
  try {
    return atob(text);
  } catch {
    return '';
  }
}
