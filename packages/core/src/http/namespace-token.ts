/**
 * A namespace's token: `mpns.{ns}.{secret}` — it names its namespace, so a
 * token sent to the wrong place is told apart from a wrong one without a
 * lookup, and only its SHA-256 is kept (the registry's `tokenHash`).
 *
 * @module
 */
import { isValidName } from '../registry/rules.js';

/** The prefix of every namespace token. */
const TOKEN_PREFIX = 'mpns.';

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `node:crypto`'s hashing where the runtime has it (Node, Bun, Deno), found at run time as signing/hmac.ts does. */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as
  | { createHash(algorithm: 'sha256'): { update(text: string): { digest(encoding: 'hex'): string } } }
  | undefined;

/**
 * SHA-256 of `text` as lowercase hex: `node:crypto` in place where there is one
 * (Web Crypto's digest hops to a thread pool and back: 2 ms of a session's creation,
 * measured on Node 20), else Web Crypto (every runtime has it).
 */
export async function tokenHash(text: string): Promise<string> {
  if (nodeCrypto !== undefined) return nodeCrypto.createHash('sha256').update(text).digest('hex');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The namespace a token names (`mpns.{name}.…`), or `undefined` when it is not a namespace token. */
export function tokenNamespace(token: string): string | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const end = token.indexOf('.', TOKEN_PREFIX.length);
  if (end === -1) return undefined;
  const name = token.slice(TOKEN_PREFIX.length, end);
  return isValidName(name) ? name : undefined;
}

/**
 * Random bytes drawn 4 KiB at a time from the runtime's CSPRNG, as Node's `randomUUID` buffers
 * its own: each `getRandomValues` call costs about 6 µs on Node 20 whatever its size, and a batch of
 * sessions makes two draws a namespace (docs/performance.md).
 */
const POOL = new Uint8Array(4096);
let drawn = POOL.length;

/** `count` fresh random bytes (a copy: the pool is never handed out). */
function randomBytes(count: number): Uint8Array {
  if (count > POOL.length) return crypto.getRandomValues(new Uint8Array(count));
  if (drawn + count > POOL.length) {
    crypto.getRandomValues(POOL);
    drawn = 0;
  }
  const bytes = POOL.slice(drawn, drawn + count);
  // Bytes handed out are wiped, so the page holds no token already given (it holds those still to come).
  POOL.fill(0, drawn, drawn + count);
  drawn += count;
  return bytes;
}

/** A fresh token for namespace `name`: 24 random bytes after its name. */
export function newToken(name: string): string {
  return `${TOKEN_PREFIX}${name}.${base64url(randomBytes(24))}`;
}

/** A random namespace name (`s-` and 12 characters: 72 random bits). */
export function randomName(): string {
  return `s-${base64url(randomBytes(9))}`;
}

const RANDOM_NAME = /^s-[A-Za-z0-9_-]{12}$/;

/** Whether `name` has the shape of a {@link randomName} (a client may choose such a name too). */
export function isRandomName(name: string): boolean {
  return RANDOM_NAME.test(name);
}
