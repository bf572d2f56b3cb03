// Where a worker thread's module comes from: the compiled bundle that bin/build-workers.ts wrote
// under .build/workers/ when it is there and no source file it was built from has changed since,
// else the TypeScript file itself (through tsx). Why: tsx's module.register starts a loader hooks
// thread with its own V8 heap and compiler in every worker on Node 20, 15-17 MB of RSS each
// (bench/worker-cost.ts, bench/soak.md); a bundle needs none. A stale bundle is never run: an edited
// source falls back to tsx until the next build. Plain JavaScript, as the launcher that uses it.
import { readFileSync, statSync } from 'node:fs';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

/** The repository's root (this file is pipelines/runtime/worker-entry.mjs). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The build directory bin/build-workers.ts writes by default. */
export const BUILD_DIR = path.join(REPO_ROOT, '.build', 'workers');

/**
 * The file: URL of the compiled module for the TypeScript entry `entry` (a file: URL), or null with
 * the reason when there is none to use (no build, the entry not in it, a source newer than the build).
 * @param {string} entry
 * @param {string} [buildDir]
 * @returns {{ url: string } | { url: null, why: string }}
 */
export function compiledEntry(entry, buildDir = BUILD_DIR) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(buildDir, 'manifest.json'), 'utf8'));
  } catch {
    return { url: null, why: `no build at ${buildDir}` };
  }
  const source = path.relative(manifest.root, fileURLToPath(entry));
  const built = manifest.entries?.[source];
  if (!built) return { url: null, why: `${source} is not in the build` };
  for (const input of built.inputs) {
    let mtime;
    try {
      mtime = statSync(path.join(manifest.root, input)).mtimeMs;
    } catch {
      return { url: null, why: `${input}, built into ${built.out}, is gone` };
    }
    if (mtime > manifest.builtAt) return { url: null, why: `${input} changed after the build` };
  }
  return { url: pathToFileURL(path.join(buildDir, built.out)).href };
}
