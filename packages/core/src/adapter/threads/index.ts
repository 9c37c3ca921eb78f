/**
 * @mockpoint/core/threads: what runs in worker threads (`node:worker_threads`:
 * Node, Bun, and Deno through its Node compatibility; not Cloudflare Workers).
 * `graphqlWorker()` builds GraphQL schemas and answers schema mode off the
 * event loop: give it to `createApp({ graphqlRunner })` and close it with the server;
 * `protoWorker()` parses `.proto` sources off it (`createApp({ protoCompiler })`).
 *
 * @module
 */

export { type GraphqlWorkerOptions, graphqlWorker } from './graphql-worker.js';
export { type ProtoWorkerOptions, protoWorker } from './proto-worker.js';
