/**
 * The services the daemon answers itself beside the ones it is given, as
 * `.proto` sources compiled by the project's own compiler (compile-protos.ts):
 * the standard health service (`grpc.health.v1.Health`) and server reflection
 * (`grpc.reflection.v1` and `v1alpha`, the same messages in two packages), as
 * published in github.com/grpc/grpc-proto.
 *
 * @module
 */
import type { FileRegistry } from '@bufbuild/protobuf';
import { GRPC_DAEMON_SERVICES } from '../api/grpc-json.js';
import { compileProtos } from './compile-protos.js';

/** The full names of the services the daemon answers itself: health, reflection v1, v1alpha. */
export const DAEMON_SERVICES = GRPC_DAEMON_SERVICES;
export const HEALTH_SERVICE = 'grpc.health.v1.Health';

const HEALTH = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
`;

function reflection(version: string): string {
  return `syntax = "proto3";
package grpc.reflection.${version};
service ServerReflection {
  rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse);
}
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    ExtensionRequest file_containing_extension = 5;
    string all_extension_numbers_of_type = 6;
    string list_services = 7;
  }
}
message ExtensionRequest { string containing_type = 1; int32 extension_number = 2; }
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ExtensionNumberResponse all_extension_numbers_response = 5;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ExtensionNumberResponse { string base_type_name = 1; repeated int32 extension_number = 2; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
`;
}

let compiled: Promise<FileRegistry> | undefined;

/** The registry of the daemon's own services, compiled once per process. */
export function daemonRegistry(): Promise<FileRegistry> {
  compiled ??= compileProtos({
    'grpc/health/v1/health.proto': HEALTH,
    'grpc/reflection/v1/reflection.proto': reflection('v1'),
    'grpc/reflection/v1alpha/reflection.proto': reflection('v1alpha'),
  });
  return compiled;
}
