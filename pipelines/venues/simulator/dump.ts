// Writes a generated sports world out as a scenario directory in the venues' native forms, so a
// new case can start from a generated slate and be edited by hand (infra/scenarios/README.md).
// In: the simulator context and a start time. Out: venue_N.json (records as published at the
// start), timeline.json (each later change of a record as a merge patch at the instant it
// happens: game start, settlement, postponement, cancellation; a vanished record as a removal),
// scenario.json, and the separate ground-truth.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENUES, type VenueId, iso } from './core.ts';
import type { Patch, ScenarioManifest } from './scenario.ts';
import type { Rendered, SimCtx } from './store.ts';
import { buildTruth } from './truth.ts';
import { VENUE_MODULES } from './venues/index.ts';
import { GAME_LENGTH_MS, type SimGame, gameState } from './world.ts';

function gameTimes(g: SimGame, from: number): number[] {
  const len = GAME_LENGTH_MS[g.league];
  const ts = [g.start, g.start + len];
  if (g.postpone) ts.push(g.postpone.at, g.postpone.newStart, g.postpone.newStart + len);
  if (g.cancel) ts.push(g.cancel.at);
  return [...new Set(ts.filter((t) => t > from))].sort((a, b) => a - b);
}

export function dumpScenario(
  ctx: SimCtx,
  from: number,
): { records: Record<VenueId, Record<string, Record<string, unknown>[]>>; timeline: Patch[] } {
  const records = Object.fromEntries(VENUES.map((v) => [v, {}])) as Record<VenueId, Record<string, Record<string, unknown>[]>>;
  const timeline: Patch[] = [];
  for (const v of VENUES) {
    const mod = VENUE_MODULES[v];
    for (const g of ctx.world.games) {
      if (!g.venues.includes(v)) continue;
      const key = (r: Rendered) => `${r.type}|${mod.keys(r.type, r.rec)[0]}`;
      let prev = new Map<string, Rendered>();
      for (const r of mod.renderGame(ctx, g, gameState(g, from), from)) {
        (records[v][r.type] ??= []).push(r.rec);
        prev.set(key(r), r);
      }
      for (const t of gameTimes(g, from)) {
        const next = new Map(mod.renderGame(ctx, g, gameState(g, t), t).map((r) => [key(r), r] as const));
        for (const [k, r] of prev) {
          const id = mod.keys(r.type, r.rec)[0];
          const n = next.get(k);
          if (!n) {
            timeline.push({ at: iso(t), venue: v, type: r.type, id, remove: true });
            continue;
          }
          const merge: Record<string, unknown> = {};
          for (const [f, val] of Object.entries(n.rec)) if (JSON.stringify(val) !== JSON.stringify(r.rec[f])) merge[f] = val;
          if (Object.keys(merge).length) timeline.push({ at: iso(t), venue: v, type: r.type, id, merge });
        }
        prev = new Map([...next].filter(([k]) => prev.has(k)));
      }
    }
  }
  timeline.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { records, timeline };
}

/** Write the scenario directory (and its ground truth beside it). */
export function writeScenario(ctx: SimCtx, dir: string, from: number, manifest: Partial<ScenarioManifest> = {}): void {
  mkdirSync(dir, { recursive: true });
  const { records, timeline } = dumpScenario(ctx, from);
  const m: ScenarioManifest = { name: manifest.name ?? 'dumped', description: manifest.description ?? `Generated world (seed ${ctx.seed}) written in native form.`, preset: 'none', seed: ctx.seed, clock_start: iso(from) };
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(m, null, 2) + '\n');
  for (const v of VENUES) if (Object.keys(records[v]).length) writeFileSync(join(dir, `${v}.json`), JSON.stringify(records[v]) + '\n');
  writeFileSync(join(dir, 'timeline.json'), JSON.stringify(timeline) + '\n');
  writeFileSync(join(dir, 'ground-truth.json'), JSON.stringify(buildTruth(ctx)) + '\n');
}
