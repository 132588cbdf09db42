package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.examples.ArgoCdEngine.Answer;
import io.rdmastorage.operator.examples.ArgoCdEngine.Health;
import io.rdmastorage.operator.tools.BackgroundBuilds;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * That {@link ArgoCdEngine} is Argo CD's evaluation and not a look-alike: behaviours of Argo CD's
 * own code that a plain Lua interpreter does not have. The health tier's results mean something
 * only if these hold.
 */
@Tag(BackgroundBuilds.TAG)
class ArgoCdEngineTest {

    private static final Map<String, Object> WIDGET = Map.of("apiVersion", "example.com/v1", "kind", "Widget",
            "metadata", Map.of("name", "w", "generation", 2), "status", Map.of("phase", "Running"));

    private static Map<String, Object> argocdCm(Map<String, String> data) {
        Map<String, Object> cm = new LinkedHashMap<>();
        cm.put("apiVersion", "v1");
        cm.put("kind", "ConfigMap");
        cm.put("metadata", Map.of("name", "argocd-cm"));
        cm.put("data", data);
        return cm;
    }

    private static Map<String, Object> widgetCheck(String script) {
        return argocdCm(Map.of("resource.customizations.health.example.com_Widget", script));
    }

    @Test
    void theScriptComesFromItsArgocdCmKey() {
        Health health = ArgoCdEngine.shared().health(widgetCheck("return {status = \"Healthy\", message = obj.status.phase}"), WIDGET);
        assertThat(health).isEqualTo(new Health("Healthy", "Running"));
        // another group's key does not apply: no health check, as Argo CD shows for an unknown kind
        Answer other = ArgoCdEngine.shared().evaluate(argocdCm(Map.of(
                "resource.customizations.health.other.example.com_Widget", "return {status = \"Healthy\"}")), WIDGET);
        assertThat(other).isEqualTo(new Answer(null, null));
    }

    @Test
    void anInvalidStatusIsUnknownAsArgoCdHasIt() {
        assertThat(ArgoCdEngine.shared().health(widgetCheck("return {status = \"Fine\"}"), WIDGET))
                .isEqualTo(new Health("Unknown", "Lua returned an invalid health status"));
    }

    @Test
    void luasStringLibraryIsThereOnlyWithUseOpenLibs() {
        String script = "if string == nil then return {status = \"Degraded\"} end return {status = \"Healthy\"}";
        assertThat(ArgoCdEngine.shared().health(widgetCheck(script), WIDGET).status()).isEqualTo("Degraded");
        Map<String, String> open = new LinkedHashMap<>();
        open.put("resource.customizations.health.example.com_Widget", script);
        open.put("resource.customizations.useOpenLibs.example.com_Widget", "true");
        assertThat(ArgoCdEngine.shared().health(argocdCm(open), WIDGET).status()).isEqualTo("Healthy");
    }

    @Test
    void wholeNumbersReachLuaAsNumbersNotStrings() {
        assertThat(ArgoCdEngine.shared().health(widgetCheck(
                "if obj.metadata.generation == 2 then return {status = \"Healthy\"} end return {status = \"Degraded\"}"), WIDGET)
                .status()).isEqualTo("Healthy");
    }

    @Test
    void aFailingScriptIsAnError() {
        Answer answer = ArgoCdEngine.shared().evaluate(widgetCheck("return obj.status.missing.field"), WIDGET);
        assertThat(answer.health()).isNull();
        assertThat(answer.error()).contains("attempt to index");
    }
}
