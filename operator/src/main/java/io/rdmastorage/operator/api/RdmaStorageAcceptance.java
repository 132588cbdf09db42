package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A one-shot RDMA-against-TCP comparison on one node, like a Job: the same read-only fio workloads
 * on the same NVMe-oF target, once per transport, and the numbers side by side; on a file-system
 * directory, over the transport its file system uses, beside an earlier run's numbers; or, with the
 * verbs target, perftest against fio's TCP engine between the node and a peer node. Created by hand
 * when a node or target is commissioned, never by a profile. Cluster-scoped; in the
 * {@code rdmastorage} category. Its spec is immutable: a run measures what it was created with.
 */
@Group(RdmaStorageProfile.GROUP)
@Version(RdmaStorageProfile.VERSION)
@Kind("RdmaStorageAcceptance")
@Plural("rdmastorageacceptances")
@Singular("rdmastorageacceptance")
@ShortNames("rsa")
@Categories(RdmaStorageProfile.CATEGORY)
@ValidationRule(value = "has(self.spec)", message = "spec is required: nodeName and a target (nvmeof, path or verbs)")
@ValidationRule(value = "size(self.metadata.name) <= " + RdmaStorageProfile.MAX_NAME_LENGTH,
        message = "metadata.name must be at most 63 characters: run names are used as label values")
@AdditionalPrinterColumn(name = "NODE", jsonPath = ".spec.nodeName")
@AdditionalPrinterColumn(name = "TARGET", jsonPath = ".status.target")
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "LATENCY-RATIO", jsonPath = ".status.ratios.latency", type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(name = "CPU-RATIO", jsonPath = ".status.ratios.cpuPerIo", type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(name = "RDMA-EFFECTIVE", jsonPath = ".status.conditions[?(@.type==\"RdmaEffective\")].status")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"RdmaEffective\")].reason", priority = 1)
@JsonClassDescription("A one-shot RDMA-against-TCP comparison on one node, like a Job: the same read-only fio workloads on one NVMe-oF target once per transport (nvmeof), on a file-system directory over its current transport beside an earlier run (path), or perftest against TCP to a peer node (verbs); the numbers side by side in status and in a Markdown report. Created by hand when a node or target is commissioned; the spec cannot change. Cluster-scoped.")
public class RdmaStorageAcceptance extends CustomResource<RdmaStorageAcceptanceSpec, RdmaStorageAcceptanceStatus> {

    public static final String KIND = "RdmaStorageAcceptance";
    /** The run an object belongs to (run names are ≤ 63 characters, so always a valid value). */
    public static final String RUN_LABEL = "rdmastorage.io/acceptance";
    /** The UID of the run an object belongs to: a run re-created under the same name is another run. */
    public static final String RUN_UID_LABEL = "rdmastorage.io/acceptance-uid";
}
