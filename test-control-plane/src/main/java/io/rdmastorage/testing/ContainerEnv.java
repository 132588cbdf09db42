package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A container's environment as the kubelet computes it (literal values and the downward API's
 * {@code fieldRef}s), and Kubernetes' {@code $(VAR)} expansion of command and args with it.
 */
public final class ContainerEnv {

    private ContainerEnv() {
    }

    /** The container's variables, in order; sources other than value and fieldRef are left out. */
    public static Map<String, String> of(Pod pod, Container container, String hostIp) {
        Map<String, String> env = new LinkedHashMap<>();
        if (container.getEnv() == null) {
            return env;
        }
        for (EnvVar variable : container.getEnv()) {
            if (variable.getValue() != null) {
                env.put(variable.getName(), expand(variable.getValue(), env));
            } else if (variable.getValueFrom() != null && variable.getValueFrom().getFieldRef() != null) {
                fieldValue(pod, variable.getValueFrom().getFieldRef().getFieldPath(), hostIp)
                        .ifPresent(value -> env.put(variable.getName(), value));
            }
        }
        return env;
    }

    /** Expands each argument like the kubelet does. */
    public static List<String> expand(List<String> args, Map<String, String> env) {
        return args == null ? List.of() : args.stream().map(arg -> expand(arg, env)).toList();
    }

    /**
     * {@code $(NAME)} becomes the variable's value when defined and stays as written otherwise;
     * {@code $$} is an escaped {@code $}.
     */
    public static String expand(String text, Map<String, String> env) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length()) {
                char next = text.charAt(i + 1);
                if (next == '$') {
                    out.append('$');
                    i += 2;
                    continue;
                }
                int close = next == '(' ? text.indexOf(')', i + 2) : -1;
                if (close > 0) {
                    String name = text.substring(i + 2, close);
                    String value = env.get(name);
                    out.append(value != null ? value : text.substring(i, close + 1));
                    i = close + 1;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static Optional<String> fieldValue(Pod pod, String path, String hostIp) {
        return Optional.ofNullable(switch (path) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "metadata.uid" -> pod.getMetadata().getUid();
            case "spec.nodeName" -> pod.getSpec().getNodeName();
            case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName();
            case "status.hostIP", "status.podIP" -> hostIp;
            default -> labelOrAnnotation(pod, path);
        });
    }

    private static String labelOrAnnotation(Pod pod, String path) {
        for (String prefix : List.of("metadata.labels['", "metadata.annotations['")) {
            if (path.startsWith(prefix) && path.endsWith("']")) {
                String key = path.substring(prefix.length(), path.length() - 2);
                Map<String, String> map = prefix.contains("labels") ? pod.getMetadata().getLabels() : pod.getMetadata().getAnnotations();
                return map == null ? null : map.get(key);
            }
        }
        return null;
    }
}
