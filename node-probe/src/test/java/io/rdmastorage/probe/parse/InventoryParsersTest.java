package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

/** The parsers behind the inventory facts: mmdiag --version, dpkg's status file, ofed_info -s. */
class InventoryParsersTest {

    @Test
    void mmdiagVersionGivesTheBuildWithoutItsTrailingSpace() {
        assertThat(MmdiagVersion.build(Samples.body("gpfs/mmdiag-version_5.2.1.1_ibm-cloud-faq.txt"))).hasValue("5.2.1.1");
        assertThat(MmdiagVersion.build(Samples.body("gpfs/mmdiag-version_5.0.5.2_scale-test.txt"))).hasValue("5.0.5.2");
    }

    @Test
    void mmdiagVersionOfAnotherOutputIsNone() {
        assertThat(MmdiagVersion.build("mmdiag: GPFS is not running on this node.\n")).isEmpty();
        assertThat(MmdiagVersion.build("Current GPFS build: \"  \".\n")).isEmpty();
    }

    @Test
    void dpkgStatusGivesAnInstalledPackagesVersion() {
        String status = Samples.body("packages/dpkg-status_rdma-core-50.0_constructed.txt");

        assertThat(DpkgStatus.installedVersion(status, "rdma-core")).hasValue("44.0-2");
        assertThat(DpkgStatus.installedVersion(status, "ibverbs-providers")).hasValue("44.0-2");
    }

    @Test
    void aRemovedOrUnlistedPackageIsNotInstalled() {
        String status = Samples.body("packages/dpkg-status_rdma-core-50.0_constructed.txt");

        assertThat(DpkgStatus.installedVersion(status, "perftest")).isEmpty();   // deinstall ok config-files
        assertThat(DpkgStatus.installedVersion(status, "rdma")).isEmpty();       // a prefix is not the package
        assertThat(DpkgStatus.installedVersion("", "rdma-core")).isEmpty();
    }

    @Test
    void dpkgStatusWithCrlfAndNoFinalBlankLine() {
        String status = "Package: rdma-core\r\nStatus: install ok installed\r\nVersion: 50.0-2ubuntu0.2\r\n";

        assertThat(DpkgStatus.installedVersion(status, "rdma-core")).hasValue("50.0-2ubuntu0.2");
    }

    @Test
    void ofedInfoGivesTheBundleWithoutItsColon() {
        assertThat(OfedInfo.bundle(Samples.body("packages/ofed_info-s_mlnx-ofed-24.10_constructed.txt")))
                .hasValue("MLNX_OFED_LINUX-24.10-1.1.4.0");
        assertThat(OfedInfo.bundle("OFED-internal-4.4-2.0.7:\n")).hasValue("OFED-internal-4.4-2.0.7");
    }

    @Test
    void ofedInfoGarbageIsNone() {
        assertThat(OfedInfo.bundle("ofed_info: command not found\n")).isEmpty();
        assertThat(OfedInfo.bundle("")).isEmpty();
    }
}
