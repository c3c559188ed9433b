import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushTargets } from '../../src/push/targets.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { capturedLogLines } from '../helpers/logCapture.js';
import { topology } from '../helpers/fixtures.js';
import { PUSH_ENV } from './support.js';

/** What production allows: any public address, https only. */
const production = new PushTargets({ publicTargets: true, allowedNetworks: [], allowHttpLoopback: false });
const REFUSED = /is a private, loopback or reserved address/;

describe('IPv6 addresses that carry an IPv4 address are judged by the IPv4 address they carry', () => {
  it.each([
    ['IPv4-compatible (::/96), loopback', 'https://[::127.0.0.1]/', '127.0.0.1'],
    ['IPv4-compatible (::/96), private', 'https://[::a00:1]/', '10.0.0.1'],
    ['IPv4-mapped (::ffff:0:0/96)', 'https://[::ffff:169.254.169.254]/', '169.254.169.254'],
    ['6to4 (2002::/16), loopback', 'https://[2002:7f00:1::]/', '127.0.0.1'],
    ['6to4 (2002::/16), link-local metadata', 'https://[2002:a9fe:a9fe::1]/', '169.254.169.254'],
    ['local-use NAT64 (64:ff9b:1::/48)', 'https://[64:ff9b:1::7f00:1]/', '127.0.0.1'],
    ['well-known NAT64 (64:ff9b::/96)', 'https://[64:ff9b::c0a8:101]/', '192.168.1.1'],
    ['Teredo (2001::/32), private client', 'https://[2001:0:5ef5:79fb::f5ff:fffe]/', '10.0.0.1'],
    ['Teredo (2001::/32), loopback server', 'https://[2001:0:7f00:1::a247:27dd]/', '127.0.0.1'],
  ])('%s is refused, naming the IPv4 address', async (_form, url, ipv4) => {
    const refusal = production.check(url);
    await expect(refusal).rejects.toThrow(REFUSED);
    await expect(refusal).rejects.toThrow(ipv4);
  });

  it.each([
    ['6to4 of a public address', 'https://[2002:5db8:d822::1]/'],
    ['Teredo with a public server and client', 'https://[2001:0:5ef5:79fb::a247:27dd]/'],
    ['IPv4-compatible form of a public address', 'https://[::5db8:d822]/'],
    ['a plain public IPv6 address', 'https://[2606:2800:220:1:248:1893:25c8:1946]/'],
  ])('%s is accepted', async (_form, url) => {
    await expect(production.check(url)).resolves.toMatchObject({ url: new URL(url) });
  });

  it('a name that resolves to such an address is refused too', async () => {
    const resolving = new PushTargets({ publicTargets: true, allowedNetworks: [], allowHttpLoopback: false }, async () => [
      { address: '2002:a00:1::1', family: 6 },
    ]);
    await expect(resolving.check('https://hooks.example.com/')).rejects.toThrow(/embeds 10\.0\.0\.1/);
  });

  it('an allowed network lets its own addresses through, not the IPv4 addresses other forms carry', async () => {
    const allowing = new PushTargets({ publicTargets: false, allowedNetworks: ['127.0.0.0/8'], allowHttpLoopback: false });
    await expect(allowing.check('https://127.0.0.1/')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(allowing.check('https://[2002:7f00:1::]/')).rejects.toThrow(REFUSED);
  });
});

describe('every IPv6 form that maps, translates or embeds IPv4, and every special-purpose range, is refused by default', () => {
  it.each([
    ['IPv4-translated (::ffff:0:0:0/96), loopback in hex', 'https://[::ffff:0:7f00:1]/'],
    ['IPv4-translated (::ffff:0:0:0/96), loopback dotted', 'https://[::ffff:0:127.0.0.1]/'],
    ['IPv4-translated (::ffff:0:0:0/96), link-local metadata', 'https://[::ffff:0:a9fe:a9fe]/'],
    ['IPv4-mapped (::ffff:0:0/96), loopback in hex', 'https://[::ffff:7f00:1]/'],
    ['IPv4-compatible (::/96), link-local', 'https://[::169.254.169.254]/'],
    ['NAT64 (64:ff9b::/96) of a public address', 'https://[64:ff9b::5db8:d822]/'],
    ['local-use NAT64 (64:ff9b:1::/48) of a public address', 'https://[64:ff9b:1::5db8:d822]/'],
    ['site-local (fec0::/10, deprecated)', 'https://[fec0::1]/'],
    ['site-local, high end of the range', 'https://[feff:ffff::1]/'],
    ['discard-only (100::/64)', 'https://[100::1]/'],
    ['documentation (2001:db8::/32)', 'https://[2001:db8::1]/'],
    ['documentation (3fff::/20)', 'https://[3fff:fff::1]/'],
    ['ORCHID (2001:10::/28, deprecated)', 'https://[2001:10::1]/'],
    ['ORCHIDv2 (2001:20::/28)', 'https://[2001:20::1]/'],
    ['benchmarking (2001:2::/48)', 'https://[2001:2::1]/'],
    ['IETF protocol assignments (2001::/23)', 'https://[2001:100::1]/'],
    ['multicast (ff00::/8)', 'https://[ff02::1]/'],
    ['unique-local (fc00::/7)', 'https://[fc00::1]/'],
    ['unique-local (fd00::/8)', 'https://[fd12:3456::1]/'],
    ['link-local (fe80::/10)', 'https://[fe80::1]/'],
    ['link-local, high end of the range', 'https://[febf::1]/'],
    ['unspecified (::)', 'https://[::]/'],
    ['loopback (::1)', 'https://[::1]/'],
    ['outside global unicast (2000::/3): unallocated', 'https://[4000::1]/'],
  ])('%s is refused', async (_form, url) => {
    await expect(production.check(url)).rejects.toThrow(REFUSED);
  });

  it('a name that resolves to an IPv4-translated loopback address is refused', async () => {
    const resolving = new PushTargets({ publicTargets: true, allowedNetworks: [], allowHttpLoopback: false }, async () => [
      { address: '::ffff:0:7f00:1', family: 6 },
    ]);
    await expect(resolving.check('https://hooks.example.com/')).rejects.toThrow(REFUSED);
  });

  it('a resolver answer that is not an IP address is refused, not thrown', async () => {
    const odd = new PushTargets({ publicTargets: true, allowedNetworks: [], allowHttpLoopback: false }, async () => [{ address: '127.1', family: 4 }]);
    await expect(odd.check('https://hooks.example.com/')).rejects.toThrow(/is not an IP address/);
  });

  it.each([
    ['a public IPv4 address', 'https://93.184.216.34/'],
    ['a public IPv6 address', 'https://[2606:4700:4700::1111]/'],
    ['IPv4-mapped form of a public address', 'https://[::ffff:5db8:d822]/'],
  ])('%s is still accepted', async (_form, url) => {
    await expect(production.check(url)).resolves.toMatchObject({ url: new URL(url) });
  });

  it('an allowed network still lets its addresses through', async () => {
    const allowing = new PushTargets({ publicTargets: true, allowedNetworks: ['fec0::/10', 'fd00::/8', '10.0.0.0/8'], allowHttpLoopback: false });
    await expect(allowing.check('https://[fec0::1]/')).resolves.toMatchObject({ address: 'fec0::1' });
    await expect(allowing.check('https://[fd12:3456::1]/')).resolves.toMatchObject({ address: 'fd12:3456::1' });
    await expect(allowing.check('https://10.1.2.3/')).resolves.toMatchObject({ address: '10.1.2.3' });
    // What the allowed networks do not name stays refused.
    await expect(allowing.check('https://[fe80::1]/')).rejects.toThrow(REFUSED);
    await expect(allowing.check('https://[::ffff:0:a00:1]/')).rejects.toThrow(REFUSED);
  });
});

describe('push endpoints over HTTP', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({ env: PUSH_ENV });
    await topology(mq, 'targets', [{ name: 'targets-q' }]);
  });
  afterAll(() => mq.stop());

  const setPush = (url: string) => mq.request('PUT', '/api/v1/queues/targets-q/push', { body: { url }, key: mq.adminKey });

  it('a URL with a NUL is 400 naming the url, and nothing is stored or logged as an error', async () => {
    for (const url of ['http://127.0.0.1:9/hook\u0000x', 'http://127.0.0.1:9/hook?token=a\u0000b']) {
      const refused = await setPush(url);
      expect(refused.status, JSON.stringify(url)).toBe(400);
      expect(refused.body.errors[0].field).toBe('url');
    }
    expect((await mq.get('/api/v1/queues/targets-q/push', mq.adminKey)).body.code).toBe('push_endpoint_not_found');
    expect(capturedLogLines().filter((line) => line.startsWith('{') && JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('shows admins the whole URL, and others the URL without its query string', async () => {
    const url = 'http://127.0.0.1:9/hooks/orders?token=s3cr3t-value&team=ops';
    expect((await setPush(url)).status).toBe(201);
    const viewer = await mq.clientKey('targets-viewer', ['view']);
    expect((await mq.get('/api/v1/queues/targets-q/push', mq.adminKey)).body.url).toBe(url);
    const seen = await mq.get('/api/v1/queues/targets-q/push', viewer);
    expect(seen.status).toBe(200);
    expect(seen.body.url).toBe('http://127.0.0.1:9/hooks/orders?redacted');
    expect(JSON.stringify(seen.body)).not.toContain('s3cr3t');
  });

  it('a URL without a query string is shown whole to everyone', async () => {
    expect((await setPush('http://127.0.0.1:9/plain')).status).toBe(200);
    const viewer = await mq.clientKey('targets-viewer-2', ['view']);
    expect((await mq.get('/api/v1/queues/targets-q/push', viewer)).body.url).toBe('http://127.0.0.1:9/plain');
  });
});
