// The daemon's own tests with the daemon run by Bun (`bun dist/cli.js`, serving with
// Bun.serve): the test files that start it as a process (helpers/daemon.ts reads
// MOCKPOINT_TEST_RUNTIME). Which files, and why the others are not here: docs/runtimes.md.
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../../vitest.shared.js';

export default mergeConfig(
  sharedProject,
  defineProject({
    test: {
      name: 'server-bun',
      root: import.meta.dirname,
      // Every file that starts the daemon as a process, but installed-package (it installs the packed
      // tarballs and runs Node on them), binary*.test.ts (the single executables) and the web-* files
      // (the page in Chromium, served in process).
      // BUN_EXPLORE=1: every file, to try one more.
      include: process.env.BUN_EXPLORE
        ? ['test/**/*.test.ts']
        : [
            'test/daemon.test.ts',
            'test/allowed-hosts.test.ts',
            'test/api-transfer.test.ts',
            'test/bedrock-sdk.test.ts',
            'test/cli-usage.test.ts',
            'test/collections.test.ts',
            'test/compose-matrix.test.ts',
            'test/deliveries-durability.test.ts',
            'test/exact-data.test.ts',
            'test/graphql.test.ts',
            'test/hangup.test.ts',
            'test/har.test.ts',
            'test/har-fuzz.test.ts',
            'test/header-values.test.ts',
            'test/hosts.test.ts',
            'test/hosts-fuzz.test.ts',
            'test/https.test.ts',
            'test/https-fuzz.test.ts',
            'test/journal-stream-replicas.test.ts',
            'test/mock-files.test.ts',
            'test/openapi-import.test.ts',
            'test/path-pattern-fuzz.test.ts',
            'test/record.test.ts',
            'test/replicas.test.ts',
            'test/replicas-nginx.test.ts',
            'test/reporting.test.ts',
            'test/request-path.test.ts',
            'test/routes-crash.test.ts',
            'test/send.test.ts',
            'test/serve-endpoint.test.ts',
            'test/settings.test.ts',
            'test/state.test.ts',
            'test/storage-faults.test.ts',
            'test/tail.test.ts',
            'test/template-size.test.ts',
            'test/validation-hostile.test.ts',
            'test/websocket.test.ts',
            'test/websocket-replicas.test.ts',
            'test/wss.test.ts',
            'test/graphql-ws.test.ts',
            'test/import-entry.test.ts',
            'test/import-fuzz.test.ts',
            'test/lazy-modules.test.ts',
            'test/llm-fuzz.test.ts',
            'test/llm-sdk.test.ts',
            'test/mcp.test.ts',
            'test/mcp-fake-server.test.ts',
            'test/mcp-outcome.test.ts',
            'test/grpc-stream-reset.test.ts',
            'test/mockoon-import.test.ts',
            'test/pass-through.test.ts',
            'test/postman-import.test.ts',
            'test/runtime-serving.test.ts',
          ],
      env: { MOCKPOINT_TEST_RUNTIME: 'bun' },
    },
  }),
);
