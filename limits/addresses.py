"""Whose attempts a limit counts together: one address, or one IPv6 /64.

A home or an office on IPv6 is usually handed a whole /64 and may pick any of
its 2**64 addresses, so a limit keyed on the full address gives it unlimited
tries. Every limit keys on `limit_source(address)`."""

import ipaddress

IPV6_PREFIX = 64


def limit_source(address: str) -> str:
    """The bucket of `address`: an IPv4 address as it is; an IPv6 address as
    its /64 network ("2001:db8:1:2::/64"); an IPv4-mapped IPv6 address as the
    IPv4 address. Anything that is not an address is returned unchanged (one
    shared bucket for all such requests: stricter, never looser)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    host_bits = 128 - IPV6_PREFIX
    network = ipaddress.IPv6Network(((int(ip) >> host_bits) << host_bits, IPV6_PREFIX))
    return str(network)
