package org.dfr.cli.options;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One line for a YAML or JSON configuration file Jackson could not read: the key and its line, and what is allowed.
 * Jackson reads a record's keys before it builds it, so it reported an unknown key at the end of the file ("line 12"
 * for a typo on line 7), named the Java class, and said "not marked as ignorable"; a size written {@code 256x256}
 * where a list goes was "Cannot deserialize value of type java.util.ArrayList...".
 */
public final class ConfigFileErrors {

    private ConfigFileErrors() {
    }

    /** The message for {@code e}, read from {@code file} (whose text gives the key's line). */
    public static String describe(String option, Path file, JacksonException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            TreeSet<String> known = new TreeSet<>();
            u.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
            return option + " " + file + lineOf(file, u.getPropertyName()) + ": unknown key '" + u.getPropertyName()
                    + "'; the keys are " + String.join(", ", known);
        }
        if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
            String key = keyOf(m.getPath());
            Class<?> type = m.getTargetType();
            String expected = type == null ? "another value"
                    : Collection.class.isAssignableFrom(type) || type.isArray() ? "a list, e.g. [256, 256]"
                    : Map.class.isAssignableFrom(type) ? "a map, e.g. {key: value}"
                    : Number.class.isAssignableFrom(type) || type.isPrimitive() ? "a number"
                    : type == String.class ? "a text" : "a " + type.getSimpleName();
            String given = m instanceof InvalidFormatException f && f.getValue() != null ? ", got '" + f.getValue() + "'" : "";
            return option + " " + file + lineOf(file, key) + ": '" + key + "' takes " + expected + given;
        }
        if (e instanceof ValueInstantiationException v && v.getCause() instanceof IllegalArgumentException bad) {
            // a value our own types refuse (a variant's name): their message, not Jackson's "Cannot construct
            // instance of `org.dfr...Variant`, problem: ..."
            String key = v.getPath().isEmpty() ? null : keyOf(v.getPath());
            return option + " " + file + at(e) + ": " + (key == null ? "" : "'" + key + "': ") + bad.getMessage();
        }
        return option + " " + file + at(e) + ": " + e.getOriginalMessage();
    }

    /** Where Jackson was in the file, {@code " (line N, column M)"}; empty when it does not say. */
    private static String at(JacksonException e) {
        JsonLocation at = e.getLocation();
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /** The top-level key of a path: the field of the record the file fills. */
    private static String keyOf(List<JsonMappingException.Reference> path) {
        for (JsonMappingException.Reference r : path) {
            if (r.getFieldName() != null) {
                return r.getFieldName();
            }
        }
        return String.valueOf(path.get(0));
    }

    /** {@code " (line N)"} of the first line that sets {@code key} (YAML {@code key:} or JSON {@code "key":}), or "". */
    private static String lineOf(Path file, String key) {
        // a key of a map, or of a map in a list (YAML "- key:")
        Pattern line = Pattern.compile("^\\s*(-\\s+)?\"?" + Pattern.quote(key) + "\"?\\s*:");
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (line.matcher(lines.get(i)).find()) {
                    return " (line " + (i + 1) + ")";
                }
            }
        } catch (IOException | RuntimeException e) {
            // the message goes without a line
        }
        return "";
    }
}
