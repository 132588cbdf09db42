package io.rdmastorage.probe.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IpAddressTest {

    @Test
    void ipv6TextualFormsAreOneAddress() {
        assertThat(IpAddress.same("fe80::1", "fe80:0:0:0:0:0:0:1")).isTrue();
        assertThat(IpAddress.same("FE80::0001", "fe80::1")).isTrue();
        assertThat(IpAddress.same("fe80::1", "fe80::2")).isFalse();
    }

    @Test
    void bracketsAndZonesAsToolsPrintThem() {
        assertThat(IpAddress.same("[fe80::1]", "fe80::1")).isTrue();
        assertThat(IpAddress.same("fe80::1%ib0", "fe80::1")).isTrue();
    }

    @Test
    void ipv4MappedIpv6IsTheIpv4Address() {
        assertThat(IpAddress.same("::ffff:10.68.20.10", "10.68.20.10")).isTrue();
        assertThat(IpAddress.same(" 10.68.20.10\n", "10.68.20.10")).isTrue();
        assertThat(IpAddress.same("10.68.20.10", "10.68.20.11")).isFalse();
    }

    @Test
    void namesAreNotAddressesAndAreNeverLookedUp() {
        assertThat(IpAddress.canonical("localhost")).isEmpty();
        assertThat(IpAddress.canonical("nsd-01.example.com")).isEmpty();
        assertThat(IpAddress.same("localhost", "127.0.0.1")).isFalse();
        assertThat(IpAddress.canonical("10.68.20")).isEmpty();
        assertThat(IpAddress.canonical("")).isEmpty();
        assertThat(IpAddress.canonical(null)).isEmpty();
    }

    @Test
    void portsAreWrittenUnambiguously() {
        assertThat(IpAddress.withPort("10.68.20.10", 4420)).isEqualTo("10.68.20.10:4420");
        assertThat(IpAddress.withPort("fe80::1", 4420)).isEqualTo("[fe80::1]:4420");
    }
}
