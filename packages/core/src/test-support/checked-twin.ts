/**
 * For tests: a document's twin in a fresh app, and a `send` that checks each answer against the
 * document's response schemas (verify/answer-conformance.ts), as `pnpm sdk:openai`'s checker does.
 */
import { expect } from 'vitest';
import { createApp } from '../index.js';
import { AnswerConformance } from '../verify/answer-conformance.js';
import { readOpenApi } from '../verify/openapi-document.js';

/** A twin of `document` under a profile named `profile`; `send` answers its status, text and findings. */
export async function checkedTwin(document: Record<string, unknown>, profile: string) {
  const app = createApp();
  const put = await app.request('/api/endpoints/n/twin', {
    method: 'PUT',
    body: JSON.stringify({ document, profile: { name: profile } }),
  });
  expect(put.status).toBe(200);
  const conformance = new AnswerConformance(readOpenApi(document));
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await app.request(`/endpoint/n${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    const headers = Object.fromEntries(answer.headers.entries());
    const findings = conformance.check({ method, path, status: answer.status, headers, body: text });
    return { status: answer.status, text, findings };
  };
  return { send };
}
