package io.rdmastorage.contract.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StorageNicsTest {

    private static final List<String> NONE = List.of();

    @Test
    void aDeviceIsSelectedByNameNetdevOrPciAddressWithGlobs() {
        StorageNics byName = new StorageNics(List.of("mlx5_[45]"), null, null);
        assertTrue(byName.selects("mlx5_4", NONE, "0000:9a:00.0"));
        assertFalse(byName.selects("mlx5_0", NONE, "0000:03:00.0"));
        assertFalse(byName.selects("mlx5_40", NONE, "0000:03:00.0"), "a glob matches the whole name");

        StorageNics byNetdev = new StorageNics(null, List.of("enP*np0"), null);
        assertTrue(byNetdev.selects("mlx5_4", List.of("enP6p3s0f0np0"), "0006:03:00.0"));
        assertFalse(byNetdev.selects("mlx5_0", List.of("ibp3s0"), "0000:03:00.0"));

        StorageNics byPci = new StorageNics(null, null, List.of("0006:03:00.*", "9A:00.1"));
        assertTrue(byPci.selects("mlx5_4", NONE, "0006:03:00.0"));
        assertTrue(byPci.selects("mlx5_5", NONE, "0000:9a:00.1"), "without the domain, and hex in either case");
        assertFalse(byPci.selects("mlx5_0", NONE, "0000:03:00.0"));
    }

    @Test
    void dotsAndOtherCharactersMatchOnlyThemselves() {
        StorageNics nics = new StorageNics(null, null, List.of("03:00.0"));
        assertFalse(nics.selects("mlx5_0", NONE, "0000:03:0010"));
        assertTrue(new StorageNics(List.of("mlx5_[!0-3]"), null, null).selects("mlx5_4", NONE, "x"));
        assertFalse(new StorageNics(List.of("mlx5_[!0-3]"), null, null).selects("mlx5_2", NONE, "x"));
    }

    @Test
    void anEmptySelectionAndShellLikeValuesAreRefusedNamingTheField() throws InvalidSpecException {
        InvalidSpecException empty = assertThrows(InvalidSpecException.class, () -> new StorageNics(null, List.of(), null).validate());
        assertEquals("rdma.storageNics", empty.field());
        for (String bad : List.of("mlx5_[4", "$(reboot)", "a b", "mlx5_0/1", "-o", "[]", "x".repeat(65), "mlx5_[4]]")) {
            InvalidSpecException e = assertThrows(InvalidSpecException.class,
                    () -> new StorageNics(null, List.of(bad), null).validate(), bad);
            assertEquals("rdma.storageNics.netdevs[0]", e.field());
        }
        new StorageNics(List.of("mlx5_4", "mlx5_[4-5]", "bnxt_re?"), List.of("enP6p3s0f0np0"), List.of("0006:03:00.0")).validate();
    }

    @Test
    void theProbeReadsTheNestedObjectStrictly() throws InvalidSpecException {
        ProbeSpec spec = SpecReader.read("{\"rdma\":{\"storageNics\":{\"devices\":[\"mlx5_4\"],\"pciAddresses\":[\"0006:*\"]}}}");
        assertEquals(List.of("mlx5_4"), spec.rdma().storageNics().devices());
        assertEquals("devices mlx5_4; pciAddresses 0006:*", spec.rdma().storageNics().describe());
        assertNull(SpecReader.read("{\"rdma\":{}}").rdma().storageNics());
        InvalidSpecException unknown = assertThrows(InvalidSpecException.class,
                () -> SpecReader.read("{\"rdma\":{\"storageNics\":{\"names\":[\"mlx5_4\"]}}}"));
        assertEquals("rdma.storageNics.names", unknown.field());
        InvalidSpecException notObject = assertThrows(InvalidSpecException.class,
                () -> SpecReader.read("{\"rdma\":{\"storageNics\":[\"mlx5_4\"]}}"));
        assertTrue(notObject.getMessage().contains("storageNics"), notObject.getMessage());
    }
}
