import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/** Strict-Transport-Security: a year, subdomains included, so a browser that met the site over HTTPS never tries HTTP again. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** A header of a request Node's own server took, a repeated one joined as Fetch's Headers joins it. */
export function nodeHeader(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

/**
 * Whether an address is one of our proxies' (TRUST_PROXY, compiled by proxy-addr); `hop` counts
 * from the socket (0) back towards the client.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** No proxy of ours in front: whoever connected is the client, and its forwarded headers are its own words. */
export const NO_PROXY: ProxyTrust = () => false;

/**
 * TRUST_PROXY's list (IPs, CIDR networks, `loopback`, `linklocal`, `uniquelocal`) made into one
 * check, once. Throws a TypeError for an entry that is none of these (server/env.ts reports it).
 */
export function proxyTrust(list: readonly string[]): ProxyTrust {
  return list.length === 0 ? NO_PROXY : proxyaddr.compile([...list]);
}

/**
 * Whether a client address is inside a venue network (TRUSTED_VENUE_NETWORKS): a LAN, a computer
 * club or an event's hall whose players share an address, which per-address limits leave alone.
 */
export type VenueNetworks = (address: string) => boolean;

/** No venue network named: every address is counted by the per-address limits. */
export const NO_VENUE: VenueNetworks = () => false;

/**
 * TRUSTED_VENUE_NETWORKS's list (IPs and CIDR networks, already checked by server/env.ts) made into
 * one check, once, by proxy-addr, as TRUST_PROXY's: an IPv4-mapped IPv6 address is matched as the
 * IPv4 address it carries. Throws a TypeError for an entry it cannot read.
 */
export function venueNetworks(list: readonly string[]): VenueNetworks {
  if (list.length === 0) return NO_VENUE;
  const inside = proxyaddr.compile([...list]);
  return (address) => inside(address, 0);
}

/** How a request reached this process: who connected (the socket's address) and the forwarded headers it carried. */
export interface Arrival {
  peer: string | undefined;
  forwardedFor?: string | null | undefined;
  forwardedProto?: string | null | undefined;
}

/** A request the app got as a Fetch Request, with the address of the socket it came on. */
export const arrivalOf = (request: Request, peer: string | undefined): Arrival => ({
  peer,
  forwardedFor: request.headers.get('x-forwarded-for'),
  forwardedProto: request.headers.get('x-forwarded-proto'),
});

/** A request Node's own server took. */
export const nodeArrival = (req: IncomingMessage): Arrival => ({
  peer: req.socket.remoteAddress,
  forwardedFor: nodeHeader(req, 'x-forwarded-for'),
  forwardedProto: nodeHeader(req, 'x-forwarded-proto'),
});

/**
 * The addresses a request passed, from the socket's back to the client, as proxy-addr walks them:
 * each of our proxies appends the address it saw to X-Forwarded-For, so from the right, while the
 * address at hand is a proxy of ours, the entry before it is believed. The walk stops at the first
 * address that is not ours: that is the client, and whatever stands left of it the client wrote.
 */
function passed(arrival: Arrival, trust: ProxyTrust): string[] {
  // proxy-addr reads only these two fields of a Node request.
  const request = { socket: { remoteAddress: arrival.peer }, headers: { 'x-forwarded-for': arrival.forwardedFor ?? '' } };
  return proxyaddr.all(request as unknown as IncomingMessage, trust);
}

/** The client's address: the socket's, or the one our proxies saw (see `passed`). Undefined when the socket has none left. */
export function clientAddressOf(arrival: Arrival, trust: ProxyTrust): string | undefined {
  return passed(arrival, trust).at(-1) || undefined;
}

/**
 * What per-address limits count a client under: an IPv4 address (also written IPv4-mapped,
 * `::ffff:1.2.3.4`) as it is, an IPv6 address by its /64 — one subscriber's network, within which
 * anyone can take a fresh address at will. Anything else (no address) stays as it is.
 */
export function addressKey(address: string): string {
  if (isIP(address) === 0) return address;
  const ip = ipaddr.process(address);
  if (!(ip instanceof ipaddr.IPv6)) return ip.toString();
  return `${ip.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/** The key of a request's client for per-address limits (`addressKey` of `clientAddressOf`). */
export function clientKey(arrival: Arrival, trust: ProxyTrust): string {
  return addressKey(clientAddressOf(arrival, trust) ?? 'unknown');
}

/**
 * How many of our proxies the request passed: none when whoever connected is not ours; else as
 * many as the walk believed (one at least: the proxy that connected).
 */
function proxiesPassed(arrival: Arrival, trust: ProxyTrust): number {
  if (!arrival.peer || !trust(arrival.peer, 0)) return 0;
  return Math.max(1, passed(arrival, trust).length - 1);
}

/**
 * The entry the outermost of `hops` proxies wrote into a forwarded header that each of them
 * appends to: it stands `hops` from the right, and anything left of it is the client's. Undefined
 * with no proxy, or when the header is shorter than our proxies would have made it.
 */
function entryOfOutermost(header: string | null | undefined, hops: number): string | undefined {
  if (hops <= 0 || !header) return undefined;
  const entries = header.split(',').map((entry) => entry.trim());
  return entries[entries.length - hops] || undefined;
}

export interface TransportOptions {
  /** Our proxies (TRUST_PROXY): X-Forwarded-Proto is believed only from them. */
  trustProxy: ProxyTrust;
  /** The public address (SITE_URL): an https one means every visitor arrives over HTTPS. */
  siteUrl?: string | undefined;
}

/**
 * Whether the visitor reached the site over HTTPS. The Node server itself speaks plain HTTP, so
 * this is true behind a TLS-terminating proxy of ours (its header) or when the site's public
 * address is https. `peer` is the address of the socket the request came on.
 */
export function servedOverHttps(request: Request, peer: string | undefined, options: TransportOptions): boolean {
  return new URL(request.url).protocol === 'https:' || forwardedOverHttps(arrivalOf(request, peer), options);
}

/**
 * An answer as it leaves for a visitor who came over HTTPS or not: HSTS only over HTTPS. A held
 * answer is shared by both, so it is taken off or put on here, as the answer leaves.
 */
export function withTransportHeaders(response: Response, https: boolean): Response {
  // The API sets it on its own answers, so one held from an HTTPS reader carries it.
  if (https === response.headers.has('strict-transport-security')) return response;
  const headers = new Headers(response.headers);
  if (https) headers.set('Strict-Transport-Security', HSTS);
  else headers.delete('Strict-Transport-Security');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The same for headers as Node's `writeHead` takes them flat (name, value, …): a held answer's as it leaves (decision 048). */
export function withTransportHeadersFlat(headers: string[], https: boolean): string[] {
  const at = headers.findIndex((name, index) => index % 2 === 0 && name.toLowerCase() === 'strict-transport-security');
  if (https === at >= 0) return headers;
  return https ? [...headers, 'strict-transport-security', HSTS] : headers.filter((_, index) => index !== at && index !== at + 1);
}

/**
 * The same for a request as it arrived on the socket: only the public address or the
 * X-Forwarded-Proto of the proxies of ours it passed can say it came over HTTPS.
 */
export function forwardedOverHttps(arrival: Arrival, options: TransportOptions): boolean {
  if (options.siteUrl?.startsWith('https://')) return true;
  return entryOfOutermost(arrival.forwardedProto, proxiesPassed(arrival, options.trustProxy))?.toLowerCase() === 'https';
}

/** A host name or IPv4 address, or an IPv6 address in brackets, with an optional port: nothing else. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9.])?)(?::[0-9]{1,5})?$/;

/**
 * Whether a Host header names a host. The app builds its own address from it (links, the answer
 * cache's key), so anything else — `a@b`, `[::1`, empty, spaces — is refused with 400 before it
 * gets there, instead of ending in a 500 or some other page.
 */
export function validHost(host: string | null | undefined): boolean {
  return typeof host === 'string' && host.length <= 255 && HOST.test(host) && URL.canParse(`http://${host}/`);
}
