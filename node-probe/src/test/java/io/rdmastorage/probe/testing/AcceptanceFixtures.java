package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node for the acceptance command: the NVMe-oF fixture node (nvme1 over rdma to the target, with
 * its namespace nvme1n1), the host's /proc/stat (recorded), a stub {@code nvme} that creates the
 * controller it connects (nvme2, with namespace nvme2n1) and removes it on disconnect as the kernel
 * would, logging each call; and a stub fio outside the host root (the probe image's fio is not
 * the host's) that logs its argv, moves the host's /proc/stat on by a run's worth of ticks (user
 * +50, system +30, idle +100, softirq +20) and prints the recorded fio JSON sample.
 */
public final class AcceptanceFixtures {

    public static final String NVME_LOG = "nvme.log";
    public static final String FIO_LOG = "fio.log";
    /** A line of fio's JSON with a percentile ({@code "99.000000" : 150528,}) or a rate ({@code "iops" : 8360.79,}). */
    private static final Pattern PERCENTILE = Pattern.compile("^(\\s*\"[0-9.]+\" : )([0-9]+)(,?)$");
    private static final Pattern RATE = Pattern.compile("^(\\s*\"(?:iops|bw_bytes)\" : )([0-9.]+)(,?)$");
    private static final String FIO_SAMPLE = "fio/fio_json_4k-randread_qd1_libaio_direct_dev-sdh_fio-3.14_fio-plot.txt";

    private AcceptanceFixtures() {
    }

    /** The node as above under {@code host}; the logs are written to {@code logs}. */
    public static FixtureHost node(FixtureHost host, Path logs) {
        NvmeofFixtures.healthy(host).mkdir("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme1n1")
                .sampleFile("/proc/stat", "proc/stat_2cpu_pair-1s_before.txt");
        String ctl = host.path("/sys/devices/virtual/nvme-fabrics/ctl").toString();
        String classDir = host.path("/sys/class/nvme").toString();
        return host.script("/usr/sbin/nvme", "#!/bin/sh\n"
                + "echo \"$*\" >> " + FixtureHost.shQuote(logs.resolve(NVME_LOG).toString()) + "\n"
                + "ctl=" + FixtureHost.shQuote(ctl) + "; cls=" + FixtureHost.shQuote(classDir) + "\n"
                + "case \"$1\" in\n"
                + "connect) mkdir -p \"$ctl/nvme2/nvme2n1\"; echo \"$3\" > \"$ctl/nvme2/transport\"\n"
                + "  printf '%s' " + FixtureHost.shQuote(NvmeofFixtures.TARGET_TCP_ADDRESS) + " > \"$ctl/nvme2/address\"\n"
                + "  echo \"$9\" > \"$ctl/nvme2/subsysnqn\"; echo live > \"$ctl/nvme2/state\"\n"
                + "  ln -s ../../devices/virtual/nvme-fabrics/ctl/nvme2 \"$cls/nvme2\" ;;\n"
                + "disconnect) rm -rf \"$ctl/$3\" \"$cls/$3\" ;;\n"
                + "esac\n");
    }

    /** nvme2 over tcp to the same target, already connected (by someone else), with its namespace. */
    public static FixtureHost tcpConnected(FixtureHost host) {
        return NvmeofFixtures.fabricsController(host, "nvme2", "tcp", NvmeofFixtures.TARGET_TCP_ADDRESS,
                NvmeofFixtures.TARGET_NQN, "live").mkdir("/sys/devices/virtual/nvme-fabrics/ctl/nvme2/nvme2n1");
    }

    /** Writes the stub fio to {@code path} for {@code host}; returns the path, for {@code --tool fio=PATH}. */
    public static Path fio(Path path, FixtureHost host, Path logs) {
        return fio(path, host, logs, 1);
    }

    /**
     * The same, with the runs on nvme2's device (the tcp controller of these fixtures) {@code tcpSlower}
     * times slower: completion latencies multiplied, IOPS and bandwidth divided (a sample constructed
     * from the recorded one, for a comparison where the transports differ).
     */
    public static Path fio(Path path, FixtureHost host, Path logs, int tcpSlower) {
        Path json = path.resolveSibling("fio.json");
        Path tcpJson = path.resolveSibling("fio-tcp.json");
        String stat = host.path("/proc/stat").toString();
        try {
            Files.createDirectories(path.getParent());
            Files.writeString(json, Samples.body(FIO_SAMPLE));
            Files.writeString(tcpJson, slower(Samples.body(FIO_SAMPLE), tcpSlower));
            Files.writeString(path, "#!/bin/sh\n"
                    + "echo \"$*\" >> " + FixtureHost.shQuote(logs.resolve(FIO_LOG).toString()) + "\n"
                    + "read -r c u n s i w q sq st g gn < " + FixtureHost.shQuote(stat) + "\n"
                    + "{ echo \"cpu  $((u+50)) $n $((s+30)) $((i+100)) $w $q $((sq+20)) $st $g $gn\"; grep '^cpu[0-9]' "
                    + FixtureHost.shQuote(stat) + "; } > " + FixtureHost.shQuote(stat + ".new") + "\n"
                    + "mv " + FixtureHost.shQuote(stat + ".new") + " " + FixtureHost.shQuote(stat) + "\n"
                    + "case \"$*\" in *--filename=*/dev/nvme2n1*) cat " + FixtureHost.shQuote(tcpJson.toString()) + " ;;\n"
                    + "*) cat " + FixtureHost.shQuote(json.toString()) + " ;; esac\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!path.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + path + " executable");
        }
        return path;
    }

    private static String slower(String fioJson, int factor) {
        StringBuilder out = new StringBuilder();
        for (String line : fioJson.split("\n", -1)) {
            Matcher percentile = PERCENTILE.matcher(line);
            Matcher rate = RATE.matcher(line);
            if (percentile.matches()) {
                line = percentile.group(1) + Long.parseLong(percentile.group(2)) * factor + percentile.group(3);
            } else if (rate.matches()) {
                line = rate.group(1) + (long) (Double.parseDouble(rate.group(2)) / factor) + rate.group(3);
            }
            out.append(line).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    /** Where a path node's file system says which transport it uses now ({@link #pathNode}). */
    public static final String TRANSPORT_FILE = "/fixture/transport";
    private static final String SS_FILE = "/fixture/ss.txt";
    private static final String RXE_COUNTERS = "/sys/class/infiniband/rxe0/ports/1/hw_counters/";

    /**
     * A node for a path run (a sample constructed for these fixtures): the directory, the host's
     * /proc/stat (recorded), soft-RoCE rxe0/1's packet counters, and a stub {@code nsenter} that prints
     * an {@code ss -tin} table with one NFS socket (to 192.0.2.1:2049, with TCP_INFO). Which transport
     * its file system uses is the word in {@link #TRANSPORT_FILE} (rdma at first): {@link #pathFio}
     * moves that transport's counters, as reads over it would.
     */
    public static FixtureHost pathNode(FixtureHost host, String directory) {
        // the directory is a GPFS mount: a path run writes only on shared storage
        host.mkdir(directory).file("/proc/1/mounts", "/dev/vda1 / ext4 rw 0 0\nfs0 " + directory + " gpfs rw 0 0\n")
                .sampleFile("/proc/stat", "proc/stat_2cpu_pair-1s_before.txt")
                .file(RXE_COUNTERS + "sent_pkts", "1000\n").file(RXE_COUNTERS + "rcvd_pkts", "1000\n")
                .file(TRANSPORT_FILE, "rdma\n").file(SS_FILE, ssTable(5000));
        return host.script("/usr/bin/nsenter", "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path(SS_FILE).toString()) + "\n");
    }

    private static String ssTable(long received) {
        return "State Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n"
                + "ESTAB 0      0          192.0.2.2:871    192.0.2.1:2049\n"
                + "\t cubic wscale:7,7 rto:204 mss:32768 cwnd:10 bytes_sent:2664 bytes_acked:2665 bytes_received:" + received + "\n";
    }

    /**
     * The stub fio for a path node: each call moves the counters of the transport in
     * {@link #TRANSPORT_FILE} by far more than the recorded fio sample read (rxe0's packets, or the
     * NFS socket's bytes_received), then answers as {@link #fio(Path, FixtureHost, Path, int)} does:
     * over tcp {@code tcpSlower} times slower.
     */
    public static Path pathFio(Path path, FixtureHost host, Path logs, int tcpSlower) {
        Path answer = fio(path.resolveSibling("fio-answer"), host, logs, tcpSlower);
        String rxe = host.path(RXE_COUNTERS).toString() + "/";
        try {
            Files.writeString(path, "#!/bin/sh\n"
                    + "if [ \"$(cat " + FixtureHost.shQuote(host.path(TRANSPORT_FILE).toString()) + ")\" = tcp ]; then\n"
                    + "  received=$(sed -n 's/.*bytes_received:\\([0-9]*\\).*/\\1/p' " + FixtureHost.shQuote(host.path(SS_FILE).toString()) + ")\n"
                    + "  printf '%s\\n%s\\n\\t%s\\n' 'State Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess' "
                    + "'ESTAB 0      0          192.0.2.2:871    192.0.2.1:2049' "
                    + "\"cubic wscale:7,7 rto:204 mss:32768 cwnd:10 bytes_sent:2664 bytes_acked:2665 bytes_received:$((received + 40000000000))\" > "
                    + FixtureHost.shQuote(host.path(SS_FILE).toString()) + "\n"
                    + "  " + FixtureHost.shQuote(answer.toString()) + " \"$@\" --filename=/dev/nvme2n1 > /dev/null\n"
                    + "  cat " + FixtureHost.shQuote(answer.resolveSibling("fio-tcp.json").toString()) + "\n"
                    + "else\n"
                    + "  for c in sent_pkts rcvd_pkts; do echo $(( $(cat " + FixtureHost.shQuote(rxe) + "$c) + 1000000 )) > "
                    + FixtureHost.shQuote(rxe) + "$c.new; mv " + FixtureHost.shQuote(rxe) + "$c.new " + FixtureHost.shQuote(rxe) + "$c; done\n"
                    + "  exec " + FixtureHost.shQuote(answer.toString()) + " \"$@\"\n"
                    + "fi\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!path.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + path + " executable");
        }
        return path;
    }

    /** A fio that fails as on a device error, for {@code --tool fio=PATH}. */
    public static Path failingFio(Path path) {
        return scriptedFio(path, "echo 'fio: io_u error on file /dev/nvme2n1: Input/output error' >&2\nexit 1\n");
    }

    /**
     * A fio stopped by SIGINT: it prints the constructed interrupted sample (the line "fio:
     * terminating on signal 2", then the figures of the time it ran) and exits 1.
     */
    public static Path interruptedFio(Path path) {
        try {
            Files.createDirectories(path.getParent());
            Path out = Files.writeString(path.resolveSibling("interrupted.out"),
                    Samples.body("fio/fio_json_4k-randread_fio-3.14_interrupted-signal-2_constructed.txt"));
            return scriptedFio(path, "cat " + FixtureHost.shQuote(out.toString()) + "\nexit 1\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path scriptedFio(Path path, String script) {
        try {
            Files.createDirectories(path.getParent());
            Files.writeString(path, "#!/bin/sh\n" + script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!path.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + path + " executable");
        }
        return path;
    }
}
