import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DECODES_AT_ONCE, imageDecodes, pixelLimit, processUpload } from '../../src/server/services/content/images.ts';
import { turns } from '../../src/server/services/turns.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('turns', () => {
  it('runs at most two tasks at once and lets the others in, in the order they came', async () => {
    const gate = turns(2);
    const started: number[] = [];
    const finish = Array.from({ length: 6 }, deferred);
    const runs = finish.map((d, i) =>
      gate.run(async () => {
        started.push(i);
        await d.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([gate.active, gate.waiting]).toEqual([2, 4]);

    // The second finishing first frees a place for the third, not for whoever asks next.
    finish[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    const late = gate.run(async () => 'late');
    for (const d of finish) d.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await late).toBe('late');
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect([gate.active, gate.waiting, gate.peak, gate.runs]).toEqual([0, 0, 2, 7]);
  });

  it('gives the place back when a task fails', async () => {
    const gate = turns(1);
    await expect(gate.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(gate.active).toBe(0);
  });
});

describe('avatar decoding', () => {
  it('decodes at most two pictures at once however many uploads arrive together', async () => {
    const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 10, g: 80, b: 200 } } }).png().toBuffer();
    const uploads = Array.from({ length: 8 }, () => processUpload(new Blob([new Uint8Array(png)], { type: 'image/png' })));
    await Promise.resolve();
    const results = await Promise.all(uploads);
    expect(results.every((r) => typeof r !== 'string' && r.width === 256 && r.height === 256 && r.data.length > 0)).toBe(true);
    expect(DECODES_AT_ONCE).toBe(2);
    expect(imageDecodes.peak).toBe(2);
    expect(imageDecodes.active).toBe(0);
  });

  it('allows a 24 MP photo, a 2 MP PNG or GIF and a 1 MP 16-bit PNG, and no more', () => {
    expect(pixelLimit('jpeg', 8)).toBe(24_000_000);
    expect(pixelLimit('webp', 8)).toBe(24_000_000);
    expect(pixelLimit('png', 8)).toBe(2_000_000);
    expect(pixelLimit('gif', 8)).toBe(2_000_000);
    expect(pixelLimit('png', 16)).toBe(1_000_000);
    // A 12 MP phone photo passes; the 6300 × 6300 16-bit PNG of the report does not.
    expect(4032 * 3024).toBeLessThanOrEqual(pixelLimit('jpeg', 8));
    expect(6300 * 6300).toBeGreaterThan(pixelLimit('png', 16));
  });
});
