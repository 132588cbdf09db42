package io.rdmastorage.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a child process's output stream on its own daemon thread, so a process writing a lot to
 * both stdout and stderr never blocks on a full pipe (the common fork-join pool has one thread on
 * a 2-core machine and must not be used for blocking reads).
 */
final class OutputCollector {

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final Thread thread;

    private OutputCollector(InputStream stream, String name) {
        thread = new Thread(() -> {
            try (stream) {
                stream.transferTo(buffer);
            } catch (IOException ignored) {
                // the process went away; keep what was read
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    static OutputCollector start(InputStream stream, String name) {
        return new OutputCollector(stream, name);
    }

    /** Everything read, once the stream has ended (or after the wait, if it never ends). */
    byte[] bytes(long waitMillis) throws InterruptedException {
        thread.join(waitMillis);
        synchronized (buffer) {
            return buffer.toByteArray();
        }
    }
}
