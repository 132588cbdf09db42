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
 * What must be true about RDMA storage, and on which nodes. Cluster-scoped (no Namespaced
 * interface); in the {@code rdmastorage} category, so {@code kubectl get rdmastorage} lists it.
 */
@Group(RdmaStorageProfile.GROUP)
@Version(RdmaStorageProfile.VERSION)
@Kind("RdmaStorageProfile")
@Plural("rdmastorageprofiles")
@Singular("rdmastorageprofile")
@ShortNames("rsp")
@Categories(RdmaStorageProfile.CATEGORY)
// profile names become label values (rdmastorage.io/profile=<name>), which are limited to 63 characters
@ValidationRule(value = "size(self.metadata.name) <= " + RdmaStorageProfile.MAX_NAME_LENGTH,
        message = "metadata.name must be at most 63 characters: profile names are used as label values")
@ValidationRule(value = "has(self.spec)", message = "spec is required (spec: {} checks what every node has)")
@AdditionalPrinterColumn(name = "MATCHED", jsonPath = ".status.nodes.matched", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.nodes.ready", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "NOT READY", jsonPath = ".status.nodes.notReady", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "UNKNOWN", jsonPath = ".status.nodes.unknown", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "ALL READY", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(name = "CONSISTENT", jsonPath = ".status.conditions[?(@.type==\"FleetConsistent\")].status")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason", priority = 1)
@JsonClassDescription("What must be true about RDMA storage, and on which nodes: the checks to run (spec) and the verdict over all matching nodes (status). Cluster-scoped; the operator probes each matching node with a short-lived pod and keeps one RdmaStorageNode per node with its verdict. kubectl get rdmastorage lists profiles, nodes and acceptance runs together.")
public class RdmaStorageProfile extends CustomResource<RdmaStorageProfileSpec, RdmaStorageProfileStatus> {

    public static final String GROUP = "rdmastorage.io";
    public static final String VERSION = "v1alpha1";
    /** {@code kubectl get rdmastorage} lists both kinds. */
    public static final String CATEGORY = "rdmastorage";
    public static final int MAX_NAME_LENGTH = 63;
}
