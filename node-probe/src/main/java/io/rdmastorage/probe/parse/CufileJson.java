package io.rdmastorage.probe.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Locale;
import java.util.Optional;

/**
 * The compatibility-mode settings of {@code /etc/cufile.json}. The file NVIDIA ships is JSON with
 * {@code //} comment lines (and admins leave trailing commas), so it is read leniently.
 *
 * @param allowCompatMode {@code properties.allow_compat_mode} (GDS 1.0 called it {@code use_compat_mode}):
 *                        true lets cuFile fall back to POSIX reads through a bounce buffer, silently,
 *                        where GDS cannot serve a file; absent means libcufile's default, which is true
 * @param forceCompatMode {@code properties.force_compat_mode}: true sends every I/O through POSIX
 */
public record CufileJson(Optional<Boolean> allowCompatMode, Optional<Boolean> forceCompatMode) {

    private static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    /** The settings, or empty when the text is not a JSON object even when read leniently. */
    public static Optional<CufileJson> parse(String text) {
        JsonNode root;
        try {
            root = LENIENT.readTree(text);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        JsonNode properties = root.path("properties");
        Optional<Boolean> allow = flag(properties.path("allow_compat_mode"))
                .or(() -> flag(properties.path("use_compat_mode")));
        return Optional.of(new CufileJson(allow, flag(properties.path("force_compat_mode"))));
    }

    /** Whether cuFile may fall back to POSIX: the explicit setting, else libcufile's default (true). */
    public boolean compatModeAllowed() {
        return allowCompatMode.orElse(true);
    }

    private static Optional<Boolean> flag(JsonNode node) {
        if (node.isBoolean()) {
            return Optional.of(node.booleanValue());
        }
        if (node.isTextual()) {
            String v = node.textValue().strip().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Optional.of(Boolean.parseBoolean(v));
            }
        }
        return Optional.empty();
    }
}
