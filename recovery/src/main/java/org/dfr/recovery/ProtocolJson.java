package org.dfr.recovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.dfr.runtime.Detector;
import org.dfr.runtime.HeldCopy;
import org.dfr.runtime.net.TextPayload;

/** The JSON form of the recovery's control-board values (statuses, directives, records). */
final class ProtocolJson {

    /** Lenient on read: a newer writer may add fields (the result collector adds {@code replacementMillis}). */
    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ProtocolJson() {
    }

    /**
     * Writes and reads each protocol value once, so that the first status of a real recovery does
     * not pay for Jackson's introspection of the records (measured: tens to hundreds of
     * milliseconds on a loaded machine, on the recovery's critical path).
     */
    static void warmUp() {
        // Jackson finds a list's serializer by its runtime class, once per class and property: a status holds
        // ArrayLists, decisions hold List.of and Stream.toList lists of any length (the first real status still
        // spent 10-45 ms in that lookup when only List.of(x) was written here; session 47, JFR)
        for (List<Integer> list : List.of(List.<Integer>of(), List.of(1), List.of(1, 2, 3), new ArrayList<>(List.of(1)),
                Stream.of(1).toList(), Collections.unmodifiableList(new ArrayList<>(List.of(1))))) {
            RankStatus status = new RankStatus(0, 0, 1, 1, 0, list, list, -1, 0L, null,
                    list.stream().map(p -> new HeldCopy(10, p)).toList());
            read(write(status), RankStatus.class);
            read(write(new RecoveryDirective(1, Strategy.DFR, Strategy.DFR, list, list, 0, 2, list,
                    List.of(new Adoption(1, 0)), List.of(list), 2, list, list, list, false, null, null,
                    RestoreSource.COPIES)), RecoveryDirective.class);
        }
        RankStatus status = new RankStatus(0, 0, 1, 1, 0, List.of(1), List.of(0), -1, 0L, Detector.DATA_PLANE,
                new ArrayList<>(List.of(new HeldCopy(10, 1))));
        read(write(status), RankStatus.class);
        RecoveryDirective d = new RecoveryDirective(1, Strategy.DFR, Strategy.DFR, List.of(1),
                List.of(1), 0, 2, List.of(0, 0), List.of(new Adoption(1, 0)),
                List.of(List.of(0, 1)), 2, List.of(0), List.of(),
                List.of(0), false, null, null, RestoreSource.FILE_LEVEL);
        read(write(d), RecoveryDirective.class);
        RecoveryRecord r = RecoveryRecord.decided(d, 0L, Detector.DATA_PLANE, 1L);
        RecoveryRecord.fromJson(r.toJson());
        // the data-plane form of statuses and directives too
        TextPayload.decode(TextPayload.encode(write(d)));
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable control message: " + json, e);
        }
    }
}
