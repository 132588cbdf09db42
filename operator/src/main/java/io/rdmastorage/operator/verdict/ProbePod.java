package io.rdmastorage.operator.verdict;

/**
 * The probe pod a verdict came from: where it ran and how a person looks at it.
 *
 * @param node the node the pod was pinned to ({@code spec.nodeName})
 */
public record ProbePod(String namespace, String name, String node) {

    public String logsCommand() {
        return "`kubectl -n " + namespace + " logs " + name + "`";
    }

    public String describeCommand() {
        return "`kubectl -n " + namespace + " describe pod " + name + "`";
    }
}
