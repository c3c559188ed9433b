import { isIPv4, isIPv6 } from 'node:net';

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that route to them: a packet sent to
 * `[::127.0.0.1]` or `[2002:7f00:1::]` can end up at 127.0.0.1 (through the host's tunnels or a
 * relay), so the push target check judges those IPv4 addresses as well as the IPv6 one.
 *
 *   ::a.b.c.d            IPv4-compatible (::/96, deprecated but still parsed)
 *   ::ffff:a.b.c.d       IPv4-mapped (::ffff:0:0/96)
 *   64:ff9b::a.b.c.d     NAT64, well-known prefix (64:ff9b::/96)
 *   64:ff9b:1::a.b.c.d   NAT64, local-use prefix (64:ff9b:1::/48), in its /96 form
 *   2002:AABB:CCDD::     6to4 (2002::/16): the address in bits 16-47
 *   2001:0:S:S::~C:~C    Teredo (2001::/32): the server in bits 32-63, the client inverted in the last 32
 */
export function embeddedIPv4(address: string): string[] {
  const groups = ipv6Groups(address);
  if (!groups) return [];
  const ipv4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const zeroFrom2To5 = g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0 || g5 === 0xffff)) return [ipv4(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && (zeroFrom2To5 || g2 === 1)) return [ipv4(g6, g7)];
  if (g0 === 0x2002) return [ipv4(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4(g2, g3), ipv4(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** The eight 16-bit groups of an IPv6 address in any of its written forms, or null. */
function ipv6Groups(address: string): number[] | null {
  const unzoned = address.replace(/%.*$/, '');
  if (!isIPv6(unzoned)) return null;
  // A dotted IPv4 tail (::ffff:1.2.3.4) is two groups.
  const tail = /(?<=:)[^:]*\.[^:]*$/.exec(unzoned)?.[0];
  const hex = tail && isIPv4(tail) ? unzoned.slice(0, -tail.length) + dottedAsGroups(tail) : unzoned;
  const [head, rest] = hex.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const before = parse(head);
  const after = parse(rest);
  return [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
}

function dottedAsGroups(dotted: string): string {
  const [a, b, c, d] = dotted.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
