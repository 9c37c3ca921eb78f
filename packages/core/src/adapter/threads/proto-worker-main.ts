/**
 * The `.proto` worker thread's module (built as `proto-worker.js`; started by
 * `protoWorker()`, see proto-worker.ts): parses sources into a binary
 * `FileDescriptorSet`, one job at a time, in the order sent.
 *
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describeProtos } from '../../grpc/compile-protos.js';
import { isMockpointError } from '../../registry/errors.js';
import type { FromProtoWorker, ToProtoWorker } from './proto-worker.js';

const port = parentPort;
if (port === null) throw new Error('mockpoint: proto-worker.js runs as a worker thread (protoWorker())');

port.on('message', ({ id, files }: ToProtoWorker) => {
  let answer: FromProtoWorker;
  try {
    answer = { id, set: toBinary(FileDescriptorSetSchema, describeProtos(files)) };
  } catch (error) {
    answer = isMockpointError(error)
      ? { id, error: { code: error.code, message: error.message, details: error.details } }
      : { id, error: { message: error instanceof Error ? error.message : String(error) } };
  }
  port.postMessage(answer);
});
