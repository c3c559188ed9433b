import ipaddr from 'ipaddr.js';

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that route to them: a packet sent to
 * `[::127.0.0.1]` or `[2002:7f00:1::]` can end up at 127.0.0.1 (through the host's tunnels, a
 * translator or a relay), so the push target check judges those IPv4 addresses as well as the
 * IPv6 one. The forms are ipaddr.js's names for IANA's special-purpose ranges, and one it has no
 * name for:
 *
 *   ::a.b.c.d            IPv4-compatible (::/96, deprecated but still parsed)
 *   ::ffff:a.b.c.d       IPv4-mapped (::ffff:0:0/96, ipv4Mapped)
 *   ::ffff:0:a.b.c.d     IPv4-translated (::ffff:0:0:0/96, rfc6145)
 *   64:ff9b::a.b.c.d     NAT64, well-known prefix (64:ff9b::/96, rfc6052)
 *   64:ff9b:1::a.b.c.d   NAT64, local-use prefix (64:ff9b:1::/48, rfc6052), in its /96 form
 *   2002:AABB:CCDD::     6to4 (2002::/16): the address in bits 16-47
 *   2001:0:S:S::~C:~C    Teredo (2001::/32): the server in bits 32-63, the client inverted in the last 32
 */
export function embeddedIPv4(address: string): string[] {
  if (!ipaddr.IPv6.isValid(address)) return [];
  const ip = ipaddr.IPv6.parse(address);
  const [g0, g1, g2, g3, g4, g5, g6, g7] = ip.parts;
  const ipv4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [ipv4(g6, g7)];
    case '6to4':
      return [ipv4(g1, g2)];
    case 'teredo':
      return [ipv4(g2, g3), ipv4(g6 ^ 0xffff, g7 ^ 0xffff)];
    default:
      return isIPv4Compatible([g0, g1, g2, g3, g4, g5]) ? [ipv4(g6, g7)] : [];
  }
}

/** ::a.b.c.d: the first 96 bits zero (:: and ::1 too, whose "IPv4 addresses" are refused anyway). */
export const isIPv4Compatible = (high96: number[]) => high96.every((group) => group === 0);
