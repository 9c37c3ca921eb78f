/**
 * A namespace's token: `mpns.{ns}.{secret}` — it names its namespace, so a
 * token sent to the wrong place is told apart from a wrong one without a
 * lookup, and only its SHA-256 is kept (the registry's `tokenHash`).
 *
 * @module
 */
import { randomBytes } from '../codec/random-bytes.js';
import { sha256Hex } from '../codec/sha256-hex.js';
import { isValidName } from '../registry/rules.js';

/** The prefix of every namespace token. */
const TOKEN_PREFIX = 'mpns.';

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** SHA-256 of `text` as lowercase hex: what the registry keeps of a token. */
export function tokenHash(text: string): Promise<string> {
  return sha256Hex(text);
}

/** The namespace a token names (`mpns.{name}.…`), or `undefined` when it is not a namespace token. */
export function tokenNamespace(token: string): string | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const end = token.indexOf('.', TOKEN_PREFIX.length);
  if (end === -1) return undefined;
  const name = token.slice(TOKEN_PREFIX.length, end);
  return isValidName(name) ? name : undefined;
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
