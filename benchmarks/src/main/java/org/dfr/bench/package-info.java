/**
 * JMH benchmarks of the dfr modules. Build with {@code ./mvnw -B -pl benchmarks -am package -DskipTests}
 * and run {@code java -jar benchmarks/target/benchmarks.jar <regex>}.
 */
package org.dfr.bench;
