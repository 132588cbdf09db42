package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class CephConfTest {

    @Test
    void clusterOnlyRdmaWithInlineCommentsOutsideAnySection() {
        CephConf conf = CephConf.parse(Samples.body("ceph/ceph-conf_async+rdma_cluster-only_bond.txt"));

        assertThat(conf.find("ms_cluster_type", "ms_public_type")).extracting(CephConf.Setting::toString)
                .containsExactly("[global] ms_cluster_type = async+rdma", "[global] ms_public_type = async+posix");
        assertThat(conf.sections().get("global")).containsEntry("ms_async_rdma_device_name", "mlx5_bond_0");
    }

    @Test
    void semicolonCommentsAndIndentedOptions() {
        CephConf conf = CephConf.parse(Samples.body("ceph/ceph-conf_async+rdma_iwarp-rdma-cm_vstart_ceph-devel.txt"));

        assertThat(conf.find("ms_type")).extracting(CephConf.Setting::value).containsExactly("async+rdma");
        assertThat(conf.sections().get("global")).containsEntry("ms_async_rdma_type", "iwarp")
                .containsEntry("ms_async_rdma_local_gid", "");
    }

    @Test
    void sectionsAndSpacedOptionNamesAsCephAllows() {
        CephConf conf = CephConf.parse("""
                [global]
                  fsid = 1c7b
                  ms type = async+posix
                [osd]
                  ms-cluster-type = "async+rdma"
                """);

        assertThat(conf.find("ms_type", "ms_cluster_type")).extracting(CephConf.Setting::toString)
                .containsExactly("[global] ms_type = async+posix", "[osd] ms_cluster_type = async+rdma");
    }

    @Test
    void garbageGivesNoSettings() {
        assertThat(CephConf.parse("\u0000\u0001 not = \n[[[ \n = value").find("ms_type")).isEmpty();
    }
}
