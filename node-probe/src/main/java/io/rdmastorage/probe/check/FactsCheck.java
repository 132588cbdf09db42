package io.rdmastorage.probe.check;

import io.rdmastorage.contract.spec.ProbeSpec;
import java.util.List;

/**
 * The shape of every node check: {@link #gather} reads the host into a record of facts (the only
 * I/O), {@link #judge} applies the rules to those facts and the spec (pure, so it is tested on
 * fact records alone), and {@link Findings#combine} turns the findings into the condition.
 *
 * @param <F> the check's facts
 */
public abstract class FactsCheck<F> implements Check {

    /** Reads what the rules need from the host: files under the host root, tools, libraries. */
    protected abstract F gather(ProbeContext context);

    /** The rules: no I/O, the same facts and spec always give the same judgement. */
    protected abstract Judgement judge(F facts, ProbeSpec spec);

    /** How findings after the first are mentioned in this check's message. */
    protected abstract Findings.Mention mention();

    /** Reasons that go first among findings of one status; none by default. */
    protected List<String> precedence() {
        return List.of();
    }

    /**
     * The node's inventory facts these facts show (HCA firmware, GPFS version, ...), for the fleet
     * comparison; none by default. Pure, like {@link #judge}: the facts were gathered once.
     */
    protected void inventory(F facts, Inventory into) {
    }

    @Override
    public final CheckResult run(ProbeContext context) {
        // the judge names faulty devices; where they sit (PCI address, netdevs) is the host's to say
        return FaultyDevices.locate(result(gather(context), context.spec()), () -> context.storageNics().all());
    }

    /** The condition these facts give, with their inventory facts: what {@link #run} returns, without the host. */
    public final CheckResult result(F facts, ProbeSpec spec) {
        Inventory inventory = new Inventory();
        inventory(facts, inventory);
        return Findings.combine(type(), mention(), precedence(), judge(facts, spec)).withInventory(inventory.asMap());
    }
}
