// A text's digest: what a stage keeps of a JSON text it wrote when all it asks later is whether a
// new text is the same one (equal digests, equal texts). A held JSON of every event's lifecycle
// snapshot and served entry was about 10 MB of the stage thread's live heap at SIM_SCALE=1
// (bench/soak.md, runs 125-131); a digest is under 100 bytes. The same SHA-1 the change-only pollers
// keep per record (contentHash), so the project has one such digest.
export { contentHash as digest } from '../venues/pollers/changes.ts';
