package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One node's verdict for one profile; named {@code <profile>.<node>} (hashed when too long),
 * labelled with both, owned by the profile. Cluster-scoped. Its printer columns are those below,
 * with the checks' columns ({@link io.rdmastorage.contract.PrinterColumn}) after READY.
 */
@Group(RdmaStorageProfile.GROUP)
@Version(RdmaStorageProfile.VERSION)
@Kind("RdmaStorageNode")
@Plural("rdmastoragenodes")
@Singular("rdmastoragenode")
@ShortNames("rsn")
@Categories(RdmaStorageProfile.CATEGORY)
@AdditionalPrinterColumn(name = "NODE", jsonPath = ".spec.nodeName")
@AdditionalPrinterColumn(name = "PROFILE", jsonPath = ".spec.profile")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
// the checks' own columns (GPFS, NVMEOF, GDS, LATENCY-US) come from their descriptors in probe-contract:
// GeneratedCrds puts them after READY
@AdditionalPrinterColumn(name = "LAST PROBE", jsonPath = ".status.lastProbeTime", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason", priority = 1)
@JsonClassDescription("One node's verdict for one RdmaStorageProfile: a condition per check and the facts behind them. Written by the operator (never by users), named <profile>.<node>, owned by the profile and deleted with it. Cluster-scoped.")
public class RdmaStorageNode extends CustomResource<RdmaStorageNodeSpec, RdmaStorageNodeStatus> {

    public static final String PROFILE_LABEL = "rdmastorage.io/profile";
    public static final String NODE_LABEL = "rdmastorage.io/node";
}
