import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { PushConfig } from '../config.js';
import { embeddedIPv4 } from './embeddedIPv4.js';

/** Resolves a host name to every address it has (node's dns.lookup, as the HTTP client would). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Why a push target is refused; its message is safe to show the admin who set it. */
export class TargetRefused extends Error {}

/** Addresses that are not the public internet: a push there could reach the broker's own network. */
const NOT_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];
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
  private readonly notPublic = blockList(NOT_PUBLIC);
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
    const family = familyOf(address);
    const notPublic = this.notPublicReason(address, family);
    // An allowed network allows its own addresses (BlockList reads ::ffff:a.b.c.d as a.b.c.d), not
    // the IPv4 address inside a 6to4, Teredo, NAT64 or IPv4-compatible one.
    const allowed = this.allowed.check(address, family) || (!notPublic && this.config.publicTargets);
    if (!allowed) throw new TargetRefused(notPublic ?? `${address} is not in MINIQUEUE_PUSH_ALLOWED_NETWORKS`);
    if (url.protocol === 'http:' && !this.loopback.check(address, family)) throw new TargetRefused('must be https unless it is on a loopback address');
  }

  /** Why the address is not on the public internet (itself, or an IPv4 address it carries), or null. */
  private notPublicReason(address: string, family: 'ipv4' | 'ipv6'): string | null {
    const hidden = family === 'ipv6' ? embeddedIPv4(address).find((ipv4) => this.notPublic.check(ipv4, 'ipv4')) : undefined;
    if (hidden) return `${address} embeds ${hidden}, which is a private, loopback or reserved address`;
    return this.notPublic.check(address, family) ? `${address} is a private, loopback or reserved address` : null;
  }
}
