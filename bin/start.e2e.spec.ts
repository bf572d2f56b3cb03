// make run's service from the bundle of bin/run.ts (what bin/start.mjs imports when the build is
// current): a fresh build's main module starts the whole embedded service without tsx (its files
// found from the bundle: migrations, schemas, the OpenAPI document, the simulator's world), serves
// the catalog the pollers read, and stops with exit 0 on SIGINT. Importing it alone starts nothing.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkers } from './build-workers.ts';
import { compiledEntry } from '../pipelines/runtime/worker-entry.mjs';

const REPO = fileURLToPath(new URL('../', import.meta.url));

describe('the service from its bundle (bin/start.mjs)', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  it('runs from a fresh build: listens, serves the catalog, stops with exit 0', async () => {
    // Inside the repository: a bundle finds its packages in node_modules from where it lies.
    mkdirSync(path.join(REPO, '.build'), { recursive: true });
    const buildDir = mkdtempSync(path.join(REPO, '.build', 'test-main-'));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pm-start-'));
    made.push(buildDir, dataDir);
    await buildWorkers(buildDir);
    const chosen = compiledEntry(new URL('./run.ts', import.meta.url).href, buildDir);
    expect(chosen.url && fileURLToPath(chosen.url)).toBe(path.join(buildDir, 'run.mjs'));

    // Files, not node -e: the service forks children with the process's own execArgv.
    const script = (name: string, body: string) => {
      const file = path.join(buildDir, name);
      writeFileSync(file, `const m = await import(${JSON.stringify(chosen.url)});\n${body}\n`);
      return file;
    };
    // The bundle imported alone (as by a test or a tool) does not start the service.
    const imported = spawn(process.execPath, [script('import-only.mjs', 'console.log(typeof m.main);')], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let importedOut = '';
    imported.stdout.setEncoding('utf8').on('data', (d: string) => (importedOut += d));
    expect(await new Promise((resolve) => imported.on('exit', resolve))).toBe(0);
    expect(importedOut.trim()).toBe('function');

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ['KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL', 'SCHEMA_REGISTRY_URL', 'VENUE_BASE_URL', 'ROLES', 'NODE_OPTIONS', 'TOPIC_PREFIX', 'SIM_SCENARIO']) delete env[k];
    const child = spawn(process.execPath, [script('start.mjs', 'await m.main();')], {
      cwd: REPO,
      env: { ...env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let out = '';
      const started = await new Promise<{ address: string; key: string }>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const address = /^API listening on (\S+)/m.exec(out)?.[1];
          const key = /^demo key \(.*\): (\S+)/m.exec(out)?.[1];
          if (address && key) resolve({ address, key });
        });
        void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${out.slice(-2000)}`)));
      });
      expect((await fetch(`${started.address}/v1/plans`)).status).toBe(200);
      const until = Date.now() + 150_000;
      let markets = 0;
      for (;;) {
        const res = await fetch(`${started.address}/v1/markets?limit=5`, { headers: { authorization: `Bearer ${started.key}` } });
        if (res.status === 200) {
          markets = ((await res.json()) as { data: unknown[] }).data.length;
          break;
        }
        await res.arrayBuffer();
        if (Date.now() > until) throw new Error(`no catalog within 150 s (last status ${res.status})`);
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(markets).toBe(5);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 240_000);
});

