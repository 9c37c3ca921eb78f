/**
 * OpenAPI 3.0/3.1 and Swagger 2.0 (see openapi/openapi-routes.ts): a route per
 * operation. The importer tried last: anything no other format claims.
 *
 * @module
 */
import { MockpointError } from '@mockpoint/core/internal';
import { openApiRoutes } from '../../openapi/openapi-routes.js';
import { UsageError } from '../command-args.js';
import type { Importer } from './importer.js';

export const openapi: Importer = {
  kind: 'openapi',
  help: `An OpenAPI 3.0/3.1 or Swagger 2.0 document (the default) becomes one endpoint <name> with a route
per operation (GET /pets/{petId} answers at /endpoint/<name>/pets/:petId), answering the first
success response's example, or a value sampled from its schema when it has none. The same document
always gives the same file. A request header Prefer: code=404, Prefer: example=<name> or
Prefer: code=404, example=<name> picks another documented response (each is a route of its own).
With --validate, each route also checks requests against the operation's schemas (JSON body, query,
path and header parameters): report answers as usual and lists the errors in the journal entry;
enforce answers 400 REQUEST_INVALID with them.`,
  options: `
--validate <mode> | openapi: report or enforce: check requests against the document (default: off)
`,
  detect: (source) => !source.dir,
  async convert(source, { name, values }) {
    const validate = values.get('--validate');
    if (validate !== undefined && validate !== 'off' && validate !== 'report' && validate !== 'enforce') {
      throw new UsageError(`--validate is off, report or enforce, not "${validate}"`);
    }
    if (source.dir) throw new UsageError(`${source.path} is a folder; an OpenAPI document is one file`);
    let imported: Awaited<ReturnType<typeof openApiRoutes>>;
    try {
      // off: the file as without the flag (no validate field).
      imported = await openApiRoutes(source.path, validate === undefined || validate === 'off' ? {} : { validate });
    } catch (error) {
      throw new MockpointError(
        'OPENAPI_UNREADABLE',
        `${source.path}: not a readable OpenAPI document: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const { routes, skipped } = imported;
    const leftOut = skipped.map((operation) => ({
      what: `${operation.method} ${operation.path}${operation.operationId === undefined ? '' : ` (${operation.operationId})`}`,
      why: operation.reason,
    }));
    return {
      mockFile: `${JSON.stringify({ version: 1, endpoints: [{ name, routes }] }, null, 2)}\n`,
      leftOut,
      summary: `${skipped.length} operation(s) skipped, ${routes.length} route(s) written`,
    };
  },
};
