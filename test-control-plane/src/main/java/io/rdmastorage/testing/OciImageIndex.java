package io.rdmastorage.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * An OCI image archive as {@code scripts/build-image.sh} writes it, unpacked into a folder: its
 * {@code index.json} names one image index by the tag, the index one manifest per platform. Reads
 * what a node's runtime would pull for each platform: the config's architecture and the files of
 * its layers, streamed (a layer is never unpacked to disk).
 */
public final class OciImageIndex {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDEX = "application/vnd.oci.image.index.v1+json";

    /**
     * One platform's image: its manifest's platform, its config's, its layers' digests, and the
     * config's entrypoint and user (what a runtime starts, as whom).
     */
    public record PlatformImage(String platform, String configArchitecture, String configOs, List<String> layers,
                                List<String> entrypoint, String user) {
    }

    /** A regular file of a layer: its path in the image, its size, its first bytes (up to 64). */
    public record LayerFile(String path, long size, byte[] head) {
        /** The ELF machine of an ELF file ({@code 62} x86-64, {@code 183} AArch64); -1 when it is no ELF file. */
        public int elfMachine() {
            boolean elf = head.length >= 20 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
            // e_machine is at offset 18, in the file's byte order (e_ident[EI_DATA]: 1 little-endian)
            return !elf ? -1 : head[5] == 1 ? (head[18] & 0xff) | (head[19] & 0xff) << 8 : (head[18] & 0xff) << 8 | (head[19] & 0xff);
        }
    }

    /** Reads each file of a layer: its header, then the stream of its content (which the reader may leave unread). */
    @FunctionalInterface
    public interface FileReader {
        void read(LayerFile file, InputStream content) throws IOException;
    }

    private final Path dir;
    private final String tag;
    private final List<PlatformImage> images;

    private OciImageIndex(Path dir, String tag, List<PlatformImage> images) {
        this.dir = dir;
        this.tag = tag;
        this.images = images;
    }

    /** Unpacks {@code archive} into {@code dir} and reads its index. */
    public static OciImageIndex open(Path archive, Path dir) {
        try {
            Files.createDirectories(dir);
            Commands.run(Duration.ofMinutes(2), List.of("tar", "-C", dir.toString(), "-xf", archive.toString()))
                    .orThrow("tar -xf " + archive);
            JsonNode top = JSON.readTree(dir.resolve("index.json").toFile());
            if (top.path("manifests").size() != 1 || !INDEX.equals(top.path("manifests").get(0).path("mediaType").asText())) {
                throw new IllegalStateException(archive + ": index.json names " + top.path("manifests") + ", not one image index");
            }
            JsonNode entry = top.path("manifests").get(0);
            JsonNode index = blob(dir, entry.path("digest").asText());
            List<PlatformImage> images = new ArrayList<>();
            for (JsonNode m : index.path("manifests")) {
                JsonNode manifest = blob(dir, m.path("digest").asText());
                JsonNode config = blob(dir, manifest.path("config").path("digest").asText());
                List<String> layers = new ArrayList<>();
                manifest.path("layers").forEach(l -> layers.add(l.path("digest").asText()));
                List<String> entrypoint = new ArrayList<>();
                config.path("config").path("Entrypoint").forEach(e -> entrypoint.add(e.asText()));
                images.add(new PlatformImage(m.path("platform").path("os").asText() + "/" + m.path("platform").path("architecture").asText(),
                        config.path("architecture").asText(), config.path("os").asText(), layers, entrypoint,
                        config.path("config").path("User").asText()));
            }
            return new OciImageIndex(dir, entry.path("annotations").path("org.opencontainers.image.ref.name").asText(), images);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tag the archive names its index by. */
    public String tag() {
        return tag;
    }

    public List<PlatformImage> images() {
        return images;
    }

    /** The image of {@code platform} ({@code linux/arm64}). */
    public PlatformImage image(String platform) {
        return images.stream().filter(i -> i.platform().equals(platform)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the index has no " + platform + " image: " + images));
    }

    /** Every regular file of the image's layers, in layer order. */
    public void files(PlatformImage image, FileReader reader) {
        for (String layer : image.layers()) {
            try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(blobPath(dir, layer)), 1 << 16))) {
                readTar(in, reader);
            } catch (IOException e) {
                throw new UncheckedIOException(layer, e);
            }
        }
    }

    /**
     * The image's root file system, its layers unpacked in order into {@code rootfs} (as root: owners
     * and modes kept). The project's images have two layers that only add files, so no whiteouts.
     */
    public Path unpack(PlatformImage image, Path rootfs) {
        try {
            Files.createDirectories(rootfs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String layer : image.layers()) {
            Commands.run(Duration.ofMinutes(3), List.of("tar", "-C", rootfs.toString(), "--numeric-owner", "-xzf",
                    blobPath(dir, layer).toString())).orThrow("unpack " + layer);
        }
        return rootfs;
    }

    private static JsonNode blob(Path dir, String digest) throws IOException {
        return JSON.readTree(blobPath(dir, digest).toFile());
    }

    private static Path blobPath(Path dir, String digest) {
        return dir.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    /** ustar with GNU long names ({@code L}) and pax paths ({@code x}), as umoci and GNU tar write them. */
    private static void readTar(InputStream in, FileReader reader) throws IOException {
        byte[] header = new byte[512];
        String longName = null;
        while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
            long size = Long.parseLong(field(header, 124, 12).isEmpty() ? "0" : field(header, 124, 12), 8);
            char type = (char) header[156];
            String prefix = field(header, 345, 155);
            String name = longName != null ? longName : (prefix.isEmpty() ? "" : prefix + "/") + field(header, 0, 100);
            longName = null;
            BoundedStream content = new BoundedStream(in, size);
            if (type == 'L') {
                longName = new String(content.readAllBytes(), StandardCharsets.UTF_8).replace("\0", "");
            } else if (type == 'x') {
                for (String record : new String(content.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    int eq = record.indexOf(" path=");
                    if (eq >= 0) {
                        longName = record.substring(eq + " path=".length());
                    }
                }
            } else if (type == '0' || type == '\0') {
                byte[] head = content.readNBytes(64);
                reader.read(new LayerFile(name.startsWith("./") ? name.substring(2) : name, size, head),
                        new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head), content));
            }
            content.skipRest();
            long padding = (512 - size % 512) % 512;
            in.skipNBytes(padding);
        }
    }

    private static String field(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8).trim();
    }

    /** The content of one tar entry: reads stop at its end, and the rest can be skipped. */
    private static final class BoundedStream extends InputStream {
        private final InputStream in;
        private long left;

        BoundedStream(InputStream in, long size) {
            this.in = in;
            this.left = size;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }

        void skipRest() throws IOException {
            in.skipNBytes(left);
            left = 0;
        }

        @Override
        public void close() {
            // the archive's stream stays open for the next entry
        }
    }
}
