package io.rdmastorage.operator.api;

import io.rdmastorage.contract.CheckType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The check sections of a profile's spec, found by the contract's section names: the
 * {@link RdmaStorageProfileSpec} property named as a check's {@code section} ({@code rdma},
 * {@code gpfs}, ...) is that check's section. Resolved once; a contract section without its
 * property fails here, at class initialisation, naming it (ProbeContractTest says the same with
 * the CRD in hand).
 */
public final class CheckSections {

    private static final Map<CheckType, Method> GETTERS = new EnumMap<>(CheckType.class);

    static {
        for (CheckType type : CheckType.values()) {
            GETTERS.put(type, getter(RdmaStorageProfileSpec.class, type.section()));
        }
    }

    private CheckSections() {
    }

    /** The checks whose sections the spec has, in status order. */
    public static List<CheckType> present(RdmaStorageProfileSpec spec) {
        List<CheckType> present = new ArrayList<>(GETTERS.size());
        for (CheckType type : CheckType.values()) {
            if (section(spec, type) != null) {
                present.add(type);
            }
        }
        return present;
    }

    /** The spec's section for a check (an {@code *CheckSpec}); null when absent. */
    public static Object section(RdmaStorageProfileSpec spec, CheckType type) {
        return get(GETTERS.get(type), spec);
    }

    /** The bean getter of property {@code name} of {@code type}, as Jackson and the CRD generator name it. */
    public static Method getter(Class<?> type, String name) {
        String getter = "get" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
        try {
            return type.getMethod(getter);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type.getSimpleName() + " has no property " + name + " (" + getter
                    + "()) that the contract's spec model names; add it (docs/adding-a-check.md)", e);
        }
    }

    /** The value of a getter from {@link #getter}. */
    public static Object get(Method getter, Object bean) {
        try {
            return getter.invoke(bean);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + getter, e);
        }
    }
}
