// The simulator on its own thread answers as the in-process one does, and close() ends the thread.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from './server.ts';
import { startSimulatorThread, type SimulatorThread } from './thread.ts';

describe('simulator thread', () => {
  let thread: SimulatorThread | undefined;
  let inline: Simulator | undefined;
  afterEach(async () => {
    await thread?.close();
    await inline?.close();
    thread = inline = undefined;
  });

  it('serves the same listing page as the simulator on the main thread, for the same seed', async () => {
    const seed = 1000 + Math.floor(Math.random() * 100_000);
    thread = await startSimulatorThread({ seed, scale: 1, scenario: 'none' });
    inline = await startSimulator({ seed, scale: 1, scenario: 'none' });
    expect(thread.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(thread.baseUrl).not.toBe(inline.baseUrl);
    // A procedural listing is a pure function of (seed, scale, day): both threads answer the same.
    // Ids only: quotes move with each simulator's own clock, started a few ms apart.
    const path = '/venue_2/markets?limit=5';
    const [a, b] = await Promise.all([fetch(thread.baseUrl + path), fetch(inline.baseUrl + path)]);
    expect(a.status).toBe(200);
    const ids = async (r: Response) => ((await r.json()) as { id: string }[]).map((m) => m.id);
    const fromThread = await ids(a);
    expect(fromThread).toHaveLength(5);
    expect(fromThread).toEqual(await ids(b));
  });

  it('closes: the port stops answering', async () => {
    thread = await startSimulatorThread({ seed: 7, scale: 0, scenario: 'none' });
    const url = thread.baseUrl;
    expect((await fetch(`${url}/__admin/clock`)).status).toBe(200);
    await thread.close();
    thread = undefined;
    await expect(fetch(`${url}/__admin/clock`)).rejects.toThrow();
  });

  it('reports a start that fails (a port in use) instead of hanging', async () => {
    inline = await startSimulator({ seed: 7, scale: 0, scenario: 'none' });
    const port = Number(new URL(inline.baseUrl).port);
    await expect(startSimulatorThread({ seed: 7, scale: 0, scenario: 'none', port })).rejects.toThrow(/EADDRINUSE/);
  });
});
