package io.rdmastorage.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and {@code #anchor} in every Markdown file of the repository resolves: the
 * file or folder exists, and the anchor is one GitHub gives a heading of the target file. Links
 * with a scheme (https:, mailto:) are not followed: the tests reach no network.
 */
class MarkdownLinksTest {

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        List<Path> files = Markdown.files();
        assertThat(files).as("Markdown files under %s", Markdown.ROOT)
                .contains(Markdown.ROOT.resolve("README.md"), Markdown.ROOT.resolve("docs/README.md"));
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            String text = Markdown.read(file);
            for (String target : Markdown.links(text)) {
                if (target.isEmpty() || target.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") || target.startsWith("//")) {
                    continue;
                }
                checked++;
                String problem = problem(file, target, anchors);
                if (problem != null) {
                    broken.add(Markdown.ROOT.relativize(file) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(200);
        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(Markdown.slug("What is tested here, and what cannot be")).isEqualTo("what-is-tested-here-and-what-cannot-be");
        assertThat(Markdown.slug("The real-node tier: the chart, both images and the probe pods under a real kubelet"))
                .isEqualTo("the-real-node-tier-the-chart-both-images-and-the-probe-pods-under-a-real-kubelet");
        assertThat(Markdown.slug("`spec.latency.referenceNodeSelector.matchExpressions[]`"))
                .isEqualTo("speclatencyreferencenodeselectormatchexpressions");
        assertThat(Markdown.slug("rdma-storage-operator — design")).isEqualTo("rdma-storage-operator--design");
        assertThat(Markdown.slug("Dashboard (`grafana/`)")).isEqualTo("dashboard-grafana");
        assertThat(Markdown.slug("Fleet consistency: 2% of nodes on another firmware"))
                .isEqualTo("fleet-consistency-2-of-nodes-on-another-firmware");
        assertThat(Markdown.slug("**Bold** and [a link](x.md) with rdma_core"))
                .isEqualTo("bold-and-a-link-with-rdma_core");
        // repeated headings: the second is -1, the third -2; headings in code blocks are no headings
        assertThat(Markdown.anchors("# A\n\n## `spec`\n\n```\n# not a heading\n```\n\n## `spec`\n\n## spec\n"))
                .containsExactly("a", "spec", "spec-1", "spec-2");
        assertThat(Markdown.links("See [a](b.md#c), `[not](a-link.md)`, ![img](i.png) and\n[two\nlines](d.md).\n\n```\n[no](code.md)\n```\n"))
                .containsExactly("b.md#c", "i.png", "d.md");
    }

    private static String problem(Path file, String target, Map<Path, Set<String>> anchors) {
        int hash = target.indexOf('#');
        String pathPart = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = pathPart.isEmpty() ? file
                : pathPart.startsWith("/") ? Markdown.ROOT.resolve(pathPart.substring(1)).normalize()
                : file.getParent().resolve(pathPart).normalize();
        if (!resolved.startsWith(Markdown.ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return Markdown.ROOT.relativize(resolved) + " does not exist";
        }
        if (anchor == null || !resolved.getFileName().toString().endsWith(".md") || Files.isDirectory(resolved)) {
            return null;
        }
        Set<String> known = anchors.computeIfAbsent(resolved, p -> Markdown.anchors(Markdown.read(p)));
        return known.contains(anchor) ? null : "no heading with the anchor #" + anchor + " in " + Markdown.ROOT.relativize(resolved);
    }
}
