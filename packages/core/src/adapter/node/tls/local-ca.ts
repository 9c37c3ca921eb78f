/**
 * The local certificate authority behind `--https`: made on first use and kept
 * in a directory (the daemon's data directory), its key readable by its owner
 * only, and the certificates it signs for the daemon's own names and, for the
 * forward proxy, each mapped host. Node has no X.509 generation: node-forge
 * writes and signs the certificates; the RSA keys come from node:crypto.
 *
 * @module
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';
import { MockpointError } from '../../../registry/errors.js';

/** The CA's files in its directory (mode 0700): the certificate (public) and its key, both mode 0600. */
export const CA_CERT_FILE = 'mockpoint-ca.pem';
export const CA_KEY_FILE = 'mockpoint-ca-key.pem';

const DAY = 86_400_000;

/** A CA that can sign, and where its certificate is. */
export interface LocalCa {
  /** The CA certificate (PEM): what clients trust (`NODE_EXTRA_CA_CERTS`, `curl --cacert`). */
  readonly certPem: string;
  /** The file holding {@link certPem}, when it was kept in a directory. */
  readonly certPath: string | undefined;
  /** A certificate for `names` (host names and IP addresses) signed by this CA, with its key (PEM). */
  issue(names: readonly string[]): { cert: string; key: string };
}

function rsaKey(): { pem: string; key: forge.pki.rsa.PrivateKey } {
  // node:crypto's generator is native (forge's own is pure JavaScript and slow).
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { pem: privateKey, key: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey };
}

function serial(): string {
  // Positive (high bit clear), unique enough that a client never sees two certificates with one serial.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] as number) & 0x7f;
  return bytes.toString('hex');
}

function caKeyOf(pem: string): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
}

function publicOf(key: forge.pki.rsa.PrivateKey): forge.pki.rsa.PublicKey {
  return forge.pki.setRsaPublicKey(key.n, key.e);
}

function newCaCertificate(key: forge.pki.rsa.PrivateKey): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicOf(key);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  const name = [
    { name: 'commonName', value: 'mockpoint local CA' },
    { name: 'organizationName', value: 'mockpoint (this machine only)' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A CA from its certificate and key (PEM). */
export function localCa(certPem: string, keyPem: string, certPath?: string): LocalCa {
  const caCert = forge.pki.certificateFromPem(certPem);
  const caKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  // One key for every certificate this process issues: generating one per host would cost ~50 ms each.
  let leaf: { pem: string; key: forge.pki.rsa.PrivateKey } | undefined;
  return {
    certPem,
    certPath,
    issue(names) {
      leaf ??= rsaKey();
      const cert = forge.pki.createCertificate();
      cert.publicKey = publicOf(leaf.key);
      cert.serialNumber = serial();
      // Clients refuse server certificates valid for more than 398 days.
      cert.validity.notBefore = new Date(Date.now() - DAY);
      cert.validity.notAfter = new Date(Date.now() + 397 * DAY);
      cert.setSubject([{ name: 'commonName', value: (names[0] ?? 'localhost').slice(0, 64) }]);
      cert.setIssuer(caCert.subject.attributes);
      cert.setExtensions([
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: names.map((value) => (isIP(value) === 0 ? { type: 2, value } : { type: 7, ip: value })),
        },
      ]);
      cert.sign(caKey, forge.md.sha256.create());
      return { cert: forge.pki.certificateToPem(cert), key: leaf.pem };
    },
  };
}

/** A new CA kept in memory only (a test server's: its clients get {@link LocalCa.certPem}). */
export function createCa(): LocalCa {
  const { pem, key } = rsaKey();
  return localCa(newCaCertificate(key), pem);
}

/** The CA's files in `dir` cannot be used (not PEM, or a key that does not sign its certificate): stops start-up. */
function unusable(message: string, cause?: unknown): MockpointError {
  return new MockpointError('LOCAL_CA_UNUSABLE', message, { cause });
}

/**
 * Puts `text` at `path` only if nothing is there, whole or not at all: written
 * to a file of this call's own, then hard-linked into place (link() fails with
 * EEXIST instead of replacing, unlike rename()). Returns what is at `path`
 * afterwards: `text`, or what another process (or call) put there first.
 */
async function putOnce(path: string, text: string, mode: number): Promise<string> {
  const part = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.part`;
  await writeFile(part, text, { mode, flag: 'wx' });
  try {
    await chmod(part, mode); // the umask may have narrowed or widened it
    await link(part, path);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return await readFile(path, 'utf8');
  } finally {
    await unlink(part);
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether `cert` is still valid for a day or more. */
function fresh(cert: X509Certificate): boolean {
  return new Date(cert.validTo).getTime() > Date.now() + DAY;
}

/** `parse()`, or {@link unusable} saying `what` (the file) is wrong, why, and `fix`, on one line. */
function parsed<T>(parse: () => T, what: string, fix: string): T {
  try {
    return parse();
  } catch (error) {
    const why = String((error as Error).message)
      .replace(/\s+/g, ' ')
      .replace(/\.$/, '');
    throw unusable(`${what} (${why}); ${fix}`, error);
  }
}

/**
 * The CA kept in `dir` (set to mode 0700), made there on first use:
 * `mockpoint-ca-key.pem` and `mockpoint-ca.pem` (both mode 0600). Safe when several daemons start on one fresh
 * directory at once: each file is put in place only if absent (whole, never
 * replaced), the key first, and the certificate is signed for the key that
 * ended up on disk, so whichever process wins each file the pair matches.
 * A certificate that has expired is signed anew for the same key. A file that
 * is not PEM, or a key that does not match its certificate (files from two
 * CAs), is refused with `LOCAL_CA_UNUSABLE`, one line naming the files.
 */
export async function loadOrCreateCa(dir: string): Promise<LocalCa> {
  const certPath = join(dir, CA_CERT_FILE);
  const keyPath = join(dir, CA_KEY_FILE);
  const deleteBoth = `delete ${keyPath} and ${certPath} to make a new CA at the next start, then trust the new ${CA_CERT_FILE}`;
  // The key's folder is its owner's alone (docs/safety.md#files-on-disk), whatever the umask.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  let keyPem = await readIfThere(keyPath);
  if (keyPem === undefined) keyPem = await putOnce(keyPath, rsaKey().pem, 0o600);
  const key = parsed(
    () => createPrivateKey(keyPem),
    `the local CA's key ${keyPath} is not a PEM private key`,
    deleteBoth,
  );
  let certPem = await readIfThere(certPath);
  const cert =
    certPem === undefined
      ? undefined
      : parsed(
          () => new X509Certificate(certPem as string),
          `the local CA's certificate ${certPath} is not a PEM certificate`,
          deleteBoth,
        );
  if (cert !== undefined && !fresh(cert)) {
    // Expired: the next one is made below. Another process may have done the same (any of them matches the key).
    await unlink(certPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    certPem = undefined;
  }
  if (certPem === undefined) {
    const forgeKey = parsed(() => caKeyOf(keyPem), `the local CA's key ${keyPath} is not an RSA key`, deleteBoth);
    certPem = await putOnce(certPath, newCaCertificate(forgeKey), 0o600);
  }
  if (!new X509Certificate(certPem).checkPrivateKey(key)) {
    throw unusable(
      `the local CA's key ${keyPath} does not match its certificate ${certPath} (files of two different CAs); ${deleteBoth}`,
    );
  }
  return parsed(
    () => localCa(certPem, keyPem, certPath),
    `the local CA's files ${keyPath} and ${certPath} cannot sign`,
    deleteBoth,
  );
}
