package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A taint a joining node registers with (kubelet {@code --register-with-taints}) so that it takes no
 * storage jobs until its storage is proven: the operator lifts it once the node's verdict for the
 * profile is True.
 */
public class StartupTaintSpec {

    /** A qualified name, as a taint's key. */
    public static final String KEY_REGEX = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$";

    @JsonPropertyDescription("The taint's key, as the kubelet registers it (--register-with-taints=storage.example.com/unverified=true:NoSchedule). Only taints of this key are lifted or put back, whatever their value and effect. Not one of the operator's own keys (rdmastorage.io/).")
    @Required
    @Pattern(KEY_REGEX)
    @Size(min = 1, max = 317)
    @ValidationRule(value = "!self.startsWith('rdmastorage.io/')",
            message = "the startup taint is the node's own, not one of the operator's rdmastorage.io/ keys")
    private String key;

    @JsonPropertyDescription("BootstrapOnly (default): lifted once the verdict is True and never put back. Continuous: lifted while the verdict is True, put back as NoSchedule while it is False; an Unknown verdict changes nothing.")
    @Default("BootstrapOnly")
    private StartupTaintMode mode;

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public StartupTaintMode getMode() {
        return mode;
    }

    public void setMode(StartupTaintMode mode) {
        this.mode = mode;
    }
}
