package io.rdmastorage.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * docs/api-reference.md, made from the committed CRDs: one section per kind, a table per object
 * (field, type, description, validation). ApiReferenceTest holds the committed page equal to it.
 */
final class ApiReference {

    static final String REGENERATE = "mvn -pl operator -am test -Dtest=ApiReferenceTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -Dapi-reference.update";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ApiReference() {
    }

    static Path page() {
        return Path.of(System.getProperty("rdmastorage.docs.dir", "../docs")).resolve("api-reference.md");
    }

    /** The page for the CRDs in {@code crds}. */
    static String generate(Path crds) {
        StringBuilder md = new StringBuilder();
        md.append("# API reference\n\n");
        md.append("<!-- Generated from crds/ by ApiReference (operator tests); do not edit. Regenerate with:\n     ")
                .append(REGENERATE).append(" -->\n\n");
        md.append("The custom resources of the `rdmastorage.io` API group, as the committed CRDs in `crds/` define them")
                .append(" (`kubectl explain` shows the same descriptions). Types are OpenAPI types: `[]T` is a list,")
                .append(" `map[string]T` an object with free keys.\n\n");
        List<JsonNode> docs = new ArrayList<>();
        for (Class<? extends CustomResource<?, ?>> resource : GeneratedCrds.RESOURCES) {
            try {
                docs.add(YAML.readTree(crds.resolve(GeneratedCrds.fileName(resource)).toFile()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (JsonNode crd : docs) {
            String kind = crd.path("spec").path("names").path("kind").asText();
            md.append("- [").append(kind).append("](#").append(kind.toLowerCase()).append(")\n");
        }
        for (JsonNode crd : docs) {
            JsonNode names = crd.path("spec").path("names");
            String kind = names.path("kind").asText();
            for (JsonNode version : crd.path("spec").path("versions")) {
                JsonNode root = version.path("schema").path("openAPIV3Schema");
                md.append("\n## ").append(kind).append("\n\n");
                md.append("`").append(crd.path("spec").path("group").asText()).append("/").append(version.path("name").asText())
                        .append("`, ").append(crd.path("spec").path("scope").asText()).append(", plural `")
                        .append(names.path("plural").asText()).append("`, short name");
                names.path("shortNames").forEach(s -> md.append(" `").append(s.asText()).append("`"));
                md.append(".\n\n").append(root.path("description").asText()).append("\n");
                for (String top : List.of("spec", "status")) {
                    JsonNode node = root.path("properties").path(top);
                    if (!node.isMissingNode()) {
                        objects(node, top, md);
                    }
                }
            }
        }
        return md.toString();
    }

    /** A table for {@code node} if it is an object with properties, then one for each object below it. */
    private static void objects(JsonNode node, String path, StringBuilder md) {
        if (node.path("items").isObject()) {
            objects(node.path("items"), path + "[]", md);
            return;
        }
        if (node.path("additionalProperties").isObject()) {
            objects(node.path("additionalProperties"), path + "{}", md);
            return;
        }
        JsonNode properties = node.path("properties");
        if (!properties.isObject() || properties.isEmpty()) {
            return;
        }
        md.append("\n### `").append(path).append("`\n\n").append(node.path("description").asText()).append("\n\n");
        md.append("| Field | Type | Description | Validation |\n|---|---|---|---|\n");
        List<String> required = new ArrayList<>();
        node.path("required").forEach(r -> required.add(r.asText()));
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        properties.fields().forEachRemaining(fields::add);
        for (Map.Entry<String, JsonNode> field : fields) {
            JsonNode f = field.getValue();
            md.append("| `").append(field.getKey()).append("` | ").append(cell(type(f))).append(" | ")
                    .append(cell(f.path("description").asText())).append(" | ")
                    .append(validation(f, required.contains(field.getKey()))).append(" |\n");
        }
        for (Map.Entry<String, JsonNode> field : fields) {
            objects(field.getValue(), path + "." + field.getKey(), md);
        }
    }

    static String type(JsonNode node) {
        if (node.path("items").isObject()) {
            return "[]" + type(node.path("items"));
        }
        if (node.path("additionalProperties").isObject()) {
            return "map[string]" + type(node.path("additionalProperties"));
        }
        if (node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !node.has("type")) {
            return "any";
        }
        return node.path("type").asText("any");
    }

    /** Required, default, enum, pattern, bounds and CEL rules of a field (its list items' too). */
    static String validation(JsonNode node, boolean required) {
        List<String> rules = new ArrayList<>();
        if (required) {
            rules.add("required");
        }
        if (node.has("default")) {
            rules.add("default: `" + node.get("default").toString().replace("\"", "") + "`");
        }
        add(rules, node, "");
        if (node.path("items").isObject()) {
            add(rules, node.path("items"), "each ");
        }
        return cell(String.join("; ", rules));
    }

    private static void add(List<String> rules, JsonNode node, String prefix) {
        if (node.has("enum")) {
            List<String> values = new ArrayList<>();
            node.get("enum").forEach(v -> values.add("`" + v.asText() + "`"));
            rules.add(prefix + "one of " + String.join(", ", values));
        }
        if (node.has("pattern")) {
            rules.add(prefix + "pattern `" + node.get("pattern").asText() + "`");
        }
        if (node.has("minimum")) {
            rules.add(prefix + (node.path("exclusiveMinimum").asBoolean(false) ? "> " : "≥ ") + node.get("minimum").asText());
        }
        if (node.has("maximum")) {
            rules.add(prefix + (node.path("exclusiveMaximum").asBoolean(false) ? "< " : "≤ ") + node.get("maximum").asText());
        }
        if (node.has("minLength")) {
            rules.add(prefix + "min length " + node.get("minLength").asText());
        }
        if (node.has("maxLength")) {
            rules.add(prefix + "max length " + node.get("maxLength").asText());
        }
        if (node.has("minItems")) {
            rules.add(prefix + "min items " + node.get("minItems").asText());
        }
        if (node.has("maxItems")) {
            rules.add(prefix + "max items " + node.get("maxItems").asText());
        }
        if (node.has("maxProperties")) {
            rules.add(prefix + "max entries " + node.get("maxProperties").asText());
        }
        for (JsonNode rule : node.path("x-kubernetes-validations")) {
            String message = rule.path("message").asText(rule.path("messageExpression").isMissingNode() ? rule.path("rule").asText()
                    : "(computed message)");
            rules.add(prefix + "rule: " + message);
        }
    }

    /** Text for one Markdown table cell: no line breaks, pipes escaped. */
    static String cell(String text) {
        return text.replace("\r", "").replace("\n", " ").replace("|", "\\|").strip();
    }
}
