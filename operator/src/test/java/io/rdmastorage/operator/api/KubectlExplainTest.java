package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.testing.Kubectl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl explain} on the real API server with the committed CRDs: what a storage admin reads
 * comes from the model's descriptions, for a check section, its fields and the status.
 */
class KubectlExplainTest {

    private static Kubectl kubectl;

    @BeforeAll
    static void crds() {
        kubectl = ApiServerCrds.installed().kubectl();
    }

    @Test
    void explainsTheRoceSectionAndItsFields() {
        String out = kubectl.run("explain", "rdmastorageprofile.spec.roce").orThrow("kubectl explain");
        assertThat(out.replaceAll("\\s+", " "))
                .contains("FIELD: roce <Object>")
                .contains("Check the lossless traffic class of RoCE storage traffic: the DSCP must map to the priority,"
                        + " with PFC and ECN on. Absent: not checked.")
                .contains("dscp <integer> -required-")
                .contains("The DSCP value the storage traffic carries, 0-63")
                .contains("pfcPriorities <[]integer>");
    }

    @Test
    void explainsAFieldWithItsDefault() {
        String out = kubectl.run("explain", "rdmastorageprofile.spec.interval").orThrow("kubectl explain");
        assertThat(out.replaceAll("\\s+", " "))
                .contains("How often each node is probed again, a Go duration such as 15m or 1h30m")
                .contains("Default 15m.");
    }

    @Test
    void explainsTheKindAndTheStatusOfANode() {
        assertThat(kubectl.run("explain", "rdmastorageprofile").orThrow("kubectl explain").replaceAll("\\s+", " "))
                .contains("What must be true about RDMA storage, and on which nodes");
        assertThat(kubectl.run("explain", "rdmastoragenode.status.conditions").orThrow("kubectl explain")
                .replaceAll("\\s+", " "))
                .contains("reason <string>")
                .contains("True, False or Unknown.");
    }
}
