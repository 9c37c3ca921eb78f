// A document twin keeps one object per item, and each operation answers it as its own response
// schema has it (twin-fit.ts), checked by the checker `pnpm sdk:openai` runs
// (verify/answer-conformance.ts): a role assignment's create answers `{ object, group, role }`, its
// read and list the role's details; a list names its items' `object` otherwise than the create;
// a create answering a page of what it made answers that page; a choice is fitted to the branch
// its `type` names; below a collection the document gives no create, a create is not refused.
import { describe, expect, it } from 'vitest';
import { checkedTwin } from '../test-support/checked-twin.js';
import { fitted } from './twin-fit.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const ok = (schema: unknown) => ({ '200': { description: 'ok', ...json(schema) } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const page = (item: unknown) => ({
  type: 'object',
  required: ['object', 'data', 'has_more', 'first_id', 'last_id'],
  properties: {
    object: { const: 'list' },
    data: { type: 'array', items: item },
    has_more: { type: 'boolean' },
    first_id: { type: ['string', 'null'] },
    last_id: { type: ['string', 'null'] },
  },
});

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Groups', version: '1' },
  paths: {
    // No create: groups are made elsewhere.
    '/groups/{group_id}': { get: { parameters: [param('group_id')], responses: ok(ref('Group')) } },
    '/groups/{group_id}/roles': {
      post: {
        parameters: [param('group_id')],
        requestBody: json({ type: 'object', properties: { role_id: { type: 'string' } } }),
        responses: ok(ref('GroupRole')),
      },
      get: { parameters: [param('group_id')], responses: ok(page(ref('RoleDetails'))) },
    },
    '/groups/{group_id}/roles/{role_id}': {
      get: { parameters: [param('group_id'), param('role_id')], responses: ok(ref('RoleDetails')) },
    },
    '/certificates': {
      post: {
        requestBody: json({ type: 'object', properties: { name: { type: 'string' } } }),
        responses: ok(ref('Certificate')),
      },
      get: { responses: ok(page({ allOf: [ref('Certificate'), { properties: { object: { const: 'org.cert' } } }] })) },
    },
    '/certificates/{certificate_id}': {
      get: { parameters: [param('certificate_id')], responses: ok(ref('Certificate')) },
    },
    '/threads/{thread_id}/items': {
      post: {
        parameters: [param('thread_id')],
        requestBody: json({
          type: 'object',
          properties: { items: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } } },
        }),
        responses: ok(page(ref('Item'))),
      },
      get: { parameters: [param('thread_id')], responses: ok(page(ref('Item'))) },
    },
    '/threads/{thread_id}/items/{item_id}': {
      get: { parameters: [param('thread_id'), param('item_id')], responses: ok(ref('Item')) },
    },
    '/evals': {
      post: {
        requestBody: json({ type: 'object', properties: { config: { type: 'object' } } }),
        responses: ok(ref('Eval')),
      },
    },
    '/evals/{eval_id}': { get: { parameters: [param('eval_id')], responses: ok(ref('Eval')) } },
  },
  components: {
    schemas: {
      Group: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string' }, name: { type: 'string' } },
      },
      Role: {
        type: 'object',
        required: ['id', 'name', 'permissions'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          permissions: { type: 'array', items: { type: 'string' } },
        },
      },
      GroupRole: {
        type: 'object',
        required: ['object', 'group', 'role'],
        properties: { object: { type: 'string', enum: ['group.role'] }, group: ref('Group'), role: ref('Role') },
      },
      RoleDetails: {
        type: 'object',
        required: ['id', 'name', 'permissions', 'resource_type'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          permissions: { type: 'array', items: { type: 'string' } },
          resource_type: { type: 'string', enum: ['api.organization'] },
        },
      },
      Certificate: {
        type: 'object',
        required: ['id', 'object', 'name'],
        properties: {
          id: { type: 'string' },
          object: { type: 'string', enum: ['cert', 'org.cert'] },
          name: { type: 'string' },
        },
      },
      Item: {
        type: 'object',
        required: ['id', 'type', 'text'],
        properties: { id: { type: 'string' }, type: { const: 'message' }, text: { type: 'string' } },
      },
      Eval: {
        type: 'object',
        required: ['id', 'config'],
        properties: {
          id: { type: 'string' },
          config: {
            anyOf: [
              {
                type: 'object',
                required: ['type', 'schema'],
                properties: { type: { const: 'logs' }, schema: { type: 'object' } },
              },
              {
                type: 'object',
                required: ['type', 'schema'],
                properties: { type: { const: 'custom' }, schema: { type: 'object' } },
              },
            ],
          },
        },
      },
    },
  },
};

/** The twin of {@link DOCUMENT} with the default `unseen`, each answer checked against the document. */
async function groupsTwin() {
  const twin = await checkedTwin(DOCUMENT, 'groups');
  const send = async (method: string, path: string, body?: unknown) => {
    const { status, text, findings } = await twin.send(method, path, body);
    return { status, body: JSON.parse(text) as Record<string, unknown>, findings };
  };
  return { send };
}

describe("a document twin answers each operation in that operation's schema", () => {
  it('a membership: created as the assignment, read and listed as the role, below a group it never made', async () => {
    const { send } = await groupsTwin();
    const made = await send('POST', '/groups/g1/roles', { role_id: 'role_1' });
    expect(made).toMatchObject({ status: 200, findings: [], body: { object: 'group.role' } });
    const id = made.body.id as string;
    const read = await send('GET', `/groups/g1/roles/${id}`);
    expect(read).toMatchObject({ status: 200, findings: [], body: { id, resource_type: 'api.organization' } });
    expect(read.body.permissions).toEqual(expect.any(Array));
    const listed = await send('GET', '/groups/g1/roles');
    expect(listed).toMatchObject({ status: 200, findings: [], body: { data: [{ id }] } });
  });

  it("a list's items name their object as the list's schema does, the read as its own", async () => {
    const { send } = await groupsTwin();
    const made = await send('POST', '/certificates', { name: 'ca' });
    expect(made).toMatchObject({ status: 200, findings: [], body: { object: 'cert', name: 'ca' } });
    const listed = await send('GET', '/certificates');
    expect(listed).toMatchObject({ findings: [], body: { data: [{ id: made.body.id, object: 'org.cert' }] } });
    const read = await send('GET', `/certificates/${made.body.id as string}`);
    expect(read).toMatchObject({ findings: [], body: { object: 'cert' } });
  });

  it('a create answering a page answers the page of what it made, read back after', async () => {
    const { send } = await groupsTwin();
    const made = await send('POST', '/threads/t1/items', { items: [{ text: 'hi' }] });
    expect(made).toMatchObject({ status: 200, findings: [], body: { object: 'list', has_more: false } });
    const [item] = made.body.data as Record<string, unknown>[];
    expect(item).toMatchObject({ id: expect.any(String), type: 'message' });
    expect(made.body.first_id).toBe(item?.id);
    const read = await send('GET', `/threads/t1/items/${item?.id as string}`);
    expect(read).toMatchObject({ status: 200, findings: [], body: { id: item?.id } });
  });

  it('a choice is fitted to the branch its constant names, what it requires made', async () => {
    const { send } = await groupsTwin();
    const made = await send('POST', '/evals', { config: { type: 'custom', item_schema: { a: 1 } } });
    expect(made).toMatchObject({ status: 200, findings: [] });
    expect(made.body.config).toMatchObject({ type: 'custom', item_schema: { a: 1 }, schema: {} });
    const read = await send('GET', `/evals/${made.body.id as string}`);
    expect(read).toMatchObject({ findings: [], body: { config: { type: 'custom' } } });
  });
});

describe('fitted', () => {
  const ctx = { doc: DOCUMENT, now: Date.UTC(2026, 0, 1), timestamps: 'unix' as const };
  const details = DOCUMENT.components.schemas.RoleDetails;

  it('takes a required member the object lacks from its member object of the same id, and changes nothing stored', () => {
    const stored = { id: 'r1', object: 'group.role', role: { id: 'r1', name: 'Admin', permissions: ['read'] } };
    const before = structuredClone(stored);
    expect(fitted(ctx, stored, details)).toEqual({
      ...before,
      name: 'Admin',
      permissions: ['read'],
      resource_type: 'api.organization',
    });
    expect(stored).toEqual(before);
  });

  it('makes a value of another type or outside its enum from the schema, and drops what it does not take', () => {
    const closed = { ...details, additionalProperties: false };
    const value = { id: 'r1', name: 7, permissions: 'read', resource_type: 'api.project', extra: true };
    expect(fitted(ctx, value, closed)).toEqual({
      id: 'r1',
      name: 'name',
      permissions: [],
      resource_type: 'api.organization',
    });
  });

  it('makes values within one budget per answer: past it, what it makes is null', () => {
    const names = Array.from({ length: 30 }, (_, n) => `k${n}`);
    const wide = (member: unknown) => ({
      type: 'object',
      required: names,
      properties: Object.fromEntries(names.map((name) => [name, member])),
    });
    // 30 members of 30 of 30 strings: some 28,000 schemas to make, past the 20,000 one answer may look at.
    const made = fitted(ctx, {}, wide(wide(wide({ type: 'string' })))) as Record<string, unknown>;
    expect(made.k0).toMatchObject({ k0: { k0: 'k0' } });
    expect(made.k29).toBeNull();
  });
});
