package io.rdmastorage.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * README.md is the front door: short, with the project's two commands (CI runs exactly its test
 * command), and its first profile, like every profile the guide shows, is one the real API server
 * accepts.
 */
class ReadmeTest {

    private static final String RUN = "```\n./scripts/run.sh\n```";
    private static final String TEST = "```\n./scripts/test.sh\n```";
    /** Pages whose YAML another test owns: DESIGN.md's example carries a status (CrdValidationTest). */
    private static final List<String> NOT_APPLIED = List.of("docs/DESIGN.md", "docs/api-reference.md");

    @Test
    void theReadmeIsShortAndHasTheTwoCommands() {
        String readme = Markdown.read(Markdown.ROOT.resolve("README.md"));
        assertThat(readme.lines().count()).as("README.md lines (the rest belongs in docs/)").isLessThanOrEqualTo(200);
        assertThat(readme).contains(RUN, TEST);
        assertThat(readme).contains("## Install with Helm", "## A first profile", "## Reading the verdicts",
                "## What is tested here, and what cannot be", "docs/README.md");
    }

    @Test
    void ciRunsExactlyTheReadmesTestCommand() {
        String ci = Markdown.read(Markdown.ROOT.resolve(".ci/run"));
        List<String> commands = ci.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("set ") && !l.startsWith("cd ")).toList();
        assertThat(commands).containsExactly("exec ./scripts/test.sh");
        assertThat(Markdown.read(Markdown.ROOT.resolve("README.md"))).contains(TEST);
    }

    @Test
    void everyProfileTheDocumentationShowsIsAcceptedByTheApiServer() {
        LocalControlPlane plane = LocalControlPlane.shared();
        Kubectl kubectl = plane.kubectl();
        kubectl.apply(Markdown.ROOT.resolve("crds")).orThrow("kubectl apply crds");
        kubectl.awaitEstablished(Duration.ofSeconds(60), "crd/rdmastorageprofiles.rdmastorage.io",
                "crd/rdmastoragenodes.rdmastorage.io", "crd/rdmastorageacceptances.rdmastorage.io");
        List<String> refused = new ArrayList<>();
        int applied = 0;
        for (Path file : Markdown.files()) {
            String relative = Markdown.ROOT.relativize(file).toString();
            if (NOT_APPLIED.contains(relative)) {
                continue;
            }
            int n = 0;
            for (String[] block : Markdown.codeBlocks(Markdown.read(file))) {
                String yaml = block[1];
                if (!block[0].equals("yaml")) {
                    continue;
                }
                n++;
                if (yaml.startsWith("spec:")) {
                    // a section of a profile: applied inside a profile of its own
                    yaml = "apiVersion: rdmastorage.io/v1alpha1\nkind: RdmaStorageProfile\nmetadata:\n  name: doc-snippet-" + n + "\n" + yaml;
                } else if (!yaml.startsWith("apiVersion: rdmastorage.io/")) {
                    continue;
                }
                applied++;
                CommandResult result = kubectl.runWithInput(yaml, "apply", "--dry-run=server", "--validate=strict", "-f", "-");
                if (!result.succeeded()) {
                    refused.add(relative + ", YAML block " + n + ": " + result.stderr().strip());
                }
            }
        }
        assertThat(applied).as("profiles in README.md and docs/").isGreaterThanOrEqualTo(10);
        assertThat(refused).as("profiles the API server refuses").isEmpty();
    }
}
