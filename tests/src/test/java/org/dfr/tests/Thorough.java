package org.dfr.tests;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration test that runs only with {@code ./mvnw verify -Pthorough}: another variant of what a
 * default test already proves (another strategy, failure point or layout of a processes run, each about
 * 15 to 25 s of 8 rank JVMs starting on 2 cores). The default {@code ./mvnw verify} keeps one test of
 * each capability and must stay within 15 minutes; this tier is the rest, run before a release or
 * after a change to the part it exercises.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(Thorough.TAG)
public @interface Thorough {

    /** The JUnit tag: the root POM's {@code it.excludedGroups} leaves it out unless {@code -Pthorough}. */
    String TAG = "thorough";
}
