// GrpcCatalog's servers (built asynchronously, their `.proto` sources parsed in a worker on the
// daemon) are forgotten through the compiled settings' one forget, as a signature check or a chaos
// plan is: a change to a name (here, or a shared store's from another process) drops both at once.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';

const ECHO =
  'syntax = "proto3";\npackage echo.v1;\nservice Echo { rpc Say(Say) returns (Say); }\nmessage Say { string text = 1; }\n';
const LIMITS = { maxGrpcMessageBytes: 1 << 20, maxGrpcStreamMessages: 100, maxBodyBytes: 1 << 20 };

describe('the gRPC catalog is forgotten with the compiled settings', () => {
  it('kept until the compiled settings forget the name (its grpc kind, every kind, or all)', async () => {
    const app = createApp();
    const put = await app.request('/api/endpoints/echo/grpc', {
      method: 'PUT',
      body: JSON.stringify({ protos: { 'echo.proto': ECHO } }),
    });
    expect(put.status).toBe(201);
    const { endpoints } = app.mockpoint;
    const { grpc, compiled } = endpoints;
    const built = grpc.server('echo', LIMITS);
    expect(await built).not.toBeNull();
    expect(grpc.server('echo', LIMITS)).toBe(built);
    // Another kind's change keeps it.
    compiled.forget('echo', 'chaos');
    expect(grpc.server('echo', LIMITS)).toBe(built);
    compiled.forget('echo', 'grpc');
    const again = grpc.server('echo', LIMITS);
    expect(again).not.toBe(built);
    expect(await again).not.toBeNull();
    compiled.forget('echo');
    const third = grpc.server('echo', LIMITS);
    expect(third).not.toBe(again);
    const owners = grpc.owners();
    expect([...(await owners).entries()]).toEqual([['echo.v1.Echo', 'echo']]);
    compiled.forgetAll();
    expect(grpc.server('echo', LIMITS)).not.toBe(third);
    expect(grpc.owners()).not.toBe(owners);
  });
});
