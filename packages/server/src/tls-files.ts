/**
 * `--cert`/`--key`: the HTTPS certificate and key given as files, checked at
 * start-up so that a file that cannot be read, is not PEM, or a key that is not
 * the certificate's stops start-up with one line naming the flag and the file
 * (`TLS_CERT_UNUSABLE`), instead of an OpenSSL message from the listener.
 *
 * @module
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SETTINGS } from '@mockpoint/core/defaults';
import { StartError } from './start-error.js';

const CERT = `--cert (${SETTINGS.tlsCert.env})`;
const KEY = `--key (${SETTINGS.tlsKey.env})`;

/** Node's reason, on one line, without its closing period. */
function reason(error: unknown): string {
  return String((error as Error).message)
    .replace(/\s+/g, ' ')
    .replace(/\.$/, '');
}

function unusable(message: string, cause?: unknown): StartError {
  return new StartError('TLS_CERT_UNUSABLE', message, cause);
}

async function read(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw unusable(`${flag} ${path}: cannot read it (${reason(error)}); give a file this user can read`, error);
  }
}

/** The certificate chain and key of `--cert`/`--key`, read and checked against each other. */
export async function readTlsFiles(certPath: string, keyPath: string): Promise<{ cert: string; key: string }> {
  const [cert, key] = await Promise.all([read(CERT, certPath), read(KEY, keyPath)]);
  let leaf: X509Certificate;
  try {
    // The first certificate of a chain is the server's own.
    leaf = new X509Certificate(cert);
  } catch (error) {
    throw unusable(
      `${CERT} ${certPath} is not a PEM certificate (${reason(error)}); give the certificate chain in PEM`,
      error,
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    throw unusable(
      `${KEY} ${keyPath} is not an unencrypted PEM private key (${reason(error)}); give the certificate's key in PEM, without a passphrase`,
      error,
    );
  }
  if (!leaf.checkPrivateKey(privateKey)) {
    throw unusable(
      `${KEY} ${keyPath} is not the key of ${CERT} ${certPath}; give the key the certificate was made for`,
    );
  }
  return { cert, key };
}
