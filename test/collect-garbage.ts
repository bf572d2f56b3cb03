// A full garbage collection on demand, for tests of what must survive one (a deadline's timer held
// only weakly is lost to it). `--expose-gc` set at run time makes `gc` available to contexts created
// after it; a fresh vm context hands it over without a flag on the test runner's command line.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects the whole heap now (a major GC, which clears weak references whose targets nothing else holds). */
export function collectGarbage(): void {
  gc();
}
