/**
 * The WebSocket schemas of the API, a part of `createSchemas` (schemas.ts):
 * what `sockets/send` and `sockets/close` take, and the open connections.
 *
 * @module
 */
import { z } from 'zod';
import type { createRouteSchemas } from './route-schema.js';

/** The socket send and close requests, a socket's info, its page and the count answered. */
export function createSocketSchemas(route: Pick<ReturnType<typeof createRouteSchemas>, 'socketFrame' | 'socketClose'>) {
  const { socketFrame, socketClose } = route;
  const socketFrameSend = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      ...socketFrame.omit({ delay: true }).shape,
    })
    .meta({ title: 'SocketFrameSend', description: 'One message to send now: exactly one of text, json and bytes.' });
  const graphqlPush = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      next: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'A GraphQL result { data?, errors? }: the payload of a graphql-ws next message, kept as its exact text.',
        ),
      complete: z
        .literal(true)
        .optional()
        .describe('End the subscriptions with a complete message (after next, if given).'),
      operationName: z.string().optional().describe('Only the subscriptions of this operation.'),
      subscription: z.string().optional().describe("Only the subscription of this id (the subscribe message's id)."),
    })
    .meta({
      title: 'GraphqlPush',
      description:
        'An event for the active graphql-ws subscriptions (docs/graphql.md): next, complete, or both; count is the subscriptions reached.',
    });
  const socketSend = z.union([socketFrameSend, graphqlPush]).meta({ title: 'SocketSend' });
  const socketCloseRequest = z
    .strictObject({
      connection: z.string().optional().describe("One connection's id; absent: every open connection of the name."),
      ...socketClose.omit({ delay: true }).shape,
    })
    .meta({ title: 'SocketCloseRequest', description: 'Close now: a close frame (code default 1000), or drop.' });
  const socketInfo = z
    .object({
      id: z.string().describe("The connection's id, as its journal entries name it."),
      route: z
        .string()
        .describe("The route whose script plays on it; 'graphql' for a graphql-ws connection answered by the schema."),
      subpath: z.string().describe('The path below /endpoint/{name} it was opened at.'),
      protocol: z.string().nullable().describe('The subprotocol chosen, or null.'),
      openedAt: z.string().describe('ISO 8601 time it opened.'),
      received: z.number().int().describe('Messages received from the client.'),
      sent: z.number().int().describe('Messages sent to it.'),
    })
    .meta({ title: 'SocketInfo' });
  const socketsPage = z
    .object({ sockets: z.array(socketInfo).describe('Open on this server, oldest first.') })
    .meta({ title: 'Sockets' });
  const socketCount = z
    .object({ count: z.number().int().describe('How many connections it reached.') })
    .meta({ title: 'SocketCount' });
  return { socketSend, socketCloseRequest, socketsPage, socketCount };
}
