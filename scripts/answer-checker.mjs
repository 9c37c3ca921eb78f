// A proxy that checks every answer against an OpenAPI document's response schemas (core's
// verify/answer-conformance.ts, as `mockpoint verify` checks a route's answers): it forwards each
// request to the daemon unchanged, holds the answer (up to MAX_BODY bytes), checks it for its
// operation and status, and sends it on. What breaks the document is kept as a violation:
// operation, status, JSON path and rule. Used by scripts/sdk-generated-tests.mjs (`--checked`).
// Listens on 127.0.0.1 only.
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { resolve } from 'node:path';

/** An answer longer than this is passed on unchecked (and counted). */
const MAX_BODY = 64 * 1024 * 1024;

/**
 * Starts the checker in front of `target` (`http://127.0.0.1:PORT`) for the document at
 * `documentPath`; requests under `prefix` (`/endpoint/twin`) are checked with it taken off.
 */
export async function startAnswerChecker({ target, documentPath, prefix }) {
  const core = resolve(import.meta.dirname, '../packages/core/dist/internal.js');
  const { loadVerify } = await import(core);
  const { readOpenApi, AnswerConformance } = await loadVerify();
  const conformance = new AnswerConformance(readOpenApi(readFileSync(documentPath, 'utf8')));
  const violations = [];
  let unchecked = 0;
  const upstream = new URL(target);

  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const chunks = [];
        let size = 0;
        answer.on('data', (chunk) => {
          size += chunk.length;
          if (size <= MAX_BODY) chunks.push(chunk);
        });
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const path = (incoming.url ?? '/').split('?')[0];
          if (size > MAX_BODY || !path.startsWith(prefix)) unchecked++;
          else {
            const headers = {};
            for (const [name, value] of Object.entries(answer.headers)) {
              headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
            }
            const findings = conformance.check({
              method: incoming.method ?? 'GET',
              path: path.slice(prefix.length) || '/',
              status: answer.statusCode ?? 0,
              headers,
              body: body.toString('utf8'),
            });
            for (const finding of findings) {
              violations.push({
                operation: finding.operation,
                status: answer.statusCode,
                path: finding.path,
                rule: `${finding.code}: expected ${finding.expected}, found ${finding.found}`,
              });
            }
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(body);
        });
      },
    );
    forwarded.on('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`answer-checker: the daemon did not answer: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    violations,
    checked: () => conformance.checked,
    unchecked: () => unchecked,
    close: () => new Promise((closed) => server.close(closed)),
  };
}
