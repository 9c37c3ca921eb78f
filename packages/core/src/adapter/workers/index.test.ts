import { describe, expect, it } from 'vitest';
import { createWorker } from './index.js';

describe('createWorker', () => {
  it('answers 500 INTERNAL naming the binding when the Durable Object binding is missing', async () => {
    const response = await createWorker({ binding: 'MOCKS' }).fetch(new Request('http://w/api/health'), {});
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INTERNAL');
    expect(body.error.message).toContain('no Durable Object binding named MOCKS');
  });
});
