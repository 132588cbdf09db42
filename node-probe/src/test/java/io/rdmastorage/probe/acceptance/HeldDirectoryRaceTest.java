package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path run's file against someone who may write under the admin's prefix on a shared file system
 * (not root on the node), on this machine's real kernel: while the run creates and removes its
 * file, a component of its directory is renamed away and a symbolic link to the node's {@code /run}
 * put in its place, again and again. Security round 4 found 2 of 20 runs writing into {@code /run}
 * when the link check and the create were two steps; with the directory held open and the file
 * created and removed relative to it ({@link HeldDirectory}), nothing ever lands outside.
 */
class HeldDirectoryRaceTest {

    /** Runs that got through the race and wrote their file: what the test judges. */
    private static final int CREATED = 200;
    /**
     * An upper bound on the attempts: on a loaded machine the attacker can hold the link (or the
     * directory moved away) for a whole batch of attempts (400 of 400 refused in one cold run).
     */
    private static final int MAX_ATTEMPTS = 100_000;

    @TempDir
    Path root;

    @Test
    void aComponentRenamedToALinkMeanwhileNeverSendsTheFileOrItsRemovalOutsideTheDirectory() throws Exception {
        Path shared = Files.createDirectories(root.resolve("shared/acceptance")).getParent();
        Path decoy = Files.createDirectories(root.resolve("run/acceptance"));
        Path parked = root.resolve("shared-real");
        Files.writeString(decoy.resolve("victim"), "the node's own file");
        AtomicBoolean stop = new AtomicBoolean();
        Thread attacker = new Thread(() -> {
            while (!stop.get()) {
                try {
                    Files.move(shared, parked, StandardCopyOption.ATOMIC_MOVE);
                    Files.createSymbolicLink(shared, root.resolve("run"));
                    Thread.onSpinWait();
                    Files.delete(shared);
                    Files.move(parked, shared, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    // a step raced with the run's own open: try again
                }
            }
        }, "rename-race");
        attacker.start();
        int created = 0;
        int refused = 0;
        try {
            for (int run = 0; created < CREATED && run < MAX_ATTEMPTS; run++) {
                String name = "rdmastorage-acceptance-race-" + run + ".fio";
                HeldDirectory.Opened opened = HeldDirectory.open(root, "/shared/acceptance");
                if (opened.directory().isEmpty()) {
                    refused++;
                    assertThat(opened.refusal().orElse("absent")).matches("absent|/shared is a symbolic link on the node.*");
                    continue;
                }
                try (HeldDirectory held = opened.directory().get()) {
                    try (FileChannel file = held.createNew(name)) {
                        file.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
                    }
                    created++;
                    // its removal too is relative to the held directory: never the decoy's file of that name
                    Files.writeString(decoy.resolve(name), "not the run's");
                    assertThat(held.removeRegularFile(name)).isEmpty();
                    assertThat(decoy.resolve(name)).hasContent("not the run's");
                    Files.delete(decoy.resolve(name));
                }
            }
        } finally {
            stop.set(true);
            attacker.join();
        }
        try (Stream<Path> outside = Files.list(decoy)) {
            assertThat(outside.map(p -> p.getFileName().toString())).as("nothing created in the node's /run")
                    .containsExactly("victim");
        }
        assertThat(decoy.resolve("victim")).hasContent("the node's own file");
        try (Stream<Path> inside = Files.list(Files.isDirectory(shared) ? shared.resolve("acceptance") : parked.resolve("acceptance"))) {
            assertThat(inside).as("every run's file removed again").isEmpty();
        }
        assertThat(created).as("the race let runs through; %d refused", refused).isEqualTo(CREATED);
    }

    @Test
    void aLinkAnywhereOnTheWayIsRefusedAndAnExistingNameIsNeverOpened() throws Exception {
        Files.createDirectories(root.resolve("real/acceptance"));
        Files.createDirectories(root.resolve("gpfs"));
        Files.createSymbolicLink(root.resolve("gpfs/fs1"), root.resolve("real"));
        assertThat(HeldDirectory.open(root, "/gpfs/fs1/acceptance").refusal())
                .contains("/gpfs/fs1 is a symbolic link on the node; a run never writes through a link: name the directory itself in path.directory");
        assertThat(HeldDirectory.open(root, "/gpfs/none").absent()).isTrue();

        Path directory = root.resolve("real/acceptance");
        Files.createSymbolicLink(directory.resolve("dangling.fio"), root.resolve("real/target-to-be"));
        try (HeldDirectory held = HeldDirectory.open(root, "/real/acceptance").directory().orElseThrow()) {
            assertThat(held.has("dangling.fio")).isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> held.createNew("dangling.fio"))
                    .isInstanceOf(FileAlreadyExistsException.class);
            assertThat(root.resolve("real/target-to-be")).as("a dangling link is never followed").doesNotExist();
            assertThat(held.removeRegularFile("dangling.fio")).contains("it is not a regular file now but a symbolic link (the run created a regular file)");
            assertThat(directory.resolve("dangling.fio")).isSymbolicLink();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> held.removeRegularFile("absent.fio"))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }
}
