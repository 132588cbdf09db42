package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * One inventory fact over a profile's nodes: how many nodes hold each value, the most common first,
 * at most a few values (the rest counted together). Counts only, never node names, so it stays the
 * same size at 5,000 nodes; the FleetConsistent condition names the first few minority nodes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One inventory fact over the profile's nodes: how many nodes hold each value, the most common first (counts only, never node names).")
public class FleetFactCounts {

    @JsonPropertyDescription("The fact's key, as in fleet.allowMixed (hcaFirmware, kernel, ...).")
    private String fact;
    @JsonPropertyDescription("The most common values with their node counts, most nodes first.")
    private List<ValueCount> values = new ArrayList<>();
    @JsonPropertyDescription("How many more distinct values there are beyond those listed; absent when none.")
    private Integer otherValues;
    @JsonPropertyDescription("How many nodes hold those other values; absent when none.")
    private Integer otherNodes;
    @JsonPropertyDescription("fleet.allowMixed names it: its values may differ.")
    private Boolean allowMixed;

    /** One value and how many nodes hold it. */
@JsonClassDescription("One value of the fact and how many nodes hold it.")
    public static class ValueCount {
        @JsonPropertyDescription("The fact's value, such as a kernel release.")
        private String value;
        @JsonPropertyDescription("How many nodes hold it.")
        private Integer nodes;

        public ValueCount() {
        }

        public ValueCount(String value, int nodes) {
            this.value = value;
            this.nodes = nodes;
        }

        public String getValue() {
            return value;
        }

        public void setValue(String value) {
            this.value = value;
        }

        public Integer getNodes() {
            return nodes;
        }

        public void setNodes(Integer nodes) {
            this.nodes = nodes;
        }
    }

    public String getFact() {
        return fact;
    }

    public void setFact(String fact) {
        this.fact = fact;
    }

    public List<ValueCount> getValues() {
        return values;
    }

    public void setValues(List<ValueCount> values) {
        this.values = values;
    }

    public Integer getOtherValues() {
        return otherValues;
    }

    public void setOtherValues(Integer otherValues) {
        this.otherValues = otherValues;
    }

    public Integer getOtherNodes() {
        return otherNodes;
    }

    public void setOtherNodes(Integer otherNodes) {
        this.otherNodes = otherNodes;
    }

    public Boolean getAllowMixed() {
        return allowMixed;
    }

    public void setAllowMixed(Boolean allowMixed) {
        this.allowMixed = allowMixed;
    }
}
