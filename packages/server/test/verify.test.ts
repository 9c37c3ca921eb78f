// `mockpoint verify` against the real built daemon: a YAML document with a $ref into a file beside it, routes that
// drifted (exit 1, the report, the JUnit file), the same routes fixed (exit 0), what it cannot tell (exit 2), and a
// mock file's routes with --config, no daemon.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

const DOCUMENT = `openapi: 3.0.3
info: { title: Pets, version: "2.0" }
paths:
  /pets/{id}:
    get:
      responses:
        '200':
          description: a pet
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Pet' }
`;

const SCHEMAS = `Pet:
  type: object
  required: [id, name]
  properties:
    id: { type: integer }
    name: { type: string }
`;

async function putRoutes(url: string, routes: unknown[]): Promise<void> {
  const response = await fetch(`${url}/api/endpoints/pets/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(response.status).toBe(200);
}

it('exits 1 with a report and a JUnit file when routes drifted, 0 when they fit, 2 when it cannot tell', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const dir = await makeTempDir('mockpoint-verify-');
  writeFileSync(join(dir, 'openapi.yaml'), DOCUMENT);
  writeFileSync(join(dir, 'schemas.yaml'), SCHEMAS);
  const env = { MOCKPOINT_URL: daemon.url };
  await putRoutes(daemon.url, [
    { id: 'pet', match: { method: 'GET', path: '/pets/:id' }, answer: { data: { id: 'seven', name: 'Rex' } } },
    { id: 'gone', match: { method: 'DELETE', path: '/pets/:id' }, answer: { statusCode: 204 } },
  ]);

  const drifted = await runCli({
    args: ['verify', '--openapi', 'openapi.yaml', '--junit', 'verify.xml'],
    env,
    cwd: dir,
  });
  expect(drifted.stderr).toBe('');
  expect(drifted.code).toBe(1);
  expect(drifted.stdout).toContain(
    'mockpoint verify: 2 routes of 1 endpoint against Pets 2.0 (OpenAPI 3.0.3): 2 findings',
  );
  expect(drifted.stdout).toContain('SCHEMA_MISMATCH at body/id');
  expect(drifted.stdout).toContain('MISSING_OPERATION at method: expected one of GET; found DELETE');
  const junit = readFileSync(join(dir, 'verify.xml'), 'utf8');
  expect(junit).toContain('<testsuite name="pets" tests="2" failures="2" errors="0">');
  expect(junit).toContain('type="SCHEMA_MISMATCH"');

  const json = await runCli({
    args: ['verify', '--openapi', 'openapi.yaml', '--json', '--names', 'pets'],
    env,
    cwd: dir,
  });
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout).findings.map((f: { code: string }) => f.code)).toEqual([
    'SCHEMA_MISMATCH',
    'MISSING_OPERATION',
  ]);

  await putRoutes(daemon.url, [
    { id: 'pet', match: { method: 'GET', path: '/pets/:id' }, answer: { data: { id: 7, name: 'Rex' } } },
  ]);
  const clean = await runCli({ args: ['verify', '--openapi', 'openapi.yaml'], env, cwd: dir });
  expect(clean.code).toBe(0);
  expect(clean.stdout).toContain('no drift');

  writeFileSync(join(dir, 'swagger.json'), '{"swagger":"2.0","paths":{}}');
  const bad = await runCli({ args: ['verify', '--openapi', 'swagger.json'], env, cwd: dir });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('Swagger 2.0');
  const missing = await runCli({ args: ['verify'], env, cwd: dir });
  expect(missing.code).toBe(2);
  await daemon.stop();
  const away = await runCli({ args: ['verify', '--openapi', 'openapi.yaml'], env, cwd: dir });
  expect(away.code).toBe(2);

  // A mock file's routes, no daemon.
  writeFileSync(
    join(dir, 'mockpoint.yaml'),
    'version: 1\nendpoints:\n  - name: pets\n    routes:\n      - id: pet\n        match: { method: GET, path: /pets/:id }\n        answer: { data: { id: 7 } }\n',
  );
  const file = await runCli({
    args: ['verify', '--openapi', 'openapi.yaml', '--config', 'mockpoint.yaml'],
    env,
    cwd: dir,
  });
  expect(file.code).toBe(1);
  expect(file.stdout).toContain('1 route of 1 endpoint against Pets 2.0');
  expect(file.stdout).toContain('SCHEMA_MISMATCH at body');
}, 60_000);

it('says an extra property under additionalProperties: false once, in words: one failure in the JUnit case', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const dir = await makeTempDir('mockpoint-verify-');
  writeFileSync(
    join(dir, 'openapi.yaml'),
    `openapi: 3.0.3
info: { title: Pets, version: "2.0" }
paths:
  /pets:
    get:
      responses:
        '200':
          description: pets
          content:
            application/json:
              schema:
                type: object
                properties:
                  items:
                    type: array
                    items: { type: object, additionalProperties: false, properties: { id: { type: integer } } }
`,
  );
  await putRoutes(daemon.url, [
    { id: 'list', match: { method: 'GET', path: '/pets' }, answer: { data: { items: [{ id: 1, nickname: 'Rex' }] } } },
  ]);
  const env = { MOCKPOINT_URL: daemon.url };
  const args = ['verify', '--openapi', 'openapi.yaml'];
  const drifted = await runCli({ args: [...args, '--junit', 'verify.xml'], env, cwd: dir });
  expect(drifted.code).toBe(1);
  expect(drifted.stdout).toContain('1 route of 1 endpoint against Pets 2.0 (OpenAPI 3.0.3): 1 finding');
  expect(drifted.stdout).not.toMatch(/boolean schema|additional properties schema/i);
  const json = await runCli({ args: [...args, '--json'], env, cwd: dir });
  const [finding, ...rest] = JSON.parse(json.stdout).findings;
  expect(rest).toEqual([]);
  expect(finding).toMatchObject({ path: 'body/items/0/nickname', found: '"Rex"' });
  expect(finding.message).toMatch(/: items\[0\]\.nickname is not allowed by the schema$/);
  const junit = readFileSync(join(dir, 'verify.xml'), 'utf8');
  expect(junit).toContain('<testsuites name="mockpoint verify: Pets 2.0" tests="1" failures="1" errors="0">');
  expect(junit.match(/<failure /g)).toHaveLength(1);
  expect(junit).toContain('nickname is not allowed by the schema');
}, 60_000);
