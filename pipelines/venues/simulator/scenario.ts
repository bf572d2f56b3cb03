// Scenario files: a directory of JSON written in the venues' native forms (format and example in
// infra/scenarios/README.md and infra/scenarios/example/). In: the directory. Out: a Scenario
// that adds native records to each venue's store and patches them as the scenario clock passes
// each timeline entry. `ground-truth.json` beside the files is for evaluation only: this loader
// never opens it, so nothing downstream can read it through the simulator.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { VENUES, type VenueId } from './core.ts';
import type { WorldPreset } from './world.ts';

export interface ScenarioManifest {
  name: string;
  description?: string;
  /** Sports world preset rendered alongside the files: `none` (files only), `default`, `hard`, `wide`. */
  preset?: WorldPreset;
  /** ISO time the scenario clock starts at. */
  clock_start?: string;
  seed?: number;
  scale?: number;
}
export interface Patch {
  at: string;
  venue: VenueId;
  type: string;
  id: string;
  /** Fields merged into the record (objects merge recursively; arrays and scalars replace). */
  merge?: Record<string, unknown>;
  /** `true` removes the record (delisted). */
  remove?: boolean;
}
export interface Scenario {
  manifest: ScenarioManifest;
  records: Partial<Record<VenueId, Record<string, Record<string, unknown>[]>>>;
  timeline: (Patch & { atMs: number })[];
  /** Sorted patch times: the store refreshes when the clock passes one. */
  patchTimes: number[];
  apply(
    v: VenueId,
    t: number,
    put: (type: string, rec: Record<string, unknown>) => void,
    keys?: (type: string, rec: Record<string, unknown>) => string[],
  ): void;
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) {
      out[k] = deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}

export function scenarioFrom(
  manifest: ScenarioManifest,
  records: Scenario['records'],
  timeline: Patch[],
): Scenario {
  const tl = timeline
    .map((p) => {
      const atMs = Date.parse(p.at);
      if (!Number.isFinite(atMs)) throw new Error(`scenario timeline: invalid "at" ${JSON.stringify(p.at)}`);
      if (!VENUES.includes(p.venue)) throw new Error(`scenario timeline: unknown venue ${JSON.stringify(p.venue)}`);
      return { ...p, atMs };
    })
    .sort((a, b) => a.atMs - b.atMs);
  return {
    manifest,
    records,
    timeline: tl,
    patchTimes: tl.map((p) => p.atMs),
    apply(v, t, put, keys) {
      const byType = records[v] ?? {};
      for (const [type, list] of Object.entries(byType)) {
        for (const base of list) {
          let rec: Record<string, unknown> | null = structuredClone(base);
          const ids = keys ? keys(type, base).map((k) => k.toLowerCase()) : [];
          for (const p of tl) {
            if (p.atMs > t) break;
            if (p.venue !== v || p.type !== type || !rec) continue;
            if (!ids.includes(p.id.toLowerCase())) continue;
            if (p.remove) rec = null;
            else if (p.merge) rec = deepMerge(rec, p.merge);
          }
          if (rec) put(type, rec);
        }
      }
    },
  };
}

/** Load a scenario directory: scenario.json, venue_N.json (optional each), timeline.json (optional). */
export function loadScenario(dir: string): Scenario {
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if (!existsSync(join(dir, 'scenario.json'))) throw new Error(`scenario: ${dir}/scenario.json is missing`);
  const manifest = read('scenario.json') as ScenarioManifest;
  const records: Scenario['records'] = {};
  for (const v of VENUES) {
    if (!existsSync(join(dir, `${v}.json`))) continue;
    const body = read(`${v}.json`);
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new Error(`scenario: ${v}.json must be an object of record type -> array of native records`);
    }
    for (const [type, list] of Object.entries(body)) {
      if (!Array.isArray(list)) throw new Error(`scenario: ${v}.json "${type}" must be an array`);
    }
    records[v] = body as Record<string, Record<string, unknown>[]>;
  }
  const timeline = existsSync(join(dir, 'timeline.json')) ? (read('timeline.json') as Patch[]) : [];
  return scenarioFrom(manifest, records, timeline);
}
