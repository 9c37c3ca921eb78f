/**
 * @mockpoint/core/tls: the local certificate authority behind HTTPS (Node only),
 * apart from `@mockpoint/core/node` so that serving plain HTTP never loads the
 * X.509 code.
 *
 * @module
 */

export { CA_CERT_FILE, CA_KEY_FILE, createCa, type LocalCa, loadOrCreateCa, localCa } from './local-ca.js';
export {
  MAX_DEEPER_PER_PATTERN,
  MAX_SIGNED_PER_SECOND,
  type SniCertificatesOptions,
  sniCertificates,
} from './sni-certificates.js';
