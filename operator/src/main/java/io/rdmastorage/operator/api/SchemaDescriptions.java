package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Map;

/**
 * The descriptions crd-generator 7.5.2 leaves out, taken from the model (build tooling, run by
 * {@link GeneratedCrds}): it writes a property's {@code @JsonPropertyDescription} but ignores
 * {@code @JsonClassDescription}, so the root, spec, status, list items and map values of a CRD would
 * have none. Walking the schema beside the Java types, this gives every such node its type's
 * {@code @JsonClassDescription} (a property without its own description too); a list item or map
 * value of a plain type (a string, a number) is described as an entry of its property. Types of the
 * fabric8 model (Condition) are described by a type of ours with the same properties
 * ({@link ConditionDescriptions}).
 */
final class SchemaDescriptions {

    static final String API_VERSION = "APIVersion defines the versioned schema of this representation of an object."
            + " Servers should convert recognized schemas to the latest internal value, and may reject unrecognized"
            + " values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
    static final String KIND = "Kind is a string value representing the REST resource this object represents."
            + " Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase."
            + " More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
    static final String METADATA = "Standard object's metadata. More info:"
            + " https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

    /** Types we do not own, and the type of ours that carries their descriptions. */
    private static final Map<Class<?>, Class<?>> DESCRIBED_BY = Map.of(Condition.class, ConditionDescriptions.class);

    private SchemaDescriptions() {
    }

    /** {@code crd} with the descriptions of {@code resource}'s types where crd-generator wrote none. */
    static CustomResourceDefinition describe(CustomResourceDefinition crd, Class<? extends CustomResource<?, ?>> resource) {
        Type[] specAndStatus = ((ParameterizedType) resource.getGenericSuperclass()).getActualTypeArguments();
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
            describeIfAbsent(root, classDescription(resource));
            Map<String, JSONSchemaProps> properties = root.getProperties();
            describeIfAbsent(properties.get("apiVersion"), API_VERSION);
            describeIfAbsent(properties.get("kind"), KIND);
            describeIfAbsent(properties.get("metadata"), METADATA);
            describeValue(properties.get("spec"), specAndStatus[0], "spec");
            describeValue(properties.get("status"), specAndStatus[1], "status");
        }
        return crd;
    }

    private static void describeValue(JSONSchemaProps node, Type type, String name) {
        if (node == null) {
            return;
        }
        Class<?> raw = raw(type);
        describeIfAbsent(node, classDescription(raw));
        if (type instanceof GenericArrayType || raw.isArray() || Collection.class.isAssignableFrom(raw)) {
            Type element = element(type);
            if (node.getItems() != null && node.getItems().getSchema() != null) {
                JSONSchemaProps items = node.getItems().getSchema();
                describeIfAbsent(items, classDescription(raw(element)));
                describeIfAbsent(items, "An entry of " + name + ".");
                describeValue(items, element, name);
            }
        } else if (Map.class.isAssignableFrom(raw)) {
            Type value = type instanceof ParameterizedType p ? p.getActualTypeArguments()[1] : Object.class;
            if (node.getAdditionalProperties() != null && node.getAdditionalProperties().getSchema() != null) {
                JSONSchemaProps values = node.getAdditionalProperties().getSchema();
                describeIfAbsent(values, classDescription(raw(value)));
                describeIfAbsent(values, "The value of one key of " + name + ".");
                describeValue(values, value, name);
            }
        } else if (node.getProperties() != null) {
            Class<?> described = DESCRIBED_BY.getOrDefault(raw, raw);
            node.getProperties().forEach((property, child) -> {
                Field field = field(described, property);
                if (field != null) {
                    JsonPropertyDescription own = field.getAnnotation(JsonPropertyDescription.class);
                    describeIfAbsent(child, own == null ? null : own.value());
                    SchemaFrom from = field.getAnnotation(SchemaFrom.class);
                    describeValue(child, from != null ? from.type() : field.getGenericType(), property);
                }
            });
        }
    }

    private static void describeIfAbsent(JSONSchemaProps node, String description) {
        if (node != null && description != null && (node.getDescription() == null || node.getDescription().isBlank())) {
            node.setDescription(description);
        }
    }

    private static String classDescription(Class<?> type) {
        JsonClassDescription description = DESCRIBED_BY.getOrDefault(type, type).getAnnotation(JsonClassDescription.class);
        return description == null ? null : description.value();
    }

    /** The field behind a JSON property, in {@code type} or its superclasses. */
    private static Field field(Class<?> type, String property) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                JsonProperty named = field.getAnnotation(JsonProperty.class);
                String name = named != null && !named.value().isEmpty() ? named.value() : field.getName();
                if (name.equals(property)) {
                    return field;
                }
            }
        }
        return null;
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return raw(p.getRawType());
        }
        if (type instanceof GenericArrayType a) {
            return java.lang.reflect.Array.newInstance(raw(a.getGenericComponentType()), 0).getClass();
        }
        if (type instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        return Object.class;
    }

    private static Type element(Type type) {
        if (type instanceof GenericArrayType a) {
            return a.getGenericComponentType();
        }
        if (type instanceof Class<?> c && c.isArray()) {
            return c.getComponentType();
        }
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[0];
        }
        return Object.class;
    }
}
