package io.rdmastorage.probe.parse;

import static io.rdmastorage.probe.testing.LustreFixtures.part;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

/** {@link LustreImports} on the recorded import blocks (2.12, real) and the 2.15/2.16 layouts built on them. */
class LustreImportsTest {

    static final String MDC_REAL = "lustre/cat-mdc-import_o2ib193-failover-pair_target-2.12.0.4_python-collector-comment.txt";
    static final String OSC_REAL = "lustre/cat-osc-import_tcp-idle_target-2.12.7_ascar-drl-config-docstring.txt";
    static final String MGS_TCP = "lustre/lctl-get-param-mdc-osc-mgc-import_mgs-tcp-targets-o2ib_2.16-quoted-nids_constructed.txt";
    static final String DISCONN = "lustre/lctl-get-param-mdc-osc-import_ost-disconn-and-connecting_2.12_constructed.txt";

    @Test
    void theRealBlocksGiveTargetStateAndTheNidInUse() {
        LustreImports.Import mdc = LustreImports.parse(Samples.body(MDC_REAL)).orElseThrow().imports().get(0);
        assertThat(mdc.fsname()).isEqualTo("home");
        assertThat(mdc.target()).isEqualTo("home-MDT0001");
        assertThat(mdc.connected()).isTrue();
        assertThat(mdc.current().orElseThrow().toString()).isEqualTo("192.168.193.4@o2ib193");
        assertThat(mdc.current().orElseThrow().rdma()).isTrue();
        assertThat(mdc.failover()).hasSize(2);

        LustreImports.Import osc = LustreImports.parse(Samples.body(OSC_REAL)).orElseThrow().imports().get(0);
        assertThat(osc.state()).isEqualTo("IDLE");
        assertThat(osc.connected()).isTrue();   // idle after a connection: its NID is the one its data uses
        assertThat(osc.current().orElseThrow().rdma()).isFalse();
        assertThat(osc.shown()).isEqualTo("temp-OST0004 via 192.168.1.13@tcp (IDLE)");
    }

    @Test
    void quotedNidsAndNidsStatsOfLustre216AreRead() {
        LustreImports imports = LustreImports.parse(part(MGS_TCP, "lctl get_param mdc.*.import osc.*.import")).orElseThrow();
        assertThat(imports.of("lustrefs")).extracting(i -> i.target() + "@" + i.current().orElseThrow())
                .containsExactly("lustrefs-MDT0000@10.2.0.10@o2ib", "lustrefs-OST0000@10.2.0.12@o2ib",
                        "lustrefs-OST0001@10.2.0.13@o2ib");
        assertThat(imports.of("other")).isEmpty();
        // the MGC's block is the MGS's connection: no file data, not an import of a target
        assertThat(LustreImports.parse(part(MGS_TCP, "lctl get_param mgc.*.import")).orElseThrow().imports()).isEmpty();
    }

    @Test
    void disconnectedImportsAreNotConnected() {
        LustreImports imports = LustreImports.parse(part(DISCONN, "lctl get_param mdc.*.import osc.*.import")).orElseThrow();
        assertThat(imports.imports()).extracting(i -> i.target() + " " + i.connected())
                .containsExactly("lustrefs-MDT0000 true", "lustrefs-OST0000 true", "lustrefs-OST0001 false",
                        "lustrefs-OST0002 false");
    }

    @Test
    void aServersOspDevicesAnErrorLineAndNothingAreNoImport() {
        String osp = Samples.body(OSC_REAL).replace("temp-OST0004-osc-ffff9068ea7c9000", "temp-OST0004-osc-MDT0000");
        assertThat(LustreImports.parse("osc.temp-OST0004-osc-MDT0000.import=\n" + osp).orElseThrow().imports()).isEmpty();
        assertThat(LustreImports.parse("").orElseThrow().imports()).isEmpty();
        String enoent = Samples.body("lustre/lctl-get-param-import_no-lustre-client_param-path-enoent_constructed.txt");
        assertThat(LustreImports.parse(enoent).orElseThrow().imports()).isEmpty();
        assertThat(LustreImports.parse("import:\n    garbage\n")).isEmpty();
    }
}
