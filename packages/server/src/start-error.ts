/**
 * `StartError`: a start-up failure with a stable code.
 *
 * @module
 */
import { MockpointError } from '@mockpoint/core/internal';

/** A start-up failure with a stable code (the CLI prints its message as one line). */
export class StartError extends MockpointError {
  override readonly name = 'StartError';
  declare readonly code:
    | 'PORT_IN_USE'
    | 'LISTEN_FAILED'
    | 'DATA_DIR_UNUSABLE'
    | 'LEVELDB_UNAVAILABLE'
    | 'REDIS_UNREACHABLE'
    | 'REDIS_CLIENT_MISSING'
    | 'LOCAL_CA_UNUSABLE'
    | 'TLS_CERT_UNUSABLE';
  constructor(code: StartError['code'], message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}
