/**
 * Protobuf sources the gRPC tests put: `chat.v1.Chat`, one method of each call kind.
 *
 * @module
 */

/** `chat.v1.Chat`: `Get` unary, `Listen` server streaming, `Upload` client streaming, `Talk` bidirectional. */
export const CHAT_PROTO = `syntax = "proto3";
package chat.v1;
service Chat {
  rpc Get(Ask) returns (Say);
  rpc Listen(Ask) returns (stream Say);
  rpc Upload(stream Ask) returns (Say);
  rpc Talk(stream Ask) returns (stream Say);
}
message Ask { string text = 1; }
message Say { string text = 1; int32 n = 2; }
`;
