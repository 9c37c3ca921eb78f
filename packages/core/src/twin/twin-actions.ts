/**
 * What the provider's flows answer beyond a collection's reads and writes (twin-engine.ts): what
 * they keep themselves (twin-own.ts), actions on a stored object (`POST …/{id}/confirm`, Stripe's
 * canceled Subscription on `DELETE`, a list answered from the object), and every other operation,
 * answered from the document's examples.
 *
 * @module
 */
import { type Asked, jsonAnswer, Refusal, type TwinAnswer, type TwinRequest } from './twin-answer.js';
import type { TwinParams } from './twin-body.js';
import { changeStored } from './twin-constraints.js';
import { shownOf, type Twin } from './twin-context.js';
import { exampleOfOperation } from './twin-documented.js';
import { emit } from './twin-events.js';
import type { ActionOutcome, OwnRequest, TwinChange } from './twin-flows.js';
import { flowKit, settle, statesOf, written } from './twin-kit.js';
import { list } from './twin-listing.js';
import { pageOf } from './twin-lists.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { contentless, documentedText } from './twin-outside.js';
import { previousAttributes } from './twin-previous.js';
import { heldOrMissing, memberTarget, ownerOf, unseenOutside } from './twin-references.js';
import { flowState } from './twin-state.js';
import { livePicked, scopeOf, whichOf } from './twin-stored.js';
import { unheldWrite } from './twin-unheld-writes.js';
import { deleteOne } from './twin-writes.js';

/** The operation for the collections, as the provider's own flows left it (twin-engine.ts's `owned`). */
export type OwnedOperation = MatchedOperation & { body?: Record<string, unknown>; refused?: () => Promise<void> };

/** The request as the provider's own flows read it. */
export function ownRequest(params: TwinParams, request: TwinRequest): OwnRequest {
  return {
    body: params.body,
    query: params.query,
    raw: request.query,
    bytes: request.bytes ?? new TextEncoder().encode(request.body),
    header: (name) => request.header(name),
    root: request.root,
  };
}

/**
 * What the provider's flows answer of what they keep themselves (twin-own.ts), else the
 * operation for the collections, its path's parameters as they keep its items (and the body
 * they take, where the flows changed it).
 */
export async function owned(
  twin: Twin,
  matched: MatchedOperation,
  params: TwinParams,
  request: TwinRequest,
  asked: Asked,
): Promise<TwinAnswer | OwnedOperation> {
  const own = twin.parts.flows?.own;
  const changes: TwinChange[] = [];
  const sent = ownRequest(params, request);
  const answer = own === undefined ? undefined : await own(matched, sent, flowState(twin, changes));
  if (answer === undefined) return matched;
  // The events of what the flows changed, in the order they told them (none for a refusal).
  if (!('error' in answer)) for (const change of changes) await emit(twin, change, asked);
  if ('values' in answer) {
    const values = { ...matched.values, ...answer.values };
    return {
      ...matched,
      values,
      ...(answer.body === undefined ? {} : { body: answer.body }),
      ...(answer.refused === undefined ? {} : { refused: answer.refused }),
      ...(answer.shown === undefined ? {} : { shown: { ...matched.values, ...answer.shown } }),
    };
  }
  if ('error' in answer) throw new Refusal(answer.error);
  if ('list' in answer) {
    const page = pageOf(twin.parts.profile, answer.list, params.query, request.path, request.query);
    const body = answer.wrap === undefined ? page.items : answer.wrap(page.items, page.total);
    return jsonAnswer(200, body, page.link === undefined ? {} : { link: page.link });
  }
  if ('bytes' in answer) return { status: answer.status, headers: answer.headers, body: '', bytes: answer.bytes };
  if (answer.body === undefined) return { status: answer.status, headers: answer.headers ?? {}, body: '' };
  return jsonAnswer(answer.status, answer.body, answer.headers);
}

/**
 * A list, or one below a stored object that the provider's flows answer from the object itself
 * (Stripe's `GET /v1/invoices/{invoice}/lines`: the invoice's `lines`); below an object the twin
 * does not hold, the provider's 404 (with `unseen: "examples"`, the list).
 */
export async function listOrOwned(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  request: TwinRequest,
  asked: Asked,
): Promise<TwinAnswer> {
  const owner = ownerOf(twin, matched);
  const acting = twin.parts.flows?.acting !== undefined && owner !== undefined && owner !== resource;
  const acted = acting ? await act(twin, matched, owner, params, asked) : undefined;
  if (acted !== undefined) return acted;
  // A list below an object the twin does not hold (a runner group's runners): the provider's 404.
  if (owner !== undefined && owner !== resource) await heldOrMissing(twin, matched, owner);
  return list(twin, matched, resource, params, request);
}

/** A `DELETE` the provider's flows answer as an action (Stripe's canceled Subscription), else a delete. */
export async function deleteOrAct(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  asked: Asked,
): Promise<TwinAnswer> {
  const acted = twin.parts.flows?.acting === undefined ? undefined : await act(twin, matched, resource, params, asked);
  return acted ?? deleteOne(twin, matched, resource, asked);
}

/**
 * Answers an action of the provider's flows on the stored item of `owner`
 * the path names: the item changed, its effects stored, their events
 * emitted; `undefined` when no flow takes it.
 */
async function act(
  twin: Twin,
  matched: MatchedOperation,
  owner: TwinResource,
  params: TwinParams,
  asked: Asked,
): Promise<TwinAnswer | undefined> {
  const flows = twin.parts.flows;
  if (flows?.action === undefined && flows?.acting === undefined) return undefined;
  // The owner's place is its own path's (`…/issues/{issue_number}/labels/{name}`: not the `name`).
  const which = whichOf(twin, matched, owner, scopeOf(owner, matched.values));
  const stored = await livePicked(twin, owner, which);
  // Not held: a collection `within` it may hold that number (a pull request's labels or lock).
  const member = stored === undefined ? await memberTarget(twin, matched, owner) : undefined;
  if (member !== undefined) return act(twin, member.matched, member.resource, params, asked);
  const given = () => (stored === undefined ? undefined : structuredClone(stored.object));
  const into = written();
  const kit = flowKit(twin, into, asked.version, matched.values);
  let outcome: ActionOutcome | undefined = await flows.acting?.(matched, given(), params.body, kit);
  if (outcome === undefined && matched.op.action !== 'delete') {
    outcome = flows.action?.(matched, given(), params.body, kit);
  }
  if (outcome === undefined) return undefined;
  if ('object' in outcome) {
    const done = outcome;
    await changeStored(twin, owner, which, (kept) => ({ ...kept, object: done.object }));
    await settle(twin, into, false, asked);
    await emit(
      twin,
      {
        kind: 'action',
        template: owner.template,
        object: done.object,
        before: stored?.object.status,
        values: matched.values,
        ...(stored === undefined ? {} : { previous: previousAttributes(stored.object, done.object) }),
        ...statesOf(into, String(done.object.id)),
        ...(done.event === undefined ? {} : { extra: done.event }),
        ...(done.events === undefined ? {} : { events: done.events }),
      },
      asked,
    );
    await settle(twin, into, true, asked);
  }
  if (outcome.error !== undefined) throw new Refusal(outcome.error);
  const done = outcome as { object: Record<string, unknown>; answer?: unknown; status?: 204 };
  if (done.status === 204) return { status: 204, headers: {}, body: '' };
  return jsonAnswer(200, done.answer ?? shownOf(twin, owner, done.object));
}

/**
 * An operation outside the collections' reads and writes: an action of the flows on the object
 * it is below, else what the flows or the document answer of it.
 */
export async function other(
  twin: Twin,
  matched: MatchedOperation,
  params: TwinParams,
  asked: Asked,
): Promise<TwinAnswer> {
  const owner = ownerOf(twin, matched);
  const acted = owner === undefined ? undefined : await act(twin, matched, owner, params, asked);
  if (acted !== undefined) return acted;
  // An action on a member (a pull request's number below `issues/`) is not taken as one on the
  // host: refused, not answered from the example with nothing kept.
  if (owner !== undefined && matched.op.method !== 'GET') await heldOrMissing(twin, matched, owner, false);
  // At an item, or below an object the twin never keeps, of one never made: the provider's 404.
  if (owner === undefined) await unheldWrite(twin, matched);
  const example = exampleOfOperation(twin, matched);
  const own = twin.parts.flows?.outside?.(matched, example.value);
  if (own !== undefined) return jsonAnswer(example.status, own);
  const unseen = await unseenOutside(twin, matched, owner);
  if (unseen !== undefined) return unseen;
  const text = documentedText(twin.parts.model.doc, matched.op.operation);
  if (text !== undefined) return { status: text.status, headers: { 'content-type': text.type }, body: text.body };
  // A document's twin answers no body where the document declares none (a provider's flows keep theirs).
  const bare = twin.parts.flows === undefined ? contentless(twin.parts.model.doc, matched.op.operation) : undefined;
  if (bare !== undefined) return { status: bare, headers: {}, body: '' };
  return jsonAnswer(example.status, example.value);
}
