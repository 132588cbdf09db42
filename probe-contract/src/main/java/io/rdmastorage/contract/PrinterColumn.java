package io.rdmastorage.contract;

/**
 * A column of {@code kubectl get rdmastoragenode} for a check. The operator's CRD build step adds
 * one per descriptor that has it, after READY, in check order.
 *
 * @param name     the header (kubectl upper-cases it)
 * @param jsonPath where the value is in an RdmaStorageNode
 * @param type     the column type of a CRD printer column: string, number, date, ...
 */
public record PrinterColumn(String name, String jsonPath, String type) {

    /** The status (True/False/Unknown) of the check's own condition. */
    public static PrinterColumn conditionStatus(String name, String conditionType) {
        return new PrinterColumn(name, ".status.conditions[?(@.type==\"" + conditionType + "\")].status", "string");
    }
}
