package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.rdmastorage.contract.InventoryFact;
import java.util.List;

/**
 * How the profile compares its nodes' inventory facts (the profile's FleetConsistent, each node's
 * MatchesFleet): which facts may differ, and whether a node that differs is not ready.
 */
public class FleetSpec {

    @JsonPropertyDescription("Inventory facts that may differ between nodes, e.g. [kernel] during a rolling upgrade.")
    @Size(max = 16)
    private List<@Pattern(InventoryFact.KEY_REGEX) String> allowMixed;

    @JsonPropertyDescription("A node whose facts differ from the fleet's majority is not ready (default false: report, don't fence).")
    @Default("false")
    private Boolean required;

    public List<String> getAllowMixed() {
        return allowMixed;
    }

    public void setAllowMixed(List<String> allowMixed) {
        this.allowMixed = allowMixed;
    }

    public Boolean getRequired() {
        return required;
    }

    public void setRequired(Boolean required) {
        this.required = required;
    }

    /** Whether the spec makes MatchesFleet count towards a node's Ready. */
    public static boolean required(RdmaStorageProfileSpec spec) {
        return spec.getFleet() != null && Boolean.TRUE.equals(spec.getFleet().getRequired());
    }

    /** The facts the spec allows to differ. */
    public static List<String> allowMixed(RdmaStorageProfileSpec spec) {
        return spec.getFleet() == null || spec.getFleet().getAllowMixed() == null ? List.of() : spec.getFleet().getAllowMixed();
    }
}
