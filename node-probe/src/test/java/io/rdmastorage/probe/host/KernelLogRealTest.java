package io.rdmastorage.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.Kmsg;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This machine's own /dev/kmsg, read through libc non-blocking: it ends at EAGAIN, or says why it could not be read. */
class KernelLogRealTest {

    @Test
    void theRealKmsgIsReadToItsEndOrTheCauseIsSaid() {
        KernelLog log = KernelLog.read(new HostRoot(Path.of("/")));

        assertThat(log.records().isPresent()).isNotEqualTo(log.failure().isPresent());
        log.records().ifPresent(text -> assertThat(text.isEmpty() || !Kmsg.parse(text).isEmpty()).as(text).isTrue());
        log.failure().ifPresent(cause -> assertThat(cause).contains("/dev/kmsg"));
    }
}
