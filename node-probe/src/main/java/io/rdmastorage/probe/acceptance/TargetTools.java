package io.rdmastorage.probe.acceptance;

import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolRunner;
import java.time.Duration;
import java.util.function.Function;

/**
 * What every {@link AcceptanceTarget} is measured with: the host, read through its root; the host's
 * own tools ({@code nvme}, {@code ss}, {@code mmdiag}: chroot into the host root in the pod); and the
 * probe image's tools (fio, perftest, which a host need not have), with a timeout per run; and the
 * run's {@link AcceptanceJournal}, where each change to the node is announced before it is made.
 */
public record TargetTools(HostRoot host, ToolRunner hostTools, Function<Duration, ToolRunner> ownTools,
                          AcceptanceJournal journal) {

    /** Without a journal: a run whose changes only its own hooks undo. */
    public TargetTools(HostRoot host, ToolRunner hostTools, Function<Duration, ToolRunner> ownTools) {
        this(host, hostTools, ownTools, AcceptanceJournal.NONE);
    }

    /** The node's storage counters within {@code scope}, read through the host and its tools. */
    StorageCounters counters(StorageCounters.Scope scope) {
        return new StorageCounters(host, hostTools, scope);
    }
}
