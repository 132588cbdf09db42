package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.CephMessenger.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.parse.CephConf;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Ceph's RDMA messengers ({@code async+rdma}, and {@code xio} before it was removed) are experimental:
 * they crash OSDs under load. Where a node has a ceph.conf, flag any messenger type that selects them.
 */
public final class CephMessengerCheck implements Check {

    static final String CONF = "/etc/ceph/ceph.conf";
    private static final List<String> EXPERIMENTAL = List.of("async+rdma", "xio");

    @Override
    public CheckType type() {
        return CheckType.CEPH_MESSENGER;
    }

    /** Only where the node has a ceph.conf, spec or not: there is nothing to judge elsewhere. */
    @Override
    public boolean applies(ProbeContext context) {
        return (context.discovery() || context.spec().ceph() != null) && context.host().exists(CONF);
    }

    @Override
    public CheckResult run(ProbeContext context) {
        Optional<String> text = context.host().read(CONF);
        if (text.isEmpty()) {
            return CheckResult.builder(type())
                    .verdict(Status.UNKNOWN, CONFIG_UNREADABLE, CONF + " exists but cannot be read; check the probe's host mount")
                    .build();
        }
        List<CephConf.Setting> messengers = CephConf.parse(text.get()).find("ms_type", "ms_cluster_type", "ms_public_type");
        List<CephConf.Setting> experimental = messengers.stream()
                .filter(s -> EXPERIMENTAL.contains(s.value().toLowerCase(Locale.ROOT)))
                .toList();
        CheckResult.Builder result = CheckResult.builder(type())
                .detailList("messengers", messengers.stream().map(CephConf.Setting::toString).toList());
        if (!experimental.isEmpty()) {
            return result.verdict(Status.FALSE, EXPERIMENTAL_RDMA_MESSENGER,
                    CONF + " selects an experimental RDMA messenger (" + joined(experimental)
                            + "); it is not supported for production and is known to crash OSDs. Use async+posix "
                            + "(the default) over IPoIB or RoCE, or NVMe-oF over RDMA for block storage")
                    .build();
        }
        return result.verdict(Status.TRUE, SUPPORTED_MESSENGER, messengers.isEmpty()
                        ? "no messenger type set in " + CONF + ": Ceph uses its default async+posix"
                        : "Ceph uses a supported messenger: " + joined(messengers))
                .build();
    }

    private static String joined(List<CephConf.Setting> settings) {
        return String.join(", ", settings.stream().map(CephConf.Setting::toString).toList());
    }
}
