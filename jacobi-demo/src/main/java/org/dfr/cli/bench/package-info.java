/**
 * Pieces of the {@code dfr bench} and {@code dfr bench-recovery} commands: parsed arguments
 * ({@link org.dfr.cli.bench.SizePair}, {@link org.dfr.cli.bench.RankLayout}), the targets
 * ({@link org.dfr.cli.bench.BenchTargets}), result records written as JSON
 * ({@link org.dfr.cli.bench.BenchReport}, {@link org.dfr.cli.bench.RecoveryBenchReport}) and their
 * text tables. The commands themselves live in {@code org.dfr.cli}.
 *
 * <p>These are quick one-shot measurements on a shared machine; careful kernel measurements belong to
 * the JMH benchmarks of module {@code benchmarks}. Nothing here asserts a speed.
 */
package org.dfr.cli.bench;
