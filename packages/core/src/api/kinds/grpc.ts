/**
 * The grpc kind: the answer to a gRPC, gRPC-Web or Connect call to a method
 * of the endpoint's protobuf definitions (routes and queued answers; see
 * docs/grpc.md#routes). A route or queued answer with it answers calls only,
 * and calls reach only such routes and queued answers.
 *
 * @module
 */

import { SETTINGS } from '../../registry/settings.js';
import { createGrpcAnswerSchema, type GrpcAnswer, grpcAnswerProblem } from '../answer-grpc.js';
import { answerKind } from '../answer-kind.js';

export const grpcKind = answerKind({
  key: 'grpc',
  noun: 'a grpc answer',
  code: 'INVALID_GRPC_ANSWER',
  schema: (parts) => createGrpcAnswerSchema(parts),
  describe:
    'The answer to a gRPC, gRPC-Web or Connect call: message (unary, client streaming), messages (server streaming) or on (bidirectional), status, metadata and trailers; beside it only delay, template, setState and fault reset; routes and queued answers. See docs/grpc.md#routes.',
  beside: {
    fields: ['delay', 'template', 'setState', 'fault'],
    says: 'the answer to a call (with delay, template, setState and fault beside it)',
  },
  checkOrder: 4,
  check(answer, { limits, template, fail }) {
    const problem = grpcAnswerProblem(answer.grpc as GrpcAnswer, {
      maxBodyBytes: limits.maxBodyBytes,
      maxDelayMs: limits.maxDelayMs ?? SETTINGS.maxDelayMs.default,
      maxStreamEvents: limits.maxStreamEvents ?? SETTINGS.maxStreamEvents.default,
      template,
      fault: answer.fault,
    });
    if (problem !== undefined) fail('INVALID_GRPC_ANSWER', `answer.grpc: ${problem}`);
  },
  forms: { wiremock: false, mockoon: false },
});
