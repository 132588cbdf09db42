package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A simulated RDMA fabric shared by the nodes of one test: a directory of marks that the stub
 * {@code ib_write_lat} of every node reads. Each node has its own {@link FixtureHost} root and its
 * own address (a loopback address such as 127.1.0.3, so that the real TCP of node-probe's transport
 * comparison runs between the same two addresses); {@link #install} puts the stub on its root.
 *
 * <p>The stub accepts any {@code -d D -i I -s S -n N -F -p P [PEER]}, as perftest's out-of-band
 * exchange would behave:
 * <ul>
 *   <li>server (no PEER): marks itself "listening on self:P" and waits, polling every 50 ms, until a
 *       client marks "connected to self:P"; then it removes both marks and prints the healthy server
 *       table for S-byte messages and N iterations. The server of an unreachable node waits in vain,
 *       until node-probe's {@code --tool-timeout} kills it.</li>
 *   <li>client: when either node is unreachable, or no live server listens on PEER:P, it prints
 *       perftest's connect failure for PEER:P and exits 1 (node-probe retries that for
 *       {@code --connect-timeout}); otherwise it marks "connected to PEER:P" and prints the healthy
 *       client table, or on a slow node the recorded soft-RoCE client table.</li>
 * </ul>
 * The healthy tables are {@link LatencyFixtures}' constructed InfiniBand ones (1.01 µs typical for
 * the client) with S and N filled in. The slow table is a recording as perftest printed it: its only
 * row is for 64-byte messages, so a slow node gives a verdict only under a profile with {@code size: 64}
 * (any other size is OutputUnparseable, no row for that size).
 */
public final class LatencyFabric {

    private static final String SLOW_SAMPLE = "perftest/ib_write_lat_client_rxe_softroce.txt";
    /** Stands for "PEER:P" in the connect failure; the stub puts the real ones in its place. */
    private static final String PEER_AND_PORT = "<PEER:P>";

    private final Path dir;

    /** Creates {@code dir}, which holds the marks and the tables the stubs print. */
    public LatencyFabric(Path dir) {
        this.dir = dir.toAbsolutePath();
        try {
            Files.createDirectories(this.dir.resolve("tables"));
            table("server-head", LatencyFixtures.tableHead(true));
            table("server-tail", LatencyFixtures.healthyTail(true));
            table("client-head", LatencyFixtures.tableHead(false));
            table("client-tail", LatencyFixtures.healthyTail(false));
            table("client-slow", Samples.body(SLOW_SAMPLE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts the stub {@code /usr/bin/ib_write_lat} on this node's root; {@code selfAddress} is the node's address. */
    public void install(FixtureHost host, String selfAddress) {
        String[] failure = LatencyFixtures.connectFailure(PEER_AND_PORT).split(Pattern.quote(PEER_AND_PORT));
        host.script(LatencyFixtures.TOOL, """
                #!/bin/sh
                # stub of /usr/bin/ib_write_lat on a simulated fabric (LatencyFabric), for node-probe tests
                fabric=%s
                self=%s
                args="$*"
                usage() {
                  echo "ib_write_lat (stub): $1; expected -d D -i I -s S -n N -F -p P [PEER], got: $args" >&2
                  exit 64
                }
                device= hcaport= size= iters= port= flag= peer=
                while [ $# -gt 0 ]; do
                  case "$1" in
                    -F) flag=1; shift ;;
                    -d|-i|-s|-n|-p)
                      [ $# -ge 2 ] || usage "$1 needs a value"
                      case "$1" in -d) device=$2 ;; -i) hcaport=$2 ;; -s) size=$2 ;; -n) iters=$2 ;; -p) port=$2 ;; esac
                      shift 2 ;;
                    -*) usage "unexpected option $1" ;;
                    *) [ -z "$peer" ] || usage "a second peer"; peer=$1; shift ;;
                  esac
                done
                [ -n "$device" ] && [ -n "$hcaport" ] && [ -n "$size" ] && [ -n "$iters" ] && [ -n "$port" ] \\
                  && [ -n "$flag" ] || usage "missing options"
                table() {
                  cat "$fabric/tables/$1-head"; printf ' %%-7s %%s' "$size" "$iters"; cat "$fabric/tables/$1-tail"
                }

                if [ -z "$peer" ]; then
                  # nobody reaches an unreachable node: its server waits until node-probe's --tool-timeout
                  [ -e "$fabric/down-$self" ] && exec sleep 3600
                  listening="$fabric/listening-$self-$port"
                  connected="$fabric/connected-$self-$port"
                  rm -f "$connected"
                  echo $$ > "$listening.$$" && mv "$listening.$$" "$listening"
                  while [ ! -e "$connected" ]; do sleep 0.05; done
                  rm -f "$listening" "$connected"
                  table server
                  exit 0
                fi

                refused() {
                  printf '%%s%%s:%%s%%s' %s "$peer" "$port" %s >&2
                  exit 1
                }
                [ -e "$fabric/down-$self" ] && refused
                [ -e "$fabric/down-$peer" ] && refused
                # the server writes its pid: one killed by its timeout leaves a mark but no listener
                pid=$(cat "$fabric/listening-$peer-$port" 2>/dev/null) || refused
                kill -0 "$pid" 2>/dev/null || refused
                : > "$fabric/connected-$peer-$port"
                if [ -e "$fabric/slow-$self" ]; then
                  cat "$fabric/tables/client-slow"
                else
                  table client
                fi
                exit 0
                """.formatted(FixtureHost.shQuote(dir.toString()), FixtureHost.shQuote(selfAddress),
                FixtureHost.shQuote(failure[0]), FixtureHost.shQuote(failure[1])));
    }

    /** That node's network is down: nobody reaches it, it reaches nobody, its server waits in vain. */
    public void setUnreachable(String address, boolean on) {
        mark("down-" + address, on);
    }

    /** That node's client runs print the recorded soft-RoCE client table (191.96 µs typical, 64-byte row). */
    public void setSlow(String address, boolean on) {
        mark("slow-" + address, on);
    }

    private void mark(String name, boolean on) {
        try {
            if (on) {
                Files.writeString(dir.resolve(name), "");
            } else {
                Files.deleteIfExists(dir.resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void table(String name, String content) throws IOException {
        Files.writeString(dir.resolve("tables").resolve(name), content, StandardCharsets.UTF_8);
    }
}
