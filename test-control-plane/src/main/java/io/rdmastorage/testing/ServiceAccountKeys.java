package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/**
 * The key pair kube-apiserver signs service-account tokens with ({@code signingKey}, which
 * kube-controller-manager also needs for the tokens it mints) and verifies them with
 * ({@code verifyKey}), as PEM files.
 */
record ServiceAccountKeys(Path signingKey, Path verifyKey) {

    /** A fresh RSA pair written as {@code sa.key} and {@code sa.pub} in {@code pki}. */
    static ServiceAccountKeys create(Path pki) {
        try {
            KeyPair pair = KeyPairGenerator.getInstance("RSA").generateKeyPair();
            return new ServiceAccountKeys(writePem(pki.resolve("sa.key"), "PRIVATE KEY", pair.getPrivate().getEncoded()),
                    writePem(pki.resolve("sa.pub"), "PUBLIC KEY", pair.getPublic().getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path writePem(Path file, String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        try {
            Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
