// A text's digest (SHA-1, base64, 28 characters): what a stage keeps of a JSON text it wrote when all
// it asks later is whether a new text is the same one (equal digests, equal texts). A held JSON of
// every event's lifecycle snapshot and served entry was about 10 MB of the stage thread's live heap
// at SIM_SCALE=1 (bench/soak.md, runs 125-131); a digest is under 100 bytes.
import { hash } from 'node:crypto';

export const digest = (text: string): string => hash('sha1', text, 'base64');
