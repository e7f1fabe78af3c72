package org.dfr.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Independent reference for the tests: cone levels by literal set expansion, straight from the definition
 * "level m = lost; level k = level k+1 plus the inputs of its members", with boxed sets and no search tricks.
 */
final class NaiveCone {

    private NaiveCone() {
    }

    /** Levels 1..m (index 0 = level 1) as sorted sets. */
    static List<TreeSet<Integer>> levels(PartitionDependencies deps, int[] lost, int m) {
        List<TreeSet<Integer>> fromTop = new ArrayList<>();
        TreeSet<Integer> current = new TreeSet<>();
        for (int p : lost) {
            current.add(p);
        }
        for (int k = m; k >= 1; k--) {
            if (k < m) {
                TreeSet<Integer> wider = new TreeSet<>(current);
                for (int p : current) {
                    for (int q : deps.inputsOf(p)) {
                        wider.add(q);
                    }
                }
                current = wider;
            }
            fromTop.add(0, current);
        }
        return fromTop;
    }

    static int[] toArray(TreeSet<Integer> set) {
        return set.stream().mapToInt(Integer::intValue).toArray();
    }
}
