// The baseline of bench/grpc.mjs: a bare @grpc/grpc-js server answering the unary
// method /echo.v1.Echo/Say as a mock would with a fixed answer: the request
// decoded and the reply (BENCH_REPLY, base64 of a SayReply: the message mockpoint
// answers the bench's request with) encoded with Buf's runtime, as mockpoint does;
// and the server-streaming /echo.v1.Echo/Listen sending that reply BENCH_STREAM_MESSAGES
// times, each encoded on its own, then OK. Prints its URL when listening.
import { createRequire } from 'node:module';
import { echoFile } from './grpc-echo.mjs';

// The test package's grpc-js and the core's Buf runtime, by path (the root has neither).
const tests = createRequire(new URL('../packages/server/test/package.json', import.meta.url));
const grpc = tests(tests.resolve('@grpc/grpc-js'));
const {
  fromBinary,
  toBinary,
  messages: { SayRequest, SayReply },
} = await echoFile();
const reply = fromBinary(SayReply, Buffer.from(process.env.BENCH_REPLY ?? '', 'base64'));
const STREAM_MESSAGES = Number(process.env.BENCH_STREAM_MESSAGES ?? 100);

const asIs = (bytes) => bytes;
const server = new grpc.Server();
server.addService(
  {
    Say: {
      path: '/echo.v1.Echo/Say',
      requestStream: false,
      responseStream: false,
      requestSerialize: asIs,
      requestDeserialize: asIs,
      responseSerialize: asIs,
      responseDeserialize: asIs,
    },
    Listen: {
      path: '/echo.v1.Echo/Listen',
      requestStream: false,
      responseStream: true,
      requestSerialize: asIs,
      requestDeserialize: asIs,
      responseSerialize: asIs,
      responseDeserialize: asIs,
    },
  },
  {
    Say(call, callback) {
      fromBinary(SayRequest, call.request);
      callback(null, Buffer.from(toBinary(SayReply, reply)));
    },
    Listen(call) {
      fromBinary(SayRequest, call.request);
      for (let i = 0; i < STREAM_MESSAGES; i++) call.write(Buffer.from(toBinary(SayReply, reply)));
      call.end();
    },
  },
);
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(`bare grpc-js listening on http://127.0.0.1:${port}`);
});
