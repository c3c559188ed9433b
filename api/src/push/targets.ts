import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { PushConfig } from '../config.js';
import { embeddedIPv4, isIPv4Compatible } from './embeddedIPv4.js';

/** Resolves a host name to every address it has (node's dns.lookup, as the HTTP client would). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Why a push target is refused; its message is safe to show the admin who set it. */
export class TargetRefused extends Error {}

/**
 * The ranges of ipaddr.js (IANA's special-purpose registries) whose IPv6 addresses carry an IPv4
 * address that a connection reaches directly or through the public internet: they are as public as
 * the IPv4 addresses they carry (embeddedIPv4.ts), no more. NAT64 (rfc6052) and IPv4-translated
 * (rfc6145) addresses are not among them: they reach IPv4 through a translator in the broker's
 * own network, so they are refused whatever they carry.
 */
const CARRIES_IPV4 = new Set<string>(['ipv4Mapped', '6to4', 'teredo']);
/** Global unicast (RFC 4291): the only IPv6 space IANA hands out for the public internet. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const LOOPBACK: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

function blockList(ranges: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** A URL and the address it was found to be at, which is the only one the delivery may connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: number;
}

/**
 * Which push targets the broker may post to. Checked when an endpoint is set AND before every
 * delivery, against the addresses the name resolves to then (a name that pointed at a public
 * address when it was set may point inside the network by now: DNS rebinding); the delivery then
 * connects to exactly the address that was checked.
 */
export class PushTargets {
  private readonly loopback = blockList(LOOPBACK);
  private readonly allowed = new BlockList();

  constructor(
    private readonly config: Pick<PushConfig, 'publicTargets' | 'allowedNetworks' | 'allowHttpLoopback'>,
    private readonly resolve: Resolver = systemResolver,
  ) {
    for (const cidr of config.allowedNetworks) {
      const [network, prefix] = cidr.split('/');
      this.allowed.addSubnet(network, Number(prefix), familyOf(network));
    }
  }

  /** The URL's form alone: https (or http to loopback, in development), no credentials, no fragment. */
  parse(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new TargetRefused('is not an absolute URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.config.allowHttpLoopback)) {
      throw new TargetRefused(this.config.allowHttpLoopback ? 'must be https (or http to a loopback address)' : 'must be https');
    }
    if (url.username || url.password) throw new TargetRefused('must not carry credentials');
    if (url.hash) throw new TargetRefused('must not have a fragment');
    return url;
  }

  /** Parses, resolves and checks every address; refuses the whole target if any is not allowed. */
  async check(text: string): Promise<CheckedTarget> {
    const url = this.parse(text);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await this.resolve(host);
    } catch {
      throw new TargetRefused(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`);
    for (const { address } of addresses) this.checkAddress(url, address);
    return { url, address: addresses[0].address, family: addresses[0].family };
  }

  private checkAddress(url: URL, address: string): void {
    // Strictly an address as written by a resolver (ipaddr.js would also take forms like 127.1).
    if (isIP(address) === 0) throw new TargetRefused(`${address} is not an IP address`);
    const family = familyOf(address);
    const notPublic = notPublicReason(address);
    // An allowed network allows its own addresses (BlockList reads ::ffff:a.b.c.d as a.b.c.d), not
    // the IPv4 address inside a 6to4, Teredo, NAT64, IPv4-translated or IPv4-compatible one.
    const allowed = this.allowed.check(address, family) || (!notPublic && this.config.publicTargets);
    if (!allowed) throw new TargetRefused(notPublic ?? `${address} is not in MINIQUEUE_PUSH_ALLOWED_NETWORKS`);
    if (url.protocol === 'http:' && !this.loopback.check(address, family)) throw new TargetRefused('must be https unless it is on a loopback address');
  }
}

/**
 * Why the address is not on the public internet, or null. Public is what ipaddr.js calls plain
 * `unicast` (in no special-purpose range: private, loopback, link-local, site-local, unique-local,
 * multicast, documentation, benchmarking, ORCHID, discard, reserved...), for IPv6 inside global
 * unicast too; an IPv6 address that carries an IPv4 address is judged by that address as well.
 * Anything the table does not call public is refused.
 */
function notPublicReason(address: string): string | null {
  const refused = (why: string) => `${address} is a private, loopback or reserved address (${why})`;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast' ? null : refused(ip.range());
  const hidden = embeddedIPv4(address).find((ipv4) => ipaddr.IPv4.parse(ipv4).range() !== 'unicast');
  if (hidden) return `${address} embeds ${hidden}, which is a private, loopback or reserved address`;
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (CARRIES_IPV4.has(range)) return null;
  if (range !== 'unicast') return refused(range);
  if (isIPv4Compatible(v6.parts.slice(0, 6)) || v6.match(GLOBAL_UNICAST)) return null;
  return refused('not global unicast');
}
