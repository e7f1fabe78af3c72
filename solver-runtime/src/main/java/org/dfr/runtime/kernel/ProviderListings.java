package org.dfr.runtime.kernel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which jar (or class directory) lists each provider class in its service file, so that a provider that could not
 * be loaded is named with the jar to mend: a solver author with two jars saw the class and the cause, not the jar.
 */
final class ProviderListings {

    /** Provider class name to the jar or directory whose service file lists it first. */
    private final Map<String, String> sourceOf;
    /** Sources that the loader's parent does not see: the jars this loader adds. */
    private final Set<String> ownSources;

    private ProviderListings(Map<String, String> sourceOf, Set<String> ownSources) {
        this.sourceOf = sourceOf;
        this.ownSources = ownSources;
    }

    /**
     * The listings of {@code services} visible to {@code loader}; empty if they cannot be read. With {@code addsJars},
     * the sources its parent does not see are the user's jars; without, none is (dfr's own class path).
     */
    static ProviderListings of(ClassLoader loader, String services, boolean addsJars) {
        Map<String, String> sourceOf = new LinkedHashMap<>();
        Set<String> sources = new LinkedHashSet<>(read(loader, services, sourceOf));
        if (!addsJars) {
            sources.clear();
        } else if (loader.getParent() != null) {
            sources.removeAll(read(loader.getParent(), services, new LinkedHashMap<>()));
        }
        return new ProviderListings(sourceOf, sources);
    }

    /**
     * {@code error} with the jar that lists its provider appended, {@code (listed in JAR)}: the provider named in the
     * error, or, for an error that names none (a class missing under a provider), the one jar this loader adds.
     * Unchanged when neither is known.
     */
    String attribute(String error) {
        String named = null;
        for (String className : sourceOf.keySet()) {
            // the longest name found, so that a.Good is not taken for a.GoodTwo's
            if (error.contains(className) && (named == null || className.length() > named.length())) {
                named = className;
            }
        }
        String source = named != null ? sourceOf.get(named) : ownSources.size() == 1 ? ownSources.iterator().next() : null;
        return source == null ? error : error + " (listed in " + source + ")";
    }

    /**
     * The jar or directory whose service file lists {@code className} first, if it is one the loader adds (a
     * {@code --kernel-jar}); empty for a class listed on dfr's own class path, or not listed.
     */
    Optional<String> addedSourceOf(String className) {
        String source = sourceOf.get(className);
        return source != null && ownSources.contains(source) ? Optional.of(source) : Optional.empty();
    }

    /** The jar or directory whose service file lists {@code className} first, or {@code "an unknown jar"}. */
    String sourceOrUnknown(String className) {
        return sourceOf.getOrDefault(className, "an unknown jar");
    }

    /** The classes listed by the service files of the jars this loader adds, in listing order. */
    List<String> listedByAddedSources() {
        return sourceOf.entrySet().stream().filter(e -> ownSources.contains(e.getValue())).map(Map.Entry::getKey)
                .toList();
    }

    /** Reads every service file, filling {@code sourceOf}; returns the sources in order. */
    private static List<String> read(ClassLoader loader, String services, Map<String, String> sourceOf) {
        List<String> sources = new ArrayList<>();
        Enumeration<URL> files;
        try {
            files = loader.getResources(services);
        } catch (IOException e) {
            return sources;
        }
        for (URL file : Collections.list(files)) {
            String source = sourceOf(file, services);
            sources.add(source);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(openNoCache(file), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    int comment = line.indexOf('#');
                    String className = (comment >= 0 ? line.substring(0, comment) : line).trim();
                    if (!className.isEmpty()) {
                        sourceOf.putIfAbsent(className, source);
                    }
                }
            } catch (IOException e) {
                // unreadable here means unreadable to ServiceLoader too, whose error says so
            }
        }
        return sources;
    }

    /**
     * Without the JVM's jar cache: a cached {@code JarFile} would stay open (and on some systems locked) after the
     * catalog's class loader is done with it.
     */
    private static InputStream openNoCache(URL file) throws IOException {
        URLConnection connection = file.openConnection();
        connection.setUseCaches(false);
        return connection.getInputStream();
    }

    /** The jar's path for {@code jar:file:/x.jar!/...}, the class directory for {@code file:/dir/META-INF/...}. */
    private static String sourceOf(URL file, String services) {
        try {
            if ("jar".equals(file.getProtocol())) {
                URL jar = ((JarURLConnection) file.openConnection()).getJarFileURL();
                return "file".equals(jar.getProtocol()) ? Path.of(jar.toURI()).toString() : jar.toString();
            }
            if ("file".equals(file.getProtocol())) {
                Path path = Path.of(file.toURI());
                Path dir = path;
                for (int i = 0; i < Path.of(services).getNameCount() && dir != null; i++) {
                    dir = dir.getParent();
                }
                return dir == null ? path.toString() : dir.toString();
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            // fall through: the URL as it is still names where the listing is
        }
        return file.toString();
    }
}
