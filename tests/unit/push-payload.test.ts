import { describe, expect, it } from 'vitest';
import { clip, PUSH_BODY_MAX, PUSH_RETRY_MS, PUSH_TITLE_MAX, pushBackoffMs, pushPayload, pushRetryAt, pushTopic, sitePath } from '../../src/server/push/push-payload.ts';
import { retryAfterMs } from '../../src/server/outbound/retry-after.ts';
import { outcomeOf } from '../../src/server/push/push-service.ts';
import { isPublicAddress } from '../../src/server/outbound/public-only.ts';

const NOW = new Date('2030-05-01T12:00:00Z');

describe('a push’s payload', () => {
  it('carries the title, the line, the site path, the notice as its tag and the language', () => {
    const json = pushPayload({ title: 'Матч готовий', body: 'Ваш матч проти Rival готовий.', link: '/matches/1', id: 'n1', lang: 'uk' });
    expect(JSON.parse(json)).toEqual({ title: 'Матч готовий', body: 'Ваш матч проти Rival готовий.', url: '/matches/1', tag: 'n1', lang: 'uk' });
  });

  it('clips long words by whole characters, with an ellipsis, and stays far below a push service’s 4 KB', () => {
    const long = '😀я'.repeat(1000);
    const payload = JSON.parse(pushPayload({ title: long, body: long, link: '/', id: 'n', lang: 'uk' })) as { title: string; body: string };
    expect([...payload.title]).toHaveLength(PUSH_TITLE_MAX);
    expect([...payload.body]).toHaveLength(PUSH_BODY_MAX);
    expect(payload.body.endsWith('…')).toBe(true);
    expect(Buffer.byteLength(pushPayload({ title: long, body: long, link: '/'.padEnd(500, 'x'), id: 'n'.repeat(36), lang: 'uk' }))).toBeLessThan(3000);
    expect(clip('  два   слова \n ', 10)).toBe('два слова');
  });

  it('opens only a path on this site: another site, a protocol-relative link or none open the home page', () => {
    expect(sitePath('/tournaments/5?tab=bracket')).toBe('/tournaments/5?tab=bracket');
    for (const link of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', '', null, undefined, `/${'x'.repeat(600)}`]) expect(sitePath(link)).toBe('/');
  });

  it('names a notice’s topic by its id in 22 URL-safe characters, and none for an id that is no UUID', () => {
    expect(pushTopic('00000000-0000-4000-8000-000000000001')).toBe('AAAAAAAAQACAAAAAAAAAAQ');
    expect(pushTopic('not-a-uuid')).toBeUndefined();
  });
});

describe('when a failed push is tried again', () => {
  it('waits 15 s after the first failure, then twice as long each time', () => {
    expect([1, 2, 3, 4].map(pushBackoffMs)).toEqual([PUSH_RETRY_MS, PUSH_RETRY_MS * 2, PUSH_RETRY_MS * 4, PUSH_RETRY_MS * 8]);
    expect(pushRetryAt(NOW, 2).getTime() - NOW.getTime()).toBe(30_000);
  });

  it('waits as long as the service asked when that is longer than the back-off, never shorter', () => {
    expect(pushRetryAt(NOW, 1, 120_000).getTime() - NOW.getTime()).toBe(120_000);
    expect(pushRetryAt(NOW, 3, 1000).getTime() - NOW.getTime()).toBe(60_000);
  });

  it('reads Retry-After as seconds or as a date, and nothing else', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Wed, 01 May 2030 12:02:00 GMT', NOW)).toBe(120_000);
    expect(retryAfterMs('Wed, 01 May 2030 11:00:00 GMT', NOW)).toBe(0);
    for (const junk of [undefined, null, '', '-5', '1.5', 'soon']) expect(retryAfterMs(junk, NOW)).toBeNull();
  });
});

describe('what a push service’s answer means', () => {
  const failure = (statusCode: number, headers: Record<string, string> = {}) => Object.assign(new Error('Received unexpected response code'), { statusCode, headers, body: 'no' });

  it('404 and 410: the device is gone', () => {
    expect(outcomeOf(failure(404), NOW).kind).toBe('gone');
    expect(outcomeOf(failure(410), NOW).kind).toBe('gone');
  });

  it('429 and 5xx: try again, when the service said so not before then', () => {
    expect(outcomeOf(failure(429, { 'retry-after': '30' }), NOW)).toMatchObject({ kind: 'retry', afterMs: 30_000 });
    expect(outcomeOf(failure(503), NOW)).toMatchObject({ kind: 'retry' });
    expect(outcomeOf(failure(500), NOW)).not.toHaveProperty('afterMs');
  });

  it('no answer at all (refused, reset, timed out): try again', () => {
    expect(outcomeOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), NOW).kind).toBe('retry');
    expect(outcomeOf(new Error('Socket timeout'), NOW).kind).toBe('retry');
  });

  it('another 4xx (a message or a signature it will never take): give the push up, keep the device', () => {
    for (const status of [400, 401, 403, 413]) expect(outcomeOf(failure(status), NOW).kind).toBe('refused');
  });
});

describe('the addresses a push may be sent to', () => {
  it('are public unicast ones only', () => {
    for (const address of ['142.250.74.10', '2a00:1450:4001:82b::200a']) expect(isPublicAddress(address)).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'localhost', '']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
