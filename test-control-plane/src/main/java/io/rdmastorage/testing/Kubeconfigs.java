package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * The kubeconfig files a {@link LocalControlPlane} hands out: one cluster (its API server, trusted
 * through the CA bundle it wrote), one bearer-token user, one context.
 */
final class Kubeconfigs {

    private final Path caBundle;

    /** {@code caBundle}: the PEM file of the CA that signed the API server's serving certificate. */
    Kubeconfigs(Path caBundle) {
        this.caBundle = caBundle;
    }

    /** A kubeconfig naming the CA bundle by its path: for a process on this machine. */
    Path write(Path file, String server, String user, String token) {
        return writeFile(file, yaml(server, "certificate-authority: " + caBundle, user, token));
    }

    /**
     * A kubeconfig with the CA inline: for a process whose file system is not this machine's (a
     * kubelet in a VM, a process started in an image's root file system).
     */
    Path writeSelfContained(Path file, String server, String user, String token) {
        try {
            String ca = Base64.getEncoder().encodeToString(Files.readAllBytes(caBundle));
            return writeFile(file, yaml(server, "certificate-authority-data: " + ca, user, token));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path writeFile(Path file, String content) {
        try {
            Files.writeString(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ca}: the cluster's {@code certificate-authority} or {@code certificate-authority-data} line. */
    private static String yaml(String server, String ca, String user, String token) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: local
                  cluster:
                    server: %s
                    %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: local
                  context:
                    cluster: local
                    user: %s
                    namespace: default
                current-context: local
                """.formatted(server, ca, user, token, user);
    }
}
