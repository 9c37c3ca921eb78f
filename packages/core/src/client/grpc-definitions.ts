/**
 * The gRPC methods of the client: the protobuf definitions whose services a name answers.
 *
 * @module
 */
import type { GrpcDefinitions, GrpcDefinitionsInput } from '../api/grpc-json.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function grpcMethods({ call, json }: Transport) {
  const definitionsOf = (name: string): Promise<GrpcDefinitions> =>
    json<GrpcDefinitions>('GET', `/api/endpoints/${seg(name)}/grpc`);
  const clearDefinitions = async (name: string): Promise<void> => {
    await call('DELETE', `/api/endpoints/${seg(name)}/grpc`);
  };
  return {
    /**
     * Puts the protobuf definitions whose services `name` answers at
     * `/{package.Service}/{Method}` (docs/grpc.md): `.proto` sources by import
     * path, or a binary descriptor set in base64. Kept exactly.
     * @throws MockpointError `INVALID_PROTO` (the message names file, line and column), `SERVICE_TAKEN`, `GRPC_DEFINITIONS_TOO_LARGE`.
     * @example await client.setGrpc('shop', { protos: { 'shop/v1/orders.proto': await readFile('orders.proto', 'utf8') } })
     */
    async setGrpc(name: string, definitions: GrpcDefinitionsInput): Promise<GrpcDefinitions> {
      return json<GrpcDefinitions>('PUT', `/api/endpoints/${seg(name)}/grpc`, definitions);
    },

    /** The protobuf definitions of `name`, exactly as put, and the services they declare; throws `NOT_FOUND` when it has none. */
    getGrpc: definitionsOf,

    /** Removes the protobuf definitions of `name` (nothing happens when it had none). */
    clearGrpc: clearDefinitions,

    /** @deprecated Use {@link getGrpc}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    grpc: definitionsOf,

    /** @deprecated Use {@link clearGrpc}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    removeGrpc: clearDefinitions,
  };
}
