/**
 * Which certificate a name asked for by SNI gets, without letting clients make
 * the daemon sign at will: signing (node-forge, pure-JS RSA) takes milliseconds
 * of the event loop, and a wildcard mapping (`*.stripe.com`) matches endless
 * names. So a certificate is made per pattern, not per name, and kept:
 *
 * - an exact mapping (`api.github.com`): one for that name;
 * - a name one label below a `*.` pattern (`x1.stripe.com`): the pattern's one,
 *   SAN `*.stripe.com` (a wildcard covers one label);
 * - a deeper name (`a.b.stripe.com`): one for `*.b.stripe.com`, at most
 *   {@link MAX_DEEPER_PER_PATTERN} per pattern; beyond that, the default
 *   certificate;
 * - and at most {@link MAX_SIGNED_PER_SECOND} new certificates a second in all;
 *   beyond that, the default certificate (asked again at the next handshake).
 *
 * @module
 */
import type { LocalCa } from './local-ca.js';

/** Deeper wildcard certificates (`*.b.stripe.com`) kept per `*.` pattern. */
export const MAX_DEEPER_PER_PATTERN = 32;
/** New certificates signed per second, at most. */
export const MAX_SIGNED_PER_SECOND = 20;

/** Certificates kept in all (patterns mapped and unmapped over a long run); the oldest goes first. */
const MAX_KEPT = 1000;

/** A host name as SNI carries it (lower case, no port); anything else gets the default certificate. */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** Options for {@link sniCertificates}. */
export interface SniCertificatesOptions {
  /** The mapping pattern `name` falls under (`api.github.com`, `*.stripe.com`), or `undefined` when unmapped. */
  patternOf(name: string): string | undefined;
  /** The clock of the per-second cap. @default Date.now */
  now?: () => number;
}

/** The `certificateFor` of `serve()`'s TLS options: a certificate per pattern, signed by `ca`, bounded. */
export function sniCertificates(
  ca: Pick<LocalCa, 'issue'>,
  options: SniCertificatesOptions,
): (servername: string) => { cert: string; key: string } | undefined {
  const now = options.now ?? Date.now;
  const made = new Map<string, { cert: string; key: string }>();
  const deeper = new Map<string, number>();
  let second = 0;
  let signedThisSecond = 0;
  return (servername) => {
    const name = servername.toLowerCase();
    if (name.length > 253 || !HOST_NAME.test(name)) return undefined;
    const pattern = options.patternOf(name);
    if (pattern === undefined) return undefined;
    // What the certificate names: the exact name, or `*.` and the name's parent.
    const certName = pattern.startsWith('*.') ? `*${name.slice(name.indexOf('.'))}` : name;
    const kept = made.get(certName);
    if (kept !== undefined) return kept;
    const isDeeper = certName !== pattern;
    if (isDeeper && (deeper.get(pattern) ?? 0) >= MAX_DEEPER_PER_PATTERN) return undefined;
    const at = Math.floor(now() / 1000);
    if (at !== second) [second, signedThisSecond] = [at, 0];
    if (signedThisSecond >= MAX_SIGNED_PER_SECOND) return undefined;
    signedThisSecond++;
    const pair = ca.issue([certName]);
    if (made.size >= MAX_KEPT) made.delete(made.keys().next().value as string);
    made.set(certName, pair);
    if (isDeeper) deeper.set(pattern, (deeper.get(pattern) ?? 0) + 1);
    return pair;
  };
}
