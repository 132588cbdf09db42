package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.acceptance.AcceptanceSpecDocument;
import io.rdmastorage.operator.acceptance.PathComparison;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.probe.ProbeSpecDocument;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example profiles, applied to the real API server with the CRDs from crds/ (server-side dry
 * run: full schema, CEL and defaulting, strict field validation, nothing stored, so no operator
 * running elsewhere in the JVM can pick them up), then read back and rendered into the probe spec
 * node-probe would be given. They cannot rot: a renamed field or a tightened rule fails here.
 */
class ExampleProfilesTest {

    static final Path EXAMPLES = Path.of("../examples");
    static final List<String> PROFILES = List.of("gpfs-verbs.yaml", "nvmeof-rdma.yaml", "gpfs-gds-training.yaml",
            "verbs-latency.yaml", "ceph-messenger.yaml", "roce-lossless.yaml", "data-path.yaml", "nfs-rdma-gds.yaml",
            "lustre-lnet.yaml",
            "beegfs-rdma.yaml", "gb200-storage-nics.yaml", "device-quarantine.yaml",
            "all-checks.yaml");
    /** The acceptance run's example: not a profile, but validated the same way. */
    static final String ACCEPTANCE = "acceptance.yaml";
    /** The acceptance run's verbs target example. */
    static final String ACCEPTANCE_VERBS = "acceptance-verbs.yaml";
    /** The path acceptance example: two runs, the second compared with the first. */
    static final String ACCEPTANCE_PATH = "acceptance-path.yaml";

    private static Kubectl kubectl;

    @BeforeAll
    static void installCrds() {
        LocalControlPlane plane = LocalControlPlane.shared();
        kubectl = plane.kubectl();
        kubectl.apply(Path.of("../crds")).orThrow("kubectl apply crds");
        kubectl.awaitEstablished(Duration.ofSeconds(60), "crd/rdmastorageprofiles.rdmastorage.io",
                "crd/rdmastoragenodes.rdmastorage.io", "crd/rdmastorageacceptances.rdmastorage.io");
    }

    static Stream<String> profiles() {
        return PROFILES.stream();
    }

    /** The profile as the API server would store it: validated, defaulted. */
    static RdmaStorageProfile serverDryRun(String file) {
        CommandResult result = kubectl.run("apply", "--dry-run=server", "--validate=strict", "-o", "json",
                "-f", EXAMPLES.resolve(file).toString());
        assertThat(result.exitCode()).as("kubectl apply --dry-run=server -f %s: %s", file, result.stderr()).isZero();
        return Serialization.unmarshal(result.stdout(), RdmaStorageProfile.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void theRealApiServerAcceptsTheExampleAndNodeProbeAcceptsItsChecks(String file) throws Exception {
        RdmaStorageProfile profile = serverDryRun(file);
        assertThat(profile.getMetadata().getName()).isEqualTo(file.replace(".yaml", ""));
        // defaults filled in by the API server
        assertThat(profile.getSpec().getInterval()).isNotNull();
        assertThat(profile.getSpec().getProbeTimeout()).isNotNull();
        assertThat(profile.getSpec().getMaxConcurrentProbes()).isNotNull();
        // what the operator renders for the probe pods passes node-probe's own spec reader
        ProbeSpecDocument document = ProbeSpecDocument.of(profile.getSpec());
        assertThat(document.checksNothing()).isFalse();
        assertThat(CheckTypes.expected(profile.getSpec())).isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void eachExampleIsCommentedForTheAdminWhoCopiesIt(String file) throws IOException {
        String text = Files.readString(EXAMPLES.resolve(file));
        assertThat(text).startsWith("#");
        long comments = text.lines().filter(l -> l.contains("#")).count();
        assertThat(comments).as("comment lines in %s", file).isGreaterThanOrEqualTo(10);
    }

    @Test
    void theAcceptanceExampleIsValidAndReachesTheProbeAsItsSpec() throws Exception {
        CommandResult result = kubectl.run("apply", "--dry-run=server", "--validate=strict", "-o", "json",
                "-f", EXAMPLES.resolve(ACCEPTANCE).toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        RdmaStorageAcceptance run = Serialization.unmarshal(result.stdout(), RdmaStorageAcceptance.class);
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run.getSpec());
        assertThat(document.spec().nvmeof().transports()).containsExactly("rdma", "tcp");
        assertThat(document.spec().nvmeof().connect()).isTrue();
        assertThat(document.deadline()).isEqualTo(Duration.ofSeconds(2 * (90 + 60) + 120));
        assertThat(Files.readString(EXAMPLES.resolve(ACCEPTANCE))).startsWith("#").contains("--readonly");
    }

    @Test
    void theVerbsAcceptanceExampleIsValidAndReachesTheProbeAsItsSpec() throws Exception {
        CommandResult result = kubectl.run("apply", "--dry-run=server", "--validate=strict", "-o", "json",
                "-f", EXAMPLES.resolve(ACCEPTANCE_VERBS).toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        RdmaStorageAcceptance run = Serialization.unmarshal(result.stdout(), RdmaStorageAcceptance.class);
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run.getSpec());
        assertThat(document.isVerbs()).isTrue();
        assertThat(document.verbs().verbs().device()).isEqualTo("mlx5_0");
        assertThat(document.json()).doesNotContain("storage-01");
        // 100000 ping-pongs at 1 ms, 30 s of streaming and 60 s, per transport, and 120 s
        assertThat(document.deadline()).isEqualTo(Duration.ofSeconds(2 * (100 + 30 + 60) + 120));
        long comments = Files.readString(EXAMPLES.resolve(ACCEPTANCE_VERBS)).lines().filter(l -> l.contains("#")).count();
        assertThat(comments).isGreaterThanOrEqualTo(10);
    }

    @Test
    void thePathAcceptanceExampleIsTwoValidRunsTheSecondComparedWithTheFirst() throws Exception {
        CommandResult result = kubectl.run("apply", "--dry-run=server", "--validate=strict", "-o", "json",
                "-f", EXAMPLES.resolve(ACCEPTANCE_PATH).toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        List<RdmaStorageAcceptance> runs = Serialization.unmarshal(result.stdout(), KubernetesList.class).getItems().stream()
                .map(item -> Serialization.unmarshal(Serialization.asJson(item), RdmaStorageAcceptance.class)).toList();
        assertThat(runs).extracting(r -> r.getMetadata().getName()).containsExactly("gpfs-01-tcp", "gpfs-01-rdma");
        assertThat(runs.get(1).getSpec().getPath().getCompareWith()).isEqualTo("gpfs-01-tcp");
        for (RdmaStorageAcceptance run : runs) {
            AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName());
            assertThat(document.spec().path().file())
                    .isEqualTo("/gpfs/fs0/acceptance/rdmastorage-acceptance-" + run.getMetadata().getName() + ".fio");
            // 90 s of workloads, 60 s per transport, 82 s to write 4 GiB at 50 MiB/s, 120 s to start
            assertThat(document.deadline()).isEqualTo(Duration.ofSeconds(90 + 60 + 82 + 120));
        }
        assertThat(PathComparison.refusal(runs.get(1), Optional.of(runs.get(0)))).hasValueSatisfying(
                why -> assertThat(why).contains("gpfs-01-tcp is not started"));
        assertThat(Files.readString(EXAMPLES.resolve(ACCEPTANCE_PATH))).contains("--readonly", "only write");
    }

    @Test
    void theCombinedExampleHasEveryCheckSection() {
        RdmaStorageProfile profile = serverDryRun("all-checks.yaml");
        assertThat(CheckTypes.expected(profile.getSpec())).isEqualTo(CheckTypes.ALL);
        assertThat(profile.getSpec().getNodeLabels()).isTrue();
        assertThat(profile.getSpec().getTaintNotReady()).isTrue();
        assertThat(profile.getSpec().getNodeCondition()).isTrue();
    }

    @Test
    void theLatencyExamplePairsNodesAndComparesWithTcp() throws IOException {
        String text = Files.readString(EXAMPLES.resolve("verbs-latency.yaml"));
        assertThat(text).doesNotContain("NotMeasuredYet").contains("AboveThreshold").contains("PeerUnreachable");
        RdmaStorageProfile profile = serverDryRun("verbs-latency.yaml");
        assertThat(profile.getSpec().getLatency().getTransportComparison()).isTrue();
        assertThat(profile.getSpec().getLatency().getAddressType()).isNotNull();
        assertThat(CheckTypes.expected(profile.getSpec())).contains(CheckType.VERBS_LATENCY.conditionType());
    }

    @Test
    void theGdsTrainingExampleIsTheDesignsExample() throws IOException {
        Matcher m = Pattern.compile("```yaml\n(apiVersion: rdmastorage.io/v1alpha1\nkind: RdmaStorageProfile\n.*?)```",
                Pattern.DOTALL).matcher(Files.readString(Path.of("../docs/DESIGN.md")));
        assertThat(m.find()).as("the RdmaStorageProfile example in docs/DESIGN.md").isTrue();
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        Map<?, ?> design = yaml.readValue(m.group(1), Map.class);
        Map<?, ?> example = yaml.readValue(EXAMPLES.resolve("gpfs-gds-training.yaml").toFile(), Map.class);
        assertThat(example.get("metadata")).isEqualTo(design.get("metadata"));
        assertThat(example.get("spec")).isEqualTo(design.get("spec"));
    }

    @Test
    void theReadmeListsEveryExample() throws IOException {
        String readme = Files.readString(EXAMPLES.resolve("README.md"));
        for (String file : PROFILES) {
            assertThat(readme).contains("(" + file + ")");
        }
        assertThat(readme).contains("(" + ACCEPTANCE + ")").contains("(" + ACCEPTANCE_VERBS + ")").contains("(" + ACCEPTANCE_PATH + ")");
        assertThat(readme).contains("argocd/application.yaml").contains("argocd/argocd-cm-health.yaml")
                .contains("prometheus/prometheusrule.yaml");
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList())
                    .containsExactlyInAnyOrderElementsOf(Stream.concat(PROFILES.stream(), Stream.of(ACCEPTANCE, ACCEPTANCE_VERBS, ACCEPTANCE_PATH)).toList());
        }
    }

    @Test
    void theArgoCdApplicationsInstallTheChartAndTheProfiles() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<Map<String, Object>> apps = yaml.readValues(yaml.getFactory().createParser(EXAMPLES.resolve("argocd/application.yaml").toFile()),
                Map.class).readAll().stream().map(m -> (Map<String, Object>) m).toList();
        assertThat(apps).hasSize(2);
        String chart = Serialization.asJson(apps.get(0));
        assertThat(apps.get(0)).containsEntry("kind", "Application").containsEntry("apiVersion", "argoproj.io/v1alpha1");
        assertThat(chart).contains("\"path\":\"helm/rdma-storage-operator\"").contains("\"namespace\":\"rdma-storage-system\"")
                .contains("\"pod-security.kubernetes.io/enforce\":\"privileged\"").contains("CreateNamespace=true")
                .contains("ServerSideApply=true");
        assertThat(Files.isDirectory(Path.of("../helm/rdma-storage-operator"))).isTrue();
        String profiles = Serialization.asJson(apps.get(1));
        assertThat(profiles).contains("\"path\":\"examples\"").contains("gpfs-gds-training.yaml");
    }
}
