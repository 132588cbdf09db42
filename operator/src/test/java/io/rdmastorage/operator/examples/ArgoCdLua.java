package io.rdmastorage.operator.examples;

import java.util.List;
import java.util.Map;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.jse.JseBaseLib;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Runs an Argo CD health script the way Argo CD does (util/lua/lua.go): the object as a global
 * {@code obj} table built from its JSON form, the script's returned table read as
 * {@code {status, message}}. The interpreter is luaj (Lua 5.2), the closest JVM Lua to Argo CD's
 * gopher-lua (Lua 5.1); the scripts use nothing that differs between the two.
 *
 * <p>Argo CD gives a custom health script only the base, package and table libraries (and a safe
 * {@code os}) unless argocd-cm sets {@code resource.customizations.useOpenLibs.<group>_<kind>};
 * {@link Sandbox#ARGO_CD_DEFAULT} is that, {@link Sandbox#OPEN_LIBS} the standard libraries.
 */
final class ArgoCdLua {

    /** Argo CD's valid health status codes; anything else becomes Unknown "Lua returned an invalid health status". */
    static final List<String> HEALTH_CODES = List.of("Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown");

    enum Sandbox { ARGO_CD_DEFAULT, OPEN_LIBS }

    record Health(String status, String message) {
    }

    private ArgoCdLua() {
    }

    static Health run(String script, Map<String, Object> obj, Sandbox sandbox) {
        Globals globals = globals(sandbox);
        globals.set("obj", toLua(obj));
        LuaValue result;
        try {
            result = globals.load(script, "health.lua").call();
        } catch (LuaError e) {
            throw new AssertionError("the health script failed in Lua: " + e.getMessage(), e);
        }
        if (!result.istable()) {
            throw new AssertionError("expect table output from Lua script, not " + result.typename());
        }
        LuaValue status = result.get("status");
        LuaValue message = result.get("message");
        return new Health(status.isnil() ? null : status.tojstring(), message.isnil() ? "" : message.tojstring());
    }

    private static Globals globals(Sandbox sandbox) {
        if (sandbox == Sandbox.OPEN_LIBS) {
            return JsePlatform.standardGlobals();
        }
        // Strings have no methods without the string library (luaj keeps their metatable in a static).
        LuaString.s_metatable = null;
        Globals globals = new Globals();
        globals.load(new JseBaseLib());
        globals.load(new PackageLib());
        globals.load(new TableLib());
        LoadState.install(globals);
        LuaC.install(globals);
        return globals;
    }

    /** JSON-like values to Lua, as Argo CD's decodeValue does: numbers are Lua numbers, lists 1-based tables. */
    static LuaValue toLua(Object value) {
        if (value == null) {
            return LuaValue.NIL;
        }
        if (value instanceof Boolean b) {
            return LuaValue.valueOf(b);
        }
        if (value instanceof Number n) {
            return LuaValue.valueOf(n.doubleValue());
        }
        if (value instanceof String s) {
            return LuaValue.valueOf(s);
        }
        if (value instanceof List<?> list) {
            LuaTable table = new LuaTable(list.size(), 0);
            for (int i = 0; i < list.size(); i++) {
                table.set(i + 1, toLua(list.get(i)));
            }
            return table;
        }
        if (value instanceof Map<?, ?> map) {
            LuaTable table = new LuaTable(0, map.size());
            map.forEach((k, v) -> table.set(String.valueOf(k), toLua(v)));
            return table;
        }
        // Argo CD's decodeValue gives nil for any other type; a YAML timestamp would be one, so fail loudly
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName() + " " + value);
    }
}
