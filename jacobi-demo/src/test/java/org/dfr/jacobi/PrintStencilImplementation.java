package org.dfr.jacobi;

/** Prints {@link JacobiStencil#implementation()} after one sweep; run in a child JVM by StencilSweepTest. */
public final class PrintStencilImplementation {

    private PrintStencilImplementation() {
    }

    public static void main(String[] args) {
        SequentialJacobi solver = new SequentialJacobi(new JacobiProblem(37, 29));
        solver.iterate(3);
        System.out.println(JacobiStencil.implementation());
        System.out.println(solver.digest());
    }
}
