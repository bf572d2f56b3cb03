/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// Test kit for the live routes' API tests: one simulator per suite and, per test, an app built with
// the shell's build() whose live deps point at that simulator. In: a seed, env overrides (e.g. a
// short UPSTREAM_DEADLINE_MS). Out: `get(url)` through app.inject with a key holding every
// permission, and `sim(path)` for reading the venues directly the way a client would (to find ids).
import { request } from 'undici';
import { build } from '../../test/helper.ts';
import { PERMISSIONS } from '../routes/table.ts';
import { createLiveDeps } from './io.ts';
import type { Simulator } from '../../pipelines/venues/simulator/server.ts';

export async function liveApp(sim: Simulator, env: Record<string, string> = {}) {
  const live = createLiveDeps(sim.baseUrl);
  const t = await build({ deps: { live }, env });
  const key = await t.createKey({ plan: 'business', permissions: [...PERMISSIONS] });
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
  };
  return { t, get, live };
}

export async function simJson(sim: Simulator, path: string): Promise<any> {
  const res = await request(sim.baseUrl + path);
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`simulator ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}
