package io.rdmastorage.probe.parse;

import io.rdmastorage.contract.json.Json;
import java.util.Locale;
import java.util.Map;
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

    /** The settings, or empty when the text is not a JSON object even when read leniently. */
    public static Optional<CufileJson> parse(String text) {
        Object root;
        try {
            root = Json.parseLenient(text);
        } catch (Json.JsonSyntaxException e) {
            return Optional.empty();
        }
        if (!(root instanceof Map<?, ?> document)) {
            return Optional.empty();
        }
        Map<?, ?> properties = document.get("properties") instanceof Map<?, ?> p ? p : Map.of();
        Optional<Boolean> allow = flag(properties.get("allow_compat_mode"))
                .or(() -> flag(properties.get("use_compat_mode")));
        return Optional.of(new CufileJson(allow, flag(properties.get("force_compat_mode"))));
    }

    /** Whether cuFile may fall back to POSIX: the explicit setting, else libcufile's default (true). */
    public boolean compatModeAllowed() {
        return allowCompatMode.orElse(true);
    }

    private static Optional<Boolean> flag(Object value) {
        if (value instanceof Boolean b) {
            return Optional.of(b);
        }
        if (value instanceof String text) {
            String v = text.strip().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Optional.of(Boolean.parseBoolean(v));
            }
        }
        return Optional.empty();
    }
}
