package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpfsYOutputTest {

    @Test
    void mmdiagConfigSampleIsReadByHeaderIncludingItsWrappedRecord() {
        GpfsYOutput y = GpfsYOutput.parse(Samples.body("gpfs/mmdiag-config-Y_pagepool_gpfs-exporter-fixture.txt"));

        assertThat(y.recognized()).isTrue();
        List<GpfsYOutput.Row> rows = y.section("config");
        assertThat(rows).extracting(r -> r.get("name"))
                .containsExactly("opensslLibName", "pagepool", "pagepoolMaxPhysMemPct", "parallelMetadataWrite");
        // the record wrapped inside "libss|l.so.0" is joined without the line break, %3A decoded to ':'
        assertThat(rows.get(0).get("value")).isEqualTo("/usr/lib64/libssl.so.10:/usr/lib64/libssl.so.6:"
                + "/usr/lib64/libssl.so.0.9.8:/lib64/libssl.so.6:libssl.so:libssl.so.0:libssl.so.4:/lib64/libssl.so.1.0.0");
        assertThat(rows.get(1).get("value")).isEqualTo("4294967296");
        assertThat(rows.get(1).get("changed")).isEqualTo("static");
        assertThat(rows.get(2).get("changed")).isEmpty();
    }

    @Test
    void mmgetstateSampleHasNoSectionName() {
        GpfsYOutput y = GpfsYOutput.parse(Samples.body("gpfs/mmgetstate-Y_active_gpfs-exporter-fixture.txt"));

        assertThat(y.section("")).singleElement().satisfies(r -> {
            assertThat(r.command()).isEqualTo("mmgetstate");
            assertThat(r.get("nodeName")).isEqualTo("ib-proj-nsd05.domain");
            assertThat(r.get("state")).isEqualTo("active");
            assertThat(r.get("totalNodes")).isEqualTo("1122");
            assertThat(r.get("cnfsState")).isEqualTo("(undefined)");
            assertThat(r.get("noSuchField")).isEmpty();
        });
    }

    @Test
    void eachSectionHasItsOwnHeader() {
        // constructed from IBM's documented mmlscluster -Y HEADER rows
        GpfsYOutput y = GpfsYOutput.parse(GpfsFixtures.mmlsclusterY());

        assertThat(y.headers()).isEqualTo(2);
        assertThat(y.section("clusterSummary")).singleElement()
                .satisfies(r -> assertThat(r.get("rshPath")).isEqualTo("/usr/bin/ssh"));
        assertThat(y.section("clusterNode")).extracting(r -> r.get("daemonNodeName") + "=" + r.get("ipAddress"))
                .containsExactly("nsd-01=10.10.0.1", "nsd-02=10.10.0.2", "gpu-01-ib=10.10.0.11", "gpu-02-ib=10.10.0.12");
    }

    @Test
    void toleratesWarningsCrlfTrailingBlanksAndFieldsAddedByNewerReleases() {
        String text = "\r\nmmdiag: [W] this node runs an older release\r\n"
                + "mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\r\n"
                + "mmdiag:config:0:1:::verbsPorts:mlx5_0/1%20mlx5_1/1:static:extra:fields:  \r\n"
                + "mmdiag:config:0:1:::pagepool:100%:\r\n";

        List<GpfsYOutput.Row> rows = GpfsYOutput.parse(text).section("config");

        assertThat(rows).extracting(r -> r.get("name") + "=" + r.get("value"))
                .containsExactly("verbsPorts=mlx5_0/1 mlx5_1/1", "pagepool=100%");
    }

    @Test
    void dataWithoutHeaderAndGarbageAreNotRecognized() {
        assertThat(GpfsYOutput.parse("mmdiag:config:0:1:::pagepool:1:\n").rows()).isEmpty();
        assertThat(GpfsYOutput.parse("Segmentation fault\n\u0000\u0013:::%%%\n").recognized()).isFalse();
        assertThat(GpfsYOutput.parse("").recognized()).isFalse();
    }

    @Test
    void decodesPercentEncodedUtf8() {
        assertThat(GpfsYOutput.decode("a%3Ab%2Fc%C3%A9%zz%4")).isEqualTo("a:b/cé%zz%4");
    }
}
