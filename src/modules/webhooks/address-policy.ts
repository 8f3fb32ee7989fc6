import ipaddr from 'ipaddr.js';

/**
 * Which network addresses a webhook may reach. Only globally routable unicast addresses are allowed:
 * loopback, private (RFC 1918, IPv6 unique-local), link-local (the 169.254.169.254 metadata service among
 * them), CGNAT (100.64/10, where some clouds put their metadata too), multicast, broadcast, unspecified,
 * reserved and documentation ranges are refused, and IPv6 forms that embed an IPv4 address (mapped,
 * NAT64, 6to4, Teredo) are judged by — or refused for — the address they carry. The operator allow-list
 * (CIDRs and host names) overrides the refusal, for self-hosted receivers and tests.
 */
export interface AddressPolicy {
  /** Why the address may not be reached, or undefined when it may. `host` is the URL's host name. */
  refusal(address: string, host?: string): string | undefined;
  /** Whether the host name itself is on the allow-list (any address it resolves to may be reached). */
  hostAllowed(host: string): boolean;
}

const rangeNames: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT address',
  orchid2: 'an ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'a reserved address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** Metadata services named for what they are (their range would refuse them anyway). */
const metadataAddresses = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);

export function createAddressPolicy(allow: readonly string[]): AddressPolicy {
  const cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const hosts = new Set<string>();
  for (const entry of allow) {
    const text = entry.trim().toLowerCase();
    if (!text) continue;
    if (ipaddr.isValidCIDR(text)) cidrs.push(ipaddr.parseCIDR(text));
    else if (ipaddr.isValid(text)) {
      const address = ipaddr.parse(text);
      cidrs.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(stripBrackets(text));
  }

  const allowedByCidr = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
    cidrs.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));

  return {
    hostAllowed: (host) => hosts.has(stripBrackets(host.toLowerCase())),
    refusal(text, host) {
      if (host !== undefined && hosts.has(stripBrackets(host.toLowerCase()))) return undefined;
      const raw = stripBrackets(text);
      if (!ipaddr.isValid(raw)) return `${text} is not an IP address`;
      let address = ipaddr.parse(raw);
      if (allowedByCidr(address)) return undefined;
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
        address = (address as ipaddr.IPv6).toIPv4Address();
        if (allowedByCidr(address)) return undefined;
      }
      // The deprecated IPv4-compatible form (::a.b.c.d, RFC 4291 §2.5.5.1) is judged by the IPv4 address it
      // carries; ipaddr.js calls the whole ::/96 block unicast.
      if (address.kind() === 'ipv6') {
        const parts = (address as ipaddr.IPv6).parts;
        if (parts.slice(0, 6).every((p) => p === 0) && (parts[6]! !== 0 || parts[7]! > 1)) {
          const v4 = ipaddr.fromByteArray((address as ipaddr.IPv6).toByteArray().slice(12));
          if (allowedByCidr(v4)) return undefined;
          if (v4.range() !== 'unicast' || metadataAddresses.has(v4.toString()))
            return `${address.toString()} embeds ${v4.toString()}, ${rangeNames[v4.range()] ?? 'an address that may not be reached'}`;
        }
      }
      const canonical = address.toString();
      if (metadataAddresses.has(canonical)) return `${canonical} is a cloud metadata address`;
      const range = address.range();
      if (range === 'unicast') return undefined;
      return `${canonical} is ${rangeNames[range] ?? `a ${range} address`}`;
    },
  };
}

const stripBrackets = (text: string) =>
  text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;

/** True when the (URL-normalized) host is an IP literal rather than a name to resolve. */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(stripBrackets(host));
