// The template context is the same for every kind, and a kind that reads more of its request
// builds its own from it: the llm answer adds the subpath (Gemini names its model and stream
// there); no other kind's context carries it, and a drawn latency keeps the kind's context.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { RenderBudget, type TemplateContext } from '../template.js';
import { compileAnswer } from './route-answer.js';

const COMMON: TemplateContext = {
  params: {},
  query: {},
  headers: {},
  json: {},
  seq: 1,
  budget: new RenderBudget(1024),
};

describe('the template context, built per kind', () => {
  it('the llm kind adds the subpath to the common context; a data answer adds nothing', () => {
    const llm = compileAnswer({ llm: { provider: 'gemini', api: 'generateContent', text: 'hi' } });
    expect(llm.contextOf?.(COMMON, { subpath: '/v1beta/models/m:generateContent' })).toMatchObject({
      path: '/v1beta/models/m:generateContent',
    });
    expect(compileAnswer({ data: { a: 1 }, template: true }).contextOf).toBeUndefined();
    const delayed = compileAnswer({
      llm: { provider: 'gemini', api: 'generateContent', text: 'hi' },
      latency: { distribution: 'uniform', min: 0, max: 1 },
    });
    expect(delayed.contextOf?.(COMMON, { subpath: '/x' })).toMatchObject({ path: '/x' });
  });

  it('a Gemini route reads its model and stream from the path it was sent to, through the app', async () => {
    const app = createApp();
    const put = await app.request('/api/endpoints/gem/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          { match: { method: 'POST' }, answer: { llm: { provider: 'gemini', api: 'generateContent', text: 'hi' } } },
        ],
      }),
    });
    expect(put.status).toBe(200);
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] });
    const one = await app.request('/endpoint/gem/v1beta/models/gemini-9-flash:generateContent', {
      method: 'POST',
      body,
    });
    expect(((await one.json()) as { modelVersion: string }).modelVersion).toBe('gemini-9-flash');
    const streamed = await app.request('/endpoint/gem/v1beta/models/gemini-9-flash:streamGenerateContent?alt=sse', {
      method: 'POST',
      body,
    });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });
});
