/**
 * The proxy kind's verdict: the request relayed to the upstream, journaled by
 * the relay once the upstream has answered.
 *
 * @module
 */

import type { RouteHit } from '../../answer/routes/route-table.js';
import type { ProxyAnswer } from '../../api/proxy-answer.js';
import type { Exchange } from './exchange.js';
import { proxyRouteAnswer } from './proxy-route.js';
import type { Verdict } from './step.js';

/** A proxy route: relayed, and journaled by the relay once the upstream has answered. */
export function proxyVerdict(exchange: Exchange, hit: RouteHit, proxy: ProxyAnswer): Promise<Verdict> {
  const { parts, name, request } = exchange;
  const answer = proxyRouteAnswer({
    name,
    request,
    wholeBody: exchange.wholeBody,
    validation: exchange.validation,
    subpath: exchange.view.subpath,
    gone: exchange.gone,
    routeId: hit.route.id,
    params: hit.params,
    proxy,
    settings: parts.proxy,
    endpoints: parts.endpoints,
    journal: parts.journal,
    onUnexpectedError: (error) => parts.report(error, { method: request.method, url: request.target }),
  });
  return answer.then((relay): Verdict => ({ answer: relay }));
}
