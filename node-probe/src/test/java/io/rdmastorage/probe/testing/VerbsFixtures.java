package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A node for the verbs target of the acceptance run: the host's /proc/stat (recorded) and a
 * soft-RoCE port {@value #DEVICE}/1 with its packet counters, and stub {@code ib_write_lat},
 * {@code ib_write_bw} and {@code fio} in an image folder outside the host root (the probe image's
 * tools, not the host's). Each stub logs its argv, moves the host's /proc/stat on by a run's worth
 * of ticks (user +50, system +30, idle +100, softirq +20), adds packets to the port's counters as
 * the kernel would (perftest's runs; fio's only when told, as a TCP-to-RDMA interposer would) and
 * prints a recorded output: ib_write_lat and ib_write_bw of soft-RoCE with their result rows
 * relabelled to the verbs target's message sizes (constructed from the recorded ones), fio's net
 * engine over TCP (the ping-pong, or the stream for 1 MiB blocks).
 */
public final class VerbsFixtures {

    public static final String DEVICE = "rxe0";
    public static final String LOG = "tools.log";
    static final String LAT = "perftest/ib_write_lat_client_rxe1-over-veth_vm-6.1.txt";
    static final String BW = "perftest/ib_write_bw_server_rxe_gbit.txt";
    public static final String FIO_PINGPONG = "fio/fio_json_net-tcp-pingpong_4k_write_client_fio-3.33_loopback.txt";
    public static final String FIO_STREAM = "fio/fio_json_net-tcp-stream_1M_write_client_fio-3.33_loopback.txt";
    public static final String FIO_REFUSED = "fio/fio_json_net-tcp_connection-refused_fio-3.33.txt";
    static final String COUNTERS = "/sys/class/infiniband/" + DEVICE + "/ports/1/hw_counters";

    private VerbsFixtures() {
    }

    /** The host as above. */
    public static FixtureHost node(FixtureHost host) {
        return host.sampleFile("/proc/stat", "proc/stat_2cpu_pair-1s_before.txt")
                .file(COUNTERS + "/sent_pkts", "1000\n")
                .file(COUNTERS + "/rcvd_pkts", "1000\n");
    }

    /** The port's counters gone: nothing can show which transport a run used. */
    public static FixtureHost withoutCounters(FixtureHost host) {
        return host.delete(COUNTERS + "/sent_pkts").delete(COUNTERS + "/rcvd_pkts");
    }

    /**
     * Writes the three stubs into {@code image} for {@code host}, logging to {@code logs}; the TCP
     * runs move {@code fioPackets} RDMA packets and the ping-pong prints {@code pingPong} (a sample).
     * Returns the {@code --tool NAME=PATH} arguments.
     */
    public static List<String> tools(Path image, FixtureHost host, Path logs, long fioPackets, String pingPong) {
        try {
            Files.createDirectories(image);
            Path lat = tool(image, "ib_write_lat", resized(LAT, " 2 ", " 4096 "), 20_000, host, logs);
            Path bw = tool(image, "ib_write_bw", resized(BW, " 65536 ", " 1048576 "), 2_000_000, host, logs);
            Path stream = tool(image, "fio-stream", Samples.body(FIO_STREAM), fioPackets, host, logs);
            Path ping = tool(image, "fio-pingpong", Samples.body(pingPong), fioPackets, host, logs);
            Path fio = executable(image.resolve("fio"), "#!/bin/sh\ncase \"$*\" in *--bs=1M*) exec "
                    + FixtureHost.shQuote(stream.toString()) + " \"$@\" ;; *) exec " + FixtureHost.shQuote(ping.toString())
                    + " \"$@\" ;; esac\n");
            return List.of("--tool", "ib_write_lat=" + lat, "--tool", "ib_write_bw=" + bw, "--tool", "fio=" + fio);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tool(Path image, String name, String output, long packets, FixtureHost host, Path logs)
            throws IOException {
        Path out = image.resolve(name + ".out");
        Files.writeString(out, output);
        String stat = host.path("/proc/stat").toString();
        String sent = host.path(COUNTERS + "/sent_pkts").toString();
        return executable(image.resolve(name), "#!/bin/sh\n"
                + "echo \"" + name + " $*\" >> " + FixtureHost.shQuote(logs.resolve(LOG).toString()) + "\n"
                + "case \"$*\" in -V) echo 'Version: 6.06'; exit 0 ;; esac\n"
                + "read -r c u n s i w q sq st g gn < " + FixtureHost.shQuote(stat) + "\n"
                + "{ echo \"cpu  $((u+50)) $n $((s+30)) $((i+100)) $w $q $((sq+20)) $st $g $gn\"; grep '^cpu[0-9]' "
                + FixtureHost.shQuote(stat) + "; } > " + FixtureHost.shQuote(stat + ".new") + "\n"
                + "mv " + FixtureHost.shQuote(stat + ".new") + " " + FixtureHost.shQuote(stat) + "\n"
                + "if [ -f " + FixtureHost.shQuote(sent) + " ]; then read -r p < " + FixtureHost.shQuote(sent)
                + "; echo $((p+" + packets + ")) > " + FixtureHost.shQuote(sent) + "; fi\n"
                + "cat " + FixtureHost.shQuote(out.toString()) + "\n");
    }

    private static Path executable(Path path, String script) throws IOException {
        Files.writeString(path, script);
        if (!path.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + path + " executable");
        }
        return path;
    }

    /** The recorded perftest output with its result row's message size replaced. */
    private static String resized(String sample, String size, String wanted) {
        String body = Samples.body(sample);
        int header = body.indexOf("#bytes");
        int row = body.indexOf('\n', header) + 1;
        String line = body.substring(row, body.indexOf('\n', row));
        if (!line.startsWith(size)) {
            throw new IllegalStateException(sample + ": the result row does not start with" + size);
        }
        return body.substring(0, row) + wanted + line.substring(size.length()) + body.substring(row + line.length());
    }
}
