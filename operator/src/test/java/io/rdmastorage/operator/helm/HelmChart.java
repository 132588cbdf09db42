package io.rdmastorage.operator.helm;

import com.fasterxml.jackson.core.type.TypeReference;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The chart in helm/rdma-storage-operator, rendered with the Helm library (helm-java, in-process and offline). */
public final class HelmChart {

    static final Path DIR = Path.of(System.getProperty("rdmastorage.chart.dir", "../helm/rdma-storage-operator"));
    static final String RELEASE = "rso";
    static final String FULLNAME = "rso-rdma-storage-operator";

    /**
     * helm-java's template, unlike the {@code helm template} CLI, lets {@code lookup} contact a
     * cluster (there is none here), so rendering switches off the one template that looks
     * (namespace.checkPodSecurityLabel); HelmInstallApiServerTest runs that check against a real API server.
     */
    static final Map<String, Object> OFFLINE = Map.of("namespace.checkPodSecurityLabel", false);

    private HelmChart() {
    }

    /** The chart's appVersion: the images' tag by default. */
    public static String appVersion() {
        try {
            return java.nio.file.Files.readAllLines(DIR.resolve("Chart.yaml")).stream().filter(l -> l.startsWith("appVersion:"))
                    .map(l -> l.substring("appVersion:".length()).replace("\"", "").strip()).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Helm helm() {
        return new Helm(DIR);
    }

    /** {@code helm template rso DIR -n namespace --set k=v ...}, plus {@link #OFFLINE}. */
    static String template(String namespace, Map<String, Object> values) {
        return template(namespace, null, values);
    }

    /** {@code helm template rso DIR -n namespace -f valuesFile --set k=v ...}, plus {@link #OFFLINE}. */
    static String template(String namespace, Path valuesFile, Map<String, Object> values) {
        return template(RELEASE, namespace, valuesFile, values);
    }

    /** {@code helm template release DIR -n namespace -f valuesFile --set k=v ...}, plus {@link #OFFLINE}. */
    static String template(String release, String namespace, Path valuesFile, Map<String, Object> values) {
        TemplateCommand template = helm().template().withName(release).withNamespace(namespace);
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile);
        }
        Map<String, Object> all = new LinkedHashMap<>(OFFLINE);
        all.putAll(values);
        for (Map.Entry<String, Object> value : all.entrySet()) {
            template = template.set(value.getKey(), value.getValue());
        }
        return template.call();
    }

    /** The objects of a multi-document YAML stream (comment-only documents skipped); unknown kinds are generic. */
    static List<HasMetadata> objects(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            boolean empty = document.lines().map(String::strip).allMatch(l -> l.isEmpty() || l.startsWith("#"));
            if (!empty) {
                objects.add(Serialization.unmarshal(document));
            }
        }
        return objects;
    }

    static <T extends HasMetadata> T only(List<HasMetadata> objects, Class<T> kind) {
        List<T> matching = objects.stream().filter(kind::isInstance).map(kind::cast).toList();
        if (matching.size() != 1) {
            throw new AssertionError("expected exactly one " + kind.getSimpleName() + ", found " + matching.size()
                    + " in " + objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList());
        }
        return matching.get(0);
    }

    static List<String> kinds(List<HasMetadata> objects) {
        return objects.stream().map(HasMetadata::getKind).toList();
    }

    /** The RBAC rules as the chart's files/ folder has them: their single source. */
    static List<PolicyRule> rulesFile(String name) {
        try {
            return Serialization.yamlMapper().readValue(DIR.resolve("files").resolve(name).toFile(), new TypeReference<>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
