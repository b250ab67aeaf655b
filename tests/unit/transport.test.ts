import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  clientAddressOf,
  clientKey,
  forwardedOverHttps,
  HSTS,
  NO_PROXY,
  proxyTrust,
  servedOverHttps,
  withTransportHeadersFlat,
} from '../../src/server/transport.ts';

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
/** nginx on this machine (TRUST_PROXY=loopback, what `true` means). */
const local = proxyTrust(['loopback']);
/** A balancer and nginx on the LAN: 10.0.0.0/8, and one address of a CDN's. */
const lan = proxyTrust(['10.0.0.0/8', '198.51.100.7']);

describe('withTransportHeadersFlat (a held answer as it leaves, decision 048)', () => {
  const plain = ['content-type', 'text/html', 'content-length', '5'];
  it('puts HSTS on for a reader over HTTPS and takes it off for one over HTTP, whatever case the copy names it in', () => {
    expect(withTransportHeadersFlat(plain, true)).toEqual([...plain, 'strict-transport-security', HSTS]);
    expect(withTransportHeadersFlat(plain, false)).toBe(plain);
    const carrying = ['Strict-Transport-Security', HSTS, ...plain];
    expect(withTransportHeadersFlat(carrying, false)).toEqual(plain);
    expect(withTransportHeadersFlat(carrying, true)).toBe(carrying);
  });

  it('takes a header name, never a value that reads like one', () => {
    const odd = ['x-note', 'strict-transport-security', ...plain];
    expect(withTransportHeadersFlat(odd, false)).toBe(odd);
  });
});

describe('servedOverHttps (whether HSTS is sent)', () => {
  it('is true for a request that arrived over https', () => {
    expect(servedOverHttps(request('https://arena.test/'), '203.0.113.9', { trustProxy: NO_PROXY })).toBe(true);
  });

  it('is false for plain http without a trusted proxy, whatever the headers claim', () => {
    const forged = request('http://arena.test/', { 'x-forwarded-proto': 'https' });
    expect(servedOverHttps(forged, '203.0.113.9', { trustProxy: NO_PROXY })).toBe(false);
  });

  it('believes X-Forwarded-Proto only from a socket of our proxy, and not from a client that reached the port itself', () => {
    const claimed = request('http://arena.test/', { 'x-forwarded-proto': 'https' });
    expect(servedOverHttps(claimed, '127.0.0.1', { trustProxy: local })).toBe(true);
    expect(servedOverHttps(claimed, '::1', { trustProxy: local })).toBe(true);
    expect(servedOverHttps(claimed, '203.0.113.9', { trustProxy: local })).toBe(false);
    expect(servedOverHttps(claimed, undefined, { trustProxy: local })).toBe(false);
  });

  it('believes the X-Forwarded-Proto entry our own proxy wrote, not one the client put before it', () => {
    const from = (proto?: string) => ({ peer: '127.0.0.1', forwardedFor: '203.0.113.9', forwardedProto: proto });
    expect(forwardedOverHttps(from('http, HTTPS'), { trustProxy: local })).toBe(true);
    expect(forwardedOverHttps(from('https, http'), { trustProxy: local })).toBe(false);
    expect(forwardedOverHttps(from('http'), { trustProxy: local })).toBe(false);
    expect(forwardedOverHttps(from(), { trustProxy: local })).toBe(false);
  });

  it('behind two proxies of ours, reads the entry of the outermost (the one that met the visitor)', () => {
    const twice = { peer: '10.0.0.2', forwardedFor: '1.1.1.1, 203.0.113.9, 10.0.0.5', forwardedProto: 'http, https, http' };
    expect(forwardedOverHttps(twice, { trustProxy: lan })).toBe(true);
  });

  it('is true whenever the public address is https', () => {
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), '127.0.0.1', { trustProxy: NO_PROXY, siteUrl: 'https://kiberarena.ua' })).toBe(true);
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), '127.0.0.1', { trustProxy: NO_PROXY, siteUrl: 'http://localhost:4321' })).toBe(false);
  });
});

describe('clientAddressOf (the client address behind our proxies)', () => {
  it('is the socket address when the socket is not one of our proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf({ peer: '203.0.113.9', forwardedFor: '198.51.100.1' }, local)).toBe('203.0.113.9');
    expect(clientAddressOf({ peer: '203.0.113.9', forwardedFor: '127.0.0.1' }, local)).toBe('203.0.113.9');
    expect(clientAddressOf({ peer: '2001:db8::9', forwardedFor: '198.51.100.1' }, local)).toBe('2001:db8::9');
    expect(clientAddressOf({ peer: '127.0.0.1', forwardedFor: '198.51.100.1' }, NO_PROXY)).toBe('127.0.0.1');
    expect(clientAddressOf({ peer: undefined, forwardedFor: '198.51.100.1' }, local)).toBeUndefined();
  });

  it('is the address our proxy saw when the socket is our proxy', () => {
    expect(clientAddressOf({ peer: '127.0.0.1', forwardedFor: '203.0.113.9' }, local)).toBe('203.0.113.9');
    expect(clientAddressOf({ peer: '::ffff:127.0.0.1', forwardedFor: '203.0.113.9' }, local)).toBe('203.0.113.9');
    expect(clientAddressOf({ peer: '::1', forwardedFor: '2001:db8::9' }, local)).toBe('2001:db8::9');
    // A proxy of ours that forwarded nothing: the request is its own.
    expect(clientAddressOf({ peer: '127.0.0.1', forwardedFor: null }, local)).toBe('127.0.0.1');
  });

  it('walks from the right through each of our proxies to the first address that is not ours', () => {
    expect(clientAddressOf({ peer: '10.0.0.2', forwardedFor: '203.0.113.9, 198.51.100.7, 10.0.0.5' }, lan)).toBe('203.0.113.9');
    expect(clientAddressOf({ peer: '10.0.0.2', forwardedFor: '1.1.1.1, 203.0.113.9, 198.51.100.7, 10.0.0.5' }, lan)).toBe('203.0.113.9');
    // Whatever stands right of an address not ours was not written by us: the walk stops there.
    expect(clientAddressOf({ peer: '10.0.0.2', forwardedFor: '10.0.0.9, 203.0.113.9, 192.0.2.1' }, lan)).toBe('192.0.2.1');
  });

  it('cannot be steered by anything the client writes before our entries, nor by a client reaching the port itself', () => {
    const ours = fc.oneof(fc.constant('10.0.0.5'), fc.constant('198.51.100.7'), fc.ipV4().map((ip) => `10.${ip.split('.').slice(1).join('.')}`));
    const outside = fc.oneof(fc.ipV4(), fc.ipV6()).filter((ip) => !lan(ip, 0));
    const written = fc.array(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), ours), { maxLength: 5 });
    fc.assert(
      fc.property(written, outside, fc.array(ours, { maxLength: 3 }), ours, (forged, real, inner, peer) => {
        const header = [...forged, real, ...inner].join(', ');
        return clientAddressOf({ peer, forwardedFor: header }, lan) === real;
      }),
    );
    fc.assert(
      fc.property(written, outside, (forged, stranger) => clientAddressOf({ peer: stranger, forwardedFor: forged.join(', ') }, lan) === stranger),
    );
  });
});

describe('addressKey (what per-address limits count under)', () => {
  it('keeps an IPv4 address whole, also when written IPv4-mapped', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.10')).not.toBe(addressKey('203.0.113.9'));
  });

  it('counts an IPv6 address by its /64: one subscriber, however many addresses they take', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:0db8:0001:0002:0:0:0:abcd')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('2001:db9:1:2::1')).not.toBe(key);
    expect(key).toBe('2001:db8:1:2::/64');
  });

  it('keeps what is no address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });

  it('applies to the address found behind our proxies', () => {
    expect(clientKey({ peer: '127.0.0.1', forwardedFor: '2001:db8:1:2::77' }, local)).toBe('2001:db8:1:2::/64');
    expect(clientKey({ peer: '2001:db8:1:2::78', forwardedFor: '198.51.100.1' }, local)).toBe('2001:db8:1:2::/64');
    expect(clientKey({ peer: undefined }, local)).toBe('unknown');
  });
});
