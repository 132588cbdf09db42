package io.rdmastorage.probe.host;

import io.rdmastorage.probe.verbs.Errno;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The host's kernel log as {@code /dev/kmsg} under the host root holds it (the probe pod is
 * privileged and sees the host's /dev; never the pod's own log) and the host's uptime, to place
 * its records in time. /dev/kmsg is opened non-blocking and read one record per read until
 * EAGAIN (nothing newer); EPIPE (a record overwritten while reading) skips to the next one. A
 * regular file there (a fixture or a recorded log) is read as the records' text.
 *
 * @param records    the records' text as read, one record per line plus its dictionary lines; empty when unreadable
 * @param uptime     the host's /proc/uptime as read; empty when it cannot be read
 * @param failure    why the log could not be read ("/dev/kmsg: EPERM ..."); empty when it was
 */
public record KernelLog(Optional<String> records, Optional<String> uptime, Optional<String> failure) {

    public static final String KMSG = "/dev/kmsg";
    public static final String UPTIME = "/proc/uptime";
    static final String DMESG_RESTRICT = "/proc/sys/kernel/dmesg_restrict";
    /** Linux asm-generic/fcntl.h (x86_64 and aarch64 alike). */
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 0x800;
    private static final int EAGAIN = 11;
    private static final int EPIPE = 32;
    private static final int EINTR = 4;
    /** A record is at most 8 KiB (CONSOLE_EXT_LOG_MAX); a shorter buffer gets EINVAL. */
    private static final int RECORD_BYTES = 8192;
    /** Bound on what one probe reads: the largest log_buf_len in common use is 16 MiB. */
    private static final long MAX_BYTES = 32L * 1024 * 1024;

    public static KernelLog read(HostRoot host) {
        Optional<String> uptime = host.read(UPTIME);
        Path kmsg = host.resolve(KMSG);
        if (!Files.exists(kmsg)) {
            return new KernelLog(Optional.empty(), uptime, Optional.of(KMSG + " is not there on the host (a kernel without "
                    + "CONFIG_PRINTK, or the host's /dev is not mounted whole)"));
        }
        if (Files.isRegularFile(kmsg)) {
            try {
                return new KernelLog(Optional.of(Files.readString(kmsg, StandardCharsets.UTF_8)), uptime, Optional.empty());
            } catch (IOException e) {
                return new KernelLog(Optional.empty(), uptime, Optional.of(KMSG + ": " + e.getMessage()));
            }
        }
        try {
            return readDevice(host, kmsg, uptime);
        } catch (LinkageError | RuntimeException e) {
            return new KernelLog(Optional.empty(), uptime, Optional.of(KMSG + " could not be read through libc ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + ")"));
        }
    }

    private static KernelLog readDevice(HostRoot host, Path kmsg, Optional<String> uptime) {
        LibC libc = Native.LIBC;
        Runtime runtime = Runtime.getRuntime(libc);
        int fd = libc.open(kmsg.toString(), O_RDONLY | O_NONBLOCK);
        if (fd < 0) {
            int errno = runtime.getLastError();
            String restrict = host.readAttribute(DMESG_RESTRICT).map(v -> ", kernel.dmesg_restrict=" + v).orElse("");
            return new KernelLog(Optional.empty(), uptime, Optional.of("opening the host's " + KMSG + " failed with "
                    + Errno.name(errno) + restrict + (errno == Errno.EPERM || errno == 13
                    ? ": the probe needs CAP_SYSLOG (a privileged pod has it) or kernel.dmesg_restrict=0" : "")));
        }
        try {
            Pointer buffer = Memory.allocateDirect(runtime, RECORD_BYTES);
            byte[] bytes = new byte[RECORD_BYTES];
            StringBuilder text = new StringBuilder();
            long total = 0;
            while (total < MAX_BYTES) {
                long n = libc.read(fd, buffer, RECORD_BYTES);
                if (n < 0) {
                    int errno = runtime.getLastError();
                    if (errno == EPIPE || errno == EINTR) {
                        continue;
                    }
                    if (errno == EAGAIN) {
                        break;
                    }
                    return new KernelLog(Optional.empty(), uptime, Optional.of("reading the host's " + KMSG
                            + " failed with " + Errno.name(errno)));
                }
                if (n == 0) {
                    break;
                }
                buffer.get(0, bytes, 0, (int) n);
                String record = new String(bytes, 0, (int) n, StandardCharsets.UTF_8);
                text.append(record);
                if (!record.endsWith("\n")) {
                    text.append('\n');
                }
                total += n;
            }
            return new KernelLog(Optional.of(text.toString()), uptime, Optional.empty());
        } finally {
            libc.close(fd);
        }
    }

    /** The three libc calls, bound on first use only: a probe that never reads a real /dev/kmsg never loads jnr-ffi. */
    public interface LibC {
        @SaveError
        int open(String path, int flags);

        @SaveError
        @ssize_t long read(int fd, Pointer buffer, @size_t long count);

        int close(int fd);
    }

    private static final class Native {
        static final LibC LIBC = LibraryLoader.create(LibC.class).failImmediately().load("c");
    }
}
