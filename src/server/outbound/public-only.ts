/**
 * Where the server may dial addresses that others chose (issue 60): a device's push endpoint, an
 * organisation's webhook. Such an address could name this machine or its private network (server-side
 * request forgery), so only public unicast addresses are dialled. A name is judged after its lookup,
 * in the connection itself, so it cannot resolve one way when checked and another when dialled; an
 * address written as an IP never looks anything up and is judged before the request
 * (`isPublicAddress`).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'node:https';
import ipaddr from 'ipaddr.js';
import { Agent as UndiciAgent } from 'undici';

/** An endpoint's address that is not a public unicast one (loopback, private, link-local, …): never dialled. */
export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
  readonly code = 'EPRIVATEADDRESS';
}

/** Whether `address` (IPv4 or IPv6) is a public unicast address; an IPv4-mapped IPv6 address is judged as its IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails, as a connection error, for a name resolving to any address that is not public. */
export function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(new PrivateAddressError(`${hostname} веде на непублічну адресу`), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
}

/**
 * The agent web pushes go through outside tests: keep-alive HTTPS that reaches public addresses only.
 */
export const publicOnlyAgent = () => new Agent({ keepAlive: true, maxSockets: 16, lookup: publicLookup as never });

/** The same guard for undici's requests (outgoing webhooks): its connections look names up through `publicLookup`. */
export const publicOnlyDispatcher = () => new UndiciAgent({ connections: 16, connect: { lookup: publicLookup as never } });
