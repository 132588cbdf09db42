package io.rdmastorage.probe.vm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The command channel to the guest's {@code vm-agent} (vm-node/guest/vm-agent) over qemu's
 * virtio-serial socket: one request line ({@code <id> <timeout-seconds> <base64 script>}), one
 * answer line ({@code <id> <exit status> <base64 stdout> <base64 stderr>}).
 */
final class AgentChannel implements AutoCloseable {

    /** Added to a command's own timeout for the answer to come back over the channel. */
    private static final Duration CHANNEL_SLACK = Duration.ofSeconds(20);
    /** How often {@link #awaitAgent} pings while the guest boots. */
    private static final Duration PING_INTERVAL = Duration.ofSeconds(3);

    private final SocketChannel channel;
    /** What the VM printed so far, for a failure's message. */
    private final Supplier<String> diagnostics;
    private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong();

    AgentChannel(SocketChannel channel, Supplier<String> diagnostics) {
        this.channel = channel;
        this.diagnostics = diagnostics;
        Thread reader = new Thread(this::readAnswers, "vm-node-channel");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Waits for the agent until {@code deadline} (System.nanoTime()) or until {@code alive} says no.
     * The agent restarts until the host side is connected, and a request sent before it listens is
     * lost: ping every few seconds until one is answered. Any ping's answer counts: a loaded host's
     * emulated guest once took longer to answer than the pings' interval, and waiting for the
     * latest ping alone never matched an answer (the arm64 boot "did not answer in 8 minutes" with
     * its agent up).
     */
    boolean awaitAgent(long deadline, Supplier<Boolean> alive) throws InterruptedException {
        Set<String> pings = new HashSet<>();
        while (System.nanoTime() < deadline && alive.get()) {
            pings.add(send("echo ready", Duration.ofSeconds(30)));
            long nextPing = System.nanoTime() + PING_INTERVAL.toNanos();
            for (Answer answer; (answer = answers.poll(nextPing - System.nanoTime(), TimeUnit.NANOSECONDS)) != null; ) {
                if (pings.contains(answer.id()) && answer.result().stdout().strip().equals("ready")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Runs a bash script in the guest, killed there after {@code timeout}. */
    VmNode.Result run(String script, Duration timeout) {
        Duration wait = timeout.plus(CHANNEL_SLACK);
        String id = send(script, timeout);
        try {
            long until = System.nanoTime() + wait.toNanos();
            while (true) {
                long left = until - System.nanoTime();
                Answer answer = left > 0 ? answers.poll(left, TimeUnit.NANOSECONDS) : null;
                if (answer == null) {
                    throw new IllegalStateException("no answer from the VM in " + wait + " to: " + script);
                }
                if (answer.id().equals(id)) {
                    return answer.result();
                }
                // an answer to an earlier request that timed out here: dropped
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Writes one request (a script the guest kills after {@code timeout}) and returns its id. */
    private String send(String script, Duration timeout) {
        String id = "r" + ids.incrementAndGet();
        String request = id + " " + Math.max(1, timeout.toSeconds()) + " "
                + Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_8)) + "\n";
        try {
            synchronized (channel) {
                ByteBuffer bytes = ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("the VM's command channel failed" + diagnostics.get(), e);
        }
    }

    /** One answer line: the request's id and what the script printed. */
    private record Answer(String id, VmNode.Result result) {

        /** The answer on {@code line}, or null for a line that is none (the agent prints nothing else). */
        static Answer parse(String line) {
            String[] fields = line.split(" ", -1);
            if (fields.length != 4) {
                return null;
            }
            try {
                return new Answer(fields[0], new VmNode.Result(Integer.parseInt(fields[1]), decode(fields[2]), decode(fields[3])));
            } catch (IllegalArgumentException notAnAnswer) {   // a number or base64 cut short
                return null;
            }
        }

        private static String decode(String base64) {
            return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        }
    }

    private void readAnswers() {
        try (BufferedReader in = new BufferedReader(Channels.newReader(channel, StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                Answer answer = Answer.parse(line);
                if (answer != null) {
                    answers.add(answer);
                }
            }
        } catch (IOException closed) {
            // the VM is gone; run() times out or has already been told
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
