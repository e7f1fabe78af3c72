/**
 * Logging for the dfr JVM and its rank JVMs (they read the same {@code logback.xml}): filters that keep
 * errors the runtime expects and handles out of a user's terminal.
 */
package org.dfr.cli.logging;
