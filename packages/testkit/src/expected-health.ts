/**
 * What `GET /api/health` reports for a default app: written out by hand, not
 * taken from the settings table, so the tests that use it check the code's
 * defaults against the documented ones instead of against themselves. A new
 * limit in health is added here once.
 */
export const EXPECTED_DEFAULT_LIMITS = {
  maxBodyBytes: 5 * 1024 * 1024,
  maxDelayMs: 60_000,
  journalSize: 100,
  journalMaxBytes: 64 * 1024 * 1024,
  cacheMaxBytes: 64 * 1024 * 1024,
  maxStreamEvents: 10_000,
  maxStreamMs: 600_000,
  maxRoutes: 10_000,
  maxCollectionItems: 10_000,
  maxCollectionBytes: 16 * 1024 * 1024,
  maxSocketFrameBytes: 1024 * 1024,
  maxSocketsPerName: 1000,
  socketIdleTimeoutMs: 300_000,
  socketMessageTimeoutMs: 30_000,
  maxGraphqlSchemaBytes: 4 * 1024 * 1024,
  maxGrpcDefinitionsBytes: 4 * 1024 * 1024,
  maxGrpcMessageBytes: 4 * 1024 * 1024,
  maxGrpcStreamMessages: 10_000,
  maxGrpcStreams: 100,
  graphqlSubscriptionEvents: 3,
  graphqlSubscriptionIntervalMs: 1000,
  maxConnections: 10_000,
  maxStreams: 1000,
  maxNamespaces: 10_000,
  maxEndpointsPerNamespace: 10_000,
} as const;
