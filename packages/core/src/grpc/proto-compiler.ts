/**
 * Who turns `.proto` sources into a binary `FileDescriptorSet`: a
 * {@link ProtoCompiler}. protobufjs's parse is costly (quadratic in a
 * message's fields: 12,000 fields took 26 s), so the daemon gives
 * `protoWorker()` from `@mockpoint/core/threads`, which runs it in a worker
 * thread with a time bound; {@link inlineProtoCompiler} runs it on the
 * caller's thread (the library's default, and Workers').
 *
 * @module
 */

/** Compiles `.proto` sources (see the module). */
export interface ProtoCompiler {
  /** The binary `FileDescriptorSet` of `files` (their own files); rejects with `INVALID_PROTO` (or the compiler's own bounds). */
  describe(files: Record<string, string>): Promise<Uint8Array>;
  /** Stops what it runs (a worker thread); a compile in progress is refused. */
  close(): Promise<void>;
}

/** A {@link ProtoCompiler} on the caller's thread. */
export function inlineProtoCompiler(): ProtoCompiler {
  return {
    async describe(files) {
      const [{ describeProtos }, { toBinary }, { FileDescriptorSetSchema }] = await Promise.all([
        import('./compile-protos.js'),
        import('@bufbuild/protobuf'),
        import('@bufbuild/protobuf/wkt'),
      ]);
      return toBinary(FileDescriptorSetSchema, describeProtos(files));
    },
    async close() {},
  };
}
