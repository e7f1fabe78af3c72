/**
 * The pieces of {@code dfr plan}: argument types ({@link org.dfr.cli.plan.LayoutKind},
 * {@link org.dfr.cli.plan.GridArgument}), the readable renderers and the JSON report records.
 */
package org.dfr.cli.plan;
