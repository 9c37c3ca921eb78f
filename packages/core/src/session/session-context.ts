/**
 * The session the current asynchronous context runs in (AsyncLocalStorage).
 * One store per process, kept on `globalThis` under a registered symbol: a
 * bundler that copies this module into several chunks (Next.js does) still
 * gets one store, so a handler wrapped by one copy is seen by the carrier
 * another copy subscribed.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isValidName, NAME_RULE } from '../registry/rules.js';
import { SESSION_HEADER } from './session-header.js';

const STORE_KEY = Symbol.for('mockpoint.session.storage');

function storage(): AsyncLocalStorage<string | undefined> {
  const holder = globalThis as { [STORE_KEY]?: AsyncLocalStorage<string | undefined> };
  holder[STORE_KEY] ??= new AsyncLocalStorage<string | undefined>();
  return holder[STORE_KEY];
}

/**
 * Runs `fn` in `session` (or in no session, when `undefined`): every outgoing
 * request it makes, synchronously or after any `await`, carries the session
 * while {@link carrySession} is on. Returns what `fn` returns.
 *
 * @throws TypeError (`code: 'MOCKPOINT_INVALID_SESSION'`) when `session` is not a valid name.
 */
export function runWithSession<R>(session: string | undefined, fn: () => R): R {
  if (session !== undefined && !isValidName(session)) {
    throw Object.assign(new TypeError(`invalid session ${JSON.stringify(session)}: ${NAME_RULE}`), {
      code: 'MOCKPOINT_INVALID_SESSION',
    });
  }
  return storage().run(session, fn);
}

/** The session the caller runs in, or `undefined`. */
export function currentSession(): string | undefined {
  return storage().getStore();
}

/**
 * `{ 'mockpoint-session': <session> }` in a session, `{}` outside one: to
 * spread into the headers of a request that {@link carrySession} cannot reach
 * (a `node:http` request on Node before 22.12, another process, a queue message).
 */
export function sessionHeaders(): Record<string, string> {
  const session = currentSession();
  return session === undefined ? {} : { [SESSION_HEADER]: session };
}
