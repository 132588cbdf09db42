package io.rdmastorage.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Waiting for a {@link LocalControlPlane} to come up: polls until a deadline, failing at once when
 * etcd or kube-apiserver has exited, and at the deadline with what was awaited and both logs' tails.
 */
final class StartupWait {

    private static final Duration POLL = Duration.ofMillis(100);

    private final ServerProcess etcd;
    private final ServerProcess apiServer;
    private final long deadline;

    StartupWait(ServerProcess etcd, ServerProcess apiServer, Duration timeout) {
        this.etcd = etcd;
        this.apiServer = apiServer;
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    /** Polls {@code done} until it holds; {@code others} are checked alive too (the controllers). */
    void until(String what, BooleanSupplier done, ServerProcess... others) {
        while (!done.getAsBoolean()) {
            for (ServerProcess other : others) {
                other.checkAlive();
            }
            sleep(what);
        }
    }

    /**
     * Until kube-apiserver's {@code /readyz} answers 200 to {@code bearerToken}. The serving
     * certificate's CA ({@code caBundle}) appears as soon as the server has parsed its flags.
     */
    void untilReady(String url, String bearerToken, Path caBundle) {
        until("kube-apiserver to write its serving certificate", () -> Files.exists(caBundle));
        // HTTP/1.1: one plain request per poll, nothing an HTTP/2 connection's state can hold up
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(trusting(caBundle)).connectTimeout(Duration.ofSeconds(2)).build();
        // verbose: a check that fails is named in the body, and so in the timeout's message
        HttpRequest readyz = HttpRequest.newBuilder(URI.create(url + "/readyz?verbose"))
                .header("Authorization", "Bearer " + bearerToken).timeout(Duration.ofSeconds(5)).build();
        String lastAnswer = "none";
        while (true) {
            try {
                HttpResponse<String> answer = http.send(readyz, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
                lastAnswer = "HTTP " + answer.statusCode() + ": " + answer.body().lines()
                        .filter(line -> !line.startsWith("[+]")).collect(Collectors.joining("; "));
            } catch (IOException e) {
                lastAnswer = e.toString();   // not listening yet, or no answer within the request's timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for kube-apiserver", e);
            }
            sleep("kube-apiserver /readyz (its last answer: " + lastAnswer + ")");
        }
    }

    private void sleep(String what) {
        etcd.checkAlive();
        apiServer.checkAlive();
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out waiting for " + what + "; kube-apiserver log:\n"
                    + apiServer.logTail(40) + "\netcd log:\n" + etcd.logTail(20));
        }
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }

    private static SSLContext trusting(Path pemBundle) {
        try (InputStream in = Files.newInputStream(pemBundle)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trust.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
