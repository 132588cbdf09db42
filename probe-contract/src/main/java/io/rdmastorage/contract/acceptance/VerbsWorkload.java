package io.rdmastorage.contract.acceptance;

import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The four runs of an acceptance run's verbs target, in the order the client makes them, and the
 * command lines of both sides (node-probe runs them; the operator's record shows them). Each
 * transport gets the same two workloads with the same message sizes: small messages one at a time
 * (latency: perftest's {@code ib_write_lat} against fio's {@code net} engine in ping-pong mode) and
 * 1 MiB messages streamed (bandwidth and what it costs in CPU: {@code ib_write_bw} against fio
 * {@code net} writing to a listener). Each run has a TCP port of its own from the base port, so a
 * server can wait for all four at once. Bandwidth is reported in MiB/s, perftest's default: its two
 * decimals resolve 10 KiB/s, where {@code --report_gbits} would print a slow soft-RoCE as 0.00.
 *
 * <p>Latency: perftest reports half the round trip, so the TCP ping-pong's completion latency (the
 * whole round trip: fio's writer waits for the reader's echo) is halved before the two are compared.
 */
public enum VerbsWorkload {
    RDMA_LATENCY("rdma", Workload.LATENCY, "ib_write_lat", 0),
    RDMA_BANDWIDTH("rdma", Workload.BANDWIDTH, "ib_write_bw", 1),
    TCP_LATENCY("tcp", Workload.LATENCY, "fio", 2),
    TCP_BANDWIDTH("tcp", Workload.BANDWIDTH, "fio", 3);

    /** The latency workload's message: the small I/O of storage. */
    public static final int LATENCY_BYTES = 4096;
    /** The bandwidth workload's message. */
    public static final int BANDWIDTH_BYTES = 1024 * 1024;
    /** The nominal size of fio's network "file" for the bandwidth run; time_based ends it. */
    static final String TCP_STREAM_SIZE = "100g";
    /** Ports the four runs use: base, base + 1, base + 2, base + 3. */
    public static final int PORTS = values().length;

    private final String transport;
    private final Workload workload;
    private final String tool;
    private final int portOffset;

    VerbsWorkload(String transport, Workload workload, String tool, int portOffset) {
        this.transport = transport;
        this.workload = workload;
        this.tool = tool;
        this.portOffset = portOffset;
    }

    /** rdma or tcp. */
    public String transport() {
        return transport;
    }

    /** LATENCY or BANDWIDTH: where its numbers go in the result document. */
    public Workload workload() {
        return workload;
    }

    public String tool() {
        return tool;
    }

    public boolean perftest() {
        return transport.equals("rdma");
    }

    public int port(int basePort) {
        return basePort + portOffset;
    }

    /** Bytes per message. */
    public int messageBytes() {
        return workload == Workload.LATENCY ? LATENCY_BYTES : BANDWIDTH_BYTES;
    }

    /** The client side's arguments (after the program name), connecting to {@code peer}, an IP address. */
    public List<String> clientArguments(VerbsAcceptanceSpec.Verbs verbs, String peer, int basePort) {
        return arguments(verbs, peer, basePort);
    }

    /** The server side's: waiting for the one client of this run. */
    public List<String> serverArguments(VerbsAcceptanceSpec.Verbs verbs, int basePort) {
        return arguments(verbs, null, basePort);
    }

    /** The client's command as a person would type it, for the record. */
    public String clientCommandLine(VerbsAcceptanceSpec.Verbs verbs, String peer, int basePort) {
        return tool + " " + String.join(" ", clientArguments(verbs, peer, basePort));
    }

    private List<String> arguments(VerbsAcceptanceSpec.Verbs v, String peer, int basePort) {
        String port = Integer.toString(port(basePort));
        List<String> args = new ArrayList<>();
        switch (this) {
            case RDMA_LATENCY -> args.addAll(List.of("-d", v.device(), "-i", v.port().toString(),
                    "-s", Integer.toString(LATENCY_BYTES), "-n", v.iterations().toString(), "-F", "-p", port));
            case RDMA_BANDWIDTH -> args.addAll(List.of("-d", v.device(), "-i", v.port().toString(),
                    "-s", Integer.toString(BANDWIDTH_BYTES), "-D", v.durationSeconds().toString(), "-F", "-p", port));
            case TCP_LATENCY -> {
                args.addAll(fio(peer, port, "tcp-latency", "4k"));
                // exactly the ping-pongs of ib_write_lat: the "file" is that many messages
                args.addAll(List.of("--nodelay=1", "--pingpong=1",
                        "--size=" + (long) v.iterations() * LATENCY_BYTES));
            }
            case TCP_BANDWIDTH -> {
                args.addAll(fio(peer, port, "tcp-bandwidth", "1M"));
                args.add("--size=" + TCP_STREAM_SIZE);
                if (peer != null) {
                    args.addAll(List.of("--time_based", "--runtime=" + v.durationSeconds() + "s"));
                }
            }
            default -> throw new IllegalStateException(name());
        }
        if (perftest() && peer != null) {
            args.add(peer);
        }
        if (!perftest()) {
            args.add("--output-format=json");
        }
        return List.copyOf(args);
    }

    /** fio's net engine over TCP: the client writes to {@code peer}, the server listens and reads. */
    private static List<String> fio(String peer, String port, String name, String blockSize) {
        return List.of("--name=" + name, "--ioengine=net", "--protocol=tcp", "--port=" + port,
                peer == null ? "--listen" : "--hostname=" + peer, "--rw=" + (peer == null ? "read" : "write"),
                "--bs=" + blockSize);
    }
}
