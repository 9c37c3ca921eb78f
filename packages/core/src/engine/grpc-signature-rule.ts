/**
 * The one combination of a signature check and gRPC that cannot mean
 * anything, refused when either is saved (`SETTING_NOT_FOR_KIND`): an enforced
 * check signs the request body, and a client-streaming or bidirectional call
 * has no body to sign before it is answered (docs/grpc.md).
 *
 * @module
 */
import type { FileRegistry } from '@bufbuild/protobuf';
import { MockpointError } from '../registry/errors.js';
import type { SignatureSettings } from '../signing/signature-settings.js';
import type { EndpointService } from './endpoint-service.js';
import type { GrpcCallLimits } from './grpc-catalog.js';

function refusal(name: string, method: string, saving: 'signature' | 'definitions'): MockpointError {
  const what =
    saving === 'signature'
      ? `an enforced signature check cannot be saved on "${name}": its gRPC definitions`
      : `these gRPC definitions cannot be saved on "${name}": it enforces a signature check and the definitions`;
  return new MockpointError(
    'SETTING_NOT_FOR_KIND',
    `${what} have the streaming method ${method} (client-streaming or bidirectional), whose request has no body to sign before it is answered; move the streaming methods to another name, or set enforce: false`,
    { details: { setting: 'signature', kind: 'grpc-streaming-request', method } },
  );
}

/** Refuses an enforced check on `name` when its definitions have a method taking a stream of requests. */
export async function refuseSignedStreams(
  endpoints: EndpointService,
  name: string,
  settings: Pick<SignatureSettings, 'enforce'> | undefined,
  limits: GrpcCallLimits,
): Promise<void> {
  if (settings?.enforce !== true) return;
  const server = await endpoints.grpc.server(name, limits);
  const method = server?.takingStream[0];
  if (method !== undefined) throw refusal(name, method, 'signature');
}

/** Refuses definitions whose methods (`takingStream`) take streams of requests, on a name that enforces a check. */
export async function refuseStreamsSigned(
  endpoints: EndpointService,
  name: string,
  takingStream: readonly string[],
): Promise<void> {
  const method = takingStream[0];
  if (method === undefined) return;
  const settings = await endpoints.setting('signature', name);
  if (settings?.enforce === true) throw refusal(name, method, 'definitions');
}

/** The methods of `registry` that take a stream of requests, as `/{service}/{method}`. */
export function methodsTakingStream(registry: FileRegistry): string[] {
  const out: string[] = [];
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        if (method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming') {
          out.push(`/${service.typeName}/${method.name}`);
        }
      }
    }
  }
  return out;
}
