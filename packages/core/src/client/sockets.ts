/**
 * The WebSocket methods of the client: open connections, messages sent now, graphql-ws events, closes.
 *
 * @module
 */
import type { SocketClose, SocketFrame, SocketInfo } from '../api/answer-websocket.js';
import type { GraphqlPush } from '../api/graphql-json.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function socketMethods({ json }: Transport) {
  return {
    /**
     * The WebSocket connections open for `name` on this server, oldest first
     * (see docs/websocket.md). A socket lives in the server that accepted it.
     */
    async sockets(name: string): Promise<SocketInfo[]> {
      return (await json<{ sockets: SocketInfo[] }>('GET', `/api/endpoints/${seg(name)}/sockets`)).sockets;
    },

    /**
     * Sends one message now to every open connection of `name`, or to one
     * (`connection`: its id); resolves with how many it went to.
     * @throws MockpointError `SOCKET_NOT_FOUND` (the connection is not open here), `INVALID_WEBSOCKET`.
     * @example await client.sendSocket('chat', { json: { type: 'notice', text: 'hi' } })
     */
    async sendSocket(
      name: string,
      frame: Omit<SocketFrame, 'delay'>,
      options: { connection?: string } = {},
    ): Promise<number> {
      const body = { ...options, ...frame };
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/send`, body)).count;
    },

    /**
     * Pushes an event to the active graphql-ws subscriptions of `name` (those
     * of `operationName`, or the one `subscription` id, when given; on one
     * `connection`, or all): a `next` with this result, and/or `complete`.
     * Resolves with how many subscriptions it reached. See docs/graphql.md.
     * @example await client.pushGraphql('gh', { operationName: 'OnStar', next: { data: { starred: { id: '1' } } } })
     */
    async pushGraphql(name: string, push: GraphqlPush): Promise<number> {
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/send`, push)).count;
    },

    /**
     * Closes every open connection of `name`, or one (`connection`): a close
     * frame with `code` (default 1000) and `reason`, or `drop: true` to cut the
     * connection without one. Resolves with how many it closed.
     */
    async closeSockets(
      name: string,
      close: Omit<SocketClose, 'delay'> & { connection?: string } = {},
    ): Promise<number> {
      return (await json<{ count: number }>('POST', `/api/endpoints/${seg(name)}/sockets/close`, close)).count;
    },
  };
}
