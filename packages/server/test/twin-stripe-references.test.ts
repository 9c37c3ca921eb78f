// A body parameter naming another object of the Stripe twin (#84): on a fresh twin (`unseen:
// "missing"`) a made-up id is refused as Stripe refuses it — `400` `resource_missing`, `No such
// customer: 'cus_nope'`, `param` the field — and nothing is kept; with `unseen: "examples"` the
// document's example answers. The cases are generated from the document: every create of a
// collection with a parameter whose namesake in the answer Stripe may expand (`x-expansionResources`).
// Against the built daemon on memory and LevelDB; every process listens on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

type Schema = Record<string, unknown>;

const DOC = JSON.parse(
  gunzipSync(readFileSync(new URL('../../twins/stripe/document.json.gz', import.meta.url))).toString('utf8'),
) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

function resolved(schema: unknown): Schema {
  let current = schema as Schema | undefined;
  while (current !== undefined && typeof current.$ref === 'string') {
    current = DOC.components.schemas[(current.$ref as string).split('/').at(-1) as string];
  }
  return current ?? {};
}

/** A value for a required parameter the case does not test, or `undefined`: the case is left out. */
function filler(name: string, schema: Schema): string | undefined {
  if (name === 'currency') return 'usd';
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'integer') return '1000';
  if (name === 'name' || name === 'display_name') return 'Referenced';
  return undefined;
}

interface Case {
  path: string;
  param: string;
  body: Record<string, string>;
}

/** The response schema of an operation's `200`. */
function answerOf(operation: Schema | undefined): Schema {
  const ok = (operation?.responses as Schema | undefined)?.['200'] as Schema | undefined;
  return resolved(((ok?.content as Schema | undefined)?.['application/json'] as Schema | undefined)?.schema);
}

/** Whether the document has `path/{id}`, a collection's item. */
function isCollection(path: string): boolean {
  return Object.keys(DOC.paths).some(
    (other) => other.startsWith(`${path}/{`) && !other.slice(path.length + 2).includes('/'),
  );
}

/** The objects (`customer`) whose collection (`/v1/customers`) is at the top of the paths. */
const COLLECTED = new Set(
  Object.entries(DOC.paths)
    .filter(([path]) => !path.includes('{') && isCollection(path))
    .flatMap(([path]) => {
      const item = Object.entries(DOC.paths).find(
        ([other]) => other.startsWith(`${path}/{`) && !other.slice(path.length + 2).includes('/'),
      );
      const answer = answerOf(item?.[1].get);
      // A customer's read answers a customer or a deleted one.
      return [answer, ...((answer.anyOf ?? []) as Schema[]).map(resolved)].flatMap(
        (one) => ((one.properties as Record<string, Schema> | undefined)?.object?.enum ?? []) as string[],
      );
    }),
);

/** Every create of a collection (a `POST P` with a `GET P/{id}`) and each parameter it may name another object by. */
function cases(): Case[] {
  const found: Case[] = [];
  for (const [path, operations] of Object.entries(DOC.paths)) {
    const post = operations.post;
    if (post === undefined || path.includes('{')) continue;
    if (!isCollection(path)) continue;
    const content = (post.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
    const body = resolved(content?.['application/x-www-form-urlencoded']?.schema);
    const sent = (body.properties ?? {}) as Record<string, Schema>;
    const shown = (answerOf(post).properties ?? {}) as Record<string, Schema>;
    for (const param of Object.keys(sent)) {
      const expandable = shown[param]?.['x-expansionResources'] as Schema | undefined;
      const refs = ((expandable?.oneOf ?? []) as Schema[]).map(resolved);
      const objects = refs.flatMap(
        (ref) => ((ref.properties as Record<string, Schema>)?.object?.enum ?? []) as string[],
      );
      // An id is text (a charge's old integer `application_fee` names none), of an object the twin keeps.
      const text = resolved(sent[param]);
      const texts =
        text.type === 'string' || ((text.anyOf ?? []) as Schema[]).some((one) => resolved(one).type === 'string');
      if (!texts || !objects.some((object) => COLLECTED.has(object))) continue;
      const others = ((body.required ?? []) as string[]).filter((name) => name !== param);
      const filled: Record<string, string> = {};
      for (const name of others) {
        const value = filler(name, resolved(sent[name]));
        if (value !== undefined) filled[name] = value;
      }
      if (Object.keys(filled).length < others.length) continue;
      found.push({ path, param, body: { ...filled, [param]: `${param}_nope_84` } });
    }
  }
  return found;
}

const CASES = cases();
const AUTH = { authorization: 'Bearer sk_test_references' };

async function post(root: string, path: string, form: Record<string, string>) {
  const response = await fetch(`${root}${path}`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & { error?: Record<string, unknown> },
  };
}

describe.each(['memory', 'level'] as const)('the Stripe twin refuses an id it does not hold (%s)', (store) => {
  const twin = sharedTwinDaemon('stripe', async () => store, 3);

  it('finds the cases in the document, the issue’s among them', () => {
    const named = CASES.map((one) => `${one.path} ${one.param}`);
    for (const one of [
      '/v1/refunds payment_intent',
      '/v1/refunds charge',
      '/v1/invoiceitems customer',
      '/v1/subscriptions customer',
      '/v1/payment_intents customer',
    ]) {
      expect(named).toContain(one);
    }
  });

  it('refuses each made-up id with 400 resource_missing naming the parameter, nothing kept', {
    timeout: 120_000,
  }, async () => {
    const { root } = await twin();
    const answered: string[] = [];
    for (const one of CASES) {
      const answer = await post(root, one.path, one.body);
      const seen = `${one.path} ${one.param}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      const error = answer.body.error;
      if (answer.status !== 400 || error?.code !== 'resource_missing') {
        answered.push(seen);
        continue;
      }
      expect(error.param, seen).toBe(one.param);
      expect(error.type, seen).toBe('invalid_request_error');
      expect(error.message, seen).toMatch(new RegExp(`^No such [a-z_. ]+: '${one.param}_nope_84'$`));
    }
    expect(answered).toEqual([]);
    for (const path of new Set(CASES.map((one) => one.path))) {
      const listed = await fetch(`${root}${path}`, { headers: AUTH });
      const body = (await listed.json()) as { data?: unknown[] };
      if (listed.status === 200) expect(body.data, path).toEqual([]);
    }
  });

  it('answers from the examples with unseen "examples", and takes ids it holds and test ids', async () => {
    const examples = await twin({ unseen: 'examples' });
    const refund = await post(examples.root, '/v1/refunds', { payment_intent: 'pi_nope' });
    expect(refund.status).toBe(200);
    const { root } = await twin();
    const customer = await post(root, '/v1/customers', { email: 'held@example.com' });
    expect(customer.status).toBe(200);
    const id = String(customer.body.id);
    const item = await post(root, '/v1/invoiceitems', { customer: id, amount: '500', currency: 'usd' });
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    const intent = await post(root, '/v1/payment_intents', {
      amount: '500',
      currency: 'usd',
      customer: id,
      payment_method: 'pm_card_visa',
    });
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    const missing = await post(root, '/v1/payment_intents', { amount: '500', currency: 'usd', customer: 'cus_nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'resource_missing',
      message: "No such customer: 'cus_nope'",
      param: 'customer',
    });
  });
});
