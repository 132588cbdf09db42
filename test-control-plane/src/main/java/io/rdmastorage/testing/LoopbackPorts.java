package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on the loopback address, for the servers the tests start. */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A port free on 127.0.0.1 now (the OS's pick; another process may take it before it is used). */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
