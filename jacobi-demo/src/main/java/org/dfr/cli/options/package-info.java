/**
 * Options shared by several commands (picocli mixins) and the converters that parse sizes, failures
 * and strategies, so that no command parses text in its {@code call()} and the same concept has the
 * same option name everywhere.
 */
package org.dfr.cli.options;
