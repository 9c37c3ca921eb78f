/**
 * A proxy route answering at `/endpoint/{name}`: the request relayed to the
 * upstream, journaled with the upstream's status and headers, and with
 * `record`, the complete answer kept as a route in front of the proxy route so
 * that the same request is answered from it from then on (durably, in the
 * name's store, like any route).
 *
 * @module
 */

import type { ClientGone, EndpointAnswer } from '../../answer/endpoint-answer.js';
import { type CompleteAnswer, relay } from '../../answer/proxy/proxy-relay.js';
import { ProxySettings } from '../../answer/proxy/proxy-settings.js';
import { recordedRoute, unrecordable } from '../../answer/proxy/recording.js';
import type { ProxyAnswer } from '../../api/proxy-answer.js';
import { checkRoutes } from '../../api/route.js';
import type { ValidationMark } from '../../api/route-validation.js';
import { answered } from '../../journal/answer-record.js';
import type { Journal } from '../../journal/journal.js';
import type { AnswerMark, RecordedRequest } from '../../journal/journal-entry.js';
import { isMockpointError } from '../../registry/errors.js';
import type { EndpointService } from '../endpoint-service.js';

/** Everything a proxy route's answer needs. */
export interface ProxyRouteRequest {
  name: string;
  request: RecordedRequest;
  /** The whole body when it is longer than `request.body` (the journal's first bytes) and the adapter kept it. */
  wholeBody: Uint8Array | undefined;
  /** The route's request validation outcome (`report` mode, or no errors), for the journal. */
  validation?: ValidationMark | undefined;
  /** The request's subpath, as received. */
  subpath: string;
  /** A signal of the client leaving: the upstream request is aborted then. */
  gone?: ClientGone | undefined;
  /** The proxy route's id (recordings go in front of it). */
  routeId: string;
  params: Record<string, string>;
  proxy: ProxyAnswer;
  /** @default proxying off */
  settings: ProxySettings | undefined;
  endpoints: EndpointService;
  journal: Journal;
  onUnexpectedError: (error: unknown) => void;
}

const OFF = new ProxySettings({ maxRecordBytes: 0, maxRoutes: 0 });

/** Keeps a complete answer as a route in front of the proxy route (once per distinct request). */
async function keep(at: ProxyRouteRequest, settings: ProxySettings, complete: CompleteAnswer): Promise<void> {
  // The whole body, as it was sent upstream (the journal keeps only its first bytes).
  const body = at.wholeBody ?? at.request.body;
  if (unrecordable(complete.status) !== undefined) return;
  try {
    const route = await recordedRoute(at.request, body, at.subpath, at.proxy, complete);
    // Checked like any route a client sends (header rules, body size).
    const [checked] = checkRoutes([route], { maxBodyBytes: settings.maxRecordBytes });
    if (checked === undefined) return;
    await at.endpoints.updateRoutes(at.name, (now) => {
      if (now.some((existing) => existing.id === checked.id) || now.length >= settings.maxRoutes) return now;
      const index = now.findIndex((existing) => existing.id === at.routeId);
      return index === -1 ? now : [...now.slice(0, index), checked, ...now.slice(index)];
    });
  } catch (error) {
    // A coded refusal (an upstream header a route may not carry): the answer was passed on, not recorded.
    if (!isMockpointError(error)) at.onUnexpectedError(error);
  }
}

/** Relays the request and journals it; with `record`, keeps the complete answer as a route. */
export async function proxyRouteAnswer(at: ProxyRouteRequest): Promise<EndpointAnswer> {
  const settings = at.settings ?? OFF;
  const relayed = await relay(at.request, at.proxy, {
    wholeBody: at.wholeBody,
    upstream: settings.upstream,
    allowHosts: settings.allowHosts,
    subpath: at.subpath,
    gone: at.gone,
    maxRecordBytes: settings.maxRecordBytes,
    onComplete: at.proxy.record === true ? (complete) => void keep(at, settings, complete) : undefined,
  });
  const mark: AnswerMark = { answeredBy: { route: at.routeId }, params: at.params, upstream: relayed.upstream };
  if (at.validation !== undefined) mark.validation = at.validation;
  answered(at.request, relayed.answer);
  at.journal.record(at.name, at.request, relayed.status, mark);
  return relayed.answer;
}
