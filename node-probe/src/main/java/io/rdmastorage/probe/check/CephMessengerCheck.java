package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.CephMessenger.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.parse.CephConf;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Ceph's RDMA messengers ({@code async+rdma}, and {@code xio} before it was removed) are experimental:
 * they crash OSDs under load. Where a node has a ceph.conf, flag any messenger type that selects them.
 */
public final class CephMessengerCheck extends FactsCheck<CephMessengerCheck.Facts> {

    static final String CONF = "/etc/ceph/ceph.conf";
    private static final List<String> EXPERIMENTAL = List.of("async+rdma", "xio");

    /**
     * @param hostRoot   where the host's file system is seen, for messages
     * @param etcVisible whether the host's /etc is there at all ({@link HostView#ETC})
     * @param conf       the text of ceph.conf; empty when it is absent or cannot be read
     */
    public record Facts(String hostRoot, boolean etcVisible, Optional<String> conf) {
    }

    @Override
    public CheckType type() {
        return CheckType.CEPH_MESSENGER;
    }

    /**
     * Only where the node has a ceph.conf, spec or not: there is nothing to judge elsewhere. With a
     * ceph section, also where the host's /etc cannot be seen: whether there is a ceph.conf is unknown then.
     */
    @Override
    public boolean applies(ProbeContext context) {
        if (context.host().exists(CONF)) {
            return context.discovery() || context.spec().ceph() != null;
        }
        return context.spec().ceph() != null && !HostView.ETC.visible(context.host());
    }

    @Override
    protected Facts gather(ProbeContext context) {
        return new Facts(context.host().root().toString(), HostView.ETC.visible(context.host()), context.host().read(CONF));
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        Details details = new Details();
        if (!facts.etcVisible()) {
            return Judgement.only(HostView.ETC.missing(facts.hostRoot()), details);
        }
        if (facts.conf().isEmpty()) {
            return Judgement.only(Finding.of(Status.UNKNOWN, CONFIG_UNREADABLE,
                    CONF + " exists but cannot be read; check the probe's host mount"), details);
        }
        List<CephConf.Setting> messengers = CephConf.parse(facts.conf().get()).find("ms_type", "ms_cluster_type", "ms_public_type");
        List<CephConf.Setting> experimental = messengers.stream()
                .filter(s -> EXPERIMENTAL.contains(s.value().toLowerCase(Locale.ROOT)))
                .toList();
        details.list("messengers", messengers.stream().map(CephConf.Setting::toString).toList());
        if (!experimental.isEmpty()) {
            return Judgement.only(Finding.of(Status.FALSE, EXPERIMENTAL_RDMA_MESSENGER,
                    CONF + " selects an experimental RDMA messenger (" + joined(experimental)
                            + "); it is not supported for production and is known to crash OSDs. Use async+posix "
                            + "(the default) over IPoIB or RoCE, or NVMe-oF over RDMA for block storage"), details);
        }
        return Judgement.only(Finding.passed(SUPPORTED_MESSENGER, messengers.isEmpty()
                ? "no messenger type set in " + CONF + ": Ceph uses its default async+posix"
                : "Ceph uses a supported messenger: " + joined(messengers)), details);
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    private static String joined(List<CephConf.Setting> settings) {
        return String.join(", ", settings.stream().map(CephConf.Setting::toString).toList());
    }
}
