// `mockpoint import --from proto DIR` with the built CLI: every regular .proto below the folder by
// its relative path, byte for byte; links (to a file and to a folder outside, holding a marker)
// not followed; a path the daemon cannot take left out, saying so; the name from the package;
// then --apply to a real daemon on 127.0.0.1 answers the service (Connect protocol, JSON).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const MARKER = 'OUTSIDE-THE-FOLDER-proto-5c1e';
const COMMON = 'syntax = "proto3";\npackage shop.v1;\nmessage Money { int64 cents = 1; }\n';
const ORDERS =
  'syntax = "proto3";\r\npackage shop.v1;\r\nimport "shop/v1/common.proto";\r\nservice Orders { rpc GetOrder(Money) returns (Money); }\r\n';

async function layout(): Promise<string> {
  const dir = await makeTempDir('mockpoint-proto-');
  const protos = join(dir, 'protos');
  mkdirSync(join(protos, 'shop', 'v1'), { recursive: true });
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(protos, 'shop', 'v1', 'common.proto'), COMMON);
  writeFileSync(join(protos, 'shop', 'v1', 'orders.proto'), ORDERS);
  writeFileSync(join(protos, 'shop', 'v1', 'bad name.proto'), COMMON.replace('Money', 'Other'));
  writeFileSync(join(protos, 'README.md'), 'not a proto');
  writeFileSync(join(dir, 'out', 'secret.proto'), `// ${MARKER}\nsyntax = "proto3";\n`);
  symlinkSync(join(dir, 'out', 'secret.proto'), join(protos, 'link.proto'));
  symlinkSync(join(dir, 'out'), join(protos, 'dirlink'));
  return dir;
}

describe('mockpoint import --from proto', () => {
  it('reads every .proto inside the folder exactly, names the endpoint by its package, links not followed', async () => {
    const dir = await layout();
    const run = await runCli({ cwd: dir, args: ['import', 'protos', '--json'] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(MARKER);
    expect(JSON.parse(run.stdout)).toEqual({
      kind: 'proto',
      name: 'shop-v1',
      leftOut: [
        {
          what: 'shop/v1/bad name.proto',
          why: 'a .proto path is letters, digits and _ . - / (it cannot be imported by it)',
        },
      ],
      mockFile: {
        version: 1,
        endpoints: [
          { name: 'shop-v1', grpc: { protos: { 'shop/v1/common.proto': COMMON, 'shop/v1/orders.proto': ORDERS } } },
        ],
      },
    });
    expect(run.stderr).toContain('mockpoint import: 2 .proto files as the gRPC definitions of endpoint shop-v1\n');
  });

  it('--apply puts them on a daemon, whose calls are answered; --name names it', async () => {
    const dir = await layout();
    const daemon = await startDaemon({ args: ['--memory'] });
    const run = await runCli({
      cwd: dir,
      args: ['import', 'protos', '--from', 'proto', '--name', 'shop', '--apply', '--url', daemon.url],
    });
    expect(run.code, run.stderr).toBe(0);
    const held = (await (await fetch(`${daemon.url}/api/endpoints/shop/grpc`)).json()) as { services: string[] };
    expect(held.services).toEqual(['shop.v1.Orders']);
    const call = await fetch(`${daemon.url}/shop.v1.Orders/GetOrder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"cents":"5"}',
    });
    expect(call.status).toBe(200);
  });

  it('refuses a folder with no .proto file', async () => {
    const dir = await makeTempDir('mockpoint-proto-');
    mkdirSync(join(dir, 'empty'));
    const run = await runCli({ cwd: dir, args: ['import', 'empty', '--from', 'proto', '--name', 'x'] });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('no .proto file below it');
  });
});
