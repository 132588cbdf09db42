package io.rdmastorage.operator.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Committed files that a generator in the tests makes (docs/api-reference.md, bundle/): the test
 * holds them equal to what the generator makes now, and with {@code -D<update property>} writes
 * them first, which is how they are regenerated.
 */
public final class GeneratedFiles {

    private GeneratedFiles() {
    }

    /** {@code file} is exactly {@code generated}. */
    public static void assertCurrent(Path file, String generated, String updateProperty, String regenerate) {
        if (System.getProperty(updateProperty) != null) {
            write(file, generated);
        }
        assertThat(Files.exists(file)).as("%s is missing; generate it with %s", file, regenerate).isTrue();
        assertThat(read(file)).as("%s is not what its generator makes now; regenerate it with %s", file, regenerate)
                .isEqualTo(generated);
    }

    /** {@code dir} holds exactly the files of {@code generated} (by path relative to it), each with its content. */
    public static void assertTreeCurrent(Path dir, SortedMap<String, String> generated, String updateProperty, String regenerate) {
        if (System.getProperty(updateProperty) != null) {
            for (String stale : files(dir)) {
                if (!generated.containsKey(stale)) {
                    delete(dir.resolve(stale));
                }
            }
            generated.forEach((path, content) -> write(dir.resolve(path), content));
        }
        assertThat(files(dir)).as("the files in %s; regenerate them with %s", dir, regenerate)
                .containsExactlyElementsOf(generated.keySet());
        for (Map.Entry<String, String> file : generated.entrySet()) {
            assertThat(read(dir.resolve(file.getKey())))
                    .as("%s/%s is not what its generator makes now; regenerate it with %s", dir, file.getKey(), regenerate)
                    .isEqualTo(file.getValue());
        }
    }

    /** The regular files under {@code dir}, by relative path with '/', sorted; none if it does not exist. */
    private static TreeSet<String> files(Path dir) {
        TreeSet<String> files = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(f -> files.add(dir.relativize(f).toString().replace('\\', '/')));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
