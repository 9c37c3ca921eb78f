// MCP's edge, applied once to the pipeline's final verdict (docs/design.md#one-path; docs/mcp.md): a refusal
// from any step, wherever it sits and unwrapped, reaches a JSON-RPC request to an `mcp` route as a
// JSON-RPC error for its id; a notification and another route keep the HTTP form; and a route's own
// answer (an enforced validation's 400) is the route's, not a refusal, so it stays HTTP.
import { describe, expect, it } from 'vitest';
import { errorAnswer } from '../answer/endpoint-answer.js';
import { createApp, type MockpointApp } from '../index.js';
import { BY_NONE } from '../journal/journal-entry.js';
import { PIPELINE } from './endpoint-handler.js';
import { rateLimitedRouteStep } from './pipeline/rate-limit-step.js';
import { FIRST_BYTES, type Step } from './pipeline/step.js';

const CALL = { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name: 't', arguments: {} } };
const FAKE = { id: 'fake', match: { path: '/mcp' }, answer: { mcp: { tools: [{ name: 't', result: 'fine' }] } } };
const PLAIN = { id: 'plain', match: { path: '/plain' }, answer: { statusCode: 200, data: { ok: true } } };
const REFUSAL = 'refused by the gate step of the test: send x-gate: open';

/** A step of the test's own: refuses (401) a request without `x-gate: open`. */
const gate: Step = {
  name: 'gate',
  reads: FIRST_BYTES,
  run(exchange) {
    if (exchange.view.headers['x-gate'] === 'open') return undefined;
    return { answer: errorAnswer(401, 'SIGNATURE_INVALID', REFUSAL, { cors: true }), mark: BY_NONE };
  },
};

async function app(steps: readonly Step[] | undefined, routes: unknown[]): Promise<MockpointApp> {
  const mock = createApp(steps === undefined ? {} : { steps });
  const put = await mock.request('/api/endpoints/e/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.text()).toBe(200);
  return mock;
}

async function post(mock: MockpointApp, path: string, message: unknown) {
  const answer = await mock.request(`/endpoint/e${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("MCP's edge", () => {
  it('says an unwrapped step’s refusal as a JSON-RPC error, wherever the step sits', async () => {
    // Just before the routes, where no step of the pipeline refused before.
    const at = PIPELINE.indexOf(rateLimitedRouteStep);
    const mock = await app([...PIPELINE.slice(0, at), gate, ...PIPELINE.slice(at)], [FAKE, PLAIN]);
    expect(await post(mock, '/mcp', CALL)).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 'c-1',
        error: { code: -32052, message: REFUSAL, data: { code: 'SIGNATURE_INVALID', status: 401 } },
      },
    });
    // No id to answer (a notification), or a route that is not an MCP server: the HTTP form.
    const notification = await post(mock, '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' });
    const plain = await post(mock, '/plain', CALL);
    for (const answer of [notification, plain]) {
      expect(answer).toEqual({
        status: 401,
        body: { success: false, error: { code: 'SIGNATURE_INVALID', message: REFUSAL } },
      });
    }
  });

  it('leaves a route’s own 400 (an enforced validation) in the HTTP form', async () => {
    const validate = { mode: 'enforce', body: { type: 'object', required: ['params'] } };
    const mock = await app(undefined, [{ ...FAKE, validate }]);
    const { params: _, ...bare } = CALL;
    const refused = await post(mock, '/mcp', bare);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'REQUEST_INVALID' } });
    expect((await post(mock, '/mcp', CALL)).body).toMatchObject({ id: 'c-1', result: { content: [{ text: 'fine' }] } });
  });
});
