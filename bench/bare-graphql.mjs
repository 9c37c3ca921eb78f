// The baseline of bench/graphql.mjs: a bare node:http server doing what a
// GraphQL server does with one schema, with the same libraries as mockpoint's
// schema mode: POST JSON { query, variables } read, the document parsed (no
// cache), validated and executed against the schema mocked by @graphql-tools/mock
// (its mock store emptied before each operation, as mockpoint does for
// determinism), the result sent as JSON. Prints its URL when listening.
// BENCH_SDL: the schema.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

// The core's own copies (the root has none), by path: the same graphql instance for both.
const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
const load = (name) => require(require.resolve(name));
const { parse, validate, execute, buildSchema } = load('graphql');
const { addMocksToSchema, createMockStore } = load('@graphql-tools/mock');

const schema = buildSchema(process.env.BENCH_SDL ?? 'type Query { a: Int }');
// The bench schema's two custom scalars; the built-in ones use the library's defaults.
const mocks = { DateTime: () => '2022-05-17T08:21:44Z', URI: () => 'https://example.com/a/1' };
const store = createMockStore({ schema, mocks });
const mocked = addMocksToSchema({ schema, store });
const headers = { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' };

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const { query, variables, operationName } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const document = parse(query);
    const errors = validate(schema, document);
    let result;
    if (errors.length > 0) result = { errors };
    else {
      store.reset();
      result = execute({ schema: mocked, document, variableValues: variables, operationName });
    }
    const text = JSON.stringify(result);
    res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`bare graphql listening on http://127.0.0.1:${server.address().port}`));
