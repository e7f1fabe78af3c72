package org.dfr.harness.campaign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The content of every file of a (fake) sysfs tree, to check that a trial which capped idle hosts left
 * every file as it found it.
 *
 * @param root the tree
 * @param files content by path relative to {@code root}
 */
record SysfsSnapshot(Path root, Map<String, String> files) {

    SysfsSnapshot {
        files = Map.copyOf(files);
    }

    /** Reads every regular file under {@code root}. */
    static SysfsSnapshot of(Path root) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                files.put(root.relativize(p).toString(), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sysfs tree " + root + ": " + e.getMessage(), e);
        }
        return new SysfsSnapshot(root, files);
    }

    /** Every file of {@code after} that is not as in this snapshot (values compared trimmed): changed, gone or new. */
    List<String> changesIn(SysfsSnapshot after) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
            String now = after.files().get(e.getKey());
            if (now == null) {
                out.add("sysfs file " + e.getKey() + " is gone");
            } else if (!now.strip().equals(e.getValue().strip())) {
                // sysfs reads back a value with a newline whether or not it was written with one
                out.add("sysfs file " + e.getKey() + " is " + now.strip() + ", was " + e.getValue().strip());
            }
        }
        for (String added : new TreeMap<>(after.files()).keySet()) {
            if (!files.containsKey(added)) {
                out.add("sysfs file " + added + " appeared");
            }
        }
        return out;
    }
}
