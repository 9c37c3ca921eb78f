/**
 * Which namespace a request is for, decided here once for every entry that
 * serves namespaces, through the front door (front.ts, its one caller:
 * front.test.ts keeps it so). The rule
 * (docs/sessions.md): the `/ns/{ns}` prefix of the target as sent, where the
 * path may name one; else the `mockpoint-session` header; else its `baggage`
 * entry (api/session.ts). A `GET` of `/ns/{ns}` alone is sent to the
 * namespace's page; a name that breaks the name rule is no namespace at all.
 *
 * @module
 */

import { namespacePageRedirect, splitNamespaceTarget } from '../api/session.js';
import { quoted } from '../codec/quoted.js';
import { MockpointError } from '../registry/errors.js';
import { isValidName } from '../registry/rules.js';

/** The namespace a request is for. */
export interface NamespaceChoice {
  readonly kind: 'namespace';
  /** The name as sent. */
  readonly name: string;
  /** The target below `/ns/{ns}` (`/` when nothing follows) when the path named it; `undefined` when the headers did. */
  readonly rest: string | undefined;
  /** Where a `GET` of `/ns/{ns}` alone goes (the namespace's page, below it); else `undefined`. */
  readonly page: string | undefined;
  /** `404 NAMESPACE_NOT_FOUND` when the name breaks the name rule (no such namespace can exist); else `undefined`. */
  readonly refused: MockpointError | undefined;
}

/**
 * The namespace a request names, or `undefined` when it names none (the
 * default namespace's); nothing is allocated then (it runs for every request).
 * @param target The request's target as sent (the path still percent-encoded; a query may follow).
 * @param byPath Whether a `/ns/{ns}` prefix names the namespace: not on a `--serve` port, nor on a
 *   host mapped to an endpoint (whose paths, `/ns/…` too, are that endpoint's).
 * @param headers The request's headers, as its adapter holds them.
 * @param sessionOf The namespace `headers` name (`mockpoint-session`, then `baggage`: api/session.ts),
 *   read only when the path names none.
 */
export function chooseNamespace<H>(
  target: string,
  byPath: boolean,
  method: string,
  headers: H,
  sessionOf: (headers: H) => string | undefined,
): NamespaceChoice | undefined {
  if (byPath) {
    const split = splitNamespaceTarget(target);
    if (split !== undefined) {
      const page = method === 'GET' ? namespacePageRedirect(target) : undefined;
      return choice(split.name, split.rest, page);
    }
  }
  const name = sessionOf(headers);
  return name === undefined ? undefined : choice(name, undefined, undefined);
}

function choice(name: string, rest: string | undefined, page: string | undefined): NamespaceChoice {
  return { kind: 'namespace', name, rest, page, refused: isValidName(name) ? undefined : badNamespace(name) };
}

/** The error of a namespace name that breaks the name rule: no such namespace can exist. */
function badNamespace(name: string): MockpointError {
  return new MockpointError(
    'NAMESPACE_NOT_FOUND',
    `no namespace ${quoted(name, 100)}: names are 1-64 characters of A-Z a-z 0-9 _ -`,
  );
}
